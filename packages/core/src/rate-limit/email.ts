/**
 * The limits on sign-in mails, so a sign-in form cannot be used to flood an inbox or to send mail in
 * bulk: per mailbox (as delivered: see `mailbox.ts`) and per client address, both counted
 * when a mail is asked for, before anything is looked up or sent. The settings are the configuration's
 * `rateLimit.email`; an email provider's own `rateLimit` overrides the per-mailbox part.
 *
 * The per-mailbox allowance is two (issue 44: an attacker who knows only the address must not keep the
 * owner out of every way in):
 * - anonymous requests share `mailboxMax` per window (`email:mbox`), whoever sends them, from anywhere;
 * - a browser that is a known device of the address (a valid device token of the `Password()` provider
 *   for it: it signed in with the password, or opened the recovery link mailed to the address) counts in
 *   an allowance of its own kind (`email:dev`, the same `mailboxMax`), which anonymous requests never
 *   spend, and the anonymous count never refuses it.
 * When the anonymous allowance is spent, the first refusal of a window (`email:rec`, one per window)
 * sends the address one recovery mail (through `recover`): its link makes the browser that opens it a
 * known device. An attacker can spend the anonymous allowance, but each time it does, the owner is sent a
 * way in that the attacker cannot use. Mails to one mailbox per window: at most `mailboxMax` anonymous,
 * one recovery mail, and `mailboxMax` from its known devices.
 *
 * And the limits on the mailed codes: tries per client address and per mailbox (`codeClientMax`,
 * `codeMailboxMax`), and tries of each mail's code, which are counted whatever the settings (even with
 * `rateLimit: false`, then in this configuration's memory): see {@link countCodeTry}.
 *
 * @module rate-limit/email
 */
import { RateLimited } from "../errors.js";
import { isPasswordProvider } from "../provider-kind.js";
import type { InternalOptions, RequestInternal } from "../types/internal.js";
import type { EmailRateLimit, ResolvedLimit } from "../types/rate-limit.js";
import { knownDevice } from "./device-token.js";
import { codeTryStore, countClientRequest, countRequest, limitKey, limitsOf, storeOf } from "./limiter.js";
import { deliveryMailbox } from "./mailbox.js";
import type { RateLimitStore } from "./store.js";

export type { EmailRateLimit };

const TOO_MANY_FOR_MAILBOX = "Too many sign-in mails for this address; try again later.";
const TOO_MANY_CODES_FOR_MAILBOX = "Too many sign-in codes tried for this address; use the link in the email, or try again later.";

/**
 * True when the browser of `request` is a known device of `address`: it holds a valid device token of the
 * `Password()` provider for it (whose accounts are proven addresses, so a token for one is held only by
 * someone who signed in with its password or opened the recovery mail sent to it).
 */
export async function isKnownDeviceOf(options: InternalOptions, request: RequestInternal, address: string): Promise<boolean> {
  const cookie = request.cookies[options.cookies.deviceToken.name];
  if (!cookie) return false;
  const password = options.providers.find((provider) => isPasswordProvider(provider));
  if (!password) return false;
  return (await knownDevice(options.secret, password.id, address, cookie)) !== undefined;
}

/**
 * Counts a sign-in mail for `identifier` (already normalised) from the client of `request`, or throws
 * `RateLimited`. When the anonymous allowance of the mailbox is spent, `recover` (sends the recovery mail)
 * runs for the first refusal of the window; a failure of it is logged, and the refusal thrown all the same.
 */
export async function countVerificationMail(
  options: InternalOptions,
  request: RequestInternal,
  identifier: string,
  providerLimit: EmailRateLimit | false | undefined,
  recover?: () => Promise<void>,
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
  const delivered = deliveryMailbox(identifier);
  if (await isKnownDeviceOf(options, request, identifier)) {
    await countRequest(options, store, "email:dev", delivered, mailbox, TOO_MANY_FOR_MAILBOX);
    return;
  }
  try {
    await countRequest(options, store, "email:mbox", delivered, mailbox, TOO_MANY_FOR_MAILBOX);
  } catch (error) {
    if (recover && error instanceof RateLimited) await offerRecovery(options, store, delivered, mailbox, recover);
    throw error;
  }
}

/** Runs `recover` when this is the first refusal of the window for `mailbox` (see the module comment). */
async function offerRecovery(
  options: InternalOptions,
  store: RateLimitStore,
  mailbox: string,
  limit: ResolvedLimit,
  recover: () => Promise<void>,
): Promise<void> {
  const claim = await store.increment(await limitKey(options, "email:rec", mailbox), limit.windowSeconds * 1000);
  if (claim.count !== 1) return;
  await recover().catch((error: Error) => options.logger.error(error));
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
