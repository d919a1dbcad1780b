/**
 * Tolerated deviations of real providers' token responses, rewritten into the standard form before
 * oauth4webapi validates them. Nothing here relaxes a security check.
 *
 * @module oauth/conform
 */
import type { TokenResponseQuirk } from "../providers/types.js";
import { parsedJson, ReadResponse } from "./bounded-fetch.js";

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
  if (response.status !== 200 || !response.headers.get("content-type")?.includes("json")) return response;
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
