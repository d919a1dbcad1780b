/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// The pragmas keep these files on the Preact runtime under any transpiler, e.g. Qwik's Vite config.
/**
 * The account page (`<basePath>/account`) of the signed-in user: their proven address, the accounts they
 * sign in with (each OAuth/OIDC one with an Unlink button), their password (change it, or set a first
 * one by email), their passkeys, and buttons to link another provider. Plain forms, no script.
 *
 * @module pages/account
 */
import type { ComponentChildren } from "preact";
import type { Theme } from "../types.js";
import { HiddenFields, renderDocument } from "./layout.js";
import { accountNotice } from "./messages.js";
import { resolveTheme, toSafeNavigationUrl } from "./theme.js";

/** A linked account as the page lists it. */
export interface AccountPageAccount {
  provider: string;
  /** The provider's name ("GitHub"), or its id when it is no longer configured. */
  providerName: string;
  providerAccountId: string;
  /** Only OAuth/OIDC accounts are unlinked here (a password is changed, a passkey removed elsewhere). */
  unlinkable: boolean;
}

/** What the account page shows. */
export interface AccountPageParams {
  csrfToken: string;
  /** The user's proven address, or `null`. */
  email: string | null;
  name: string | null;
  accounts: readonly AccountPageAccount[];
  /** The Password() provider's part: whether the user has a password, and the rules; absent without one. */
  password?: { set: boolean; minLength: number; changeUrl: string; forgotUrl: string };
  /** How many passkeys the user has (absent without a passkey provider). */
  passkeys?: number;
  /** OAuth/OIDC providers another account can be linked from: where their link form posts. */
  linkable: ReadonlyArray<{ id: string; name: string; signinUrl: string }>;
  /** Where the Unlink buttons post. */
  unlinkUrl: string;
  /** Where the email form posts (a link goes to the new address). */
  emailUrl: string;
  /** Where the delete form posts; `undefined` when the adapter cannot delete users. */
  deleteUrl?: string;
  /** This page, where every form comes back to. */
  accountUrl: string;
  signOutUrl: string;
  /** `?error=` and `?done=` of the request: mapped to a message, never shown themselves. */
  error?: string;
  done?: string;
  theme: Theme;
}

function Section({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <section class="stack">
      <h2>{title}</h2>
      {children}
    </section>
  );
}

function PasswordSection({ params }: { params: AccountPageParams }) {
  const password = params.password;
  if (!password) return null;
  if (!password.set) {
    return (
      <Section title="Password">
        <p class="muted">You sign in without a password.</p>
        <a href={toSafeNavigationUrl(password.forgotUrl)}>Set a password by email</a>
      </Section>
    );
  }
  return (
    <Section title="Change password">
      <form action={toSafeNavigationUrl(password.changeUrl)} method="post">
        <HiddenFields csrfToken={params.csrfToken} callbackUrl={`${params.accountUrl}?done=password-changed`} />
        <div class="field">
          <label for="current-password">Current password</label>
          <input id="current-password" name="currentPassword" type="password" autocomplete="current-password" required />
        </div>
        <div class="field">
          <label for="new-password">New password</label>
          <input
            id="new-password"
            name="password"
            type="password"
            autocomplete="new-password"
            required
            minLength={password.minLength}
            aria-describedby="new-password-hint"
          />
          <p id="new-password-hint" class="muted">
            At least {password.minLength} characters. Your other devices are signed out.
          </p>
        </div>
        <button type="submit" class="button">
          Change password
        </button>
      </form>
    </Section>
  );
}

function AccountsSection({ params }: { params: AccountPageParams }) {
  return (
    <Section title="Sign-in methods">
      {params.accounts.length === 0 ? <p class="muted">No linked accounts.</p> : null}
      <ul class="methods stack">
        {params.accounts.map((account) => (
          // Stryker disable next-line StringLiteral: equivalent, a key only guides Preact's reconciliation; rendering to a string never writes it
          <li key={`${account.provider}:${account.providerAccountId}`}>
            <span>{account.providerName}</span>
            {account.unlinkable ? (
              <form action={toSafeNavigationUrl(params.unlinkUrl)} method="post">
                <HiddenFields csrfToken={params.csrfToken} />
                <input type="hidden" name="provider" value={account.provider} />
                <input type="hidden" name="providerAccountId" value={account.providerAccountId} />
                <button type="submit" class="button button-neutral" aria-label={`Unlink ${account.providerName}`}>
                  Unlink
                </button>
              </form>
            ) : null}
          </li>
        ))}
      </ul>
      {params.linkable.map((provider) => (
        <form key={provider.id} action={toSafeNavigationUrl(provider.signinUrl)} method="post">
          <HiddenFields csrfToken={params.csrfToken} callbackUrl={params.accountUrl} />
          <input type="hidden" name="link" value="true" />
          <button type="submit" class="button button-neutral">
            Link {provider.name}
          </button>
        </form>
      ))}
    </Section>
  );
}

function EmailSection({ params }: { params: AccountPageParams }) {
  return (
    <Section title={params.email ? "Change email address" : "Add an email address"}>
      <form action={toSafeNavigationUrl(params.emailUrl)} method="post">
        <HiddenFields csrfToken={params.csrfToken} callbackUrl={params.accountUrl} />
        <div class="field">
          <label for="new-email">New email address</label>
          <input id="new-email" name="email" type="email" autocomplete="email" required aria-describedby="new-email-hint" />
          <p id="new-email-hint" class="muted">
            We send a link to the new address; it is used once you follow it.
          </p>
        </div>
        <button type="submit" class="button button-neutral">
          Send the link
        </button>
      </form>
    </Section>
  );
}

function DeleteSection({ params }: { params: AccountPageParams }) {
  if (!params.deleteUrl) return null;
  return (
    <Section title="Delete account">
      <form action={toSafeNavigationUrl(params.deleteUrl)} method="post">
        <HiddenFields csrfToken={params.csrfToken} callbackUrl="/" />
        {params.password?.set ? (
          <div class="field">
            <label for="delete-password">Your password, to confirm</label>
            <input id="delete-password" name="currentPassword" type="password" autocomplete="current-password" required />
          </div>
        ) : (
          <p class="muted">Without a password, deleting needs a sign-in in the last 10 minutes.</p>
        )}
        <button type="submit" class="button button-neutral">
          Delete my account
        </button>
      </form>
    </Section>
  );
}

/** What the confirm page of an email-change link needs. */
export interface ConfirmEmailPageParams {
  actionUrl: string;
  csrfToken: string;
  token: string;
  theme: Theme;
}

/** The page an email-change link opens: one button that POSTs the change (a scanner's GET changes nothing). */
export function renderConfirmEmailHtml(params: ConfirmEmailPageParams): string {
  return renderDocument({
    title: "Use this email address",
    theme: resolveTheme(params.theme),
    children: (
      <>
        <h1>Use this email address</h1>
        <form action={toSafeNavigationUrl(params.actionUrl)} method="post">
          <HiddenFields csrfToken={params.csrfToken} />
          <input type="hidden" name="token" value={params.token} />
          <button type="submit" class="button">
            Use this address
          </button>
        </form>
      </>
    ),
  });
}

/** Renders the account page (a complete HTML document). */
export function renderAccountHtml(params: AccountPageParams): string {
  const notice = accountNotice(params.error, params.done);
  return renderDocument({
    title: "Your account",
    theme: resolveTheme(params.theme),
    children: (
      <>
        <h1>Your account</h1>
        {notice ? (
          <div class={notice.error ? "alert" : "notice"} role={notice.error ? "alert" : "status"}>
            <p>{notice.message}</p>
          </div>
        ) : null}
        <p class="center">
          {params.name ? <strong>{params.name}</strong> : null} {params.email ?? "No email address"}
        </p>
        <EmailSection params={params} />
        <AccountsSection params={params} />
        <PasswordSection params={params} />
        {params.passkeys === undefined ? null : (
          <Section title="Passkeys">
            <p class="muted">{params.passkeys === 1 ? "1 passkey" : `${params.passkeys} passkeys`}</p>
          </Section>
        )}
        <DeleteSection params={params} />
        <p class="center">
          <a href={toSafeNavigationUrl(params.signOutUrl)}>Sign out</a>
        </p>
      </>
    ),
  });
}
