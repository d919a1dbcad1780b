/**
 * The shapes of session tokens: the payload, the parameters of `encode`/`decode`, the `jwt` option. Public
 * through `@authlib/core/jwt`, which re-exports them (an app augments `JWT` there:
 * `declare module "@authlib/core/jwt" { interface JWT { … } }` merges into the declaration below).
 *
 * @module jwt-types
 */
import type { Awaitable } from "./base.js";

/** The claims authlib puts in a session token by default. */
export interface DefaultJWT extends Record<string, unknown> {
  name?: string | null;
  email?: string | null;
  picture?: string | null;
  sub?: string;
  iat?: number;
  exp?: number;
  jti?: string;
  /** When the user signed in, in seconds (kept by authlib whatever the `jwt` callback returns). */
  authTime?: number;
  /** The methods of the sign-in (`["pwd", "otp"]`, …), kept like `authTime`. */
  amr?: string[];
  /** The assurance level (1 or 2), kept like `authTime`. */
  aal?: 1 | 2;
}

/** The session token payload: what the `jwt` callback returns. Extend it by module augmentation. */
export interface JWT extends DefaultJWT {}

/** Parameters of `encode` (`@authlib/core/jwt`). */
export interface JWTEncodeParams<Payload = JWT> {
  /** The payload. `iat`, `exp` and `jti` are set by `encode`. */
  token?: Payload;
  /** Part of the key derivation; for session tokens, the cookie name. */
  salt: string;
  /** The secret, or several (newest first): only the first one encrypts. */
  secret: string | string[];
  /** Lifetime in seconds. Default 30 days. */
  maxAge?: number;
}

/** Parameters of `decode` (`@authlib/core/jwt`). */
export interface JWTDecodeParams {
  /** The token to decode. */
  token?: string;
  /** The salt it was encoded with. */
  salt: string;
  /** The secret, or several: the one whose key id matches the token's is used. */
  secret: string | string[];
}

/** The `jwt` configuration. */
export interface JWTOptions {
  /** Lifetime of an issued token in seconds. Default 30 days. */
  maxAge: number;
  /** Replaces how tokens are issued. */
  encode: (params: JWTEncodeParams<JWT>) => Awaitable<string>;
  /** Replaces how tokens are read. Return `null` for a token you do not accept. */
  decode: (params: JWTDecodeParams) => Awaitable<JWT | null>;
}
