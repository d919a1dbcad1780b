/**
 * The checks of a SAML assertion that node-saml leaves to its caller or makes against the wall clock, made
 * here on the verified assertion (the element a signature covers): Issuer, audience, the time window with
 * the connection's skew, the bearer subject confirmation (Recipient, its own window, InResponseTo), and the
 * NameID's shape. Each failure is a `SamlResponseRejected` with its reason.
 *
 * @module features/sso/saml/assertion-checks
 */
import { SamlResponseRejected } from "../../../errors.js";
import { attributeOf, childElements, plainText, SAML_NS, soleText } from "./dom.js";
import type { SamlConnectionSettings } from "./types.js";

const BEARER = "urn:oasis:names:tc:SAML:2.0:cm:bearer";
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** What the bearer subject confirmation that satisfied every check says. */
export interface SubjectConfirmation {
  /** Its InResponseTo (signed with the assertion), if any. */
  inResponseTo: string | undefined;
  /** Its NotOnOrAfter, in ms. */
  notOnOrAfter: number | undefined;
}

/** An xs:dateTime attribute in ms, `undefined` when absent; an unreadable one is `malformed`. */
export function instantOf(element: Element, name: string): number | undefined {
  const value = attributeOf(element, name);
  if (value === undefined) return undefined;
  const ms = DATE_TIME.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms)) throw new SamlResponseRejected("malformed", `A SAML ${name} is not a date and time.`);
  return ms;
}

/** Refuses a window that is not open at `now`, give or take the skew (both in ms). */
export function checkWindow(notBefore: number | undefined, notOnOrAfter: number | undefined, now: number, skew: number): void {
  if (notBefore !== undefined && now + skew < notBefore) {
    throw new SamlResponseRejected("notYetValid", "The SAML assertion is not valid yet: check the clocks of this server and the IdP.");
  }
  if (notOnOrAfter !== undefined && now - skew >= notOnOrAfter) {
    throw new SamlResponseRejected("expired", "The SAML assertion has expired: sign in again.");
  }
}

/** The one child `{saml}localName`, or a `reason` refusal when there is none or more than one. */
function onlyChild(parent: Element, localName: string, reason: "malformed" | "issuer" | "nameId"): Element {
  const found = childElements(parent, SAML_NS, localName);
  if (found.length !== 1) throw new SamlResponseRejected(reason, `A SAML ${parent.localName} must have one ${localName}.`);
  return found[0] as Element;
}

/** Refuses an Issuer other than the connection's IdP. `required` is false for the Response's optional Issuer. */
export function checkIssuer(parent: Element, settings: SamlConnectionSettings, required: boolean): void {
  const issuers = childElements(parent, SAML_NS, "Issuer");
  if (issuers.length === 0 && !required) return;
  const issuer = issuers.length === 1 ? soleText(issuers[0] as Element)?.trim() : undefined;
  if (issuer !== settings.idp.entityId) {
    throw new SamlResponseRejected("issuer", "The SAML response was issued by another identity provider than this connection's.");
  }
}

/**
 * Checks the assertion's Conditions: the time window, and an AudienceRestriction that names this SP in
 * each one present (SAML core 2.5.1.4: every restriction must be met). Returns its NotOnOrAfter (ms).
 */
export function checkConditions(assertion: Element, settings: SamlConnectionSettings, now: number): number | undefined {
  const conditions = childElements(assertion, SAML_NS, "Conditions");
  const restrictions = conditions.length === 1 ? childElements(conditions[0] as Element, SAML_NS, "AudienceRestriction") : [];
  if (restrictions.length === 0) throw new SamlResponseRejected("audience", "The SAML assertion names no audience.");
  for (const restriction of restrictions) {
    const audiences = childElements(restriction, SAML_NS, "Audience").map((audience) => plainText(audience));
    if (!audiences.includes(settings.sp.entityId)) {
      throw new SamlResponseRejected("audience", "The SAML assertion is meant for another service provider than this connection's.");
    }
  }
  const condition = conditions[0] as Element;
  const notOnOrAfter = instantOf(condition, "NotOnOrAfter");
  checkWindow(instantOf(condition, "NotBefore"), notOnOrAfter, now, settings.clockSkewSeconds * 1000);
  return notOnOrAfter;
}

/** Why one bearer confirmation does not hold (`undefined` when it does). */
function confirmationFailure(data: Element | undefined, settings: SamlConnectionSettings, now: number): SamlResponseRejected | undefined {
  if (!data || attributeOf(data, "Recipient") !== settings.sp.acsUrl) {
    return new SamlResponseRejected("recipient", "The SAML assertion was sent to another address than this connection's ACS URL.");
  }
  try {
    checkWindow(instantOf(data, "NotBefore"), instantOf(data, "NotOnOrAfter"), now, settings.clockSkewSeconds * 1000);
  } catch (error) {
    return error as SamlResponseRejected;
  }
  return undefined;
}

/**
 * The bearer SubjectConfirmation whose data names this ACS URL as Recipient and whose window is open
 * (Web SSO profile, 4.1.4.3). When none holds, the first bearer confirmation's failure is the reason.
 */
export function bearerConfirmation(subject: Element, settings: SamlConnectionSettings, now: number): SubjectConfirmation {
  const bearers = childElements(subject, SAML_NS, "SubjectConfirmation").filter((c) => attributeOf(c, "Method") === BEARER);
  if (bearers.length === 0) throw new SamlResponseRejected("recipient", "The SAML assertion has no bearer subject confirmation.");
  let first: SamlResponseRejected | undefined;
  for (const bearer of bearers) {
    const data = childElements(bearer, SAML_NS, "SubjectConfirmationData");
    const only = data.length === 1 ? data[0] : undefined;
    const failure = confirmationFailure(only, settings, now);
    if (!failure && only) return { inResponseTo: attributeOf(only, "InResponseTo"), notOnOrAfter: instantOf(only, "NotOnOrAfter") };
    first ??= failure;
  }
  throw first as SamlResponseRejected;
}

/** The Subject's NameID: exactly one, holding exactly one non-empty text node. */
export function readNameId(subject: Element): { nameId: string; nameIdFormat: string | undefined } {
  const nameIdElement = onlyChild(subject, "NameID", "nameId");
  const nameId = soleText(nameIdElement);
  if (nameId === undefined || nameId.trim() === "") {
    throw new SamlResponseRejected("nameId", "The SAML NameID must be one plain text value (no comment, no markup).");
  }
  return { nameId, nameIdFormat: attributeOf(nameIdElement, "Format") };
}

/** The assertion's one Subject. */
export function subjectOf(assertion: Element): Element {
  return onlyChild(assertion, "Subject", "malformed");
}

/**
 * The attribute statements, each attribute's name with all its text values in document order. A value
 * that holds markup (a structured value) is left out: the feature maps only text attributes.
 */
export function readAttributes(assertion: Element): Record<string, string[]> {
  const attributes: Record<string, string[]> = Object.create(null);
  for (const statement of childElements(assertion, SAML_NS, "AttributeStatement")) {
    for (const attribute of childElements(statement, SAML_NS, "Attribute")) {
      const name = attributeOf(attribute, "Name");
      if (!name) continue;
      const values = childElements(attribute, SAML_NS, "AttributeValue")
        .map((value) => plainText(value))
        .filter((value): value is string => value !== undefined);
      attributes[name] = [...(attributes[name] ?? []), ...values];
    }
  }
  return { ...attributes };
}

/** The first AuthnStatement's SessionIndex, if any. */
export function readSessionIndex(assertion: Element): string | undefined {
  const statement = childElements(assertion, SAML_NS, "AuthnStatement")[0];
  return statement ? attributeOf(statement, "SessionIndex") : undefined;
}
