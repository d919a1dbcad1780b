/**
 * What a SAML connection accepts (issue 49), each response signed by Debian's xmlsec1: a signed assertion,
 * a signed response, both; either certificate during a rotation; attributes with several values; a clock
 * off by less than the skew; an IdP-initiated response where the connection allows it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connection, IDP_ENTITY, type Keys, MINUTE, makeKeys, NOW, REQUEST_ID, replayCache, shape, validateShape } from "./fixture.js";

let keys: Keys;
beforeAll(() => {
  keys = makeKeys();
});
afterAll(() => keys.workspace.remove());

describe("a SAML connection accepts", () => {
  it("a signed assertion, and returns what it proves", async () => {
    const cache = replayCache();
    const responseShape = shape({ sessionIndex: "_idp-session-7" });
    const proven = await validateShape(keys, responseShape, "assertion", { cache });
    expect(proven).toEqual({
      nameId: "ada@corp.example",
      nameIdFormat: "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
      issuer: IDP_ENTITY,
      assertionId: responseShape.assertionId,
      sessionIndex: "_idp-session-7",
      inResponseTo: REQUEST_ID,
      attributes: { email: ["ada@corp.example"] },
      expiresAt: (NOW + 5 * MINUTE) / 1000,
    });
    // The id is kept until the last moment it could still be accepted: NotOnOrAfter plus the skew.
    expect(cache.seen.get(responseShape.assertionId)).toBe((NOW + 5 * MINUTE) / 1000 + 60);
  });

  it("a signed response when the connection wants the response signed", async () => {
    const proven = await validateShape(keys, shape(), "response", { settings: connection(keys, { signatureOn: "response" }) });
    expect(proven.nameId).toBe("ada@corp.example");
    expect(proven.inResponseTo).toBe(REQUEST_ID);
  });

  it("a response signed on both elements, for each of the three settings", async () => {
    for (const signatureOn of ["assertion", "response", "both"] as const) {
      const proven = await validateShape(keys, shape(), "both", { settings: connection(keys, { signatureOn }) });
      expect(proven.nameId, signatureOn).toBe("ada@corp.example");
    }
  });

  it("the old and the new IdP certificate during a rotation", async () => {
    const settings = connection(keys, { idp: { ...connection(keys).idp, certificates: [keys.idp.certPem, keys.idpNext.certPem] } });
    const byOld = await validateShape(keys, shape(), "assertion", { settings }, keys.idp);
    const byNew = await validateShape(keys, shape(), "assertion", { settings }, keys.idpNext);
    expect([byOld.issuer, byNew.issuer]).toEqual([IDP_ENTITY, IDP_ENTITY]);
  });

  it("attributes with several values, each in document order", async () => {
    const attributes = { email: ["ada@corp.example"], groups: ["engineering", "admins", "on-call"], "urn:oid:2.5.4.42": ["Ada"] };
    const proven = await validateShape(keys, shape({ attributes }), "assertion");
    expect(proven.attributes).toEqual(attributes);
  });

  it("a response whose window opens within the clock skew (IdP clock 50 s ahead)", async () => {
    const proven = await validateShape(keys, shape({ notBefore: NOW + 50_000 }), "assertion");
    expect(proven.nameId).toBe("ada@corp.example");
  });

  it("a response whose window closed within the clock skew (50 s ago)", async () => {
    const ended = NOW - 50_000;
    const proven = await validateShape(keys, shape({ notOnOrAfter: ended, confirmationNotOnOrAfter: ended }), "assertion");
    expect(proven.expiresAt).toBe(Math.floor(ended / 1000));
  });

  it("an IdP-initiated response when the connection allows it and this browser started no sign-in", async () => {
    const settings = connection(keys, { allowIdpInitiated: true });
    const unsolicited = shape({ inResponseTo: null, confirmationInResponseTo: null });
    const proven = await validateShape(keys, unsolicited, "assertion", { settings, expectedRequestId: undefined });
    expect(proven.inResponseTo).toBeUndefined();
    expect(proven.nameId).toBe("ada@corp.example");
  });

  it("a response without Destination or Response Issuer (both optional on the envelope)", async () => {
    const proven = await validateShape(keys, shape({ destination: null, responseIssuer: null }), "assertion");
    expect(proven.nameId).toBe("ada@corp.example");
  });

  it("an assertion without NameID format, session index or attributes", async () => {
    const bare = shape({ nameIdFormat: null, sessionIndex: null, attributes: {} });
    const proven = await validateShape(keys, bare, "assertion");
    expect([proven.nameIdFormat, proven.sessionIndex, proven.attributes]).toEqual([undefined, undefined, {}]);
  });

  it("a NameID sent as one CDATA section (one text node)", async () => {
    const proven = await validateShape(keys, shape({ nameIdXml: "<![CDATA[ada@corp.example]]>" }), "assertion");
    expect(proven.nameId).toBe("ada@corp.example");
  });

  it("the expiry is the earlier of the Conditions' and the subject confirmation's NotOnOrAfter", async () => {
    const proven = await validateShape(
      keys,
      shape({ notOnOrAfter: NOW + 9 * MINUTE, confirmationNotOnOrAfter: NOW + 3 * MINUTE }),
      "assertion",
    );
    expect(proven.expiresAt).toBe((NOW + 3 * MINUTE) / 1000);
  });
});
