/**
 * `GET <basePath>/two-factor`: the second step's page for this browser's pending sign-in (the app's own
 * `pages.twoFactor`, else the built-in one). Without a pending sign-in: `TwoFactorExpired` (the sign-in
 * page says to sign in again).
 *
 * @module two-factor/page
 */
import { html } from "../../pages/html.js";
import { loadPages } from "../../pages/lazy.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../../types/internal.js";
import { secondFactorsOf, secondStepUrl } from "./gate.js";
import { renderTwoFactorHtml } from "./page-view.js";
import { pendingOrExpired } from "./pending.js";

/** GET /two-factor. */
export async function secondStepPage(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal> {
  if (options.pages.twoFactor) return { redirect: secondStepUrl(options, request.query.error) };
  const pending = await pendingOrExpired(options, request);
  const factors = await secondFactorsOf(options, pending.userId);
  const passkey = factors.passkeys > 0 ? options.providers.find((provider) => provider.type === "webauthn") : undefined;
  const { text } = await loadPages(options.config, request.request, options.featureMessages);
  return html({
    status: 200,
    html: renderTwoFactorHtml({
      text,
      authUrl: options.authUrl,
      csrfToken: options.csrfToken,
      theme: options.theme,
      totp: factors.totp,
      passkeyProviderId: passkey?.id,
      error: request.query.error,
      signInUrl: new URL(options.pages.signIn ?? `${options.authUrl}/signin`, options.origin).href,
    }),
  });
}
