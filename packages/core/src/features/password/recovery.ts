/**
 * The recovery mail: the owner's way in that an attacker who knows only the address cannot take away
 * (issue 44). When anonymous requests have spent an address's mail allowance (`rate-limit/email.ts`), the
 * first refusal of the window sends this mail to the address, one per window. Its link,
 * `GET <basePath>/password/unlock?token=`, makes the browser that opens it a known device of the address
 * (the device token of `Password()`, `rate-limit/device-token.ts`): that browser then signs in with the
 * password on its own count (the account's lockout does not refuse it) and asks for mails from the known
 * devices' allowance (anonymous requests do not spend it), e.g. a reset link if the password is lost.
 *
 * The link is a sealed token (the address, no browser binding: the owner opens it on a new device) valid
 * for an hour, or the mail window when that is longer, so the mail of a window is still good when the
 * owner asks later in it. It signs nobody in and changes nothing but the cookie of the browser that opens
 * it, so it is not single use: a mail scanner that follows it only gets a device token of its own. It is
 * worth as much as the mailbox, which already resets the password.
 *
 * @module password-accounts/recovery
 */

import { hostHeading, type RenderedMail, renderMail, textOf } from "../../email/template.js";
import { isPasswordProvider } from "../../provider-kind.js";
import { rememberDevice } from "../../rate-limit/device-token.js";
import { limitsOf } from "../../rate-limit/limiter.js";
import { type MailSite, mailSite, sendAccountMail } from "../../sign-in/account-mail.js";
import { openLink, sealLink } from "../../sign-in/link-tokens.js";
import { passwordUrl, signInUrl } from "../../sign-in/urls.js";
import type { InternalOptions, InternalProvider, RequestInternal, ResponseInternal } from "../../types/internal.js";
import type { PasswordConfig } from "../../types/providers.js";

/** The least a recovery link is good for, in seconds. */
const RECOVERY_LINK_SECONDS = 60 * 60;

/** How long a recovery link is good for: an hour, or the mail window when that is longer. */
function recoveryLifetime(options: InternalOptions): number {
  const limits = limitsOf(options);
  // biome-ignore lint/complexity/useOptionalChain: `limits` is `false` when off, which has no fields to chain
  const window = limits && limits.email ? limits.email.windowSeconds : 0;
  return Math.max(RECOVERY_LINK_SECONDS, window);
}

/** The recovery mail. */
export function recoveryMail(site: MailSite, url: string, minutes: number): RenderedMail {
  return renderMail({
    subject: textOf(site).t("mail.recovery.subject", { host: site.host }),
    heading: hostHeading(textOf(site).t("mail.recovery.heading"), site.host),
    action: { label: textOf(site).t("mail.recovery.button"), url },
    notes: [textOf(site).t("mail.recovery.note", { minutes }), textOf(site).t("mail.recovery.notYou")],
    theme: site.theme,
    text: textOf(site),
  });
}

/**
 * What sends the recovery mail to `address` (already canonical), for `countVerificationMail`'s `recover`;
 * `undefined` when the configuration has no `Password()` provider (then the mails anonymous requests
 * cause are sign-in links, which work in any browser).
 */
export function recoveryFor(options: InternalOptions, request: RequestInternal, address: string): (() => Promise<void>) | undefined {
  if (!options.providers.some((provider) => isPasswordProvider(provider))) return undefined;
  return async () => {
    const lifetime = recoveryLifetime(options);
    const token = await sealLink(options, "recovery", { email: address, binding: "" }, lifetime);
    const url = `${passwordUrl(options, "unlock")}?${new URLSearchParams({ token })}`;
    await sendAccountMail(options, address, recoveryMail(await mailSite(options, request), url, Math.round(lifetime / 60)));
  };
}

/**
 * GET unlock: the recovery link. Makes this browser a known device of the link's address and goes on to
 * the sign-in page. A link that is not ours or has expired is `Verification`.
 */
export async function unlock(
  options: InternalOptions,
  request: RequestInternal,
  provider: InternalProvider & PasswordConfig,
): Promise<ResponseInternal> {
  const link = await openLink(options, "recovery", request.query.token);
  const option = options.cookies.deviceToken;
  const value = await rememberDevice(options.secret, provider.id, link.email, request.cookies[option.name]);
  return {
    redirect: signInUrl(options),
    cookies: [{ name: option.name, value, options: option.options }],
    // The token is in this URL: the next page must not send it on.
    headers: { "Referrer-Policy": "same-origin" },
  };
}
