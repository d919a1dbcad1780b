/**
 * Tolerated deviations of real providers from OAuth 2: token responses rewritten into the standard form
 * before oauth4webapi validates them (`provider.tokenResponseQuirks`), and the authorization and token
 * requests of providers that name or carry their parameters differently (`provider.requestQuirks`).
 * The rarer rewrites live in `oauth/conform-quirks.ts`, loaded only for a provider that needs them.
 * Nothing here relaxes a security check.
 *
 * @module oauth/conform
 */
import * as oauth from "oauth4webapi";
import type { OAuthRequestQuirks, TokenResponseQuirk } from "../types/providers.js";
import { parsedJson, ReadResponse } from "./bounded-fetch.js";
import type { ProviderRequestOptions } from "./http.js";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The body with the declared quirks rewritten, or `undefined` when nothing changes. */
function conformedBody(body: Record<string, unknown>, quirks: readonly TokenResponseQuirk[]): Record<string, unknown> | undefined {
  let result = body;
  if (quirks.includes("data-envelope") && Array.isArray(result.data) && result.data.length === 1 && isRecord(result.data[0])) {
    result = { ...result.data[0] };
  }
  if (quirks.includes("token-type-missing") && result.token_type === undefined && typeof result.access_token === "string") {
    result = { ...result, token_type: "bearer" };
  }
  if (Array.isArray(result.scope)) {
    result = { ...result, scope: result.scope.filter((s): s is string => typeof s === "string").join(" ") };
  }
  return result === body ? undefined : result;
}

/**
 * The token endpoint response in the standard form: `scope` as the space-delimited string of RFC 6749
 * §5.1 when the provider sent a JSON array (Twitch does), and the provider's declared
 * {@link TokenResponseQuirk}s rewritten; any other response unchanged. The body is parsed once: a
 * {@link ReadResponse} (every provider request) is rewritten through its parsed value, which oauth4webapi
 * then reads without parsing again.
 */
export async function conformTokenResponse(response: Response, quirks: readonly TokenResponseQuirk[] = []): Promise<Response> {
  if (response.status !== 200) return response;
  if (!response.headers.get("content-type")?.includes("json")) {
    if (!quirks.includes("json-as-text")) return response;
    const { jsonSentAsText } = await import("./conform-quirks.js");
    response = await jsonSentAsText(response);
    if (response.status !== 200 || !response.headers.get("content-type")?.includes("json")) return response;
  }
  if (response instanceof ReadResponse && !response.parsed) return response;
  let body: unknown;
  try {
    body = await parsedJson(response);
  } catch {
    return response;
  }
  if (!isRecord(body)) return response;
  const conformed = conformedBody(body, quirks);
  if (conformed === undefined) return response;
  if (response instanceof ReadResponse) return response.withJson(conformed);
  return new Response(JSON.stringify(conformed), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/**
 * The authorization URL with the provider's own name for the client id parameter
 * (`requestQuirks.clientIdParam`) and its required fragment (`requestQuirks.authorizationFragment`).
 */
export async function conformAuthorizationUrl(url: URL, quirks: OAuthRequestQuirks = {}): Promise<URL> {
  if (!quirks.clientIdParam && !quirks.authorizationFragment) return url;
  const { undoAuthorizationUrlQuirks } = await import("./conform-quirks.js");
  return undoAuthorizationUrlQuirks(url, quirks);
}

/**
 * Request options whose `fetch` sends token requests the way the provider expects: the client id and
 * secret parameters renamed (`requestQuirks.clientIdParam`, `clientSecretParam`), and with
 * `tokenRequestMethod: "GET"` the form moved into the query of a GET. Without such quirks, the options
 * unchanged.
 */
export async function conformTokenRequestOptions<O extends ProviderRequestOptions>(
  options: O,
  quirks: OAuthRequestQuirks = {},
): Promise<O> {
  if (!quirks.clientIdParam && !quirks.clientSecretParam && !quirks.tokenRequestMethod) return options;
  const { tokenFetchWithQuirks } = await import("./conform-quirks.js");
  return { ...options, [oauth.customFetch]: tokenFetchWithQuirks(options[oauth.customFetch], quirks) };
}
