import { SESSION_COOKIE_NAME } from "@authlib/core/jwt";
import { getSession } from "@authlib/qwik";
import { $, component$, useSignal } from "@builder.io/qwik";
import { type DocumentHead, Form, Link, routeLoader$, useLocation } from "@builder.io/qwik-city";
import { TwoFactorSettings } from "../../components/two-factor-settings";
import { updateSession } from "../../components/update-session";
import { listActiveSessions } from "../../server/database";
import { DEMO_OP_PROVIDER_ID, demoServices } from "../../server/services";
import { useAccounts, useChangePassword, useSession, useSignIn, useUnlinkAccount } from "../plugin@auth";

/** The signed-in user's sessions in the database (empty when signed out); this browser's is marked. */
export const useActiveSessions = routeLoader$(async (ev) => {
  const userId = (await getSession(ev))?.user?.id;
  if (!userId) return [];
  // The cookie is __Host- prefixed on https.
  const token = ev.cookie.get(SESSION_COOKIE_NAME)?.value ?? ev.cookie.get(`__Host-${SESSION_COOKIE_NAME}`)?.value;
  return listActiveSessions((await demoServices()).database.client, userId, token);
});

/** The provider "Link another account" starts a link with: the demo's own OpenID Provider (server-side constant). */
export const useLinkProvider = routeLoader$(() => DEMO_OP_PROVIDER_ID);

export default component$(() => {
  const loaded = useSession();
  const activeSessions = useActiveSessions();
  const signIn = useSignIn();
  const linkProvider = useLinkProvider();
  const accounts = useAccounts();
  const unlink = useUnlinkAccount();
  const unlinkFailure = unlink.value?.failed ? unlink.value : undefined;
  const changePassword = useChangePassword();
  const changeFailure = changePassword.value?.failed ? changePassword.value : undefined;
  // The change redirects here with ?password=changed (the action's value does not survive a redirect).
  const passwordChanged = useLocation().url.searchParams.get("password") === "changed";
  // A password account is one of the linked accounts (provider "password"); the demo user has none.
  const hasPassword = accounts.value.accounts?.some((account) => account.provider === "password") ?? false;
  // The session as the server last answered it: the page's, then the update endpoint's.
  const session = useSignal(loaded.value);
  const status = useSignal("");

  // The name is read from the form when it is submitted, whatever has or has not run in the page before.
  const update = $(async (_event: SubmitEvent, form: HTMLFormElement) => {
    status.value = "Updating…";
    try {
      session.value = await updateSession({ name: String(new FormData(form).get("name") ?? "") });
      status.value = `Session updated: ${session.value?.user?.name ?? "(no name)"}`;
    } catch (error) {
      status.value = error instanceof Error ? error.message : String(error);
    }
  });

  if (!session.value) {
    return (
      <>
        <h1>Profile</h1>
        <p>
          You are signed out. <Link href="/signin?redirectTo=/profile">Sign in</Link> to see your session.
        </p>
      </>
    );
  }
  return (
    <>
      <h1>Profile</h1>
      <p>
        Name: <strong data-testid="profile-name">{session.value.user?.name ?? "(not set)"}</strong>
      </p>
      <h2>Session</h2>
      <pre data-testid="session-json">{JSON.stringify(session.value, null, 2)}</pre>
      <h2>Active sessions</h2>
      <p>
        Every browser signed in as you has a row in <code>authlib_sessions</code> (database sessions). Signing out deletes this browser's
        row. Tokens are shown by their first characters only. To sign a device out, open <Link href="/devices">Signed-in devices</Link>.
      </p>
      <table data-testid="active-sessions" class="cards">
        <thead>
          <tr>
            <th>Token</th>
            <th>Started</th>
            <th>Expires</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {activeSessions.value.map((row) => (
            <tr key={row.id} data-testid="active-session">
              <td data-label="Token">
                <code data-testid="session-token-prefix">{row.tokenPrefix}</code>
              </td>
              <td data-label="Started">
                <time dateTime={row.createdAt}>{row.createdAt}</time>
              </td>
              <td data-label="Expires">
                <time dateTime={row.expires}>{row.expires}</time>
              </td>
              <td>{row.current ? <strong data-testid="current-session">this browser</strong> : ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Linked accounts</h2>
      <p>
        The providers you sign in with (<code>useAccounts</code>). The demo account's password is not an account row (an account you created
        with a password is: provider <code>password</code>), and a passkey is listed but removed with the passkey pages. An account is only
        unlinked while you keep another way to sign in.
      </p>
      <div role="status" aria-live="polite" data-testid="unlink-status">
        {unlink.value?.unlinked !== undefined && "Account unlinked."}
      </div>
      {unlinkFailure && (
        <p role="alert" class="error" data-testid="unlink-error">
          {[...(unlinkFailure.formErrors ?? []), ...Object.values(unlinkFailure.fieldErrors ?? {}).flat()].join(" ")}
          {unlinkFailure.code && <span> ({unlinkFailure.code})</span>}
        </p>
      )}
      {accounts.value.accounts === null ? (
        <p role="alert" class="error" data-testid="accounts-error">
          The accounts could not be listed ({accounts.value.error}).
        </p>
      ) : accounts.value.accounts.length === 0 ? (
        <p data-testid="accounts-empty">No provider account is linked to you: you sign in with the demo password only.</p>
      ) : (
        <ul data-testid="linked-accounts">
          {accounts.value.accounts.map((account, index) => (
            <li key={`${account.provider}:${account.providerAccountId}`} data-testid="linked-account">
              <span id={`linked-account-${index}`}>
                {account.provider} ({account.type}) <code>{account.providerAccountId}</code>
              </span>{" "}
              {account.type !== "webauthn" && (
                <Form action={unlink} class="inline-form">
                  <input type="hidden" name="provider" value={account.provider} />
                  <input type="hidden" name="providerAccountId" value={account.providerAccountId} />
                  <button type="submit" aria-describedby={`linked-account-${index}`} disabled={unlink.isRunning}>
                    Unlink
                  </button>
                </Form>
              )}
            </li>
          ))}
        </ul>
      )}
      <p>
        Adds a sign-in with the demo's OpenID Provider to this user. Linking is always an explicit request from your own session (
        <code>link=true</code>); a sign-in callback never links an account by itself.
      </p>
      <Form action={signIn} data-testid="link-account-form">
        <input type="hidden" name="providerId" value={linkProvider.value} />
        <input type="hidden" name="options.link" value="true" />
        <input type="hidden" name="options.redirectTo" value="/profile" />
        <button type="submit" disabled={signIn.isRunning}>
          Link another account
        </button>
      </Form>
      {hasPassword ? (
        <>
          <h2 id="change-password-heading">Change password</h2>
          <div role="status" aria-live="polite" data-testid="password-changed">
            {passwordChanged && "Your password was changed. Your other devices were signed out."}
          </div>
          <p>
            For an account created with a password (<code>useChangePassword</code>): this browser stays signed in, every other one is signed
            out.
          </p>
          <Form action={changePassword} class="stack" aria-labelledby="change-password-heading" data-testid="change-password-form">
            <input type="hidden" name="redirectTo" value="/profile?password=changed" />
            {/* Lets a password manager know whose password this is. */}
            <input type="email" name="username" autoComplete="username" value={session.value.user?.email ?? ""} readOnly hidden />
            <label for="current-password">Current password</label>
            <input
              id="current-password"
              name="currentPassword"
              type="password"
              autoComplete="current-password"
              required
              aria-invalid={changeFailure?.fieldErrors?.currentPassword ? "true" : undefined}
              aria-describedby={changeFailure?.fieldErrors?.currentPassword ? "current-password-error" : undefined}
            />
            {changeFailure?.fieldErrors?.currentPassword && (
              <p id="current-password-error" role="alert" class="error" data-testid="current-password-error">
                {changeFailure.fieldErrors.currentPassword.join(" ")}
              </p>
            )}
            <label for="new-password">New password</label>
            <input
              id="new-password"
              name="password"
              type="password"
              autoComplete="new-password"
              required
              minLength={8}
              aria-invalid={changeFailure?.fieldErrors?.password ? "true" : undefined}
              aria-describedby={changeFailure?.fieldErrors?.password ? "new-password-hint new-password-error" : "new-password-hint"}
            />
            <p id="new-password-hint" class="muted">
              At least 8 characters.
            </p>
            {changeFailure?.fieldErrors?.password && (
              <p id="new-password-error" role="alert" class="error" data-testid="new-password-error">
                {changeFailure.fieldErrors.password.join(" ")}
              </p>
            )}
            {changeFailure?.formErrors?.length ? (
              <p role="alert" class="error" data-testid="change-password-error">
                {changeFailure.formErrors.join(" ")} ({changeFailure.code})
              </p>
            ) : null}
            <button type="submit" disabled={changePassword.isRunning}>
              Change password
            </button>
          </Form>
        </>
      ) : (
        <>
          <h2>Password</h2>
          <p data-testid="no-password">
            You have no password: you sign in another way. If you signed in with an email link,{" "}
            <a href="/auth/password/forgot">Forgot your password?</a> sets one; the demo account signs in through its own credentials
            provider and has none.
          </p>
        </>
      )}
      <TwoFactorSettings />
      <h2>Update the session</h2>
      <p>
        Sent to <code>POST /auth/session</code>; the demo's <code>session</code> callback stores the name on your user, so all your sessions
        show it.
      </p>
      <form preventdefault:submit onSubmit$={update} class="stack">
        <label>
          Display name <input name="name" value={session.value.user?.name ?? ""} maxLength={64} />
        </label>
        <button type="submit">Update session</button>
        <p data-testid="update-status" aria-live="polite">
          {status.value}
        </p>
      </form>
    </>
  );
});

export const head: DocumentHead = { title: "Profile" };
