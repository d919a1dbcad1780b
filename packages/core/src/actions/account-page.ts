/**
 * The built-in account page (`GET <basePath>/account`, pages/account.tsx) of the signed-in user, and the
 * one form of it that has no route of its own for browsers: `POST <basePath>/account/unlink`, which runs
 * the linked-account unlink (`accounts.ts`, CSRF-checked there) and comes back to the page with what
 * happened. The other forms post to their own routes (`password/change`, `signin/<id>` with `link`).
 *
 * @module actions/account-page
 */
import { AuthError, isClientSafeError, MethodNotAllowed } from "../errors.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../internal-types.js";
import { loadPages } from "../pages/lazy.js";
import { isOAuthProvider, isPasswordProvider } from "../provider-kind.js";
import { html } from "./pages.js";
import { withCallbackUrl } from "./sign-in-flow.js";

function accountUrl(options: InternalOptions): string {
  return `${options.authUrl}/account`;
}

async function accountPage(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal> {
  const user = await options.sessionStrategy.currentUser(options, request);
  if (!user?.id) {
    const signIn = options.pages.signIn ? new URL(options.pages.signIn, options.origin).href : `${options.authUrl}/signin`;
    return { redirect: withCallbackUrl(signIn, accountUrl(options)) };
  }
  const { adapter, providers } = options;
  const accounts = adapter?.listAccountsByUserId ? await adapter.listAccountsByUserId(user.id) : [];
  const named = (id: string) => providers.find((p) => p.id === id);
  const password = providers.find(isPasswordProvider);
  const passkeys = providers.some((p) => p.type === "webauthn") && adapter?.listAuthenticatorsByUserId;
  const { renderAccountPage } = await loadPages();
  return html(
    renderAccountPage({
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
        changeUrl: `${options.authUrl}/password/change`,
        forgotUrl: `${options.authUrl}/password/forgot`,
      },
      passkeys: passkeys ? (await passkeys(user.id)).length : undefined,
      linkable: providers.filter(isOAuthProvider).map((p) => ({ id: p.id, name: p.name, signinUrl: p.signinUrl })),
      unlinkUrl: `${accountUrl(options)}/unlink`,
      accountUrl: accountUrl(options),
      signOutUrl: `${options.authUrl}/signout`,
      error: request.query.error,
      done: request.query.done,
      theme: options.theme,
    }),
  );
}

/** POST /account/unlink: the unlink, then back to the page with `?done=unlinked` or `?error=<type>`. */
async function unlinkFromPage(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal> {
  const { accountsAction } = await import("./accounts.js");
  try {
    await accountsAction(options, request);
    return { redirect: `${accountUrl(options)}?done=unlinked` };
  } catch (error) {
    if (!(error instanceof AuthError) || !isClientSafeError(error)) throw error;
    options.logger.error(error);
    return { redirect: `${accountUrl(options)}?${new URLSearchParams({ error: error.type })}` };
  }
}

/** `GET <basePath>/account` and `POST <basePath>/account/unlink`. */
export async function accountPageAction(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal> {
  const unlink = request.providerId === "unlink";
  if (request.method === "GET" && !unlink) return accountPage(options, request);
  if (request.method === "POST" && unlink) return unlinkFromPage(options, request);
  throw new MethodNotAllowed(`${request.method} is not supported on /account${unlink ? "/unlink" : ""}.`);
}
