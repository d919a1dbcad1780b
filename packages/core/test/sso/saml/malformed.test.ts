/**
 * Bad input to a SAML connection's ACS gets a named refusal, never a crash (issue 49): not base64, not
 * XML, not a Response, an encrypted assertion (refused: not supported), an XML bomb (refused before any
 * parsing, quickly), an external entity, a processing instruction at the root's place.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SAML, SAMLP, signedResponse, toFormField } from "../../helpers/saml-signing.js";
import { type Keys, makeKeys, rejection, shape, validate } from "./fixture.js";

let keys: Keys;
beforeAll(() => {
  keys = makeKeys();
});
afterAll(() => keys.workspace.remove());

describe("a malformed SAML response is refused by name", () => {
  it("a field that is not base64", async () => {
    expect(await rejection(validate(keys, "this is not base64!"))).toBe("malformed");
    expect(await rejection(validate(keys, "abc"))).toBe("malformed");
    expect(await rejection(validate(keys, ""))).toBe("malformed");
  });

  it("base64 of something that is not XML, or not UTF-8", async () => {
    expect(await rejection(validate(keys, toFormField("<samlp:Response>unterminated")))).toBe("malformed");
    expect(await rejection(validate(keys, Buffer.from([0xff, 0xfe, 0x00, 0x3c]).toString("base64")))).toBe("malformed");
    expect(await rejection(validate(keys, toFormField('{"json": true}')))).toBe("malformed");
  });

  it("XML that is not a samlp:Response", async () => {
    const logout = `<samlp:LogoutResponse xmlns:samlp="${SAMLP}" ID="_x" Version="2.0"/>`;
    expect(await rejection(validate(keys, toFormField(logout)))).toBe("malformed");
    const wrongNamespace = `<samlp:Response xmlns:samlp="urn:evil" ID="_x"/>`;
    expect(await rejection(validate(keys, toFormField(wrongNamespace)))).toBe("malformed");
  });

  it("a response field larger than any honest response", async () => {
    expect(await rejection(validate(keys, "A".repeat(1_000_004)))).toBe("malformed");
  });

  it("an encrypted assertion (not supported: the IdP signs instead)", async () => {
    const signed = signedResponse(keys.workspace, shape(), keys.idp, "none");
    const encrypted = signed.replace(
      /<saml:Assertion[\s\S]*<\/saml:Assertion>/,
      `<saml:EncryptedAssertion xmlns:saml="${SAML}"><xenc:EncryptedData xmlns:xenc="http://www.w3.org/2001/04/xmlenc#"/></saml:EncryptedAssertion>`,
    );
    expect(await rejection(validate(keys, toFormField(encrypted)))).toBe("malformed");
  });

  it("an XML bomb (entity expansion) is refused at once, before anything expands it", async () => {
    const levels = Array.from({ length: 10 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`).join("");
    const bomb = `<?xml version="1.0"?><!DOCTYPE samlp:Response [<!ENTITY l0 "lol">${levels}]><samlp:Response xmlns:samlp="${SAMLP}" ID="_b">&l10;</samlp:Response>`;
    // Ten levels of ten would be 10^10 copies: expanding them would not end within the test's timeout.
    expect(await rejection(validate(keys, toFormField(bomb)))).toBe("malformed");
  });

  it("an external entity (XXE) is refused", async () => {
    const xxe = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><samlp:Response xmlns:samlp="${SAMLP}" ID="_x">&x;</samlp:Response>`;
    expect(await rejection(validate(keys, toFormField(xxe)))).toBe("malformed");
  });

  it("a response with no assertion and a Success status", async () => {
    const empty = signedResponse(keys.workspace, shape(), keys.idp, "none").replace(/<saml:Assertion[\s\S]*<\/saml:Assertion>/, "");
    expect(await rejection(validate(keys, toFormField(empty)))).toBe("malformed");
  });
});
