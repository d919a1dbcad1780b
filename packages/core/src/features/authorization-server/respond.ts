/**
 * The answers of the OAuth endpoints: JSON that is never cached (RFC 6749 §5.1), readable from any origin
 * (the endpoints take no cookie: a browser-based client such as an MCP inspector calls them with `fetch`),
 * and an `OAuthError` as `{ error, error_description }` with its status.
 *
 * @module features/authorization-server/respond
 */
import { noStoreHeaders } from "../../http/response.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../../types/internal.js";
import { OAuthError } from "./oauth-error.js";

/** Any origin may read the answer; no credentials are sent with it. */
export const CORS = { "Access-Control-Allow-Origin": "*" } as const;

/** A JSON answer of an endpoint. */
export function oauthJson<Body>(body: Body, status = 200, headers: Record<string, string> = {}): ResponseInternal<Body> {
  return { status, body, headers: { "Content-Type": "application/json", ...noStoreHeaders, ...CORS, ...headers } };
}

/** The answer of a refusal. `invalid_client` after an `Authorization: Basic` header also names the scheme (RFC 6749 §5.2). */
export function oauthFailure(error: OAuthError, basic = false): ResponseInternal<{ error: string; error_description: string }> {
  const headers: Record<string, string> = error.status === 401 && basic ? { "WWW-Authenticate": 'Basic realm="oauth"' } : {};
  return oauthJson({ error: error.code, error_description: error.description }, error.status, headers);
}

/** An endpoint's handler whose `OAuthError` is its answer (any other error is the pipeline's). */
export function oauthEndpoint(
  handler: (options: InternalOptions, request: RequestInternal) => Promise<ResponseInternal>,
): (options: InternalOptions, request: RequestInternal) => Promise<ResponseInternal> {
  return async (options, request) => {
    try {
      return await handler(options, request);
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      const answer = oauthFailure(error, /^basic /i.test(request.headers.get("authorization") ?? ""));
      return { ...answer, failure: error };
    }
  };
}

/**
 * The single value of the form field `name` of an OAuth request, or `undefined`: a field sent twice is
 * `invalid_request` (RFC 6749 §3.1), a field that is not a string too.
 */
export function single(fields: Record<string, unknown>, name: string): string | undefined {
  const value = fields[name];
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw new OAuthError("invalid_request", `"${name}" must be given once, as a string.`);
  return value;
}
