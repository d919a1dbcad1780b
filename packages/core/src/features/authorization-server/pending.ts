/**
 * What the consent page's form carries: the checked authorization request (or device approval), for the
 * user it was shown to, sealed with the app's secret for 10 minutes. The form's POST trusts nothing else:
 * a field changed in the browser breaks the seal; a form shown to another user is refused.
 *
 * @module features/authorization-server/pending
 */
import { joseDecrypt, joseEncrypt } from "../../crypto/jwe-jose.js";
import type { InternalOptions } from "../../types/internal.js";
import type { AuthorizationRequest } from "./authorization-request.js";
import { OAuthError } from "./oauth-error.js";

const SALT = "authlib.oauth.consent";
const MAX_AGE = 600;

/** An approval waiting for the user's decision. */
export type Pending =
  | { kind: "code"; userId: string; returnTo: string; authorization: AuthorizationRequest }
  | { kind: "device"; userId: string; returnTo: string; deviceCodeHash: string; clientId: string; scopes: string[] };

/** `pending`, sealed. */
export async function sealPending(options: InternalOptions, pending: Pending): Promise<string> {
  return joseEncrypt(pending, options.secret[0] as string, SALT, Math.floor(Date.now() / 1000), MAX_AGE);
}

/** The pending approval sealed in `value`; `OAuthError` when it is not one of ours, or has expired. */
export async function openPending(options: InternalOptions, value: unknown): Promise<Pending> {
  if (typeof value !== "string" || value.length > 8192) throw new OAuthError("invalid_request", "The consent form is incomplete.");
  try {
    return (await joseDecrypt(value, options.secret, SALT)) as unknown as Pending;
  } catch {
    throw new OAuthError("invalid_request", "The consent form has expired: start again from the application.");
  }
}
