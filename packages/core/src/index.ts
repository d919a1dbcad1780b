/**
 * authlib core: framework-agnostic authentication on Web-standard `Request`/`Response`.
 *
 * ```ts
 * import { Auth } from "@authlib/core";
 * import Credentials from "@authlib/core/providers/credentials";
 *
 * const config = { providers: [Credentials({ authorize: checkPassword })], secret: process.env.AUTH_SECRET, trustHost: true };
 * export const handler = (request: Request) => Auth(request, config);
 * ```
 *
 * @module @authlib/core
 */

export type * from "./adapters.js";
export type { AuthRequestOptions } from "./auth.js";
export { Auth, answerAuthRequest } from "./auth.js";
export { normaliseBasePath } from "./config.js";
export type { EmailRateLimit } from "./email/rate-limit.js";
export type { EnvSource, EnvWarnings } from "./env.js";
export { setEnvDefaults } from "./env.js";
export * from "./errors.js";
export { getSession } from "./get-session.js";
export type { Cookie } from "./http/cookies.js";
export type { AuthAnswer } from "./http/response.js";
export { serializeCookie } from "./http/response.js";
export type { AuthRequestParts, AuthResult, SessionRequest } from "./integration.js";
export { errorRedirect, failureCookies, readSession, runAuthAction } from "./integration.js";
export type { DefaultJWT, GetTokenParams, JWT, JWTDecodeParams, JWTEncodeParams, JWTOptions } from "./jwt.js";
export { decode, encode, getToken } from "./jwt.js";
export type * from "./providers/types.js";
export type {
  ClientAddressFunction,
  ClientRequestLimit,
  CredentialsRateLimit,
  EmailRateLimits,
  RateLimitConfig,
} from "./rate-limit/config.js";
export type { MemoryRateLimitStoreOptions, RateLimitStore, RateLimitWindow } from "./rate-limit/store.js";
export { memoryRateLimitStore } from "./rate-limit/store.js";
export { skipCSRFCheck } from "./symbols.js";
export type * from "./types.js";
