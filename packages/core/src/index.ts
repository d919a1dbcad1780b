/**
 * authlib core: framework-agnostic authentication on Web-standard `Request`/`Response`.
 *
 * @module @authlib/core
 */

export type * from "./adapters.js";
export type { EnvSource } from "./env.js";
export { setEnvDefaults } from "./env.js";
export * from "./errors.js";
export type { DefaultJWT, GetTokenParams, JWT, JWTDecodeParams, JWTEncodeParams, JWTOptions } from "./jwt.js";
export { decode, encode, getToken } from "./jwt.js";
export { skipCSRFCheck } from "./symbols.js";
export type * from "./types.js";
