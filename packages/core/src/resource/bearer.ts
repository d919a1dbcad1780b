/**
 * The bearer token of a request (RFC 6750 §2.1): the `Authorization` header only. A token in the query
 * string or a form body is never read: it leaks into logs and histories.
 *
 * @module resource/bearer
 */
import { InvalidRequest, InvalidToken } from "./errors.js";

/** `Bearer`, any case, one or more spaces, then one token68 (RFC 7235 §2.1). */
const BEARER = /^bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
const BEARER_SCHEME = /^bearer(?: |$)/i;

/**
 * The access token of the request's `Authorization: Bearer` header. Throws `InvalidToken` (`missing`)
 * when there is no bearer header, `InvalidRequest` when the header is malformed or repeated (a repeated
 * header reaches a `Request` joined with commas, which no token68 holds).
 */
export function bearerToken(request: Request): string {
  const header = request.headers.get("authorization");
  if (header === null || !BEARER_SCHEME.test(header.trimStart())) {
    const missing = new InvalidToken("The request carries no bearer access token");
    missing.code = "missing";
    throw missing;
  }
  const match = BEARER.exec(header.trim());
  if (!match) throw new InvalidRequest("The Authorization header holds more or less than one bearer token");
  return match[1] as string;
}
