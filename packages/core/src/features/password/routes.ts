/**
 * The routes of the `Password()` provider (docs/password.md), under `<basePath>/password/`:
 *
 * | route | what |
 * |---|---|
 * | `GET sign-up`, `GET forgot` | the built-in forms |
 * | `POST sign-up` (`email`, `password`, `name`) | mails a verification link, or tells the owner an account exists |
 * | `GET verify?token=` | a page that confirms the address with one click (a POST, so a mail scanner's GET spends nothing) |
 * | `POST verify` (`token`) | creates the account and signs in; never adds the password to a user who has the address by then |
 * | `POST forgot` (`email`) | mails a reset link, or tells the address it has no account |
 * | `GET reset?token=` | the new-password form in the browser that asked for the link; elsewhere, "send a link for this browser" |
 * | `POST reset` (`token`, `password`) | sets the password, ends every session, signs this browser in |
 * | `POST resend` (`token`) | a live reset link opened in another browser: mails a new one, bound to this browser |
 * | `POST change` (`currentPassword`, `password`) | signed in: sets the password, ends every other session |
 * | `GET unlock?token=` | the recovery link (`recovery.ts`): this browser becomes a known device of the address |
 *
 * Every POST is CSRF-checked. Sign-up and reset requests answer the same page whether the address has an
 * account or not, after the same work (a hash, a lookup, one mail); the mail says which it was, to the
 * address's owner only. Sign-in is `POST <basePath>/callback/<id>` (`sign-in.ts`).
 *
 * @module password-accounts/routes
 */

import { normalizeEmail } from "../../address/normalize.js";
import { type ErrorType, InvalidPassword, InvalidProvider, PasswordNotSet, RecentSignInRequired, Verification } from "../../errors.js";
import { assertCsrf } from "../../http/csrf.js";
import { bindingMatches, bindingOf } from "../../http/flow-binding.js";
import { hashPassword } from "../../password.js";
import { isPasswordProvider } from "../../provider-kind.js";
import { countVerificationMail } from "../../rate-limit/email.js";
import { singleFactor } from "../../session/assurance.js";
import { endUserSessions } from "../../session/end-user-sessions.js";
import { signedInUser } from "../../session/signed-in-user.js";
import { mailSite, sendAccountMail } from "../../sign-in/account-mail.js";
import { checkCurrentPassword } from "../../sign-in/current-password.js";
import { askSignInCallback, completeSignIn } from "../../sign-in/flow.js";
import { assertSameBrowser, openLink, passwordFingerprint, sealLink, spendLink } from "../../sign-in/link-tokens.js";
import { notifyOwner } from "../../sign-in/notify-owner.js";
import { signInAgain } from "../../sign-in/owner-present.js";
import { hashOf, type PasswordAccountStore, passwordAccountOf, passwordStore, storePasswordHash } from "../../sign-in/password-account.js";
import { accountExistsMail, noAccountMail, resetMail, signUpMail } from "../../sign-in/password-mail.js";
import { newPassword, signUpName } from "../../sign-in/password-rules.js";
import { claimProvenAddress, provenHolder } from "../../sign-in/proven-address.js";
import { startSession } from "../../sign-in/start-session.js";
import { passwordUrl, signInUrl } from "../../sign-in/urls.js";
import type { AdapterUser } from "../../types/adapters.js";
import type { Account } from "../../types/config.js";
import type { AuthErrorShape } from "../../types/errors.js";
import type { InternalOptions, InternalProvider, RequestInternal, ResponseInternal } from "../../types/internal.js";
import type { PasswordConfig } from "../../types/providers.js";
import type { PasswordInput, PasswordInputs, PasswordPost } from "./input.js";
import { recoveryFor, unlock } from "./recovery.js";

type Password = InternalProvider & PasswordConfig;

/** The configuration's password provider, or `InvalidProvider`. */
export function passwordProviderOf(options: InternalOptions): Password {
  const provider = options.providers.find((p) => isPasswordProvider(p));
  if (!provider) throw new InvalidProvider("No Password() provider is configured.");
  return provider as Password;
}

/** The binding of a link to this browser: its CSRF token, whoever is signed in (that may change meanwhile). */
function browserBinding(options: InternalOptions): Promise<string> {
  return bindingOf(options.csrfToken, "");
}

/**
 * The verify-request page: "check your email" after a password mail (the same whichever mail it was),
 * "confirmed" after an address was confirmed in another browser, or "this address has an account" for a
 * sign-up link whose address got a user since.
 */
function checkYourEmail(options: InternalOptions, provider: Password, type: "sign-up" | "reset" | "verified" | "exists"): ResponseInternal {
  return { redirect: `${options.authUrl}/verify-request?${new URLSearchParams({ provider: provider.id, type: `password-${type}` })}` };
}

/** POST sign-up. */
async function signUp(
  options: InternalOptions,
  request: RequestInternal,
  provider: Password,
  input: PasswordInput<"sign-up">,
): Promise<ResponseInternal> {
  assertCsrf("password sign-up", options.csrfTokenVerified);
  const email = normalizeEmail(input.email);
  const password = newPassword(input.password, provider.passwordAccounts);
  const name = signUpName(input.name);
  await countVerificationMail(options, request, email, undefined, recoveryFor(options, request, email));
  const store = passwordStore(options);
  // Hashed whoever owns the address, so both answers take the same time.
  const hash = await hashPassword(password);
  const owner = await provenHolder(store, email);
  // Sealed whoever owns the address too: only the mail differs, and it goes to the address's owner.
  const claims = { email, name, hash, binding: await browserBinding(options), callbackUrl: options.callbackUrl };
  const token = await sealLink(options, "sign-up", claims, provider.passwordAccounts.verificationMaxAge);
  const mail = owner
    ? accountExistsMail(await mailSite(options, request), signInUrl(options))
    : signUpMail(await mailSite(options, request), `${passwordUrl(options, "verify")}?${new URLSearchParams({ token })}`);
  await sendAccountMail(options, email, mail);
  return checkYourEmail(options, provider, "sign-up");
}

/**
 * POST verify: the address is proven, and a new user gets it with the link's password; this browser is
 * signed in when it is the one that signed up; elsewhere the address is confirmed and the person signs
 * in with the password.
 *
 * A user who holds the proven address by now (signed in with an email link or OAuth since the sign-up)
 * gets nothing: the link's password is whoever signed up's, and anybody can sign up with anybody's
 * address. The page says the address has an account and offers "Forgot your password?" (a reset link goes
 * to the address, so only its owner sets a password that way). The link is spent all the same.
 */
async function verify(
  options: InternalOptions,
  request: RequestInternal,
  provider: Password,
  { token }: PasswordInput<"verify">,
): Promise<ResponseInternal> {
  assertCsrf("email verification", options.csrfTokenVerified);
  const link = await openLink(options, "sign-up", token);
  const store = passwordStore(options);
  const existing = await claimProvenAddress(options, store, link.email);
  // Spent either way: a second use of this link is "used already", whatever the first one did.
  await spendLink(options, store, link);
  if (existing) return checkYourEmail(options, provider, "exists");
  const candidate: AdapterUser = { id: crypto.randomUUID(), email: link.email, emailVerified: null, name: link.name };
  const account: Account = { providerAccountId: candidate.id, userId: candidate.id, type: "credentials", provider: provider.id };
  const refused = await askSignInCallback(options, { user: candidate, account });
  if (refused) return { redirect: refused };

  const user = await store.createUser({ ...candidate, emailVerified: new Date() });
  await options.events.createUser({ user });
  await storePasswordHash(store, provider, user.id, link.hash);
  if (!bindingMatches(link.binding, await browserBinding(options))) {
    return checkYourEmail(options, provider, "verified");
  }
  // The link's own target, checked by the redirect callback when the link was asked for, and sealed since.
  return completeSignIn({ ...options, callbackUrl: link.callbackUrl }, request, { user, account, isNewUser: true });
}

/** POST forgot. */
async function forgot(
  options: InternalOptions,
  request: RequestInternal,
  provider: Password,
  input: PasswordInput<"forgot">,
): Promise<ResponseInternal> {
  assertCsrf("password reset request", options.csrfTokenVerified);
  const email = normalizeEmail(input.email);
  await countVerificationMail(options, request, email, undefined, recoveryFor(options, request, email));
  const store = passwordStore(options);
  const owner = await provenHolder(store, email);
  // The same reads and the same sealing whoever owns the address (a random user id has no account):
  // only the mail differs, and it goes to the address's owner.
  const userId = owner?.id ?? crypto.randomUUID();
  const fingerprint = await passwordFingerprint(options, hashOf(await passwordAccountOf(store, provider, userId)));
  const claims = { email, userId, fingerprint, binding: await browserBinding(options), callbackUrl: options.callbackUrl };
  const { resetMaxAge } = provider.passwordAccounts;
  const token = await sealLink(options, "reset", claims, resetMaxAge);
  const mail = owner
    ? resetMail(
        await mailSite(options, request),
        `${passwordUrl(options, "reset")}?${new URLSearchParams({ token })}`,
        Math.round(resetMaxAge / 60),
      )
    : noAccountMail(await mailSite(options, request), passwordUrl(options, "sign-up"));
  await sendAccountMail(options, email, mail);
  return checkYourEmail(options, provider, "reset");
}

/**
 * A reset link for a user who still proves its address and has not changed password since, opened in any
 * browser (the callers check which: {@link reset} needs the asking one).
 */
async function liveResetLink(options: InternalOptions, store: PasswordAccountStore, provider: Password, token: unknown) {
  const link = await openLink(options, "reset", token);
  const user = await store.getUser(link.userId);
  if (!user?.emailVerified || user.email !== link.email) throw new Verification("The link is not valid any more. Ask for a new one.");
  const current = hashOf(await passwordAccountOf(store, provider, user.id));
  if ((await passwordFingerprint(options, current)) !== link.fingerprint) {
    throw new Verification("The link was used already, or the password changed since. Ask for a new one if you need it.");
  }
  return { link, user };
}

/**
 * Sets `user`'s password to `password`, ends every session they have and starts one for this browser;
 * tells the owner by mail, "changed" or "set" for a user who had none (a failed notice is logged, not
 * fatal: the password did change).
 */
async function replacePassword(
  options: InternalOptions,
  request: RequestInternal,
  provider: Password,
  change: { store: PasswordAccountStore; user: AdapterUser; password: string; reason: "reset" | "change" },
): Promise<ResponseInternal> {
  const { store, user, password, reason } = change;
  const hadPassword = reason === "change" || (await passwordAccountOf(store, provider, user.id)) !== null;
  // A reset is a sign-in (a user with a second factor takes the second step); a change keeps the
  // assurance of the session that made it (read before the user's sessions end).
  const kept =
    reason === "change"
      ? ((await options.sessionStrategy.currentAssurance(options, request))?.assurance ?? singleFactor("pwd"))
      : undefined;
  await storePasswordHash(store, provider, user.id, await hashPassword(password));
  await endUserSessions(options, store, user.id);
  const account: Account = { providerAccountId: user.id, userId: user.id, type: "credentials", provider: provider.id };
  const started = await startSession(options, request, { user, account, isNewUser: false, ...(kept ? { assurance: kept } : {}) });
  const cookies = started.cookies;
  await options.events.passwordChanged({ userId: user.id, reason });
  await notifyOwner(options, request, user, hadPassword ? "passwordChanged" : "passwordSet");
  return { redirect: started.secondStep ?? options.callbackUrl, cookies };
}

/** POST reset. */
async function reset(
  options: InternalOptions,
  request: RequestInternal,
  provider: Password,
  input: PasswordInput<"reset">,
): Promise<ResponseInternal> {
  assertCsrf("password reset", options.csrfTokenVerified);
  const store = passwordStore(options);
  const { link, user } = await liveResetLink(options, store, provider, input.token);
  assertSameBrowser(link, await browserBinding(options));
  const password = newPassword(input.password, provider.passwordAccounts);
  await spendLink(options, store, link);
  const withLinkTarget = { ...options, callbackUrl: link.callbackUrl };
  return replacePassword(withLinkTarget, request, provider, { store, user, password, reason: "reset" });
}

/**
 * POST resend: a reset link opened in a browser other than the one that asked for it (a phone reading the
 * mail, a laptop that asked) mails a new link, bound to this browser, to the same address.
 *
 * Why this and not "type a code shown in the asking browser": the binding exists so that a link that
 * leaks out of a mailbox (a forwarded mail, a shared inbox, a scanner's log) cannot be used by whoever
 * holds it. Continuing here must prove what the first request proved: that whoever is at this browser
 * reads that mailbox. A new mail proves exactly that, in one click and with nothing to type, and needs
 * nothing from the asking browser (which may be closed, or out of reach). Whoever holds a leaked link
 * gets nothing from the button: the new link goes to the owner's mailbox, and is of use to the holder's
 * browser only if they read that mailbox too, in which case they could ask for a reset themselves
 * anyway. It sends one more mail to an address that asked for a reset, counted against the same email
 * limits as `forgot`. The old link stays good in the browser that asked for it.
 */
async function resend(
  options: InternalOptions,
  request: RequestInternal,
  provider: Password,
  input: PasswordInput<"resend">,
): Promise<ResponseInternal> {
  assertCsrf("password reset request", options.csrfTokenVerified);
  const store = passwordStore(options);
  const { link } = await liveResetLink(options, store, provider, input.token);
  await countVerificationMail(options, request, link.email, undefined);
  const { email, userId, fingerprint, callbackUrl } = link;
  const claims = { email, userId, fingerprint, binding: await browserBinding(options), callbackUrl };
  const { resetMaxAge } = provider.passwordAccounts;
  const token = await sealLink(options, "reset", claims, resetMaxAge);
  const url = `${passwordUrl(options, "reset")}?${new URLSearchParams({ token })}`;
  await sendAccountMail(options, email, resetMail(await mailSite(options, request), url, Math.round(resetMaxAge / 60)));
  return checkYourEmail(options, provider, "reset");
}

/** POST change: the signed-in user, with their current password. */
async function change(
  options: InternalOptions,
  request: RequestInternal,
  provider: Password,
  input: PasswordInput<"change">,
): Promise<ResponseInternal> {
  assertCsrf("password change", options.csrfTokenVerified);
  const store = passwordStore(options);
  const user = await signedInUser(options, request, store);
  const hash = hashOf(await passwordAccountOf(store, provider, user.id));
  if (!hash) throw new PasswordNotSet('You have no password yet: set one with "Forgot your password?".');
  const password = newPassword(input.password, provider.passwordAccounts);
  await checkCurrentPassword(options, request, provider, { user, hash }, input.currentPassword);
  return replacePassword(options, request, provider, { store, user, password, reason: "change" });
}

/** The forms that post here, and the GET pages (the built-in form of each, or the recovery link). */
export type { PasswordPost };
export type PasswordPage = "sign-up" | "forgot" | "reset" | "verify";

/** The handler of each form, over the form's typed input. */
type PasswordRoute<F extends PasswordPost> = (
  options: InternalOptions,
  request: RequestInternal,
  provider: Password,
  input: PasswordInputs[F],
) => Promise<ResponseInternal>;
const posts: { [F in PasswordPost]: PasswordRoute<F> } = { "sign-up": signUp, verify, forgot, reset, resend, change };

/** `POST <basePath>/password/<form>`, with the form's parsed input. */
export function passwordPost<F extends PasswordPost>(
  form: F,
  options: InternalOptions,
  request: RequestInternal,
  input: PasswordInputs[F],
): Promise<ResponseInternal> {
  const handler: PasswordRoute<F> = posts[form];
  return handler(options, request, passwordProviderOf(options), input);
}

/** `GET <basePath>/password/<form>`: the built-in page of the form (loaded with the pages). */
export async function passwordPage(form: PasswordPage, options: InternalOptions, request: RequestInternal): Promise<ResponseInternal> {
  const provider = passwordProviderOf(options);
  const pages = await import("./pages.js");
  // A link that cannot be used says so at once, before the person types a new password.
  if (form === "verify")
    return pages.passwordPage(options, request, provider, form, (await openLink(options, "sign-up", request.query.token)).email);
  if (form === "reset") {
    const { link } = await liveResetLink(options, passwordStore(options), provider, request.query.token);
    // A live link of another browser: no password form, but a way to go on here (see `resend`).
    if (!bindingMatches(link.binding, await browserBinding(options))) return pages.passwordPage(options, request, provider, "resend");
  }
  return pages.passwordPage(options, request, provider, form);
}

/** `GET <basePath>/password/unlock?token=`: the recovery link (`recovery.ts`). */
export function unlockPage(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal> {
  return unlock(options, request, passwordProviderOf(options));
}

/** The refusals a browser's form post shows on a page (the rest go to the error page). */
const shownOnForm = new Set<ErrorType>([
  "InvalidPassword",
  "InvalidName",
  "EmailSignInError",
  "RateLimited",
  "MissingCSRF",
  "IncorrectPassword",
  "PasswordNotSet",
]);

/**
 * The page a refused form goes back to: the built-in form of `sign-up`, `forgot` and `reset` (`resend`'s
 * too: the reset link's page); for `change`, the page it came from (its callback URL, same-origin, e.g. the
 * account page). `verify` has none: its refusals take the general policy.
 */
function formPage(options: InternalOptions, form: PasswordPost): URL | undefined {
  if (form === "resend") return new URL(passwordUrl(options, "reset"));
  if (form === "sign-up" || form === "forgot" || form === "reset") return new URL(passwordUrl(options, form));
  if (form !== "change") return undefined;
  const page = new URL(options.callbackUrl);
  page.searchParams.delete("done");
  return page;
}

/** The longest typed value a refused form gets back in its URL (an address is at most 254 characters). */
const MAX_KEPT_FIELD = 254;

/**
 * A browser's refused form post: back to its page with `?error=` (the password rule in `code`, a reset
 * form's token). Answered as a page, not thrown: `failure` has the pipeline log, trace and audit it all
 * the same. `undefined` for a refusal not shown on a form (the general policy).
 */
export function passwordFormRefusal(
  form: PasswordPost,
  options: InternalOptions,
  request: RequestInternal,
  error: AuthErrorShape,
): ResponseInternal | undefined {
  if (error instanceof RecentSignInRequired && form === "change") return signInAgain(options, options.callbackUrl, error);
  const page = shownOnForm.has(error.type) ? formPage(options, form) : undefined;
  if (!page) return undefined;
  page.searchParams.set("error", error.type);
  if (error instanceof InvalidPassword) page.searchParams.set("code", error.rule);
  const token = request.body.token;
  if ((form === "reset" || form === "resend") && typeof token === "string") page.searchParams.set("token", token);
  // The sign-up and forgot forms get back what was typed (never a password), so nobody types it twice.
  if (form === "sign-up" || form === "forgot") {
    for (const field of form === "sign-up" ? ["name", "email"] : ["email"]) {
      const value = request.body[field];
      if (typeof value === "string" && value.length <= MAX_KEPT_FIELD && !/[\r\n]/.test(value)) page.searchParams.set(field, value);
    }
  }
  return { redirect: page.href, failure: error };
}
