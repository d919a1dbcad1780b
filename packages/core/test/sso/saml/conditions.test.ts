/**
 * A validly signed SAML response that is not for this connection, not now, or not a success is refused
 * (issue 49): wrong audience, recipient, destination or issuer; a response for another connection;
 * expired or not yet valid beyond the clock skew; a status other than Success. Each is signed by the
 * connection's own IdP key (xmlsec1), so the signature is never the reason.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertionXml, responseXml, signedResponse, toFormField, xmlsec1Sign } from "../../helpers/saml-signing.js";
import { connection, type Keys, MINUTE, makeKeys, NOW, rejection, shape, validate, validateShape } from "./fixture.js";

let keys: Keys;
beforeAll(() => {
  keys = makeKeys();
});
afterAll(() => keys.workspace.remove());

describe("a signed response for someone else is refused", () => {
  it("a wrong audience", async () => {
    expect(await rejection(validateShape(keys, shape({ audiences: ["https://other-app.example/metadata"] }), "assertion"))).toBe(
      "audience",
    );
  });

  it("no audience restriction at all", async () => {
    expect(await rejection(validateShape(keys, shape({ audiences: [] }), "assertion"))).toBe("audience");
  });

  it("a wrong recipient in the subject confirmation", async () => {
    expect(await rejection(validateShape(keys, shape({ recipient: "https://evil.example/acs" }), "assertion"))).toBe("recipient");
  });

  it("a wrong destination on the response (signed or not)", async () => {
    const destination = "https://evil.example/acs";
    expect(await rejection(validateShape(keys, shape({ destination }), "assertion"))).toBe("destination");
    const settings = connection(keys, { signatureOn: "response" });
    expect(await rejection(validateShape(keys, shape({ destination }), "response", { settings }))).toBe("destination");
  });

  it("a wrong issuer on the assertion, and on the response", async () => {
    expect(await rejection(validateShape(keys, shape({ issuer: "https://evil-idp.example" }), "assertion"))).toBe("issuer");
    expect(await rejection(validateShape(keys, shape({ responseIssuer: "https://evil-idp.example" }), "assertion"))).toBe("issuer");
  });

  it("a response for another connection of the same IdP (its audience and recipient)", async () => {
    const other = "https://app.example/auth/sso/saml/conn_2";
    const forOther = shape({ audiences: [`${other}/metadata`], recipient: `${other}/acs`, destination: `${other}/acs` });
    expect(await rejection(validateShape(keys, forOther, "assertion"))).toBe("destination");
    expect(await rejection(validateShape(keys, { ...forOther, destination: null }, "assertion"))).toBe("audience");
  });

  it("a response for another connection with its own IdP (its issuer and key)", async () => {
    const forOther = shape({ issuer: "https://idp.other-customer.example", responseIssuer: null });
    expect(await rejection(validateShape(keys, forOther, "assertion", {}, keys.stranger))).toBe("signature");
    // Even where both connections trusted the same key, the issuer tells them apart.
    expect(await rejection(validateShape(keys, forOther, "assertion"))).toBe("issuer");
  });
});

describe("a signed response outside its time window is refused", () => {
  it("expired (Conditions NotOnOrAfter past, beyond the skew)", async () => {
    expect(await rejection(validateShape(keys, shape({ notOnOrAfter: NOW - 2 * MINUTE }), "assertion"))).toBe("expired");
  });

  it("expired (subject confirmation NotOnOrAfter past, beyond the skew)", async () => {
    expect(await rejection(validateShape(keys, shape({ confirmationNotOnOrAfter: NOW - 61_000 }), "assertion"))).toBe("expired");
  });

  it("expired exactly at NotOnOrAfter plus the skew", async () => {
    const field = toFormField(signedResponse(keys.workspace, shape({ notOnOrAfter: NOW }), keys.idp, "assertion"));
    expect(await rejection(validate(keys, field, { now: NOW + 60_000 }))).toBe("expired");
  });

  it("not yet valid (NotBefore beyond the skew)", async () => {
    expect(await rejection(validateShape(keys, shape({ notBefore: NOW + 2 * MINUTE }), "assertion"))).toBe("notYetValid");
  });

  it("not yet valid with no skew at all (a second ahead)", async () => {
    const settings = connection(keys, { clockSkewSeconds: 0 });
    expect(await rejection(validateShape(keys, shape({ notBefore: NOW + 1000 }), "assertion", { settings }))).toBe("notYetValid");
  });

  it("a response whose Conditions or subject confirmation does not say until when it is valid", async () => {
    expect(await rejection(validateShape(keys, shape({ notOnOrAfter: null }), "assertion"))).toBe("malformed");
    expect(await rejection(validateShape(keys, shape({ confirmationNotOnOrAfter: null }), "assertion"))).toBe("malformed");
  });

  it("a response with a time that is not a date", async () => {
    const responseShape = shape();
    const template = assertionXml(responseShape, true).replace(/NotBefore="[^"]*"/, 'NotBefore="yesterday"');
    const unreadable = responseXml(responseShape, xmlsec1Sign(keys.workspace, template, keys.idp), false);
    expect(await rejection(validate(keys, toFormField(unreadable)))).toBe("malformed");
  });
});

describe("a response that is not a success is refused", () => {
  it("status Responder (with its signed assertion)", async () => {
    const failed = shape({ statusCode: "urn:oasis:names:tc:SAML:2.0:status:Responder" });
    expect(await rejection(validateShape(keys, failed, "assertion"))).toBe("status");
    const settings = connection(keys, { signatureOn: "response" });
    expect(await rejection(validateShape(keys, failed, "response", { settings }))).toBe("status");
  });

  it("status AuthnFailed with no assertion", async () => {
    const failed = shape({ statusCode: "urn:oasis:names:tc:SAML:2.0:status:Requester" });
    const noAssertion = signedResponse(keys.workspace, failed, keys.idp, "none").replace(/<saml:Assertion[\s\S]*<\/saml:Assertion>/, "");
    expect(await rejection(validate(keys, toFormField(noAssertion)))).toBe("status");
  });
});
