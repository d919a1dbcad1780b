/**
 * Validates a SAML response POSTed to a connection's ACS URL (issue 49): what it proves, or a
 * `SamlResponseRejected` whose `reason` names the check that failed. The order is: shape (envelope.ts),
 * signatures by node-saml over the element the connection requires (signature.ts), then every semantic
 * check on the verified elements (assertion-checks.ts), the binding to this browser's request, and last
 * the replay cache (so that a refused response never burns an assertion id).
 *
 * @module features/sso/saml/response
 */
import { SamlResponseRejected } from "../../../errors.js";
import {
  bearerConfirmation,
  checkConditions,
  checkIssuer,
  readAttributes,
  readNameId,
  readSessionIndex,
  type SubjectConfirmation,
  subjectOf,
} from "./assertion-checks.js";
import { attributeOf } from "./dom.js";
import { decodeSamlResponse, readEnvelope, refuseFailureStatus } from "./envelope.js";
import { type VerifiedElements, verifySignatures } from "./signature.js";
import type { SamlAssertion, SamlConnectionSettings } from "./types.js";

/** What `validateSamlResponse` needs besides the connection. */
export interface SamlResponseInput {
  /** The POSTed base64 `SAMLResponse` form field. */
  samlResponse: string;
  /** The request id this browser's sign-in started (kept by the feature in a sealed cookie); `undefined` when none. */
  expectedRequestId: string | undefined;
  /**
   * Records an assertion id until `keepUntil` (seconds: its NotOnOrAfter plus the clock skew, the last moment
   * it could still be accepted). Resolves `false` when the id was seen before. Backed by a store every
   * instance shares, so that a replay on another instance is refused too.
   */
  rememberAssertion(assertionId: string, keepUntil: number): Promise<boolean>;
  /** The current time in ms (tests); `Date.now()` by default. */
  now?: number;
}

/**
 * Checks a SAML response for a connection and returns what it proves. Throws `SamlResponseRejected`
 * (with its reason) for anything else, and `SamlLibraryMissing` when `@node-saml/node-saml` is not installed.
 */
export async function validateSamlResponse(settings: SamlConnectionSettings, input: SamlResponseInput): Promise<SamlAssertion> {
  const now = input.now ?? Date.now();
  const envelope = readEnvelope(decodeSamlResponse(input.samlResponse));
  // A comment or a second text node in the received NameID is refused even though the verified (canonical)
  // form has none: it is the shape of the truncation attack, and no honest IdP sends it.
  readNameId(subjectOf(envelope.assertion));
  const verified = await verifySignatures(settings, envelope);
  const response = verified.response ?? envelope.response;
  checkResponse(response, settings);
  const { assertion } = verified;
  checkIssuer(assertion, settings, true);
  const conditionsEnd = checkConditions(assertion, settings, now);
  const subject = subjectOf(assertion);
  const confirmation = bearerConfirmation(subject, settings, now);
  const { nameId, nameIdFormat } = readNameId(subject);
  const inResponseTo = boundRequest(settings, input.expectedRequestId, verified, envelope.response, confirmation);
  const expiresAtMs = earliest(conditionsEnd, confirmation.notOnOrAfter);
  const assertionId = attributeOf(assertion, "ID");
  if (!assertionId || expiresAtMs === undefined) {
    throw new SamlResponseRejected("malformed", "A SAML assertion needs an ID and a NotOnOrAfter.");
  }
  const expiresAt = Math.floor(expiresAtMs / 1000);
  if (!(await input.rememberAssertion(assertionId, expiresAt + settings.clockSkewSeconds))) {
    throw new SamlResponseRejected("replayed", "This SAML assertion was used already: sign in again.");
  }
  const issuer = settings.idp.entityId;
  const sessionIndex = readSessionIndex(assertion);
  return { nameId, nameIdFormat, issuer, assertionId, sessionIndex, inResponseTo, attributes: readAttributes(assertion), expiresAt };
}

/**
 * The Response's own fields: Issuer (optional), Destination (when present, this ACS URL) and Status. Read
 * from the verified Response when the connection requires its signature, else from the received one,
 * where a check can only refuse.
 */
function checkResponse(response: Element, settings: SamlConnectionSettings): void {
  checkIssuer(response, settings, false);
  const destination = attributeOf(response, "Destination");
  if (destination !== undefined && destination !== settings.sp.acsUrl) {
    throw new SamlResponseRejected("destination", "The SAML response was sent to another address than this connection's ACS URL.");
  }
  refuseFailureStatus(response);
}

/**
 * The request this response answers, from signed data only: the subject confirmation's InResponseTo (signed
 * with the assertion), else the Response's when its signature is verified. It must be the request this
 * browser started. With none, the response is IdP-initiated: refused unless the connection allows it and
 * this browser started no request.
 */
function boundRequest(
  settings: SamlConnectionSettings,
  expectedRequestId: string | undefined,
  verified: VerifiedElements,
  received: Element,
  confirmation: SubjectConfirmation,
): string | undefined {
  const claimed = attributeOf(verified.response ?? received, "InResponseTo");
  if (claimed !== undefined && confirmation.inResponseTo !== undefined && claimed !== confirmation.inResponseTo) {
    throw new SamlResponseRejected("inResponseTo", "The SAML response and its assertion answer different requests.");
  }
  const bound = confirmation.inResponseTo ?? (verified.response ? claimed : undefined);
  if (bound === undefined && claimed !== undefined) {
    throw new SamlResponseRejected("inResponseTo", "The SAML response names a request, but not in anything signed.");
  }
  if (bound !== undefined) {
    if (bound !== expectedRequestId) {
      throw new SamlResponseRejected("inResponseTo", "The SAML response answers a sign-in this browser did not start: sign in again.");
    }
    return bound;
  }
  if (!settings.allowIdpInitiated) {
    throw new SamlResponseRejected(
      "idpInitiated",
      "Sign-ins started at the identity provider are off for this connection: start from the application.",
    );
  }
  if (expectedRequestId !== undefined) {
    throw new SamlResponseRejected("inResponseTo", "The SAML response does not answer the sign-in this browser started: sign in again.");
  }
  return undefined;
}

/** The earlier of two optional instants. */
function earliest(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.min(a, b);
}
