/** GET /csrf: the CSRF token for forms and fetch clients. */
import { expiredCookie } from "../http/cookies.js";
import { noStoreHeaders } from "../http/response.js";
import type { InternalOptions, ResponseInternal } from "../types/internal.js";

export function csrfAction(options: InternalOptions): ResponseInternal {
  if (options.skipCSRFCheck) {
    // No token exists when the check is off; say so instead of handing out a meaningless one.
    return {
      status: 404,
      body: { error: "CsrfDisabled", message: "CSRF protection is handled outside authlib for this app." },
      cookies: [expiredCookie(options.cookies.csrfToken.name, options.cookies.csrfToken.options)],
    };
  }
  return { body: { csrfToken: options.csrfToken }, headers: { ...noStoreHeaders } };
}
