/**
 * The built-in account page (`GET <basePath>/account`, pages/account.tsx) of the signed-in user, and its
 * own forms: change the email address (`email-change.ts`), delete the account (`delete-account.ts`),
 * unlink an account. The forms of other features' operations run them by name through the kernel
 * (`options.handlerOf`), and other features add their own sections (`options.accountSections`): this
 * feature imports none of them. The password
 * form posts to `password/change`, the link buttons to `signin/<id>` with `link`, the passkey forms to the
 * passkeys feature's `account/passkey-*`, the "Add a passkey" button to the passkey provider's routes.
 *
 * @module features/account/page-routes
 */
import { missingMethods, passkeyMethods } from "../../adapter/capabilities.js";
import { SessionRequired, UnknownAction } from "../../errors.js";
import type { AccountPageSection } from "../../pages/account.js";
import type { AccountPagePasskeys } from "../../pages/account-passkeys.js";
import { html } from "../../pages/html.js";
import { loadPages } from "../../pages/lazy.js";
import { isOAuthProvider, isPasswordProvider } from "../../provider-kind.js";
import { accountUrl } from "../../sign-in/account-form.js";
import { withCallbackUrl } from "../../sign-in/flow.js";
import { isSecondFactorRow } from "../../sign-in/second-factor-row.js";
import { passwordUrl, signInUrl } from "../../sign-in/urls.js";
import type { Translator } from "../../types/i18n.js";
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
  const { renderAccountPage, text } = await loadPages(options.config, request.request, options.featureMessages);
  const sections = await sectionsOf(options, request, text);
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
      sections,
      authUrl: options.authUrl,
      linkable: providers.filter(isOAuthProvider).map((p) => ({ id: p.id, name: p.name, signinUrl: p.signinUrl })),
      unlinkUrl: `${accountUrl(options)}/unlink`,
      emailUrl: `${accountUrl(options)}/email`,
      deleteUrl: adapter?.deleteUser ? `${accountUrl(options)}/delete` : undefined,
      accountUrl: accountUrl(options),
      signOutUrl: `${options.authUrl}/signout`,
      error: request.query.error,
      // A section's form that answers this page itself (no redirect: a secret shown this once) names its notice.
      done: sections.find((section) => section.done !== undefined)?.done ?? request.query.done,
      form: request.query.form,
      theme: options.theme,
    }),
  );
}

/** Another feature's operation `name` (the second factor's settings, a linked account's unlink), run through the kernel; `UnknownAction` when its feature is off. */
function operation(options: InternalOptions, name: string): Post {
  const handler = options.handlerOf?.(name);
  if (!handler) throw new UnknownAction(`The operation "${name}" is not turned on in this configuration.`);
  return async (o, request) => handler(o, request);
}

/** The sections the enabled features add to the page, with their messages (`FeatureDefinition.accountSection`). */
async function sectionsOf(options: InternalOptions, request: RequestInternal, text: Translator): Promise<AccountPageSection[]> {
  const page = { text, csrfToken: options.csrfToken };
  const sections = await Promise.all(
    (options.accountSections ?? []).map(async (section) => {
      const view = await section.render(options, request, page);
      return view && { ...view, notices: section.notices, errors: section.errors };
    }),
  );
  return sections.filter((section) => section !== undefined);
}

/** `GET /account/deleted`: where the delete form comes back to, signed out by then. */
async function deletedPage(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal> {
  const { renderAccountDeletedPage, text } = await loadPages(options.config, request.request, options.featureMessages);
  return html(renderAccountDeletedPage({ text, homeUrl: options.origin, theme: options.theme }));
}

/**
 * The notice after an unlink: when no OAuth/OIDC account is left, it says how the user signs in from now
 * on (a password, a passkey, or a link to their proven address), the first of these they have.
 */
async function unlinkedNotice(options: InternalOptions, request: RequestInternal): Promise<string> {
  const { adapter, providers } = options;
  const user = await options.sessionStrategy.currentUser(options, request);
  if (!user?.id || !adapter?.listAccountsByUserId) return "unlinked";
  const accounts = (await adapter.listAccountsByUserId(user.id)).filter((account) => !isSecondFactorRow(account));
  const named = (id: string) => providers.find((p) => p.id === id);
  if (accounts.some((account) => isOAuthProvider(named(account.provider)))) return "unlinked";
  const password = providers.find(isPasswordProvider);
  if (password && accounts.some((account) => account.provider === password.id)) return "unlinked-password";
  const passkeys = await passkeysPart(options, user.id);
  if (passkeys && passkeys.list.length > 0) return "unlinked-passkey";
  if (user.email && user.emailVerified && providers.some((p) => p.type === "email")) return "unlinked-email";
  return "unlinked";
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
  const { renderConfirmEmailPage, text } = await loadPages(options.config, request.request, options.featureMessages);
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

/** Unlinking from the page: the linked-accounts feature's unlink, back with how the user signs in from now on. */
export const unlinkForm: Post = async (options, request) => {
  await operation(options, "unlinkAccount")(options, request);
  return { redirect: `${accountUrl(options)}?done=${await unlinkedNotice(options, request)}` };
};

export { accountPage, confirmEmailPage, deletedPage };
