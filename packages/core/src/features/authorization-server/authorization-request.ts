/**
 * An authorization request (RFC 6749 §4.1.1 with OAuth 2.1's rules), checked in the order that decides
 * where a refusal goes: an unknown client or a redirect URI that is not the client's is shown on the error
 * page (never sent anywhere); every later refusal goes back to the checked redirect URI with `state` and
 * `iss` (RFC 9207). PKCE with S256 is required; `plain`, the implicit and hybrid flows do not exist here.
 *
 * @module features/authorization-server/authorization-request
 */
import type { OAuthClient } from "../../types/authorization-server.js";
import type { InternalOptions, RequestInternal } from "../../types/internal.js";
import { findClient } from "./clients.js";
import { OAuthError } from "./oauth-error.js";
import { isPkceChallenge } from "./pkce.js";
import { redirectUriMatches } from "./redirect-uris.js";
import { allowedResources, settingsOf } from "./settings.js";

/** A checked authorization request. */
export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  scopes: string[];
  resources: string[];
  state: string | null;
  codeChallenge: string;
  nonce: string | null;
  prompt: "none" | "login" | "consent" | null;
  maxAge: number | null;
}

/** A refusal that goes back to the client's redirect URI (the URI is checked already). */
export class RedirectedError extends Error {
  constructor(
    readonly redirectUri: string,
    readonly state: string | null,
    readonly error: OAuthError,
  ) {
    super(error.message);
  }
}

const ONCE = [
  "client_id",
  "redirect_uri",
  "response_type",
  "scope",
  "state",
  "code_challenge",
  "code_challenge_method",
  "nonce",
  "prompt",
  "max_age",
];

/** The checked request of `GET oauth2/authorize`, with its client; throws `OAuthError` (error page) or `RedirectedError`. */
export async function checkedAuthorizationRequest(
  options: InternalOptions,
  request: RequestInternal,
): Promise<{ authorization: AuthorizationRequest; client: OAuthClient }> {
  const params = request.url.searchParams;
  const clientId = params.get("client_id");
  if (!clientId || params.getAll("client_id").length > 1) throw new OAuthError("invalid_request", "The request names no client.");
  const client = await findClient(options, clientId);
  if (!client) throw new OAuthError("invalid_client", "This client is not known here.");
  const redirectUri = chosenRedirectUri(client, params);
  const state = params.get("state");
  const refuse = (code: string, description: string) => new RedirectedError(redirectUri, state, new OAuthError(code, description));
  for (const name of ONCE) if (params.getAll(name).length > 1) throw refuse("invalid_request", `"${name}" is given more than once.`);
  if (params.has("request") || params.has("request_uri")) throw refuse("request_not_supported", "Request objects are not supported.");
  const responseType = params.get("response_type");
  if (responseType !== "code")
    throw refuse("unsupported_response_type", "Only the authorization code flow (response_type=code) is supported.");
  if (!client.grantTypes.includes("authorization_code"))
    throw refuse("unauthorized_client", "This client may not use the authorization code flow.");
  const codeChallenge = params.get("code_challenge");
  if (!codeChallenge) throw refuse("invalid_request", "PKCE is required: send code_challenge with code_challenge_method=S256.");
  if (params.get("code_challenge_method") !== "S256") throw refuse("invalid_request", "Only the S256 PKCE method is supported.");
  if (!isPkceChallenge(codeChallenge)) throw refuse("invalid_request", "The code_challenge is not a base64url SHA-256.");
  const scopes = checkedScopes(options, client, params.get("scope"), refuse);
  const resources = checkedResources(options, params.getAll("resource"), refuse);
  const prompt = checkedPrompt(params.get("prompt"), refuse);
  const maxAgeText = params.get("max_age");
  if (maxAgeText !== null && !/^(0|[1-9][0-9]{0,8})$/.test(maxAgeText))
    throw refuse("invalid_request", "max_age must be a number of seconds.");
  const nonce = params.get("nonce");
  if (nonce !== null && nonce.length > 512) throw refuse("invalid_request", "The nonce is too long.");
  return {
    client,
    authorization: {
      clientId: client.clientId,
      redirectUri,
      scopes,
      resources,
      state,
      codeChallenge,
      nonce,
      prompt,
      maxAge: maxAgeText === null ? null : Number(maxAgeText),
    },
  };
}

/** The redirect URI: the one asked for when it is the client's (exactly; a loopback one on any port), else the client's only one. */
function chosenRedirectUri(client: OAuthClient, params: URLSearchParams): string {
  const asked = params.getAll("redirect_uri");
  if (asked.length > 1) throw new OAuthError("invalid_request", "redirect_uri is given more than once.");
  const [uri] = asked;
  if (uri === undefined) {
    if (client.redirectUris.length === 1) return client.redirectUris[0] as string;
    throw new OAuthError("invalid_request", "The request names no redirect_uri, and this client has several.");
  }
  if (!redirectUriMatches(client.redirectUris, uri))
    throw new OAuthError("invalid_request", "This redirect_uri is not one of the client's.");
  return uri;
}

type Refuse = (code: string, description: string) => RedirectedError;

/** The scopes asked for: each known to the server and allowed to the client; `offline_access` only with refresh tokens. */
export function checkedScopes(
  options: InternalOptions,
  client: OAuthClient,
  given: string | null,
  refuse: (code: string, description: string) => Error,
): string[] {
  const scopes = [...new Set((given ?? "").split(" ").filter(Boolean))];
  const known = settingsOf(options).scopes;
  for (const scope of scopes) {
    if (!Object.hasOwn(known, scope)) throw refuse("invalid_scope", `The scope "${scope.slice(0, 64)}" is not known here.`);
    if (client.scopes && !client.scopes.includes(scope)) throw refuse("invalid_scope", `This client may not ask for "${scope}".`);
  }
  if (scopes.includes("offline_access") && !client.grantTypes.includes("refresh_token"))
    throw refuse("invalid_scope", "This client may not have refresh tokens (offline_access).");
  return scopes;
}

/** The resources (RFC 8707) asked for: absolute URLs the server issues tokens for; none asked: the first of them. */
export function checkedResources(
  options: InternalOptions,
  given: string[],
  refuse: (code: string, description: string) => Error,
): string[] {
  const allowed = allowedResources(options);
  if (given.length === 0) return [allowed[0] as string];
  for (const resource of given)
    if (!allowed.includes(resource)) throw refuse("invalid_target", "A resource asked for is not one this server issues tokens for.");
  return [...new Set(given)];
}

function checkedPrompt(given: string | null, refuse: Refuse): AuthorizationRequest["prompt"] {
  if (given === null || given === "") return null;
  const values = given.split(" ");
  if (values.includes("none") && values.length > 1) throw refuse("invalid_request", "prompt=none cannot go with another prompt.");
  if (values.includes("login")) return "login";
  if (values.includes("consent")) return "consent";
  if (values.includes("none")) return "none";
  return null;
}

/** Where a refusal goes back to the client: its redirect URI with `error`, `error_description`, `state` and `iss`. */
export function errorRedirect(issuer: string, refused: RedirectedError): string {
  const url = new URL(refused.redirectUri);
  url.searchParams.set("error", refused.error.code);
  url.searchParams.set("error_description", refused.error.description);
  if (refused.state !== null) url.searchParams.set("state", refused.state);
  url.searchParams.set("iss", issuer);
  return url.href;
}
