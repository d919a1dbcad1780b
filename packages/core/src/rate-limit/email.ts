/**
 * The limits on sign-in mails, so a sign-in form cannot be used to flood an inbox or to send mail in
 * bulk: per mailbox (as delivered: see `mailbox.ts`) and per client address, both counted
 * when a mail is asked for, before anything is looked up or sent. The settings are the configuration's
 * `rateLimit.email`; an email provider's own `rateLimit` overrides the per-mailbox part.
 *
 * And the limits on the mailed codes: tries per client address and per mailbox (`codeClientMax`,
 * `codeMailboxMax`), and tries of each mail's code, which are counted whatever the settings (even with
 * `rateLimit: false`, then in this configuration's memory): see {@link countCodeTry}.
 *
 * @module rate-limit/email
 */
import type { InternalOptions, RequestInternal } from "../internal-types.js";
import type { EmailRateLimit, ResolvedLimit } from "../rate-limit-types.js";
import { codeTryStore, countClientRequest, countRequest, limitKey, limitsOf, storeOf } from "./limiter.js";
import { deliveryMailbox } from "./mailbox.js";

export type { EmailRateLimit };

const TOO_MANY_FOR_MAILBOX = "Too many sign-in mails for this address; try again later.";
const TOO_MANY_CODES_FOR_MAILBOX = "Too many sign-in codes tried for this address; use the link in the email, or try again later.";

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

/**
 * Counts one try of the code of the mail whose stored token hash is `hashed`, sent to `identifier`, and
 * returns how many tries that mail's code has had (this one included). Throws `RateLimited` first when
 * the client or the mailbox tried too many codes in the window. A mail's tries are counted for the
 * token's lifetime (`lifetimeSeconds`) in the provider's store, else the configuration's.
 */
export async function countCodeTry(
  options: InternalOptions,
  request: RequestInternal,
  attempt: { identifier: string; hashed: string; lifetimeSeconds: number },
  providerLimit: EmailRateLimit | false | undefined,
): Promise<number> {
  const limits = limitsOf(options);
  // The provider's store, the configured one, else (limits off) this configuration's memory.
  const store = (providerLimit === false ? undefined : providerLimit?.store) ?? codeTryStore(options);
  const email = limits ? limits.email : false;
  if (email) {
    const { windowSeconds } = email;
    await countClientRequest(options, request, "code:ip", () => ({ max: email.codeClientMax, windowSeconds }));
    const mailbox: ResolvedLimit = { max: email.codeMailboxMax, windowSeconds };
    await countRequest(options, store, "code:mbox", deliveryMailbox(attempt.identifier), mailbox, TOO_MANY_CODES_FOR_MAILBOX);
  }
  const key = await limitKey(options, "code:mail", attempt.hashed);
  return (await store.increment(key, attempt.lifetimeSeconds * 1000)).count;
}
