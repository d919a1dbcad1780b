/**
 * The hostile-signature corpus of a SAML connection (issue 49): signature wrapping (the XSW classes), an
 * unsigned assertion beside a signed one, a duplicated ID, NameID comment truncation, a stranger's key,
 * and signatures on the wrong element for the connection. Every response is signed by Debian's xmlsec1
 * and then edited the way an attacker would; where it matters, xmlsec1 itself still verifies the edited
 * text, which shows the edit kept a valid signature and the refusal is ours.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  assertionXml,
  type ResponseShape,
  responseXml,
  signedResponse,
  toFormField,
  xmlsec1Sign,
  xmlsec1Verifies,
} from "../../helpers/saml-signing.js";
import { connection, type Keys, makeKeys, rejection, shape, validate, validateShape } from "./fixture.js";

let keys: Keys;
beforeAll(() => {
  keys = makeKeys();
});
afterAll(() => keys.workspace.remove());

/** The IdP's honest assertion for Eve (a real account of the attacker), signed on its own. */
function evesSignedAssertion(change: Partial<ResponseShape> = {}): { signed: string; honest: ResponseShape } {
  const honest = shape({ nameIdXml: "eve@corp.example", ...change });
  return { signed: xmlsec1Sign(keys.workspace, assertionXml(honest, true), keys.idp), honest };
}

/** An unsigned assertion for the admin, which the attacker wants read. */
function forgedAdminAssertion(change: Partial<ResponseShape> = {}): string {
  return assertionXml(shape({ nameIdXml: "admin@corp.example", ...change }), false);
}

/** Puts `content` in a samlp:Extensions of the response (its place: before Status). */
function withExtensions(response: string, content: string): string {
  return response.replace("<samlp:Status>", `<samlp:Extensions>${content}</samlp:Extensions><samlp:Status>`);
}

describe("signature wrapping is refused", () => {
  it("XSW: the signed assertion moved into Extensions, a forged one where the profile is read", async () => {
    const { signed, honest } = evesSignedAssertion();
    const wrapped = withExtensions(responseXml(honest, forgedAdminAssertion(), false), signed);
    expect(xmlsec1Verifies(keys.workspace, wrapped, keys.idp)).toBe(true);
    expect(await rejection(validate(keys, toFormField(wrapped)))).toBe("signature");
  });

  it("XSW: the signed assertion hidden in the Advice of a forged assertion", async () => {
    const { signed, honest } = evesSignedAssertion();
    const forged = forgedAdminAssertion().replace("</saml:Conditions>", `</saml:Conditions><saml:Advice>${signed}</saml:Advice>`);
    const wrapped = responseXml(honest, forged, false);
    expect(xmlsec1Verifies(keys.workspace, wrapped, keys.idp)).toBe(true);
    expect(await rejection(validate(keys, toFormField(wrapped)))).toBe("signature");
  });

  it("XSW: a forged assertion carrying the signed one's Signature (which points at the original, moved aside)", async () => {
    const { signed, honest } = evesSignedAssertion();
    const signature = /<ds:Signature[\s\S]*<\/ds:Signature>/.exec(signed)?.[0] as string;
    const forged = forgedAdminAssertion().replace("</saml:Issuer>", `</saml:Issuer>${signature}`);
    const wrapped = withExtensions(responseXml(honest, forged, false), signed);
    expect(await rejection(validate(keys, toFormField(wrapped)))).toBe("signature");
  });

  it("XSW: the signed element's ID duplicated on the forged assertion", async () => {
    const { signed, honest } = evesSignedAssertion();
    const forged = forgedAdminAssertion({ assertionId: honest.assertionId });
    const wrapped = withExtensions(responseXml(honest, forged, false), signed);
    expect(await rejection(validate(keys, toFormField(wrapped)))).toBe("signature");
  });

  it("XSW: a second Response wrapped around the signed one (connection wants the response signed)", async () => {
    const honest = shape({ nameIdXml: "eve@corp.example" });
    const signedHonest = signedResponse(keys.workspace, honest, keys.idp, "response");
    const outer = withExtensions(responseXml(shape(), forgedAdminAssertion(), false), signedHonest);
    const settings = connection(keys, { signatureOn: "response" });
    expect(await rejection(validate(keys, toFormField(outer), { settings }))).toBe("signature");
  });

  it("XSW: the signed Response moved into the forged root's Signature, the root taking its ID", async () => {
    const honest = shape({ nameIdXml: "eve@corp.example" });
    const signedHonest = signedResponse(keys.workspace, honest, keys.idp, "response");
    const signature = /<ds:Signature[\s\S]*?<\/ds:Signature>/.exec(signedHonest)?.[0] as string;
    const withObject = signature.replace("</ds:Signature>", `<ds:Object>${signedHonest}</ds:Object></ds:Signature>`);
    const forgedRoot = responseXml({ ...shape(), responseId: honest.responseId }, forgedAdminAssertion(), false);
    const attack = forgedRoot.replace("</saml:Issuer>", `</saml:Issuer>${withObject}`);
    const settings = connection(keys, { signatureOn: "response" });
    expect(await rejection(validate(keys, toFormField(attack), { settings }))).toBe("signature");
  });

  it("an unsigned assertion beside a signed one", async () => {
    const { signed, honest } = evesSignedAssertion();
    const twoAssertions = responseXml(honest, forgedAdminAssertion() + signed, false);
    expect(await rejection(validate(keys, toFormField(twoAssertions)))).toBe("malformed");
    const signedFirst = responseXml(honest, signed + forgedAdminAssertion(), false);
    expect(await rejection(validate(keys, toFormField(signedFirst)))).toBe("malformed");
  });

  it("an assertion edited after signing (the NameID changed)", async () => {
    const { signed, honest } = evesSignedAssertion();
    const edited = responseXml(honest, signed.replace("eve@corp.example", "admin@corp.example"), false);
    expect(xmlsec1Verifies(keys.workspace, edited, keys.idp)).toBe(false);
    expect(await rejection(validate(keys, toFormField(edited)))).toBe("signature");
  });
});

describe("NameID comment truncation is refused", () => {
  const registered = "admin@corp.example.evil.example";

  it("a comment inside a signed NameID (the signature still verifies)", async () => {
    for (const signatureOn of ["assertion", "response"] as const) {
      const signed = signedResponse(keys.workspace, shape({ nameIdXml: registered }), keys.idp, signatureOn);
      const truncated = signed.replace(registered, "admin@corp.example<!---->.evil.example");
      expect(xmlsec1Verifies(keys.workspace, truncated, keys.idp), signatureOn).toBe(true);
      const settings = connection(keys, { signatureOn });
      expect(await rejection(validate(keys, toFormField(truncated), { settings })), signatureOn).toBe("nameId");
    }
  });

  it("a NameID split into text and CDATA (two text nodes; the signature still verifies)", async () => {
    const signed = signedResponse(keys.workspace, shape({ nameIdXml: registered }), keys.idp, "assertion");
    const split = signed.replace(registered, "admin@corp.example<![CDATA[.evil.example]]>");
    expect(xmlsec1Verifies(keys.workspace, split, keys.idp)).toBe(true);
    expect(await rejection(validate(keys, toFormField(split)))).toBe("nameId");
  });

  it("an empty NameID, and a NameID holding markup", async () => {
    expect(await rejection(validateShape(keys, shape({ nameIdXml: "" }), "assertion"))).toBe("nameId");
    expect(await rejection(validateShape(keys, shape({ nameIdXml: "<b>admin</b>" }), "assertion"))).toBe("nameId");
  });
});

describe("a signature that is not the one the connection requires is refused", () => {
  it("a response signed by a certificate that is not the connection's", async () => {
    for (const signing of ["assertion", "response", "both"] as const) {
      const settings = connection(keys, { signatureOn: signing });
      expect(await rejection(validateShape(keys, shape(), signing, { settings }, keys.stranger)), signing).toBe("signature");
    }
  });

  it("the next certificate before the connection lists it (a rotation not yet made)", async () => {
    expect(await rejection(validateShape(keys, shape(), "assertion", {}, keys.idpNext))).toBe("signature");
  });

  it("an unsigned response, whatever the connection requires", async () => {
    for (const signatureOn of ["assertion", "response", "both"] as const) {
      const settings = connection(keys, { signatureOn });
      expect(await rejection(validateShape(keys, shape(), "none", { settings })), signatureOn).toBe("signature");
    }
  });

  it("only the response signed while the connection wants the assertion signed", async () => {
    expect(await rejection(validateShape(keys, shape(), "response", { settings: connection(keys, { signatureOn: "assertion" }) }))).toBe(
      "signature",
    );
  });

  it("only the assertion signed while the connection wants the response signed", async () => {
    expect(await rejection(validateShape(keys, shape(), "assertion", { settings: connection(keys, { signatureOn: "response" }) }))).toBe(
      "signature",
    );
  });

  it("one element signed while the connection wants both", async () => {
    const settings = connection(keys, { signatureOn: "both" });
    expect(await rejection(validateShape(keys, shape(), "assertion", { settings }))).toBe("signature");
    expect(await rejection(validateShape(keys, shape(), "response", { settings }))).toBe("signature");
  });

  it("a connection with no IdP certificate accepts nothing", async () => {
    const settings = connection(keys, { idp: { ...connection(keys).idp, certificates: [] } });
    expect(await rejection(validateShape(keys, shape(), "both", { settings }))).toBe("signature");
  });
});
