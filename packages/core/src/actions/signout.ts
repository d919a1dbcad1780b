/** GET /signout shows the confirmation page; POST /signout (CSRF) ends the session and redirects. */
import { SignOutError } from "../errors.js";
import type { Cookie } from "../http/cookies.js";
import { clearChunkedCookie } from "../http/cookies.js";
import { assertCsrf } from "../http/csrf.js";
import { html } from "../pages/html.js";
import { loadPages } from "../pages/lazy.js";
import { withCallbackUrl } from "../sign-in/flow.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../types/internal.js";

export function signOutPage(options: InternalOptions, request: RequestInternal): ResponseInternal | Promise<ResponseInternal> {
  if (options.pages.signOut) return { redirect: new URL(withCallbackUrl(options.pages.signOut, options.callbackUrl), options.origin).href };
  return loadPages(options.config, request.request, options.featureMessages).then(({ renderSignOutPage, text }) =>
    html(
      renderSignOutPage({
        text,
        actionUrl: `${options.authUrl}/signout`,
        csrfToken: options.csrfToken,
        callbackUrl: options.callbackUrl,
        theme: options.theme,
      }),
    ),
  );
}

export async function signOutAction(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal> {
  assertCsrf("signout", options.csrfTokenVerified);
  let cookies: Cookie[];
  try {
    cookies = await options.sessionStrategy.end(options, request);
  } catch (error) {
    // Ending the session failed (database down); the cookies are cleared anyway.
    options.logger.error(new SignOutError("Could not end the session.", { cause: error as Error }));
    cookies = clearChunkedCookie(options.cookies.sessionToken, request.cookies);
  }
  return { redirect: options.callbackUrl, cookies };
}
