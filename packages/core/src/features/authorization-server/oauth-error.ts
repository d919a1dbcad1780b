/**
 * The error the authorization server's endpoints answer with: an RFC 6749 §5.2 / RFC 7591 §3.2.2 error
 * code, a description for the client's developer, and the HTTP status.
 *
 * @module features/authorization-server/oauth-error
 */

/**
 * A refusal the endpoints turn into `{ "error": code, "error_description": description }` with `status`
 * (or, at the authorization endpoint, a redirect with those parameters when the redirect URI is trusted).
 * The description goes to the client: it names what was wrong, never a secret or an internal detail.
 */
export class OAuthError extends Error {
  /** The error code: `invalid_request`, `invalid_client`, `invalid_redirect_uri`, `invalid_client_metadata`, … */
  readonly code: string;
  /** What was wrong, for the client's developer (`error_description`). */
  readonly description: string;
  /** The HTTP status of the answer. */
  readonly status: number;

  /**
   * @param code The RFC 6749 / RFC 7591 error code, e.g. `"invalid_request"`.
   * @param description What was wrong, in a sentence.
   * @param status The HTTP status (default 400).
   */
  constructor(code: string, description: string, status = 400) {
    super(`${code}: ${description}`);
    this.name = "OAuthError";
    this.code = code;
    this.description = description;
    this.status = status;
  }
}
