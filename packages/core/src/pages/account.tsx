/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// The pragmas keep these files on the Preact runtime under any transpiler, e.g. Qwik's Vite config.
/**
 * The account page (`<basePath>/account`) of the signed-in user: their proven address, the accounts they
 * sign in with (each OAuth/OIDC one with an Unlink button), their password (change it, or set a first
 * one by email), their passkeys (pages/account-passkeys.tsx), and buttons to link another provider. Plain
 * forms; the passkey script only for "Add a passkey".
 *
 * @module pages/account
 */
import type { ComponentChildren } from "preact";
import { ENGLISH } from "../i18n/translator.js";
import type { Theme } from "../types/config.js";
import type { MessageKey, Translator } from "../types/i18n.js";
import type { AccountSectionView } from "../types/internal.js";
import { webAuthnScriptUrl } from "../webauthn/client-script.js";
import { type AccountPagePasskeys, PasskeysSection } from "./account-passkeys.js";
import { HiddenFields, renderDocument } from "./layout.js";
import { accountNotice, providerDisplayName } from "./messages.js";
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

/** A section another feature adds to the page (`FeatureDefinition.accountSection`), with its forms' messages. */
export interface AccountPageSection extends AccountSectionView {
  notices?: Readonly<Record<string, MessageKey>>;
  errors?: Readonly<Record<string, MessageKey>>;
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
  /** The user's passkeys and the routes that manage them (absent without a passkey provider). */
  passkeys?: AccountPagePasskeys;
  /** The sections of other features (each its own markup), after the page's own, before deletion. */
  sections?: readonly AccountPageSection[];
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
  /** `<origin><basePath>`: the passkey script is served under it (needed with `passkeys`). */
  authUrl?: string;
  signOutUrl: string;
  /** `?error=` and `?done=` of the request: mapped to a message, never shown themselves. */
  error?: string;
  done?: string;
  /**
   * `?form=` of a refused form whose error belongs next to one of its fields (`delete`: a wrong password
   * is shown under the delete form's password field rather than at the top of the page).
   */
  form?: string;
  theme: Theme;
  /** The request's language (default English). */
  text?: Translator;
}

type Sub = { params: AccountPageParams; text: Translator };

function Section({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <section class="stack">
      <h2>{title}</h2>
      {children}
    </section>
  );
}

function PasswordSection({ params, text }: Sub) {
  const password = params.password;
  if (!password) return null;
  if (!password.set) {
    return (
      <Section title={text.t("account.passwordSection")}>
        <p class="muted">{text.t("account.noPassword")}</p>
        <a href={toSafeNavigationUrl(password.forgotUrl)}>{text.t("account.setPassword")}</a>
      </Section>
    );
  }
  return (
    <Section title={text.t("account.changePasswordSection")}>
      <form action={toSafeNavigationUrl(password.changeUrl)} method="post">
        <HiddenFields csrfToken={params.csrfToken} callbackUrl={`${params.accountUrl}?done=password-changed`} />
        <div class="field">
          <label for="current-password">{text.t("account.currentPassword")}</label>
          <input id="current-password" name="currentPassword" type="password" autocomplete="current-password" required />
        </div>
        <div class="field">
          <label for="new-password">{text.t("account.newPassword")}</label>
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
            {text.t("account.newPasswordHint", { minLength: password.minLength })}
          </p>
        </div>
        <button type="submit" class="button">
          {text.t("account.changePasswordButton")}
        </button>
      </form>
    </Section>
  );
}

function AccountsSection({ params, text }: Sub) {
  return (
    <Section title={text.t("account.methodsSection")}>
      {params.accounts.length === 0 ? <p class="muted">{text.t("account.noAccounts")}</p> : null}
      <ul class="methods stack">
        {params.accounts.map((account) => (
          <li key={`${account.provider}:${account.providerAccountId}`}>
            <span>{providerDisplayName(text, account.providerName)}</span>
            {account.unlinkable ? (
              <form action={toSafeNavigationUrl(params.unlinkUrl)} method="post">
                <HiddenFields csrfToken={params.csrfToken} />
                <input type="hidden" name="provider" value={account.provider} />
                <input type="hidden" name="providerAccountId" value={account.providerAccountId} />
                <button
                  type="submit"
                  class="button button-neutral"
                  aria-label={text.t("account.unlinkLabel", { provider: providerDisplayName(text, account.providerName) })}
                >
                  {text.t("account.unlink")}
                </button>
              </form>
            ) : null}
          </li>
        ))}
      </ul>
      {params.linkable.map((provider) => (
        <form key={provider.id} action={toSafeNavigationUrl(provider.signinUrl)} method="post">
          <HiddenFields csrfToken={params.csrfToken} callbackUrl={`${params.accountUrl}?done=linked`} />
          <input type="hidden" name="link" value="true" />
          <button type="submit" class="button button-neutral">
            {text.t("account.link", { provider: providerDisplayName(text, provider.name) })}
          </button>
        </form>
      ))}
    </Section>
  );
}

function EmailSection({ params, text }: Sub) {
  return (
    <Section title={text.t(params.email ? "account.changeEmailSection" : "account.addEmailSection")}>
      <form action={toSafeNavigationUrl(params.emailUrl)} method="post">
        <HiddenFields csrfToken={params.csrfToken} callbackUrl={params.accountUrl} />
        <div class="field">
          <label for="new-email">{text.t("account.newEmail")}</label>
          <input id="new-email" name="email" type="email" autocomplete="email" required aria-describedby="new-email-hint" />
          <p id="new-email-hint" class="muted">
            {text.t("account.newEmailHint")}
          </p>
        </div>
        <button type="submit" class="button button-neutral">
          {text.t("account.sendLink")}
        </button>
      </form>
    </Section>
  );
}

/** The error shown under the delete form's password field, or `undefined` (then any error is at the top). */
function deleteFieldError(params: AccountPageParams, text: Translator): string | undefined {
  if (params.form !== "delete" || params.error !== "IncorrectPassword" || !params.password?.set) return undefined;
  return accountNotice(text, params.error, undefined)?.message;
}

function DeleteSection({ params, text }: Sub) {
  if (!params.deleteUrl) return null;
  const fieldError = deleteFieldError(params, text);
  return (
    <Section title={text.t("account.deleteSection")}>
      <p id="delete-warning">{text.t("account.deleteWarning")}</p>
      <form action={toSafeNavigationUrl(params.deleteUrl)} method="post">
        <HiddenFields csrfToken={params.csrfToken} callbackUrl={`${params.accountUrl}/deleted`} />
        {params.password?.set ? (
          <div class="field">
            <label for="delete-password">{text.t("account.deletePassword")}</label>
            <input
              id="delete-password"
              name="currentPassword"
              type="password"
              autocomplete="current-password"
              required
              aria-invalid={fieldError ? "true" : undefined}
              aria-describedby={fieldError ? "delete-password-error" : undefined}
            />
            {fieldError ? (
              <p id="delete-password-error" class="field-error">
                {fieldError}
              </p>
            ) : null}
          </div>
        ) : (
          <p class="muted">{text.t("account.deleteNeedsRecentSignIn")}</p>
        )}
        <button type="submit" class="button button-danger" aria-describedby="delete-warning">
          {text.t("account.deleteButton")}
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
  /** `"change"` (the default): the link to a new address; `"revert"`: the link that gives the previous address back. */
  purpose?: "change" | "revert";
  /** The request's language (default English). */
  text?: Translator;
}

/**
 * The page an email-change link (or its revert link) opens: one button that POSTs the change (a scanner's
 * GET changes nothing).
 */
export function renderConfirmEmailHtml(params: ConfirmEmailPageParams): string {
  const text = params.text ?? ENGLISH;
  const revert = params.purpose === "revert";
  const title = text.t(revert ? "revertEmail.title" : "confirmEmail.title");
  return renderDocument({
    title,
    text,
    theme: resolveTheme(params.theme),
    children: (
      <>
        <h1>{title}</h1>
        {revert ? <p class="center">{text.t("revertEmail.lead")}</p> : null}
        <form action={toSafeNavigationUrl(params.actionUrl)} method="post">
          <HiddenFields csrfToken={params.csrfToken} />
          <input type="hidden" name="token" value={params.token} />
          <button type="submit" class="button">
            {text.t(revert ? "revertEmail.button" : "confirmEmail.button")}
          </button>
        </form>
      </>
    ),
  });
}

/** What the page shown after an account was deleted needs. */
export interface AccountDeletedPageParams {
  /** The app's home page. */
  homeUrl: string;
  theme: Theme;
  /** The request's language (default English). */
  text?: Translator;
}

/** The page a deleted account's browser lands on: it says the account is gone and the browser signed out. */
export function renderAccountDeletedHtml(params: AccountDeletedPageParams): string {
  const text = params.text ?? ENGLISH;
  const title = text.t("account.deletedTitle");
  return renderDocument({
    title,
    text,
    theme: resolveTheme(params.theme),
    children: (
      <>
        <h1>{title}</h1>
        <div class="notice" role="status">
          <p>{text.t("account.deletedText")}</p>
        </div>
        <p class="center">
          <a href={toSafeNavigationUrl(params.homeUrl)}>{text.t("error.home")}</a>
        </p>
      </>
    ),
  });
}

/** Renders the account page (a complete HTML document). */
export function renderAccountHtml(params: AccountPageParams): string {
  const text = params.text ?? ENGLISH;
  // An error shown next to its field is not repeated at the top.
  const sections = params.sections ?? [];
  const shownInPlace = deleteFieldError(params, text) !== undefined || sections.some((section) => section.errorShownInPlace === true);
  const notice = shownInPlace ? undefined : accountNotice(text, params.error, params.done, sections);
  return renderDocument({
    title: text.t("account.title"),
    text,
    theme: resolveTheme(params.theme),
    scripts: params.passkeys && params.authUrl ? [webAuthnScriptUrl(params.authUrl)] : [],
    children: (
      <>
        <h1>{text.t("account.title")}</h1>
        {notice ? (
          <div class={notice.error ? "alert" : "notice"} role={notice.error ? "alert" : "status"}>
            <p>{notice.message}</p>
          </div>
        ) : null}
        <p class="center">
          {params.name ? <strong>{params.name}</strong> : null} {params.email ?? text.t("account.noEmail")}
        </p>
        <EmailSection params={params} text={text} />
        <AccountsSection params={params} text={text} />
        <PasswordSection params={params} text={text} />
        {params.passkeys === undefined ? null : <PasskeysSection params={params.passkeys} csrfToken={params.csrfToken} text={text} />}
        {sections.map((section) => section.content as ComponentChildren)}
        <DeleteSection params={params} text={text} />
        <p class="center">
          <a href={toSafeNavigationUrl(params.signOutUrl)}>{text.t("account.signOut")}</a>
        </p>
      </>
    ),
  });
}
