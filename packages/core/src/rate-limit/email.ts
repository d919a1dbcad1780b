/**
 * The limits on sign-in mails, so a sign-in form cannot be used to flood an inbox or to send mail in
 * bulk: per mailbox (as delivered: see `mailbox.ts`) and per client address, both counted
 * when a mail is asked for, before anything is looked up or sent. The settings are the configuration's
 * `rateLimit.email`; an email provider's own `rateLimit` overrides the per-mailbox part.
 *
 * @module rate-limit/email
 */
import type { InternalOptions, RequestInternal } from "../internal-types.js";
import type { EmailRateLimit, ResolvedLimit } from "../rate-limit-types.js";
import { countClientRequest, countRequest, limitsOf, storeOf } from "./limiter.js";
import { deliveryMailbox } from "./mailbox.js";

export type { EmailRateLimit };

const TOO_MANY_FOR_MAILBOX = "Too many sign-in mails for this address; try again later.";

/**
 * Counts a sign-in mail for `identifier` (already normalised) from the client of `request`, or throws
 * `RateLimited`.
 */
export async function countVerificationMail(
  options: InternalOptions,
  request: RequestInternal,
  identifier: string,
  providerLimit: EmailRateLimit | false | undefined,
): Promise<void> {
  const limits = limitsOf(options);
  if (!limits) return;
  const { email } = limits;
  if (!email) return;
  const client: ResolvedLimit = { max: email.clientMax, windowSeconds: email.windowSeconds };
  await countClientRequest(options, request, "email:ip", () => client);
  if (providerLimit === false) return;
  const mailbox: ResolvedLimit = {
    max: providerLimit?.max ?? email.mailboxMax,
    windowSeconds: providerLimit?.windowSeconds ?? email.windowSeconds,
  };
  const store = providerLimit?.store ?? storeOf(limits);
  await countRequest(options, store, "email:mbox", deliveryMailbox(identifier), mailbox, TOO_MANY_FOR_MAILBOX);
}
