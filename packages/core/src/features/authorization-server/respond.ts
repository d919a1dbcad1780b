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

/** Any origin may read the answer, and its challenge (RFC 6750 §3); no credentials are sent with it. */
export const CORS = { "Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": "WWW-Authenticate" } as const;

/** A JSON answer of an endpoint. */
export function oauthJson<Body>(body: Body, status = 200, headers: Record<string, string> = {}): ResponseInternal<Body> {
  return { status, body, headers: { "Content-Type": "application/json", ...noStoreHeaders, ...CORS, ...headers } };
}

/** The answer of a refusal. `invalid_client` after an `Authorization: Basic` header also names the scheme (RFC 6749 §5.2). */
export function oauthFailure(error: OAuthError, basic = false): ResponseInternal<{ error: string; error_description: string }> {
  const headers: Record<string, string> = error.status === 401 && basic ? { "WWW-Authenticate": 'Basic realm="oauth"' } : {};
  return oauthJson({ error: error.code, error_description: error.description }, error.status, headers);
}

/**
 * The form fields of an OAuth request's urlencoded body, a field sent more than once kept as the list of
 * its values: the shared body parser keeps the last one, while OAuth refuses a repeated parameter
 * (RFC 6749 §3.1, {@link single}) but for `resource`, which may name several (RFC 8707 §2).
 */
async function formFields(request: RequestInternal): Promise<Record<string, unknown>> {
  const form = (request.headers.get("content-type") ?? "").includes("application/x-www-form-urlencoded");
  // An integration that gave the body already parsed (`AuthRequestParts`) has no text to read again.
  if (!form || request.request.body === null) return request.body;
  const params = new URLSearchParams(await request.request.text());
  const fields: Record<string, unknown> = {};
  for (const name of new Set(params.keys())) {
    const values = params.getAll(name);
    fields[name] = values.length === 1 ? values[0] : values;
  }
  return fields;
}

/** An endpoint's handler whose `OAuthError` is its answer (any other error is the pipeline's). */
export function oauthEndpoint(
  handler: (options: InternalOptions, request: RequestInternal) => Promise<ResponseInternal>,
): (options: InternalOptions, request: RequestInternal) => Promise<ResponseInternal> {
  return async (options, request) => {
    try {
      if (request.method === "POST") request.body = await formFields(request);
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

/** The `resource` fields of an OAuth request (RFC 8707: any number of them), each a string. */
export function resourcesOf(fields: Record<string, unknown>): string[] {
  const given = fields.resource;
  const list = given === undefined ? [] : Array.isArray(given) ? given : [given];
  if (list.some((item) => typeof item !== "string")) throw new OAuthError("invalid_request", "resource must be a URL.");
  return list as string[];
}
