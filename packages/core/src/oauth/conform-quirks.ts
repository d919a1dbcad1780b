/**
 * The rarer provider rewrites of `oauth/conform.ts`: authorization and token requests of providers that
 * name or carry their parameters differently from OAuth 2 (`requestQuirks`: TikTok, WeChat), and token
 * responses sent as text (`tokenResponseQuirks: ["json-as-text"]`: WeChat). `oauth/conform.ts` loads this
 * module only for a provider that declares quirks, so apps without such providers never load it; it
 * imports nothing at run time, so splitting it off adds no shared chunk to the main bundle. Nothing here relaxes
 * a security check: every rewritten response is still validated by oauth4webapi.
 *
 * @module oauth/conform-quirks
 */
import type { OAuthRequestQuirks } from "../types/providers.js";
import type { ProviderFetchInit } from "./bounded-fetch.js";

function jsonResponse(response: Response, body: unknown, status: number): Response {
  const headers = new Headers(response.headers);
  headers.set("content-type", "application/json");
  headers.delete("content-length");
  return new Response(JSON.stringify(body), { status, statusText: status === response.status ? response.statusText : "", headers });
}

/**
 * The `"json-as-text"` token response quirk (WeChat): a JSON object sent as `text/plain` is served as
 * `application/json`, and an error reported with HTTP 200 (`{ errcode, errmsg }`) becomes the HTTP 400
 * `{ error: "invalid_grant", error_description }` of RFC 6749 §5.2. A body that is no JSON object is
 * returned unchanged (oauth4webapi then reports it).
 */
export async function jsonSentAsText(response: Response): Promise<Response> {
  let body: unknown;
  try {
    body = JSON.parse(await response.clone().text());
  } catch {
    return response;
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) return response;
  const record = body as Record<string, unknown>;
  if (record.errcode !== undefined && record.errcode !== 0 && record.access_token === undefined) {
    const error = { error: "invalid_grant", error_description: `${String(record.errcode)} ${String(record.errmsg ?? "")}`.trim() };
    return jsonResponse(response, error, 400);
  }
  return jsonResponse(response, record, response.status);
}

/** The authorization URL with the provider's name for `client_id` and its required fragment. */
export function undoAuthorizationUrlQuirks(url: URL, quirks: OAuthRequestQuirks): URL {
  const { clientIdParam, authorizationFragment } = quirks;
  const clientId = url.searchParams.get("client_id");
  if (clientIdParam && clientId !== null) {
    url.searchParams.delete("client_id");
    url.searchParams.set(clientIdParam, clientId);
  }
  if (authorizationFragment) url.hash = authorizationFragment;
  return url;
}

function renameParam(form: URLSearchParams, from: string, to: string | undefined): void {
  const value = form.get(from);
  if (!to || value === null) return;
  form.delete(from);
  form.set(to, value);
}

/** A fetch as oauth4webapi calls it. */
export type TokenFetch = (url: string, init?: ProviderFetchInit) => Promise<Response>;

/**
 * `send` wrapped so token requests go out the way the provider expects: client id and secret
 * parameters renamed, and with `tokenRequestMethod: "GET"` the form moved into the query of a GET.
 */
export function tokenFetchWithQuirks<F extends TokenFetch>(send: F, quirks: OAuthRequestQuirks): F {
  const { clientIdParam, clientSecretParam, tokenRequestMethod } = quirks;
  const conformed: TokenFetch = (url, init = {}) => {
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
  return conformed as F;
}
