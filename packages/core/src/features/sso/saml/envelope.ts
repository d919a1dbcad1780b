/**
 * The shape of a POSTed SAML response, checked before any signature: strict base64, a size bound, no DTD,
 * well-formed XML, a `samlp:Response` root with exactly one plain assertion. What passes here is still
 * untrusted: these checks can only refuse.
 *
 * @module features/sso/saml/envelope
 */
import { SamlResponseRejected } from "../../../errors.js";
import { instantOf } from "./assertion-checks.js";
import { attributeOf, childElements, childElementsByLocalName, isElement, parseStrictXml, SAML_NS, SAMLP_NS, XmlRefused } from "./dom.js";

/**
 * The largest SAMLResponse field accepted (base64 characters). A response with a generous attribute
 * statement is a few tens of kilobytes; anything far above is refused before it is decoded.
 */
export const MAX_SAML_RESPONSE_LENGTH = 1_000_000;

const SUCCESS = "urn:oasis:names:tc:SAML:2.0:status:Success";

/** A response that passed the shape checks: its text (what signatures are checked over) and its parsed form. */
export interface ResponseEnvelope {
  xml: string;
  document: Document;
  /** The root `samlp:Response` (unsigned as far as this module knows). */
  response: Element;
  /** The one `saml:Assertion` child of the root, as received (unsigned as far as this module knows). */
  assertion: Element;
}

/** Decodes the form field: base64 only (whitespace allowed, as some IdPs wrap lines), valid UTF-8. */
export function decodeSamlResponse(field: string): string {
  if (typeof field !== "string" || field.length === 0 || field.length > MAX_SAML_RESPONSE_LENGTH) {
    throw new SamlResponseRejected("malformed", "The SAML response is missing or too large.");
  }
  const compact = field.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(compact) || compact.length % 4 !== 0) {
    throw new SamlResponseRejected("malformed", "The SAML response is not base64.");
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(compact, "base64"));
  } catch {
    throw new SamlResponseRejected("malformed", "The SAML response is not UTF-8 text.");
  }
}

/** Parses the response and checks its shape; a Status other than Success is refused here (reason `status`). */
export function readEnvelope(xml: string): ResponseEnvelope {
  let document: Document;
  try {
    document = parseStrictXml(xml);
  } catch (error) {
    if (!(error instanceof XmlRefused)) throw error;
    throw new SamlResponseRejected("malformed", "The SAML response is not well-formed XML without a DTD.", { cause: error as Error });
  }
  const response = document.documentElement;
  if (!isElement(response, SAMLP_NS, "Response")) {
    throw new SamlResponseRejected("malformed", "The SAML message is not a samlp:Response.");
  }
  refuseFailureStatus(response);
  if (childElementsByLocalName(response, "EncryptedAssertion").length > 0) {
    throw new SamlResponseRejected(
      "malformed",
      "Encrypted SAML assertions are not supported: ask the IdP to sign, not encrypt, the assertion.",
    );
  }
  // node-saml counts assertions by local name only; a second one in any namespace is refused with it.
  const assertions = childElementsByLocalName(response, "Assertion");
  if (assertions.length !== 1 || !isElement(assertions[0], SAML_NS, "Assertion")) {
    throw new SamlResponseRejected("malformed", "A SAML response must carry exactly one assertion.");
  }
  const assertion = assertions[0] as Element;
  requireTimes(assertion);
  return { xml, document, response, assertion };
}

/**
 * Requires what node-saml reads before handing the assertion back (and throws untyped errors on): one
 * Conditions, and a readable IssueInstant and NotOnOrAfter on the assertion, its Conditions and every
 * subject confirmation (the Web SSO profile requires the last; every IdP we know sends all three).
 */
function requireTimes(assertion: Element): void {
  const conditions = childElementsByLocalName(assertion, "Conditions");
  const confirmations = childElements(assertion, SAML_NS, "Subject")
    .flatMap((subject) => childElements(subject, SAML_NS, "SubjectConfirmation"))
    .flatMap((confirmation) => childElements(confirmation, SAML_NS, "SubjectConfirmationData"));
  const dated = [...conditions, ...confirmations].every((element) => instantOf(element, "NotOnOrAfter") !== undefined);
  if (conditions.length !== 1 || instantOf(assertion, "IssueInstant") === undefined || !dated) {
    throw new SamlResponseRejected(
      "malformed",
      "A SAML assertion must have one Conditions, an IssueInstant and a NotOnOrAfter on each time window.",
    );
  }
}

/**
 * Refuses a Status other than Success. Read from the element given: the verified Response when it is
 * signed, the received one otherwise (a forged failure can only refuse, never sign anyone in).
 */
export function refuseFailureStatus(response: Element): void {
  const status = childElements(response, SAMLP_NS, "Status");
  const code = status.length === 1 ? childElements(status[0] as Element, SAMLP_NS, "StatusCode") : [];
  const value = code.length === 1 ? attributeOf(code[0] as Element, "Value") : undefined;
  if (value !== SUCCESS) {
    throw new SamlResponseRejected("status", "The identity provider did not sign the user in (its SAML status is not Success).");
  }
}
