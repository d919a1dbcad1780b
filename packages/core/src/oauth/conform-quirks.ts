/**
 * The rewrites behind `provider.quirks`: requests and responses of providers that name or carry their
 * parameters differently from OAuth 2 (TikTok, WeChat, VK, WorkOS). `oauth/conform.ts` loads this
 * module only for a provider that declares quirks, so apps without such providers never load it; it
 * imports nothing at run time, so splitting it off costs the main bundle nothing. Nothing here relaxes
 * a security check: every rewritten response is still validated by oauth4webapi.
 *
 * @module oauth/conform-quirks
 */
import type { OAuthQuirks } from "../providers/types.js";
import type { ProviderFetchInit } from "./bounded-fetch.js";

/** What the token response reader hands over: the response, and its body parsed once. */
interface ParsedTokenResponse {
  response: Response;
  /** Whether the provider labelled the body JSON. */
  declaredJson: boolean;
}

/** The `ReadResponse` of `oauth/bounded-fetch.ts`, by shape (importing it would tie this chunk to the main one). */
interface MaybeReadResponse extends Response {
  parsed?: boolean;
  withJson?: (value: unknown) => Response;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function jsonResponse(response: Response, body: unknown, status: number): Response {
  const headers = new Headers(response.headers);
  headers.set("content-type", "application/json");
  headers.delete("content-length");
  return new Response(JSON.stringify(body), { status, statusText: status === response.status ? response.statusText : "", headers });
}

async function readBody({ response, declaredJson }: ParsedTokenResponse): Promise<unknown> {
  const read = response as MaybeReadResponse;
  // A ReadResponse hands out its parsed body without parsing again; anything else is read from a clone.
  if (declaredJson) return read.parsed === true ? read.json() : response.clone().json();
  return JSON.parse(await response.clone().text());
}

/**
 * A (status 200) token response with the provider's quirks undone:
 * - `tokenResponseIsJson`: a JSON body under another content type (WeChat's `text/plain`) is served as
 *   `application/json`, and an error reported with HTTP 200 (`{ errcode, errmsg }`) becomes the HTTP 400
 *   `{ error: "invalid_grant", error_description }` of RFC 6749 §5.2;
 * - `defaultTokenType`: that `token_type` when the response names none.
 * Anything that is not a JSON object is returned unchanged (oauth4webapi then reports it).
 */
export async function undoTokenResponseQuirks(response: Response, quirks: OAuthQuirks): Promise<Response> {
  const declaredJson = response.headers.get("content-type")?.includes("json") === true;
  if (!declaredJson && !quirks.tokenResponseIsJson) return response;
  // Declared JSON that did not parse: leave it for oauth4webapi to report.
  if (declaredJson && (response as MaybeReadResponse).parsed === false) return response;
  let body: unknown;
  try {
    body = await readBody({ response, declaredJson });
  } catch {
    return response;
  }
  if (!isRecord(body)) return response;
  if (quirks.tokenResponseIsJson && body.errcode !== undefined && body.errcode !== 0 && body.access_token === undefined) {
    const error = { error: "invalid_grant", error_description: `${String(body.errcode)} ${String(body.errmsg ?? "")}`.trim() };
    return jsonResponse(response, error, 400);
  }
  const needsTokenType = quirks.defaultTokenType !== undefined && body.token_type === undefined && typeof body.access_token === "string";
  if (declaredJson && !needsTokenType) return response;
  const conformed = needsTokenType ? { ...body, token_type: quirks.defaultTokenType } : body;
  const withJson = (response as MaybeReadResponse).withJson;
  if (declaredJson && typeof withJson === "function") return withJson.call(response, conformed);
  return jsonResponse(response, conformed, response.status);
}

/** The authorization URL with the provider's name for `client_id` and its required fragment. */
export function undoAuthorizationUrlQuirks(url: URL, quirks: OAuthQuirks): URL {
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
export function tokenFetchWithQuirks<F extends TokenFetch>(send: F, quirks: OAuthQuirks): F {
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
