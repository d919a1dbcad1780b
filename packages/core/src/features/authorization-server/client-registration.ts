/**
 * Client metadata into clients: an RFC 7591 registration request into a registered client (with its secret
 * and the registration response), and a Client ID Metadata Document (draft-ietf-oauth-client-id-metadata-document)
 * into the client its URL names.
 *
 * Both take the parsed JSON as `unknown` and trust none of it: each member the server uses is checked for
 * its type and value, every other member is ignored (and not stored, nor echoed). The size of the body is
 * the caller's to cap before parsing it (the registration endpoint reads at most 16 KiB; a metadata document
 * is fetched with `maxBytes`): nothing here bounds what `JSON.parse` was given. An optional member sent as
 * `null` counts as absent.
 *
 * @module features/authorization-server/client-registration
 */
import { sha256Hex } from "../../crypto/digest.js";
import type { ClientAuthMethod, ClientJwk, OAuthClient, OAuthGrantType } from "../../types/authorization-server.js";
import { OAuthError } from "./oauth-error.js";
import { checkRedirectUri } from "./redirect-uris.js";

const GRANT_TYPES: readonly OAuthGrantType[] = ["authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"];
const AUTH_METHODS: readonly ClientAuthMethod[] = ["none", "client_secret_basic", "client_secret_post", "private_key_jwt"];
/** The members of a JWK that are private (RSA, EC, OKP) or a shared secret (`oct`'s `k`). */
const PRIVATE_JWK_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"];

const MAX_REDIRECT_URIS = 10;
const MAX_NAME = 100;
const MAX_KEYS = 10;
const MAX_SCOPES = 100;
const MAX_URI = 2000;
/** The name shown for a client that gave none. */
const UNNAMED = "Unnamed client";
/** Controls, and the format characters that reorder or hide text on the consent page (bidi overrides, zero widths). */
const UNSHOWABLE = /[\p{Cc}\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/u;
/** RFC 6749 §3.3: `scope-token = 1*( %x21 / %x23-5B / %x5D-7E )`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/** The client a metadata body describes, before the server gives it an id and a secret. */
type ClientMetadata = Omit<OAuthClient, "clientId" | "clientSecretHash" | "source" | "createdAt">;

function invalid(description: string): never {
  throw new OAuthError("invalid_client_metadata", description);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The member, with `null` read as absent. */
function member(body: Record<string, unknown>, name: string): unknown {
  const value = Object.hasOwn(body, name) ? body[name] : undefined;
  return value === null ? undefined : value;
}

function stringArray(value: unknown, name: string): string[] {
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) invalid(`${name} must be an array of strings.`);
  return [...new Set(value as string[])];
}

function grantTypes(value: unknown): OAuthGrantType[] {
  if (value === undefined) return ["authorization_code"];
  const grants = stringArray(value, "grant_types");
  if (grants.length === 0) invalid("grant_types must name at least one grant.");
  for (const grant of grants) {
    if (!(GRANT_TYPES as readonly string[]).includes(grant)) {
      invalid(`The grant type ${JSON.stringify(grant)} is not supported (only ${GRANT_TYPES.join(", ")}).`);
    }
  }
  if (grants.length === 1 && grants[0] === "refresh_token") invalid("refresh_token needs authorization_code or the device grant.");
  return grants as OAuthGrantType[];
}

function checkResponseTypes(value: unknown, grants: readonly OAuthGrantType[]): void {
  if (value === undefined) return;
  const types = stringArray(value, "response_types");
  for (const type of types) if (type !== "code") invalid(`The response type ${JSON.stringify(type)} is not supported (only code).`);
  if (types.length > 0 && !grants.includes("authorization_code")) invalid("response_types code needs the authorization_code grant.");
}

function redirectUris(value: unknown, grants: readonly OAuthGrantType[]): string[] {
  if (value === undefined) {
    if (grants.includes("authorization_code")) invalid("redirect_uris is required for the authorization_code grant.");
    return [];
  }
  const uris = stringArray(value, "redirect_uris");
  if (grants.includes("authorization_code") && uris.length === 0) invalid("redirect_uris must name at least one URI.");
  if (uris.length > MAX_REDIRECT_URIS) invalid(`redirect_uris may name at most ${MAX_REDIRECT_URIS} URIs.`);
  for (const uri of uris) checkRedirectUri(uri, { allowHttp: "loopback" });
  return uris;
}

function clientName(value: unknown): string {
  if (value === undefined) return UNNAMED;
  if (typeof value !== "string") invalid("client_name must be a string.");
  if (value.trim() === "") invalid("client_name must not be empty.");
  if ([...value].length > MAX_NAME) invalid(`client_name must be at most ${MAX_NAME} characters.`);
  if (UNSHOWABLE.test(value)) invalid("client_name must not contain control or text-direction characters.");
  return value;
}

function scopes(value: unknown): string[] | null {
  if (value === undefined) return null;
  if (typeof value !== "string") invalid("scope must be a string of space-separated scopes.");
  const tokens = value.split(" ");
  if (!tokens.every((token) => SCOPE_TOKEN.test(token))) invalid("scope must be scope tokens separated by single spaces.");
  if (tokens.length > MAX_SCOPES) invalid(`scope may name at most ${MAX_SCOPES} scopes.`);
  return [...new Set(tokens)];
}

function httpsUri(value: unknown, name: string): string | null {
  if (value === undefined) return null;
  if (typeof value !== "string" || value.length > MAX_URI) invalid(`${name} must be a URI of at most ${MAX_URI} characters.`);
  if (/[^\x21-\x7e]|\\/.test(value)) invalid(`${name} has characters a URI cannot have.`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    invalid(`${name} must be an absolute URI.`);
  }
  if (url.protocol !== "https:" || !value.toLowerCase().startsWith("https://")) invalid(`${name} must be an https: URI.`);
  if (url.username !== "" || url.password !== "" || /^https:\/\/[^/?#]*@/i.test(value)) invalid(`${name} must not have userinfo.`);
  return value;
}

function authMethod(value: unknown, allowed: readonly ClientAuthMethod[]): ClientAuthMethod {
  if (value === undefined) return "none";
  if (typeof value !== "string" || !(allowed as readonly string[]).includes(value)) {
    invalid(`token_endpoint_auth_method must be one of ${allowed.join(", ")}.`);
  }
  return value as ClientAuthMethod;
}

function publicKeys(body: Record<string, unknown>): ClientJwk[] {
  if (member(body, "jwks_uri") !== undefined) invalid("jwks_uri is not supported: give the keys inline, in jwks.");
  const jwks = member(body, "jwks");
  if (!isObject(jwks) || !Array.isArray(jwks.keys)) invalid("private_key_jwt needs jwks, an object with an array of keys.");
  const keys = jwks.keys as unknown[];
  if (keys.length === 0 || keys.length > MAX_KEYS) invalid(`jwks must have 1 to ${MAX_KEYS} keys.`);
  for (const key of keys) {
    if (!isObject(key) || typeof key.kty !== "string") invalid("Each key in jwks must be a JWK with a kty.");
    if (key.kty === "oct") invalid("jwks must not have a symmetric (oct) key.");
    const secret = PRIVATE_JWK_MEMBERS.find((name) => Object.hasOwn(key, name));
    if (secret) invalid(`jwks must have public keys only (a key has the private member ${secret}).`);
  }
  return keys as ClientJwk[];
}

/** The checked metadata of a registration request or a metadata document. */
function clientMetadata(body: unknown, methods: readonly ClientAuthMethod[]): ClientMetadata {
  if (!isObject(body)) invalid("The client metadata must be a JSON object.");
  const grants = grantTypes(member(body, "grant_types"));
  checkResponseTypes(member(body, "response_types"), grants);
  const tokenEndpointAuthMethod = authMethod(member(body, "token_endpoint_auth_method"), methods);
  return {
    name: clientName(member(body, "client_name")),
    redirectUris: redirectUris(member(body, "redirect_uris"), grants),
    grantTypes: grants,
    tokenEndpointAuthMethod,
    scopes: scopes(member(body, "scope")),
    jwks: tokenEndpointAuthMethod === "private_key_jwt" ? publicKeys(body) : null,
    clientUri: httpsUri(member(body, "client_uri"), "client_uri"),
    logoUri: httpsUri(member(body, "logo_uri"), "logo_uri"),
  };
}

/** What {@link registeredClient} makes of a registration request. */
export interface RegisteredClient {
  /** The client to store (its secret only as `clientSecretHash`). */
  client: OAuthClient;
  /** The secret, shown once in the response (`null` for a public or `private_key_jwt` client). */
  clientSecret: string | null;
  /** The RFC 7591 §3.2.1 response body: the client's id, its secret when it has one, and its metadata. */
  response: Record<string, unknown>;
}

/**
 * The client an RFC 7591 registration request (`metadata`, the parsed JSON body, which the caller has capped
 * in size) describes, with an id from `newId`, and, for `client_secret_basic`/`client_secret_post`, a secret
 * from `newSecret` (stored as its SHA-256 hex). Checked: `redirect_uris` (1–10, each by `checkRedirectUri`,
 * required with the `authorization_code` grant), `client_name` (≤ 100 characters, no control or
 * text-direction characters; default "Unnamed client"), `grant_types` (`authorization_code`,
 * `refresh_token`, the device grant; default `authorization_code`), `response_types` (`code`),
 * `token_endpoint_auth_method` (default `none`; `private_key_jwt` with inline public `jwks`), `scope`,
 * `client_uri` and `logo_uri` (https). Throws `OAuthError("invalid_client_metadata")`, or
 * `OAuthError("invalid_redirect_uri")` for a redirect URI. Whether the client is admitted is the caller's
 * decision (`registration.admit`).
 */
export async function registeredClient(
  metadata: unknown,
  now: Date,
  newId: () => string,
  newSecret: () => string,
): Promise<RegisteredClient> {
  const checked = clientMetadata(metadata, AUTH_METHODS);
  const confidential =
    checked.tokenEndpointAuthMethod === "client_secret_basic" || checked.tokenEndpointAuthMethod === "client_secret_post";
  const clientSecret = confidential ? newSecret() : null;
  const client: OAuthClient = {
    clientId: newId(),
    clientSecretHash: clientSecret === null ? null : await sha256Hex(clientSecret),
    ...checked,
    source: "registered",
    createdAt: now,
  };
  return { client, clientSecret, response: registrationResponse(client, clientSecret) };
}

/** RFC 7591 §3.2.1: the client's id and, when it has one, its secret (which never expires), then its metadata. */
function registrationResponse(client: OAuthClient, clientSecret: string | null): Record<string, unknown> {
  const response: Record<string, unknown> = {
    client_id: client.clientId,
    client_id_issued_at: Math.floor(client.createdAt.getTime() / 1000),
  };
  if (clientSecret !== null) {
    response.client_secret = clientSecret;
    response.client_secret_expires_at = 0;
  }
  response.client_name = client.name;
  response.redirect_uris = client.redirectUris;
  response.grant_types = client.grantTypes;
  response.response_types = client.grantTypes.includes("authorization_code") ? ["code"] : [];
  response.token_endpoint_auth_method = client.tokenEndpointAuthMethod;
  if (client.scopes) response.scope = client.scopes.join(" ");
  if (client.jwks) response.jwks = { keys: client.jwks };
  if (client.clientUri) response.client_uri = client.clientUri;
  if (client.logoUri) response.logo_uri = client.logoUri;
  return response;
}

/**
 * The client a Client ID Metadata Document describes: `document` (the parsed JSON fetched from
 * `clientIdUrl`) must be an object whose `client_id` is `clientIdUrl`, character for character; it may
 * authenticate with `none` or `private_key_jwt` (inline public `jwks`) only, never with a shared secret (a
 * document with `client_secret` is refused); its other members are checked as a registration's. Throws
 * `OAuthError("invalid_client")` saying what of the document was wrong.
 */
export function clientDocumentClient(document: unknown, clientIdUrl: string, now: Date): OAuthClient {
  try {
    if (!isObject(document)) invalid("it is not a JSON object.");
    if (document.client_id !== clientIdUrl) invalid("its client_id is not the URL it was fetched from.");
    if (Object.hasOwn(document, "client_secret") || Object.hasOwn(document, "client_secret_expires_at")) {
      invalid("it has a client_secret (a public document cannot hold a secret).");
    }
    const checked = clientMetadata(document, ["none", "private_key_jwt"]);
    return { clientId: clientIdUrl, clientSecretHash: null, ...checked, source: "metadata-document", createdAt: now };
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    throw new OAuthError("invalid_client", `The client's metadata document (${clientIdUrl}) is not usable: ${error.description}`);
  }
}
