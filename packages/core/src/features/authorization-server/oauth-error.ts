/**
 * The authorization server's refusal, `OAuthError` (`@authlib/core/errors`): its RFC error code, a
 * description safe to show the client, and the HTTP status.
 *
 * @module features/authorization-server/oauth-error
 */
export { OAuthError } from "../../errors.js";
