/**
 * Tolerated deviations of real providers from OAuth 2: token responses rewritten into the standard form
 * before oauth4webapi validates them, and the authorization and token requests of providers that name
 * or carry their parameters differently (`provider.quirks`, implemented in `oauth/conform-quirks.ts`
 * and loaded only for providers that declare quirks). Nothing here relaxes a security check.
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

function hasQuirks(quirks: OAuthQuirks | undefined): quirks is OAuthQuirks {
  return quirks !== undefined && Object.values(quirks).some((value) => value !== undefined);
}

/**
 * The token endpoint response in standard form: `scope` as the space-delimited string of RFC 6749 §5.1
 * when the provider sent a JSON array (Twitch does), then the provider's declared `quirks` undone (a
 * missing `token_type`, JSON sent as `text/plain`, an error reported with HTTP 200; see
 * `undoTokenResponseQuirks`). Any other response is unchanged. The body is parsed once: a
 * {@link ReadResponse} (every provider request) is rewritten through its parsed value, which oauth4webapi
 * then reads without parsing again.
 */
export async function conformTokenResponse(response: Response, quirks?: OAuthQuirks): Promise<Response> {
  if (response.status !== 200) return response;
  const conformed = await conformScope(response);
  if (!hasQuirks(quirks)) return conformed;
  const { undoTokenResponseQuirks } = await import("./conform-quirks.js");
  return undoTokenResponseQuirks(conformed, quirks);
}

async function conformScope(response: Response): Promise<Response> {
  if (!response.headers.get("content-type")?.includes("json")) return response;
  if (response instanceof ReadResponse && !response.parsed) return response;
  let body: unknown;
  try {
    body = await parsedJson(response);
  } catch {
    return response;
  }
  if (!isRecord(body) || !Array.isArray(body.scope)) return response;
  const scope = body.scope.filter((s): s is string => typeof s === "string").join(" ");
  if (response instanceof ReadResponse) return response.withJson({ ...body, scope });
  return new Response(JSON.stringify({ ...body, scope }), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/**
 * The authorization URL with the provider's own name for the client id parameter
 * (`quirks.clientIdParam`) and its required fragment (`quirks.authorizationFragment`).
 */
export async function conformAuthorizationUrl(url: URL, quirks?: OAuthQuirks): Promise<URL> {
  if (!hasQuirks(quirks)) return url;
  const { undoAuthorizationUrlQuirks } = await import("./conform-quirks.js");
  return undoAuthorizationUrlQuirks(url, quirks);
}

/**
 * Request options whose `fetch` sends token requests the way the provider expects: the client id and
 * secret parameters renamed (`quirks.clientIdParam`, `quirks.clientSecretParam`), and with
 * `quirks.tokenRequestMethod: "GET"` the form moved into the query of a GET. Without such quirks, the
 * options unchanged.
 */
export async function conformTokenRequestOptions<O extends ProviderRequestOptions>(options: O, quirks?: OAuthQuirks): Promise<O> {
  const { clientIdParam, clientSecretParam, tokenRequestMethod } = quirks ?? {};
  if (!clientIdParam && !clientSecretParam && !tokenRequestMethod) return options;
  const { tokenFetchWithQuirks } = await import("./conform-quirks.js");
  return { ...options, [oauth.customFetch]: tokenFetchWithQuirks(options[oauth.customFetch], quirks as OAuthQuirks) };
}
