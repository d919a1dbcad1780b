/**
 * Tolerated deviations of real providers from OAuth 2: token responses rewritten into the standard form
 * before oauth4webapi validates them, and the authorization and token requests of providers that name
 * or carry their parameters differently (`provider.quirks`). Nothing here relaxes a security check.
 *
 * @module oauth/conform
 */
import * as oauth from "oauth4webapi";
import type { OAuthQuirks } from "../providers/types.js";
import { parsedJson, ReadResponse } from "./bounded-fetch.js";
import type { ProviderRequestOptions } from "./http.js";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The token endpoint response in standard form:
 * - `scope` as the space-delimited string of RFC 6749 §5.1 when the provider sent a JSON array (Twitch);
 * - with `quirks.tokenResponseIsJson`, a JSON body under another content type (WeChat's `text/plain`) as
 *   `application/json`, and an error the provider reports with HTTP 200 (`{ errcode, errmsg }`) as the
 *   HTTP 400 `{ error, error_description }` of RFC 6749 §5.2;
 * - with `quirks.defaultTokenType`, that `token_type` when the response has none (WeChat, VK, WorkOS).
 *
 * Any other response is unchanged. The body is parsed once: a {@link ReadResponse} (every provider
 * request) is rewritten through its parsed value, which oauth4webapi then reads without parsing again.
 */
export async function conformTokenResponse(response: Response, quirks: OAuthQuirks = {}): Promise<Response> {
  if (response.status !== 200) return response;
  const declaredJson = response.headers.get("content-type")?.includes("json") === true;
  if (!declaredJson && !quirks.tokenResponseIsJson) return response;
  if (declaredJson && response instanceof ReadResponse && !response.parsed) return response;
  let body: unknown;
  try {
    body = declaredJson ? await parsedJson(response) : JSON.parse(await response.clone().text());
  } catch {
    return response;
  }
  if (!isRecord(body)) return response;
  if (quirks.tokenResponseIsJson && body.errcode !== undefined && body.errcode !== 0 && body.access_token === undefined) {
    const error = { error: "invalid_grant", error_description: `${String(body.errcode)} ${String(body.errmsg ?? "")}`.trim() };
    return jsonResponse(response, error, 400);
  }
  let changed = !declaredJson;
  const conformed: Record<string, unknown> = { ...body };
  if (Array.isArray(body.scope)) {
    conformed.scope = body.scope.filter((s): s is string => typeof s === "string").join(" ");
    changed = true;
  }
  if (quirks.defaultTokenType && conformed.token_type === undefined && typeof conformed.access_token === "string") {
    conformed.token_type = quirks.defaultTokenType;
    changed = true;
  }
  if (!changed) return response;
  if (declaredJson && response instanceof ReadResponse) return response.withJson(conformed);
  return jsonResponse(response, conformed, response.status);
}

function jsonResponse(response: Response, body: unknown, status: number): Response {
  const headers = new Headers(response.headers);
  headers.set("content-type", "application/json");
  headers.delete("content-length");
  return new Response(JSON.stringify(body), { status, statusText: status === response.status ? response.statusText : "", headers });
}

/**
 * The authorization URL with the provider's own name for the client id parameter
 * (`quirks.clientIdParam`) and its required fragment (`quirks.authorizationFragment`).
 */
export function conformAuthorizationUrl(url: URL, quirks: OAuthQuirks = {}): URL {
  const { clientIdParam, authorizationFragment } = quirks;
  const clientId = url.searchParams.get("client_id");
  if (clientIdParam && clientId !== null) {
    url.searchParams.delete("client_id");
    url.searchParams.set(clientIdParam, clientId);
  }
  if (authorizationFragment) url.hash = authorizationFragment;
  return url;
}

/**
 * Request options whose `fetch` sends token requests the way the provider expects: the client id and
 * secret parameters renamed (`quirks.clientIdParam`, `quirks.clientSecretParam`), and with
 * `quirks.tokenRequestMethod: "GET"` the form moved into the query of a GET. Without such quirks, the
 * options unchanged.
 */
export function conformTokenRequestOptions<O extends ProviderRequestOptions>(options: O, quirks: OAuthQuirks = {}): O {
  const { clientIdParam, clientSecretParam, tokenRequestMethod } = quirks;
  if (!clientIdParam && !clientSecretParam && !tokenRequestMethod) return options;
  const send = options[oauth.customFetch];
  const conformedFetch: typeof send = (url, init = {}) => {
    if (!(init.body instanceof URLSearchParams)) return send(url, init);
    const form = new URLSearchParams(init.body);
    renameParam(form, "client_id", clientIdParam);
    renameParam(form, "client_secret", clientSecretParam);
    if (tokenRequestMethod !== "GET") return send(url, { ...init, body: form });
    const target = new URL(url);
    for (const [key, value] of form) target.searchParams.set(key, value);
    const headers = new Headers(init.headers);
    headers.delete("content-type");
    return send(target.href, { ...init, method: "GET", body: null, headers });
  };
  return { ...options, [oauth.customFetch]: conformedFetch };
}

function renameParam(form: URLSearchParams, from: string, to: string | undefined): void {
  const value = form.get(from);
  if (!to || value === null) return;
  form.delete(from);
  form.set(to, value);
}
