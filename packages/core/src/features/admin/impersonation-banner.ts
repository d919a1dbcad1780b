/**
 * The banner of every built-in page while an admin acts as the user (the `pageBanner` hook, which the
 * pipeline asks of each page it answers): "You are acting as X (signed in as admin Y)" with a Stop form
 * (`stopImpersonating`), in the page's language (`pages/impersonation-banner.tsx`).
 *
 * @module features/admin/impersonation-banner
 */

import type { Cookie } from "../../http/cookies.js";
import { resolveCsrf } from "../../http/csrf.js";
import { loadPages } from "../../pages/lazy.js";
import type { InternalOptions, RequestInternal } from "../../types/internal.js";

/** The banner for this request's page, or `undefined` when its session is not an impersonation. */
export async function impersonationBanner(
  options: InternalOptions,
  request: RequestInternal,
): Promise<{ html: string; cookies: Cookie[] } | undefined> {
  const current = await options.sessionStrategy.currentAssurance(options, request);
  const act = current?.assurance?.act;
  if (!current || !act) return undefined;
  const [{ impersonationNames }, { text }, { renderImpersonationBanner }] = await Promise.all([
    import("./impersonation.js"),
    loadPages(options.config, request.request, options.featureMessages),
    import("../../pages/impersonation-banner.js"),
  ]);
  // A page that minted no CSRF token (the error page) gets one for the banner's form.
  const csrf = options.csrfToken
    ? { token: options.csrfToken, cookie: undefined }
    : await resolveCsrf(request, options.cookies.csrfToken, options.secret, options.origin, true);
  const names = await impersonationNames(options, current.userId, act.sub);
  const html = renderImpersonationBanner({
    text,
    ...names,
    action: `${options.authUrl}/admin/stop-impersonating`,
    csrfToken: csrf.token,
    callbackUrl: `${options.origin}/`,
  });
  return { html, cookies: csrf.cookie ? [csrf.cookie] : [] };
}
