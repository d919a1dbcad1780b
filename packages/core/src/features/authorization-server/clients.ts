/**
 * The clients: found by id (declared in the configuration first, then stored, then, for an https client
 * id when client-id metadata documents are on, fetched from that URL and kept), and authenticated at the
 * token, revocation and introspection endpoints by the one method each registered (no downgrade: a
 * confidential client cannot present itself as a public one).
 *
 * @module features/authorization-server/clients
 */
import { timingSafeEqual } from "../../crypto/compare.js";
import { sha256Hex } from "../../crypto/digest.js";
import type { OAuthClient } from "../../types/authorization-server.js";
import type { InternalOptions, RequestInternal } from "../../types/internal.js";
import { claimOnce, type SingleUseKind } from "../../webauthn/challenge-store.js";
import { decodeJws, verifiedBy } from "./jws.js";
import { OAuthError } from "./oauth-error.js";
import { single } from "./respond.js";
import { endpointUrl, issuerOf, settingsOf } from "./settings.js";
import { storeOf } from "./store.js";

const JWT_BEARER = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

/** The client with this id, or `undefined`. */
export async function findClient(options: InternalOptions, clientId: string): Promise<OAuthClient | undefined> {
  if (clientId === "" || clientId.length > 2048) return undefined;
  const declared = settingsOf(options).clients.get(clientId);
  if (declared) return declared.client;
  const stored = await storeOf(options).getOAuthClient(clientId);
  const documents = settingsOf(options).clientMetadataDocuments;
  if (!documents || !clientId.startsWith("https://")) return stored ?? undefined;
  const cacheFor = (documents.cacheFor ?? 3600) * 1000;
  if (stored && stored.source === "metadata-document" && Date.now() - stored.createdAt.getTime() < cacheFor) return stored;
  if (stored && stored.source !== "metadata-document") return stored;
  return documentClient(options, clientId, stored ?? undefined);
}

/** The client its metadata document describes, fetched now and kept (its `createdAt`: when it was fetched). */
async function documentClient(options: InternalOptions, clientId: string, stored: OAuthClient | undefined): Promise<OAuthClient> {
  const documents = settingsOf(options).clientMetadataDocuments || {};
  const { fetchClientDocument } = await import("./client-document.js");
  const { clientDocumentClient } = await import("./client-registration.js");
  const document = await fetchClientDocument(clientId, {
    allowPrivateAddresses: documents.allowPrivateAddresses ?? false,
    timeout: documents.timeout ?? 5000,
    maxBytes: documents.maxBytes ?? 5120,
    ...(documents.ca === undefined ? {} : { ca: documents.ca }),
  });
  const client = await clientDocumentClient(document, clientId, new Date());
  return stored ? storeOf(options).updateOAuthClient(client) : storeOf(options).createOAuthClient(client);
}

/** The client a request to the token, revocation or introspection endpoint comes from, proven by its method. */
export async function authenticateClient(options: InternalOptions, request: RequestInternal): Promise<OAuthClient> {
  const basic = basicCredentials(request);
  const assertion = single(request.body, "client_assertion");
  const bodyId = single(request.body, "client_id");
  const bodySecret = single(request.body, "client_secret");
  const methods = [basic, assertion, bodySecret].filter((given) => given !== undefined).length;
  if (methods > 1) throw new OAuthError("invalid_request", "Use one client authentication method.");
  const clientId = basic?.id ?? (assertion !== undefined ? await assertionSubject(assertion) : bodyId);
  if (clientId === undefined) throw new OAuthError("invalid_client", "The client is not identified.", 401);
  if (bodyId !== undefined && bodyId !== clientId) throw new OAuthError("invalid_request", "Two client ids disagree.");
  const client = await findClient(options, clientId);
  if (!client) throw new OAuthError("invalid_client", "Unknown client.", 401);
  const failed = new OAuthError("invalid_client", "Client authentication failed.", 401);
  switch (client.tokenEndpointAuthMethod) {
    case "none":
      if (basic || assertion !== undefined || bodySecret !== undefined) throw failed;
      return client;
    case "client_secret_basic":
      if (!basic || !(await secretMatches(options, client, basic.secret))) throw failed;
      return client;
    case "client_secret_post":
      if (bodySecret === undefined || !(await secretMatches(options, client, bodySecret))) throw failed;
      return client;
    case "private_key_jwt":
      if (assertion === undefined || single(request.body, "client_assertion_type") !== JWT_BEARER) throw failed;
      await verifyAssertion(options, client, assertion);
      return client;
  }
}

function basicCredentials(request: RequestInternal): { id: string; secret: string } | undefined {
  const header = request.headers.get("authorization");
  if (!header || !/^basic /i.test(header)) return undefined;
  let decoded: string;
  try {
    decoded = atob(header.slice(6).trim());
  } catch {
    throw new OAuthError("invalid_client", "The Basic credentials are not base64.", 401);
  }
  const colon = decoded.indexOf(":");
  if (colon < 0) throw new OAuthError("invalid_client", "The Basic credentials have no secret.", 401);
  try {
    // RFC 6749 §2.3.1: both parts are form-urlencoded before they are joined.
    const form = (part: string) => decodeURIComponent(part.replace(/\+/g, " "));
    return { id: form(decoded.slice(0, colon)), secret: form(decoded.slice(colon + 1)) };
  } catch {
    throw new OAuthError("invalid_client", "The Basic credentials are not form-encoded.", 401);
  }
}

async function secretMatches(options: InternalOptions, client: OAuthClient, given: string): Promise<boolean> {
  const declared = settingsOf(options).clients.get(client.clientId);
  const expected = declared ? declared.secret && (await sha256Hex(declared.secret)) : client.clientSecretHash;
  if (!expected) return false;
  return timingSafeEqual(await sha256Hex(given), expected);
}

/** The `sub` of a client assertion, read before its client (and so its keys) is known; verified after. */
async function assertionSubject(assertion: string): Promise<string> {
  try {
    const payload = JSON.parse(new TextDecoder().decode(base64UrlBytes(assertion.split(".")[1] ?? ""))) as { sub?: unknown; iss?: unknown };
    if (typeof payload.sub === "string" && payload.sub === payload.iss) return payload.sub;
  } catch {
    // answered below
  }
  throw new OAuthError("invalid_client", "The client assertion is not a JWT whose iss and sub name the client.", 401);
}

function base64UrlBytes(value: string): Uint8Array {
  const binary = atob(value.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

const MAX_ASSERTION_SECONDS = 300;
/** Client assertions, each used once (by its client and `jti`), on every instance that shares the adapter. */
const ASSERTIONS: SingleUseKind = { identifier: "authlib:oauth-client-assertion", label: "authlib.oauth-client-assertion:" };

async function verifyAssertion(options: InternalOptions, client: OAuthClient, assertion: string): Promise<void> {
  const failed = new OAuthError("invalid_client", "Client authentication failed.", 401);
  const jws = decodeJws(assertion);
  const jwk = jws && client.jwks?.find((key) => jws.header.kid === undefined || key.kid === jws.header.kid);
  if (!jws || !jwk || !(await verifiedBy(jws, jwk as JsonWebKey))) throw failed;
  const { iss, sub, aud, exp, iat, jti } = jws.payload;
  const now = Math.floor(Date.now() / 1000);
  const audiences = Array.isArray(aud) ? aud : [aud];
  const ours = [issuerOf(options), endpointUrl(options, "token")];
  if (iss !== client.clientId || sub !== client.clientId || !audiences.some((one) => ours.includes(one as string))) throw failed;
  // Short-lived (issued in the last 5 minutes, not yet expired), and used once.
  if (
    typeof exp !== "number" ||
    typeof iat !== "number" ||
    typeof jti !== "string" ||
    exp + 30 < now ||
    iat > now + 30 ||
    now - iat > MAX_ASSERTION_SECONDS
  )
    throw failed;
  // Kept until it can no longer be accepted: its expiry (with the skew), and at most 5 minutes after its issue.
  const until = (Math.min(exp, iat + MAX_ASSERTION_SECONDS) + 30) * 1000;
  if (!(await claimOnce(options, ASSERTIONS, `${client.clientId} ${jti}`, until)).claimed) throw failed;
}
