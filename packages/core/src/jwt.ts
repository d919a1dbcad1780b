/**
 * JSON Web Token helpers: `encode`, `decode` and `getToken`.
 *
 * Session tokens are encrypted (JWE, `dir` + `A256CBC-HS512`) with a key derived from the secret and the
 * salt exactly as Auth.js v5 derives it, so tokens move between the two libraries in both directions.
 *
 * These helpers are not the recommended way to authenticate on the server: use the session helpers of
 * your integration (`getSession`, `useSession`), which also run your callbacks and honour revocation.
 *
 * @module jwt
 */
import { parse as parseCookies } from "cookie";
import { nodeJwe } from "./crypto/jwe-node.js";
import { issuable, issuedClaims, USE_JOSE } from "./crypto/jwe-rules.js";
import { webCryptoDecrypt, webCryptoEncrypt } from "./crypto/jwe-webcrypto.js";
import { processEnv, readCanonicalUrlEnv, readEnv } from "./env/read.js";
import { JWTSessionError, MissingSecret } from "./errors.js";
import { hasChunkedCookie, readChunkedCookie } from "./http/cookie-chunks.js";
import type { LoggerInstance } from "./types/config.js";
import type { DefaultJWT, JWT, JWTDecodeParams, JWTEncodeParams, JWTOptions } from "./types/jwt.js";

export type { DefaultJWT, JWT, JWTDecodeParams, JWTEncodeParams, JWTOptions };

/**
 * jose's own JWT codec, loaded on first use: only compressed tokens (which authlib and Auth.js never issue)
 * and claims jose refuses to issue reach it, so sessions never load it.
 */
function joseCodec(): Promise<typeof import("./crypto/jwe-jose.js")> {
  return import("./crypto/jwe-jose.js");
}

/** Default lifetime of an issued token: 30 days, in seconds. */
export const DEFAULT_MAX_AGE = 30 * 24 * 60 * 60;
/** Name of the session cookie; on https it is prefixed with `__Host-` (with `__Secure-` before that). */
export const SESSION_COOKIE_NAME = "authlib.session-token";

/** Parameters of {@link getToken}. */
export interface GetTokenParams<R extends boolean = false> {
  /** The request carrying the token, in a cookie or in `Authorization: Bearer`. */
  req: Request | { headers: Headers | Record<string, string | string[] | undefined> };
  /** Return the raw token string instead of its payload. */
  raw?: R;
  /** Name of the cookie holding the token. Default: the session cookie name. */
  cookieName?: string;
  /**
   * Look for the secure-prefixed cookie name, `__Host-authlib.session-token`. The former
   * `__Secure-authlib.session-token` is not read (a sibling subdomain can plant it); while migrating, pass
   * it as `cookieName`. Default: from
   * `AUTHLIB_URL`'s (else `AUTH_URL`'s) scheme when it is set (as `Auth()` does); else whichever of the secure and plain names
   * is present (without `AUTHLIB_URL`, `Auth()` picks by the request's scheme, which only it can judge).
   */
  secureCookie?: boolean;
  /** Default `AUTH_SECRET`. */
  secret?: string | string[];
  /** Default: the name of the cookie the token was found in (for a Bearer token, the cookie name). */
  salt?: string;
  /** Custom decoder. */
  decode?: JWTOptions["decode"];
  /** Where decode failures are reported, at debug level (never the token itself). Default: nowhere. */
  logger?: Pick<LoggerInstance, "debug"> | Console;
}

function nowInSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

function secretList(secret: string | string[]): string[] {
  const list = (Array.isArray(secret) ? secret : [secret]).filter((s) => typeof s === "string" && s.length > 0);
  if (list.length === 0) throw new MissingSecret("A secret is required: set AUTH_SECRET or pass `secret`.");
  return list;
}

/**
 * Issues an encrypted JWT (JWE `dir` + `A256CBC-HS512`) of `token`, with `iat`, `exp` (now + `maxAge`)
 * and a fresh `jti`. With several secrets, the first one is used.
 */
export async function encode<Payload = JWT>(params: JWTEncodeParams<Payload>): Promise<string> {
  const { token = {}, secret, maxAge = DEFAULT_MAX_AGE, salt } = params;
  const [first] = secretList(secret);
  const now = nowInSeconds();
  // Claims jose would refuse (not a plain object, a non-finite time) go to jose, so it throws as before.
  if (!issuable(token, maxAge)) return (await joseCodec()).joseEncrypt(token, first as string, salt, now, maxAge);
  const claims = issuedClaims(token, now, maxAge);
  const node = nodeJwe();
  return node ? node.encrypt(claims, first as string, salt) : webCryptoEncrypt(claims, first as string, salt);
}

/**
 * Decodes a JWT issued by {@link encode} (or by Auth.js v5 with the same secret and salt).
 * Resolves `null` when `token` is empty; rejects with `JWTSessionError` for a token that is malformed,
 * tampered with, expired, or encrypted with another secret or salt.
 *
 * On runtimes with `node:crypto` the work is synchronous (`crypto/jwe-node`), elsewhere WebCrypto with
 * cached keys (`crypto/jwe-webcrypto`); both accept exactly what `jose`'s `jwtDecrypt` accepts, and a
 * token must be spelled in canonical base64url (decoders ignore the spare low bits of a final base64
 * character, so without this check two different strings could decode to the same token).
 */
export async function decode<Payload = JWT>(params: JWTDecodeParams): Promise<Payload | null> {
  const { token, secret, salt } = params;
  if (!token) return null;
  const secrets = secretList(secret);
  let claims: Record<string, unknown> | typeof USE_JOSE;
  try {
    const node = nodeJwe();
    claims = node ? node.decrypt(token, secrets, salt) : await webCryptoDecrypt(token, secrets, salt);
  } catch (error) {
    if (error instanceof JWTSessionError) throw error;
    throw new JWTSessionError("The token could not be decrypted or has expired.", { cause: error as Error });
  }
  if (claims === USE_JOSE) claims = await (await joseCodec()).joseDecrypt(token, secrets, salt);
  return claims as Payload;
}

function headerValue(headers: GetTokenParams["req"]["headers"], name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  const separator = name === "cookie" ? "; " : ", ";
  return Array.isArray(value) ? value.join(separator) : value;
}

function bearerToken(authorization: string | undefined): string | undefined {
  if (!authorization) return undefined;
  const [scheme, value] = authorization.split(" ");
  if (scheme !== "Bearer" || !value) return undefined;
  // Stryker disable BlockStatement: equivalent (see mutation notes: bearer-token-catch)
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
  // Stryker restore BlockStatement
}

/**
 * The session cookie names `Auth()` may use for this request, most likely first (see
 * `GetTokenParams.secureCookie`): the secure names when the request is known to be https, the plain one
 * when known to be http, all of them when unknown (the one present decides).
 */
function sessionCookieCandidates(secureCookie: boolean | undefined): string[] {
  // Only `__Host-`: a `__Secure-` name can be planted by a sibling subdomain (SECURITY.md, migration window).
  const secureNames = [`__Host-${SESSION_COOKIE_NAME}`];
  const canonical = readCanonicalUrlEnv(processEnv());
  const secure = secureCookie ?? (canonical !== undefined ? /^https:/i.test(canonical) : undefined);
  if (secure === undefined) return [...secureNames, SESSION_COOKIE_NAME];
  return secure ? secureNames : [SESSION_COOKIE_NAME];
}

/**
 * Reads the session JWT of a request: the session cookie (joined from its chunks), else an
 * `Authorization: Bearer` header. Resolves the payload, the raw token when `raw` is set, or `null` when
 * there is no valid token (malformed, tampered with, expired, foreign). Throws `MissingSecret` when no
 * secret is configured.
 *
 * Not the recommended way to authenticate on the server: prefer the session helpers (`getSession`,
 * `useSession`), which run your `jwt` and `session` callbacks.
 */
export async function getToken<R extends boolean = false>(params: GetTokenParams<R>): Promise<R extends true ? string | null : JWT | null> {
  type Result = R extends true ? string | null : JWT | null;
  const { req, raw, logger } = params;
  if (!req?.headers) throw new TypeError("getToken: pass `req` (a Request or an object with `headers`).");
  const env = processEnv();
  const secret = params.secret ?? readEnv(env, "AUTH_SECRET");
  if (!raw && (secret === undefined || secret.length === 0)) {
    throw new MissingSecret("getToken needs a secret: set AUTH_SECRET or pass `secret`.");
  }

  const cookieHeader = headerValue(req.headers, "cookie");
  let cookies: Record<string, string | undefined> = {};
  try {
    if (cookieHeader) cookies = parseCookies(cookieHeader);
  } catch {
    // A Cookie header the parser cannot read counts as no cookies: `cookies` stays {}.
  }
  // The first name with a cookie decides; its salt is its own name (a `__Host-` token never decodes as another name).
  const candidates = params.cookieName ? [params.cookieName] : sessionCookieCandidates(params.secureCookie);
  const cookieName = candidates.find((name) => hasChunkedCookie(cookies, name)) ?? (candidates.at(-1) as string);
  const token = readChunkedCookie(cookies, cookieName) ?? bearerToken(headerValue(req.headers, "authorization"));
  if (!token) return null as Result;
  if (raw) return token as Result;
  try {
    const decoder = params.decode ?? decode;
    return ((await decoder({ token, secret: secret as string | string[], salt: params.salt ?? cookieName })) ?? null) as Result;
  } catch (error) {
    logger?.debug?.(`getToken: token rejected (${(error as Error).name})`);
    return null as Result;
  }
}
