/**
 * The refusals of `protectResource`, one class per RFC 6750 error code. Their messages are for the
 * server's log; the response (`resourceErrorResponse`) says only a short generic phrase.
 *
 * @module resource/errors
 */
import { AuthError, type ErrorType } from "../errors.js";

declare module "../types/errors.js" {
  interface FeatureErrorTypes {
    InvalidToken: true;
    InsufficientScope: true;
    InvalidRequest: true;
  }
}

/**
 * The request carries no valid access token: none at all (`code` `"missing"`, answered without an
 * `error` parameter, RFC 6750 §3.1), or one that is malformed, badly signed, of another type, issuer or
 * audience, expired, or of a revoked grant. HTTP 401.
 */
export class InvalidToken extends AuthError {
  static override type: ErrorType = "InvalidToken";
  static override status: number | undefined = 401;
  declare code?: "missing";
}

/** The access token is valid but lacks a scope the request needs (`scopes`: the ones it needs). HTTP 403. */
export class InsufficientScope extends AuthError {
  static override type: ErrorType = "InsufficientScope";
  static override status: number | undefined = 403;
  /** The scopes the request needs. */
  declare scopes?: string[];
}

/** The `Authorization` header is malformed: more than one, or a `Bearer` scheme without one token. HTTP 400. */
export class InvalidRequest extends AuthError {
  static override type: ErrorType = "InvalidRequest";
  static override status: number | undefined = 400;
}
