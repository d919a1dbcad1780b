/**
 * `protectResource`: the checks an API or MCP server makes on each request's access token (RFC 9068,
 * RFC 6750, RFC 8707), in order: one bearer header; an ES256 signature by a key of the issuer; the type
 * `at+jwt` (an ID token is not an access token); the issuer, the audience, the times; the claims authlib
 * always issues; the scopes; then the grant's revocation. Nothing here reads a database.
 *
 * @module resource/verify
 */
import { type JWTPayload, jwtVerify } from "jose";
import { bearerToken } from "./bearer.js";
import { InsufficientScope, InvalidToken } from "./errors.js";
import { keyResolver } from "./keys.js";
import type { AccessTokenClaims, ProtectResourceOptions, ResourceCaller } from "./types.js";
import { keepVerified, verifiedPayload } from "./verified-tokens.js";

const DEFAULT_CLOCK_TOLERANCE = 5;

/**
 * The jose errors that say the token is bad (its signature, format, algorithm, key id or claims). Every
 * other error (the JWKS cannot be fetched, times out, or is not a JWK Set) is the server's, and is thrown
 * as it is.
 */
const TOKEN_FAULTS: ReadonlySet<string> = new Set([
  "ERR_JWT_CLAIM_VALIDATION_FAILED",
  "ERR_JWT_EXPIRED",
  "ERR_JWT_INVALID",
  "ERR_JWS_INVALID",
  "ERR_JWS_SIGNATURE_VERIFICATION_FAILED",
  "ERR_JOSE_ALG_NOT_ALLOWED",
  "ERR_JOSE_NOT_SUPPORTED",
  "ERR_JWKS_NO_MATCHING_KEY",
  "ERR_JWKS_MULTIPLE_MATCHING_KEYS",
]);

/** The claims every access token authlib issues carries as strings. */
const STRING_CLAIMS = ["sub", "client_id", "scope", "jti", "grant_id"] as const;

/**
 * The claims jose checks, checked again for a token whose signature was verified before (its claims are
 * checked against this request's options and clock, as jose would).
 */
function recheckClaims(payload: JWTPayload, options: ProtectResourceOptions): void {
  const now = Date.now() / 1000;
  const tolerance = options.clockTolerance ?? DEFAULT_CLOCK_TOLERANCE;
  if (payload.iss !== options.issuer) throw new InvalidToken("The access token was refused (iss)");
  const audience = payload.aud;
  if (!(audience === options.resource || (Array.isArray(audience) && audience.includes(options.resource)))) {
    throw new InvalidToken("The access token was refused (aud)");
  }
  if ((payload.exp as number) <= now - tolerance) throw new InvalidToken("The access token was refused (expired)");
  if (typeof payload.nbf === "number" && payload.nbf > now + tolerance) throw new InvalidToken("The access token was refused (nbf)");
}

/**
 * Verifies the token's signature, type, algorithm, issuer, audience and times (jose); a token verified
 * before under the same key set has only its claims checked again.
 */
async function verifySignedToken(token: string, options: ProtectResourceOptions): Promise<JWTPayload> {
  const keys = keyResolver(options);
  const known = verifiedPayload(keys, token);
  if (known !== undefined) {
    recheckClaims(known, options);
    return known;
  }
  try {
    const { payload } = await jwtVerify(token, keys, {
      algorithms: ["ES256"],
      typ: "at+jwt",
      issuer: options.issuer,
      audience: options.resource,
      clockTolerance: options.clockTolerance ?? DEFAULT_CLOCK_TOLERANCE,
      requiredClaims: ["exp", "iat", ...STRING_CLAIMS],
    });
    keepVerified(keys, token, payload);
    return payload;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === "string" && TOKEN_FAULTS.has(code)) {
      throw new InvalidToken(`The access token was refused (${code})`, { cause: { err: error as Error } });
    }
    throw error;
  }
}

/** The claims jose does not check: their types, an `iat` not in the future. */
function checkClaims(payload: JWTPayload, options: ProtectResourceOptions): AccessTokenClaims {
  for (const claim of STRING_CLAIMS) {
    // A grant of no scope is one (an MCP client may ask for none): only `scope` may be empty.
    if (typeof payload[claim] !== "string" || (payload[claim] === "" && claim !== "scope"))
      throw new InvalidToken(`The access token's ${claim} is not a string`);
  }
  const tolerance = options.clockTolerance ?? DEFAULT_CLOCK_TOLERANCE;
  if ((payload.iat as number) > Date.now() / 1000 + tolerance) throw new InvalidToken("The access token is issued in the future");
  if (payload.auth_time !== undefined && typeof payload.auth_time !== "number")
    throw new InvalidToken("The access token's auth_time is not a number");
  if (payload.acr !== undefined && typeof payload.acr !== "string") throw new InvalidToken("The access token's acr is not a string");
  return payload as AccessTokenClaims;
}

/** The scopes of a `scope` claim. */
function scopesOf(scope: string): string[] {
  return scope.split(" ").filter((s) => s !== "");
}

/** Throws `InsufficientScope` unless every required scope is granted. */
function checkScopes(granted: readonly string[], required: readonly string[] | undefined): void {
  if (!required || required.length === 0) return;
  if (required.every((scope) => granted.includes(scope))) return;
  const refusal = new InsufficientScope("The access token lacks a required scope");
  refusal.scopes = [...required];
  throw refusal;
}

/** The caller a verified token names. */
function callerOf(claims: AccessTokenClaims, scopes: string[]): ResourceCaller {
  const caller: ResourceCaller = {
    userId: claims.sub,
    clientId: claims.client_id,
    scopes,
    grantId: claims.grant_id,
    tokenId: claims.jti,
    expiresAt: new Date(claims.exp * 1000),
    claims,
  };
  if (claims.auth_time !== undefined) caller.authTime = new Date(claims.auth_time * 1000);
  if (claims.acr !== undefined) caller.acr = claims.acr;
  return caller;
}

/**
 * Checks the request's bearer access token and returns who called: the user, the client, the scopes.
 *
 * Throws `InvalidToken` (401: no token, or a token that is not valid here, or whose grant is revoked),
 * `InsufficientScope` (403: a valid token without every scope of `options.scopes`), `InvalidRequest`
 * (400: a malformed or repeated `Authorization` header). `resourceErrorResponse` answers each. Any other
 * error (the JWKS cannot be fetched, the revocation check fails) is thrown as it is: the server's fault.
 *
 * @example
 * ```ts
 * const caller = await protectResource(request, { issuer: "https://auth.example.com", resource: "https://api.example.com", scopes: ["projects:read"] });
 * ```
 */
export async function protectResource(request: Request, options: ProtectResourceOptions): Promise<ResourceCaller> {
  const token = bearerToken(request);
  const claims = checkClaims(await verifySignedToken(token, options), options);
  // The revocation first: a revoked token is not valid (401), whatever its scopes.
  if (options.revocation && (await options.revocation.isRevoked(claims.grant_id, token))) {
    throw new InvalidToken("The access token's grant is revoked");
  }
  const scopes = scopesOf(claims.scope);
  checkScopes(scopes, options.scopes);
  return callerOf(claims, scopes);
}
