/**
 * Tolerated deviations of real providers' token responses, rewritten into the standard form before
 * oauth4webapi validates them. Nothing here relaxes a security check.
 *
 * @module oauth/conform
 */
import { parsedJson, ReadResponse } from "./bounded-fetch.js";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The token endpoint response with `scope` as the space-delimited string of RFC 6749 §5.1 when the
 * provider sent a JSON array (Twitch does); any other response unchanged. The body is parsed once: a
 * {@link ReadResponse} (every provider request) is rewritten through its parsed value, which oauth4webapi
 * then reads without parsing again.
 */
export async function conformTokenResponse(response: Response): Promise<Response> {
  if (response.status !== 200 || !response.headers.get("content-type")?.includes("json")) return response;
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
