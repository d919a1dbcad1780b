/**
 * The built-in account page (`GET <basePath>/account`, pages/account.tsx) of the signed-in user, and its
 * forms: unlink (the linked-account unlink of `accounts.ts`, CSRF-checked there), change the email address
 * (`account-lifecycle/email-change.ts`), delete the account (`account-lifecycle/delete-account.ts`), and
 * rename or remove a passkey (`actions/passkeys.ts`), each coming back to the page with what happened. The
 * password form posts to `password/change`, the link buttons to `signin/<id>` with `link`, the "Add a
 * passkey" button (the passkey script) to the passkey provider's options and callback.
 *
 * @module actions/account-page
 */

import { missingMethods, passkeyMethods } from "../../adapter/capabilities.js";
import { SessionRequired } from "../../errors.js";
import type { AccountPagePasskeys } from "../../pages/account-passkeys.js";
import { html } from "../../pages/html.js";
import { loadPages } from "../../pages/lazy.js";
import { isOAuthProvider, isPasswordProvider } from "../../provider-kind.js";
import { accountUrl } from "../../sign-in/account-form.js";
import { withCallbackUrl } from "../../sign-in/flow.js";
import { isSecondFactorRow } from "../../sign-in/second-factor-row.js";
import { passwordUrl, signInUrl } from "../../sign-in/urls.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../../types/internal.js";

async function accountPage(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal> {
  const user = await options.sessionStrategy.currentUser(options, request);
  if (!user?.id) {
    return { redirect: withCallbackUrl(signInUrl(options), accountUrl(options)) };
  }
  const { adapter, providers } = options;
  const listed = adapter?.listAccountsByUserId ? await adapter.listAccountsByUserId(user.id) : [];
  const accounts = listed.filter((account) => !isSecondFactorRow(account));
  const named = (id: string) => providers.find((p) => p.id === id);
  const password = providers.find(isPasswordProvider);
  const passkeys = await passkeysPart(options, user.id);
  const { renderAccountPage, text } = await loadPages(options.config, request.request);
  return html(
    renderAccountPage({
      text,
      csrfToken: options.csrfToken,
      email: user.email && user.emailVerified !== null ? user.email : null,
      name: user.name ?? null,
      accounts: accounts
        .filter((account) => account.type !== "webauthn")
        .map((account) => ({
          provider: account.provider,
          providerName: named(account.provider)?.name ?? account.provider,
          providerAccountId: account.providerAccountId,
          unlinkable: isOAuthProvider(named(account.provider)),
        })),
      password: password && {
        set: accounts.some((account) => account.provider === password.id),
        minLength: password.passwordAccounts.minLength,
        changeUrl: passwordUrl(options, "change"),
        forgotUrl: passwordUrl(options, "forgot"),
      },
      passkeys,
      authUrl: options.authUrl,
      linkable: providers.filter(isOAuthProvider).map((p) => ({ id: p.id, name: p.name, signinUrl: p.signinUrl })),
      unlinkUrl: `${accountUrl(options)}/unlink`,
      emailUrl: `${accountUrl(options)}/email`,
      deleteUrl: adapter?.deleteUser ? `${accountUrl(options)}/delete` : undefined,
      accountUrl: accountUrl(options),
      signOutUrl: `${options.authUrl}/signout`,
      error: request.query.error,
      done: request.query.done,
      theme: options.theme,
    }),
  );
}

/**
 * The page's passkeys part: the user's passkeys, where their forms post (when the adapter can rename and
 * remove them), and the "Add a passkey" button's routes; `undefined` without a passkey provider.
 */
async function passkeysPart(options: InternalOptions, userId: string): Promise<AccountPagePasskeys | undefined> {
  const provider = options.providers.find((p) => p.type === "webauthn");
  const adapter = options.adapter;
  if (!provider || !adapter?.listAuthenticatorsByUserId) return undefined;
  const { listedPasskey } = await import("../../webauthn/passkey-name.js");
  const page = accountUrl(options);
  const list = (await adapter.listAuthenticatorsByUserId(userId)).map(listedPasskey);
  list.sort((a, b) => (a.createdAt ?? "").localeCompare(b.createdAt ?? ""));
  const manageable = missingMethods(adapter, passkeyMethods).length === 0;
  const reauth = new URL(withCallbackUrl(signInUrl(options), page));
  reauth.searchParams.set("error", "RecentSignInRequired");
  const id = encodeURIComponent(provider.id);
  return {
    list,
    renameUrl: manageable ? `${page}/passkey-rename` : undefined,
    removeUrl: manageable ? `${page}/passkey-remove` : undefined,
    optionsUrl: `${options.authUrl}/webauthn-options/${id}`,
    callbackUrl: `${options.authUrl}/callback/${id}`,
    csrfUrl: `${options.authUrl}/csrf`,
    addedUrl: `${page}?done=passkey-added`,
    reauthUrl: reauth.href,
  };
}

/** The confirm page of an email-change link (signed out: sign in first, then back here). */
async function confirmEmailPage(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal> {
  const { liveEmailChangeLink } = await import("./email-change.js");
  const token = request.query.token ?? "";
  try {
    await liveEmailChangeLink(options, request, request.query.token);
  } catch (error) {
    if (!(error instanceof SessionRequired)) throw error;
    return { redirect: withCallbackUrl(signInUrl(options), `${accountUrl(options)}/confirm-email?${new URLSearchParams({ token })}`) };
  }
  const { renderConfirmEmailPage, text } = await loadPages(options.config, request.request);
  return html(
    renderConfirmEmailPage({
      text,
      actionUrl: `${accountUrl(options)}/confirm-email`,
      csrfToken: options.csrfToken,
      token,
      theme: options.theme,
    }),
  );
}

type Post = (options: InternalOptions, request: RequestInternal) => Promise<ResponseInternal>;

/** The account page's own forms: each loads its code with its first use. */
export const emailForm: Post = async (options, request) => (await import("./email-change.js")).requestEmailChange(options, request);
export const confirmEmailForm: Post = async (options, request) => (await import("./email-change.js")).confirmEmailChange(options, request);
export const deleteForm: Post = async (options, request) => (await import("./delete-account.js")).deleteAccount(options, request);

export { accountPage, confirmEmailPage };
