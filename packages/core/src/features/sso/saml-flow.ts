/**
 * A sign-in through a SAML connection, around the protocol core (`saml/`): the routes' side.
 *
 * - Start (`startSamlConnection`): an `AuthnRequest` (HTTP-Redirect binding, signed with the connection's SP
 *   key), and a sealed cookie that remembers its id, the connection and this browser's flow binding
 *   (`http/flow-binding.ts`: the CSRF token and who is signed in).
 * - `POST sso-acs/<connectionId>`: the identity provider's page posts the response here from its own site,
 *   so the browser leaves out our `SameSite=Lax` cookies (the request cookie, the session, the CSRF token).
 *   Nothing is decided here: the answer is a page of ours whose form posts the same fields to
 *   `sso-acs-continue/<connectionId>` (same-site: the cookies come along), by the library's own script or
 *   by its button when scripts are off.
 * - `POST sso-acs-continue/<connectionId>`: the response is validated (`validateSamlResponse`) against the
 *   request this browser started (`InResponseTo`), its assertion id claimed once on the shared single-use
 *   store (a replay on another instance is refused too), and its subject signed in (`identity.ts`).
 * - `GET sso-metadata/<connectionId>`: the SP metadata the customer's IT admin gives their identity provider.
 *
 * The request cookie is the CSRF defence of the assertion consumer: a response obtained in the attacker's
 * own browser answers the attacker's request id, which this browser's cookie does not hold (login CSRF).
 *
 * @module features/sso/saml-flow
 */
import { SamlResponseRejected } from "../../errors.js";
import type { Cookie } from "../../http/cookies.js";
import { bindingMatches, bindingOf, currentSubject, requestBinding } from "../../http/flow-binding.js";
import { decode, encode } from "../../jwt.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../../types/internal.js";
import type { InputOf } from "../../types/operation.js";
import type { SsoConnection } from "../../types/sso.js";
import { claimOnce, type SingleUseKind } from "../../webauthn/challenge-store.js";
import { failed, recordSsoRefusal, type SsoClaims, ssoSignIn, traceConnection } from "./identity.js";
import type { acsInput } from "./input.js";
import type { SamlAssertion, SamlConnectionSettings } from "./saml/types.js";
import { openSecret } from "./secrets.js";
import { storeOf } from "./store.js";

/** How long a started SAML sign-in may take at the identity provider (seconds). */
const REQUEST_MAX_AGE = 600;
/** A SAML connection as stored, its settings present. */
type SamlConnection = SsoConnection & { saml: NonNullable<SsoConnection["saml"]> };
/** What the request cookie holds (sealed). */
interface PendingRequest {
  requestId: string;
  connectionId: string;
  binding: string;
}

/** Assertion ids, each accepted once (on every instance: the adapter's single-use records). */
const ASSERTIONS: SingleUseKind = { identifier: "authlib:saml-assertion", label: "authlib.saml-assertion:" };
/** The requests answered (their ids, per connection), shared by every instance: a request is answered once. */
const ANSWERED_REQUESTS: SingleUseKind = { identifier: "authlib:saml-request", label: "authlib.saml-request:" };
/** The NameID format whose value is the user's address. */
const EMAIL_NAME_ID = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress";

/** Where the connection's SP lives under this instance: its entity id (the metadata's URL) and its ACS URL. */
export function samlEndpoints(options: Pick<InternalOptions, "authUrl">, connectionId: string) {
  const id = encodeURIComponent(connectionId);
  return { entityId: `${options.authUrl}/sso-metadata/${id}`, acsUrl: `${options.authUrl}/sso-acs/${id}` };
}

/** The SAML connection the request's path names, or `SsoSignInFailed` (`connectionGone`). */
async function samlConnectionOf(options: InternalOptions, request: RequestInternal): Promise<SamlConnection> {
  const id = request.providerId;
  const connection = id ? await storeOf(options).getSsoConnection(id) : null;
  if (!connection?.saml || connection.protocol !== "saml")
    throw failed("connectionGone", "This SSO connection does not exist (any more): ask your organization's admin.");
  traceConnection(request, connection);
  return connection as SamlConnection;
}

/** What the protocol core needs of `connection`: its SP (key decrypted), its IdP, its rules and the clock skew. */
async function settingsOf(options: InternalOptions, connection: SamlConnection): Promise<SamlConnectionSettings> {
  const { saml } = connection;
  const privateKeyPem = await openSecret(options.secret, connection.id, "saml.spPrivateKey", saml.spPrivateKey);
  return {
    connectionId: connection.id,
    sp: { ...samlEndpoints(options, connection.id), signingKey: { privateKeyPem, certificatePem: saml.spCertificate } },
    idp: { entityId: saml.idpEntityId, ssoUrl: saml.idpSsoUrl, certificates: saml.idpCertificates },
    signatureOn: saml.signatureOn,
    allowIdpInitiated: saml.allowIdpInitiated,
    clockSkewSeconds: options.config.sso?.clockSkew ?? 60,
  };
}

/** The request cookie's option (`options.cookies.ssoSamlRequest`, present with `sso`). */
function requestCookie(options: InternalOptions) {
  const cookie = options.cookies.ssoSamlRequest;
  if (!cookie) throw failed("configuration", "The SAML request cookie is not configured.");
  return cookie;
}

/** Sends the browser to `connection`'s identity provider with an `AuthnRequest`, its id sealed in this browser. */
export async function startSamlConnection(
  options: InternalOptions,
  request: RequestInternal,
  given: SsoConnection,
): Promise<ResponseInternal> {
  if (given.protocol !== "saml" || !given.saml) throw failed("protocol", "This connection is not a SAML connection.");
  const connection = given as SamlConnection;
  const { samlSignInRequest } = await import("./saml/request.js");
  const { redirectUrl, requestId } = await samlSignInRequest(await settingsOf(options, connection), { relayState: connection.id });
  const cookie = requestCookie(options);
  const pending: PendingRequest = {
    requestId,
    connectionId: connection.id,
    binding: await bindingOf(options.csrfToken, await currentSubject(options, request)),
  };
  const value = await encode({ token: { ...pending }, secret: options.secret, salt: cookie.name, maxAge: REQUEST_MAX_AGE });
  return { redirect: redirectUrl, cookies: [{ name: cookie.name, value, options: { ...cookie.options, maxAge: REQUEST_MAX_AGE } }] };
}

/** POST sso-acs/<connectionId>: the page that posts the response on, same-site (see the module comment). */
export async function samlAssertionConsumer(
  options: InternalOptions,
  request: RequestInternal,
  input: InputOf<typeof acsInput>,
): Promise<ResponseInternal> {
  const connection = await samlConnectionOf(options, request);
  const { samlContinuePage } = await import("./saml-continue-page.js");
  const action = `${options.authUrl}/sso-acs-continue/${encodeURIComponent(connection.id)}`;
  return samlContinuePage(options, request, { action, samlResponse: input.SAMLResponse, relayState: input.RelayState });
}

/** The request this browser started for `connection` (its id), or `undefined`: none, another's, or not this browser's. */
async function pendingRequestId(
  options: InternalOptions,
  request: RequestInternal,
  connection: SamlConnection,
): Promise<string | undefined> {
  const cookie = requestCookie(options);
  const sealed = request.cookies[cookie.name];
  const pending = sealed ? await decode<Partial<PendingRequest>>({ token: sealed, secret: options.secret, salt: cookie.name }) : null;
  if (!pending || pending.connectionId !== connection.id || typeof pending.requestId !== "string") return undefined;
  return bindingMatches(pending.binding, await requestBinding(options, request)) ? pending.requestId : undefined;
}

/**
 * The refusal of a response for the check `reason` (`saml.<reason>`): audited and on the span (never the
 * response); the error page says to start again.
 */
function refused(options: InternalOptions, request: RequestInternal, connection: SamlConnection, reason: string) {
  const refusal = failed(`saml.${reason}`, "The identity provider's answer was refused: sign in again.");
  recordSsoRefusal(options, request, connection, refusal.reason as string);
  return refusal;
}

/**
 * Claims the answer to `requestId` of `connectionId` once across instances (for as long as a request may
 * be answered); `false` when it was answered already.
 */
async function answerOnce(options: InternalOptions, connectionId: string, requestId: string): Promise<boolean> {
  const result = await claimOnce(options, ANSWERED_REQUESTS, `${connectionId}\u0000${requestId}`, Date.now() + REQUEST_MAX_AGE * 1000);
  if (result.claimed) return true;
  if (result.reason === "used") return false;
  throw failed("busy", "Too many SSO sign-ins are in progress on this server: try again in a few minutes.");
}

/**
 * Claims `assertionId` of `connectionId` once across instances; a full single-use memory refuses rather than
 * forget. Scoped by connection: another organization's IdP (whose admin picks its ids) cannot burn this one's.
 */
async function rememberAssertion(options: InternalOptions, connectionId: string, assertionId: string, keepUntil: number): Promise<boolean> {
  const result = await claimOnce(options, ASSERTIONS, `${connectionId}\u0000${assertionId}`, keepUntil * 1000);
  if (result.claimed) return true;
  if (result.reason === "used") return false;
  throw failed("busy", "Too many SSO sign-ins are in progress on this server: try again in a few minutes.");
}

/** The first value of attribute `name`, when it is a non-empty string. */
function firstValue(assertion: SamlAssertion, name: string): string | undefined {
  const value = assertion.attributes[name]?.[0];
  return value ? value : undefined;
}

/** The claims of a valid assertion, through the connection's attribute mapping (an emailAddress NameID is the address). */
export function samlClaims(connection: Pick<SsoConnection, "attributeMapping">, assertion: SamlAssertion): SsoClaims {
  const mapping = connection.attributeMapping;
  const claims: SsoClaims = { subject: assertion.nameId };
  const email =
    firstValue(assertion, mapping.email ?? "email") ?? (assertion.nameIdFormat === EMAIL_NAME_ID ? assertion.nameId : undefined);
  const name = firstValue(assertion, mapping.name ?? "name");
  const groups = assertion.attributes[mapping.groups ?? "groups"];
  if (email) claims.email = email;
  if (name) claims.name = name;
  if (groups) claims.groups = [...groups];
  return claims;
}

/** POST sso-acs-continue/<connectionId>: validates the response for this browser's request, then signs its subject in. */
export async function samlAssertionContinue(
  options: InternalOptions,
  request: RequestInternal,
  input: InputOf<typeof acsInput>,
): Promise<ResponseInternal> {
  const connection = await samlConnectionOf(options, request);
  const cookie = requestCookie(options);
  const cleared: Cookie = { name: cookie.name, value: "", options: { ...cookie.options, maxAge: 0 } };
  const { validateSamlResponse } = await import("./saml/response.js");
  let assertion: SamlAssertion;
  try {
    assertion = await validateSamlResponse(await settingsOf(options, connection), {
      samlResponse: input.SAMLResponse,
      expectedRequestId: await pendingRequestId(options, request, connection),
      rememberAssertion: (id, keepUntil) => rememberAssertion(options, connection.id, id, keepUntil),
    });
  } catch (error) {
    if (!(error instanceof SamlResponseRejected)) throw error;
    throw refused(options, request, connection, error.reason);
  }
  // Another assertion answering a request already answered (posted with the same cookies) is refused too.
  if (assertion.inResponseTo !== undefined && !(await answerOnce(options, connection.id, assertion.inResponseTo)))
    throw refused(options, request, connection, "requestAnswered");
  const signedIn = await ssoSignIn(options, request, connection, samlClaims(connection, assertion));
  return { ...signedIn, cookies: [cleared, ...(signedIn.cookies ?? [])] };
}

/** GET sso-metadata/<connectionId>: the connection's SP metadata (entity id, ACS URL, signing certificate). */
export async function samlMetadata(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal> {
  const connection = await samlConnectionOf(options, request);
  const { spMetadataXml } = await import("./saml/metadata.js");
  const sp = { ...samlEndpoints(options, connection.id), signingKey: { privateKeyPem: "", certificatePem: connection.saml.spCertificate } };
  return { status: 200, body: spMetadataXml(sp), headers: { "Content-Type": "application/samlmetadata+xml; charset=utf-8" } };
}
