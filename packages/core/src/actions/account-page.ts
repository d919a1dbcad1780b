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
import { missingMethods, passkeyMethods } from "../adapter-capabilities.js";
import { AuthError, isClientSafeError, MethodNotAllowed, SessionRequired, UnknownAction } from "../errors.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../internal-types.js";
import type { AccountPagePasskeys } from "../pages/account-passkeys.js";
import type { AccountPageTwoFactor } from "../pages/account-two-factor.js";
import { loadPages } from "../pages/lazy.js";
import { passwordUrl, signInUrl } from "../password-accounts/urls.js";
import { isOAuthProvider, isPasswordProvider } from "../provider-kind.js";
import { isSecondFactorRow } from "../two-factor/row.js";
import { html } from "./pages.js";
import { withCallbackUrl } from "./sign-in-flow.js";

function accountUrl(options: InternalOptions): string {
  return `${options.authUrl}/account`;
}

/** What a second-factor form's answer adds to the page: the set-up key and QR code, or the new recovery codes. */
type TwoFactorShown = Pick<AccountPageTwoFactor, "setup" | "newRecoveryCodes">;

async function accountPage(options: InternalOptions, request: RequestInternal, shown: TwoFactorShown = {}): Promise<ResponseInternal> {
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
  const twoFactor = await twoFactorPart(options, request, shown);
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
      twoFactor,
      authUrl: options.authUrl,
      linkable: providers.filter(isOAuthProvider).map((p) => ({ id: p.id, name: p.name, signinUrl: p.signinUrl })),
      unlinkUrl: `${accountUrl(options)}/unlink`,
      emailUrl: `${accountUrl(options)}/email`,
      deleteUrl: adapter?.deleteUser ? `${accountUrl(options)}/delete` : undefined,
      accountUrl: accountUrl(options),
      signOutUrl: `${options.authUrl}/signout`,
      error: request.query.error,
      // The page a confirm form answers says it is on (no redirect: the codes are shown this once).
      done: shown.newRecoveryCodes ? "two-factor-on" : request.query.done,
      form: request.query.form,
      theme: options.theme,
    }),
  );
}

/** The second-factor settings' routes (two-factor/settings.ts), loaded with the first use; `UnknownAction` when off. */
async function twoFactorSettings(options: InternalOptions) {
  if (!options.config.twoFactor) throw new UnknownAction("Second factors are off: set `twoFactor` in the configuration to use them.");
  return (await import("../two-factor/settings.js")).settingsRoutes;
}

/** The page's second-factor part (absent without `twoFactor`): the status, the forms, what a form just made. */
async function twoFactorPart(
  options: InternalOptions,
  request: RequestInternal,
  shown: TwoFactorShown,
): Promise<AccountPageTwoFactor | undefined> {
  if (!options.config.twoFactor) return undefined;
  const settings = await twoFactorSettings(options);
  const status = (await settings["GET status"]?.(options, request))?.body as { totp: boolean; recoveryCodes: number };
  const page = accountUrl(options);
  return {
    on: status.totp,
    recoveryCodes: status.recoveryCodes,
    enrollUrl: `${page}/two-factor-enroll`,
    confirmUrl: `${page}/two-factor-confirm`,
    disableUrl: `${page}/two-factor-disable`,
    ...shown,
    codeError: request.query.form === "two-factor" && request.query.error === "IncorrectCode",
  };
}

/** `GET /account/deleted`: where the delete form comes back to, signed out by then. */
async function deletedPage(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal> {
  const { renderAccountDeletedPage, text } = await loadPages(options.config, request.request);
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
  const { listedPasskey } = await import("./passkeys.js");
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
  const { liveEmailChangeLink } = await import("../account-lifecycle/email-change.js");
  // Stryker disable next-line StringLiteral: equivalent, a missing token is refused (Verification) by liveEmailChangeLink before it is used below
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

/** `GET|POST /account/revert-email` (account-lifecycle/email-revert.ts). */
async function revertEmail(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal> {
  const revert = await import("../account-lifecycle/email-revert.js");
  if (request.method === "GET") return revert.revertEmailPage(options, request);
  if (request.method === "POST") return revert.revertEmailChange(options, request);
  throw new MethodNotAllowed(`${request.method} is not supported on /account/revert-email.`);
}

type Post = (options: InternalOptions, request: RequestInternal) => Promise<ResponseInternal>;

/** The account page's forms, by subroute: each loads its code with its first use. */
const posts: Record<string, Post> = {
  async unlink(options, request) {
    await (await import("./accounts.js")).accountsAction(options, request);
    return { redirect: `${accountUrl(options)}?done=${await unlinkedNotice(options, request)}` };
  },
  email: async (options, request) => (await import("../account-lifecycle/email-change.js")).requestEmailChange(options, request),
  "confirm-email": async (options, request) => (await import("../account-lifecycle/email-change.js")).confirmEmailChange(options, request),
  delete: async (options, request) => (await import("../account-lifecycle/delete-account.js")).deleteAccount(options, request),
  async "passkey-rename"(options, request) {
    await (await import("./passkeys.js")).renamePasskeyAction(options, request);
    return { redirect: `${accountUrl(options)}?done=passkey-renamed` };
  },
  // The second-factor forms: owner-present operations, as their /two-factor routes are. Enroll and confirm
  // answer the page itself (the key and QR code, then the recovery codes: secrets never put in a URL).
  async "two-factor-enroll"(options, request) {
    const { body } = await ((await twoFactorSettings(options))["POST enroll"] as Post)(options, request);
    const { secret, qrSvg } = body as { secret: string; qrSvg: string };
    return accountPage(options, request, { setup: { secret, qrSvg } });
  },
  async "two-factor-confirm"(options, request) {
    const { body } = await ((await twoFactorSettings(options))["POST confirm"] as Post)(options, request);
    return accountPage(options, request, { newRecoveryCodes: (body as { recoveryCodes: string[] }).recoveryCodes });
  },
  async "two-factor-disable"(options, request) {
    await ((await twoFactorSettings(options))["POST disable"] as Post)(options, request);
    return { redirect: `${accountUrl(options)}?done=two-factor-off` };
  },
  // An owner-present operation: a refusal sends the browser to sign in again and back (sign-in/owner-present.ts).
  async "passkey-remove"(options, request) {
    await (await import("./passkeys.js")).removePasskeyAction(options, request);
    return { redirect: `${accountUrl(options)}?done=passkey-removed` };
  },
};

/**
 * `GET <basePath>/account` (and `/account/confirm-email?token=`), and the POSTs of its forms: `unlink`,
 * `email`, `confirm-email`, `delete`, `passkey-rename`, `passkey-remove`; and `/account/revert-email` (GET
 * its page, POST the revert). A browser's refused form comes back to the page with `?error=<type>`;
 * `auth.api` callers get the typed error.
 */
export async function accountPageAction(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal> {
  const route = request.providerId;
  if (request.method === "GET" && route === undefined) return accountPage(options, request);
  if (request.method === "GET" && route === "confirm-email") return confirmEmailPage(options, request);
  if (request.method === "GET" && route === "deleted") return deletedPage(options, request);
  // Signed out, from a mail: a refusal goes to the error page (the account page would ask to sign in first).
  if (route === "revert-email") return revertEmail(options, request);
  const post = request.method === "POST" && route !== undefined ? posts[route] : undefined;
  if (!post) throw new MethodNotAllowed(`${request.method} is not supported on /account${route ? `/${route}` : ""}.`);
  try {
    return await post(options, request);
  } catch (error) {
    if (request.inProcess || !(error instanceof AuthError) || !isClientSafeError(error)) throw error;
    // Answered as a page: `failure` has the pipeline log, trace and audit it.
    // The delete form's wrong password is shown next to its field (`form`); any other error at the top.
    const query = new URLSearchParams({ error: error.type });
    if (route === "delete") query.set("form", route);
    if (route?.startsWith("two-factor-")) query.set("form", "two-factor");
    return { redirect: `${accountUrl(options)}?${query}`, failure: error };
  }
}
