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
export { Auth } from "./auth.js";
export { getSession } from "./get-session.js";
export * from "./errors.js";
export { encode, decode, getToken } from "./jwt.js";
export type { JWT, DefaultJWT, JWTEncodeParams, JWTDecodeParams, JWTOptions, GetTokenParams } from "./jwt.js";
export { setEnvDefaults } from "./env.js";
export type { EnvSource } from "./env.js";
export { skipCSRFCheck } from "./symbols.js";
export type { Cookie } from "./http/cookies.js";
export type * from "./types.js";
export type * from "./adapters.js";
export type * from "./providers/types.js";
