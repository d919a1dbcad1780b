/**
 * The shape of a POSTed SAML response (`features/sso/saml/envelope.ts`), checked before any signature, on
 * unsigned documents: the form field's base64, size and UTF-8; a `samlp:Response` root with a Success
 * status and exactly one plain assertion; the times node-saml needs. Each refusal is a
 * `SamlResponseRejected` with its reason and the message that says which rule it broke. Fast: no signature
 * (mutation group `sso-saml`); the signed responses are in malformed.test.ts and conditions.test.ts.
 */
import { describe, expect, it } from "vitest";
import { SamlResponseRejected } from "../../../src/errors.js";
import { parseStrictXml, SAML_NS, SAMLP_NS, XmlRefused } from "../../../src/features/sso/saml/dom.js";
import {
  decodeSamlResponse,
  MAX_SAML_RESPONSE_LENGTH,
  readEnvelope,
  refuseFailureStatus,
} from "../../../src/features/sso/saml/envelope.js";
import { assertionXml, responseXml, toFormField } from "../../helpers/saml-signing.js";
import { shape } from "./fixture.js";

/** The refusal `run` throws: its reason and message. */
function refusal(run: () => unknown): { reason: string; message: string; cause: unknown } {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SamlResponseRejected);
    const rejected = error as SamlResponseRejected;
    return { reason: rejected.reason, message: rejected.message, cause: rejected.cause };
  }
  throw new Error("not refused");
}

/** An unsigned response of the fixture's shape, its assertion's XML changed by `assertionEdit`. */
function response(assertionEdit: (xml: string) => string = (xml) => xml, change: Parameters<typeof shape>[0] = {}): string {
  const responseShape = shape(change);
  return responseXml(responseShape, assertionEdit(assertionXml(responseShape, false)), false);
}

describe("decodeSamlResponse", () => {
  const MISSING = "The SAML response is missing or too large.";
  const NOT_BASE64 = "The SAML response is not base64.";

  it("decodes base64 to the UTF-8 text, line breaks and spaces of wrapping IdPs left out", () => {
    expect(decodeSamlResponse(toFormField("<r>é</r>"))).toBe("<r>é</r>");
    const wrapped = toFormField("<response/>").replace(/(.{4})/g, "$1\r\n ");
    expect(decodeSamlResponse(wrapped)).toBe("<response/>");
    expect(decodeSamlResponse("YQ==")).toBe("a");
    expect(decodeSamlResponse("YWI=")).toBe("ab");
  });

  it("refuses a field that is missing, not text, empty or longer than the bound", () => {
    for (const field of [undefined, 42, "", "A".repeat(MAX_SAML_RESPONSE_LENGTH + 1)])
      expect(refusal(() => decodeSamlResponse(field as string))).toMatchObject({ reason: "malformed", message: MISSING });
    // At the bound itself the field is read (and refused here only for its base64).
    expect(refusal(() => decodeSamlResponse(`${"A".repeat(MAX_SAML_RESPONSE_LENGTH - 1)}!`)).message).toBe(NOT_BASE64);
    expect(MAX_SAML_RESPONSE_LENGTH).toBe(1_000_000);
  });

  it("refuses what is not base64: other characters, a length not a multiple of four, padding inside or too long", () => {
    for (const field of ["this is not base64!", "abc", "YQ=", "Y=Q=", "YQ===", "=YQ=", "YQ==YQ==", "YQ-_", "\u00e9abc"])
      expect(
        refusal(() => decodeSamlResponse(field)),
        field,
      ).toMatchObject({ reason: "malformed", message: NOT_BASE64 });
  });

  it("refuses bytes that are not UTF-8", () => {
    expect(refusal(() => decodeSamlResponse(Buffer.from([0x3c, 0xff, 0xfe, 0x3e]).toString("base64")))).toMatchObject({
      reason: "malformed",
      message: "The SAML response is not UTF-8 text.",
    });
  });
});

describe("readEnvelope", () => {
  it("answers the text, the document, the root Response and its one assertion", () => {
    const xml = response();
    const envelope = readEnvelope(xml);
    expect(envelope.xml).toBe(xml);
    expect(envelope.document.documentElement).toBe(envelope.response);
    expect(envelope.response.localName).toBe("Response");
    expect(envelope.assertion.namespaceURI).toBe(SAML_NS);
    expect(envelope.assertion.localName).toBe("Assertion");
    expect(envelope.assertion.parentNode).toBe(envelope.response);
  });

  it("refuses text that is not well-formed XML, or holds a DTD, with the parser's refusal as its cause", () => {
    for (const xml of ["<samlp:Response>unterminated", `<!DOCTYPE r><samlp:Response xmlns:samlp="${SAMLP_NS}"/>`]) {
      const refused = refusal(() => readEnvelope(xml));
      expect(refused).toMatchObject({ reason: "malformed", message: "The SAML response is not well-formed XML without a DTD." });
      expect((refused.cause as { err?: unknown }).err).toBeInstanceOf(XmlRefused);
    }
  });

  it("refuses a root that is not a samlp:Response", () => {
    for (const xml of [
      `<samlp:LogoutResponse xmlns:samlp="${SAMLP_NS}"/>`,
      `<samlp:Response xmlns:samlp="urn:evil"/>`,
      `<saml:Response xmlns:saml="${SAML_NS}"/>`,
    ])
      expect(refusal(() => readEnvelope(xml))).toMatchObject({ reason: "malformed", message: "The SAML message is not a samlp:Response." });
  });

  it("refuses a status other than Success before it looks at the assertion", () => {
    const failed = response(() => "", { statusCode: "urn:oasis:names:tc:SAML:2.0:status:Requester" });
    expect(refusal(() => readEnvelope(failed)).reason).toBe("status");
  });

  it("refuses an encrypted assertion, even beside a plain one", () => {
    const encrypted = `<saml:EncryptedAssertion xmlns:saml="${SAML_NS}"/>`;
    for (const edit of [() => encrypted, (xml: string) => `${xml}${encrypted}`])
      expect(refusal(() => readEnvelope(response(edit)))).toMatchObject({
        reason: "malformed",
        message: "Encrypted SAML assertions are not supported: ask the IdP to sign, not encrypt, the assertion.",
      });
  });

  it("refuses no assertion, two, or one of another namespace (counted by local name, as node-saml does)", () => {
    const ONE = "A SAML response must carry exactly one assertion.";
    expect(refusal(() => readEnvelope(response(() => "")))).toMatchObject({ reason: "malformed", message: ONE });
    expect(refusal(() => readEnvelope(response((xml) => `${xml}${xml.replace(/ID="[^"]*"/, 'ID="_second"')}`))).message).toBe(ONE);
    expect(refusal(() => readEnvelope(response((xml) => `${xml}<x:Assertion xmlns:x="urn:evil"/>`))).message).toBe(ONE);
    expect(refusal(() => readEnvelope(response((xml) => xml.replaceAll(`xmlns:saml="${SAML_NS}"`, 'xmlns:saml="urn:evil"')))).message).toBe(
      ONE,
    );
  });

  it("refuses an assertion without one Conditions, an IssueInstant, or a NotOnOrAfter on each window", () => {
    const TIMES = "A SAML assertion must have one Conditions, an IssueInstant and a NotOnOrAfter on each time window.";
    const edits: Record<string, (xml: string) => string> = {
      "no Conditions": (xml) => xml.replace(/<saml:Conditions[\s\S]*<\/saml:Conditions>/, ""),
      "two Conditions": (xml) => xml.replace(/(<saml:Conditions[\s\S]*<\/saml:Conditions>)/, "$1$1"),
      "no IssueInstant": (xml) => xml.replace(/ IssueInstant="[^"]*"/, ""),
      "Conditions without NotOnOrAfter": (xml) => xml.replace(/(<saml:Conditions[^>]*) NotOnOrAfter="[^"]*"/, "$1"),
      "a confirmation without NotOnOrAfter": (xml) => xml.replace(/(<saml:SubjectConfirmationData[^>]*) NotOnOrAfter="[^"]*"/, "$1"),
      "a second confirmation without NotOnOrAfter": (xml) =>
        xml.replace(
          "</saml:Subject>",
          `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData Recipient="x"/></saml:SubjectConfirmation></saml:Subject>`,
        ),
    };
    for (const [name, edit] of Object.entries(edits))
      expect(
        refusal(() => readEnvelope(response(edit))),
        name,
      ).toMatchObject({ reason: "malformed", message: TIMES });
  });

  it("refuses an unreadable time as malformed", () => {
    const unreadable = response((xml) => xml.replace(/ IssueInstant="[^"]*"/, ' IssueInstant="yesterday"'));
    expect(refusal(() => readEnvelope(unreadable)).reason).toBe("malformed");
  });

  it("accepts Conditions without a NotBefore (only the end of each window is required)", () => {
    const noNotBefore = response(undefined, { notBefore: null });
    expect(readEnvelope(noNotBefore).assertion.localName).toBe("Assertion");
  });
});

describe("refuseFailureStatus", () => {
  const SUCCESS = "urn:oasis:names:tc:SAML:2.0:status:Success";
  const withStatus = (status: string) =>
    parseStrictXml(`<samlp:Response xmlns:samlp="${SAMLP_NS}">${status}</samlp:Response>`).documentElement;
  const code = (value: string) => `<samlp:StatusCode Value="${value}"/>`;

  it("lets a Success status through", () => {
    expect(() => refuseFailureStatus(withStatus(`<samlp:Status>${code(SUCCESS)}</samlp:Status>`))).not.toThrow();
  });

  it("refuses no Status, two, no StatusCode, two, no Value, another Value", () => {
    for (const status of [
      "",
      `<samlp:Status>${code(SUCCESS)}</samlp:Status><samlp:Status>${code(SUCCESS)}</samlp:Status>`,
      "<samlp:Status/>",
      `<samlp:Status>${code(SUCCESS)}${code(SUCCESS)}</samlp:Status>`,
      "<samlp:Status><samlp:StatusCode/></samlp:Status>",
      `<samlp:Status>${code("urn:oasis:names:tc:SAML:2.0:status:Responder")}</samlp:Status>`,
      `<Status xmlns="urn:evil">${code(SUCCESS)}</Status>`,
    ])
      expect(
        refusal(() => refuseFailureStatus(withStatus(status))),
        status,
      ).toMatchObject({
        reason: "status",
        message: "The identity provider did not sign the user in (its SAML status is not Success).",
      });
  });
});
