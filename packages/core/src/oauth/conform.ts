/**
 * Tolerated deviations of real providers' token responses, rewritten into the standard form before
 * oauth4webapi validates them. Nothing here relaxes a security check.
 *
 * @module oauth/conform
 */

/**
 * The token endpoint response with `scope` as the space-delimited string of RFC 6749 §5.1 when the
 * provider sent a JSON array (Twitch does); any other response unchanged.
 */
export async function conformTokenResponse(response: Response): Promise<Response> {
  if (response.status !== 200 || !response.headers.get("content-type")?.includes("json")) return response;
  let body: unknown;
  try {
    body = await response.clone().json();
  } catch {
    return response;
  }
  if (typeof body !== "object" || body === null || !Array.isArray((body as { scope?: unknown }).scope)) return response;
  const scope = ((body as { scope: unknown[] }).scope as unknown[]).filter((s): s is string => typeof s === "string").join(" ");
  return new Response(JSON.stringify({ ...body, scope }), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
