/**
 * What the pages say about an error. The error type arrives as a query parameter, so it is user input:
 * it is only ever used as a lookup key (own properties only, so `constructor` or `__proto__` find
 * nothing) and never shown itself. The tables map a type to a catalog key; the text is the request's
 * language's (`i18n/`).
 *
 * @module pages/messages
 */
import type { MessageKey, Translator } from "../types/i18n.js";

const TRY_ANOTHER_ACCOUNT: MessageKey = "signinError.tryAnotherAccount";
const USE_ORIGINAL_ACCOUNT: MessageKey = "signinError.useOriginalAccount";
const EMAIL_NOT_SENT: MessageKey = "signinError.emailNotSent";

const SIGNIN_ERROR_MESSAGES: Readonly<Record<string, MessageKey>> = Object.freeze({
  Signin: TRY_ANOTHER_ACCOUNT,
  OAuthSignin: TRY_ANOTHER_ACCOUNT,
  OAuthSignInError: TRY_ANOTHER_ACCOUNT,
  OAuthCallbackError: TRY_ANOTHER_ACCOUNT,
  // Kinds of OAuthCallbackError: the provider's answer was refused.
  ProviderResponseTooLarge: TRY_ANOTHER_ACCOUNT,
  InvalidIdTokenClaim: TRY_ANOTHER_ACCOUNT,
  UnsupportedTokenType: TRY_ANOTHER_ACCOUNT,
  OAuthCreateAccount: TRY_ANOTHER_ACCOUNT,
  EmailCreateAccount: TRY_ANOTHER_ACCOUNT,
  Callback: TRY_ANOTHER_ACCOUNT,
  OAuthAccountNotLinked: USE_ORIGINAL_ACCOUNT,
  // The WebAuthn counterpart of OAuthAccountNotLinked.
  AccountNotLinked: USE_ORIGINAL_ACCOUNT,
  EmailSignin: EMAIL_NOT_SENT,
  EmailSignInError: EMAIL_NOT_SENT,
  CredentialsSignin: "signinError.credentials",
  SessionRequired: "signinError.sessionRequired",
  MissingCSRF: "signinError.missingCsrf",
  AccessDenied: "signinError.accessDenied",
  Verification: "signinError.verification",
  RateLimited: "signinError.rateLimited",
  RecentSignInRequired: "signinError.recentSignInRequired",
});

/**
 * The names authlib's own providers have by default (and the usual "Email and password" of a Password()
 * provider): plain words, not brands, so a translated page says them in its language. Any other name is
 * the app's (a brand, or its own words) and is shown as written.
 */
const BUILT_IN_PROVIDER_NAMES: Readonly<Record<string, MessageKey>> = Object.freeze({
  Email: "provider.email",
  Password: "provider.password",
  "Email and password": "provider.emailPassword",
  Passkey: "provider.passkey",
});

/** `name` of a provider as a page of `text`'s language shows it (see {@link BUILT_IN_PROVIDER_NAMES}). */
export function providerDisplayName(text: Translator, name: string): string {
  const key = lookup(BUILT_IN_PROVIDER_NAMES, name);
  return key ? text.t(key) : name;
}

function lookup<T>(table: Readonly<Record<string, T>>, key: string | undefined): T | undefined {
  return key !== undefined && Object.hasOwn(table, key) ? table[key] : undefined;
}

/**
 * A page's message for `?error=<type>` by `table` (a feature's own page: its table of types), the text of
 * `fallback` for a type the table does not name, `undefined` when there is no error.
 */
export function errorMessageIn(
  text: Translator,
  table: Readonly<Record<string, MessageKey>>,
  error: string | undefined,
  fallback: MessageKey,
): string | undefined {
  if (error === undefined || error === "") return undefined;
  return text.t(lookup(table, error) ?? fallback);
}

/**
 * The message the sign-in page shows for `?error=<type>` (and `?code=`: an address authlib does not send
 * to is not a mail that failed): the type's own message (the page's, else a feature's in `features`), the
 * default one for an unknown type, or `undefined` when there is no error.
 */
export function signInErrorMessage(
  text: Translator,
  error: string | undefined,
  code?: string,
  features: Readonly<Record<string, MessageKey>> = {},
): string | undefined {
  if (error === undefined || error === "") return undefined;
  if (error === "EmailSignInError" && code === "invalid-address") return text.t("signinError.invalidAddress");
  if (error === "OAuthCallbackError" && code === "access_denied") return text.t("signinError.accessDeniedAtProvider");
  return text.t(lookup(SIGNIN_ERROR_MESSAGES, error) ?? lookup(features, error) ?? "signinError.default");
}

// `?code=` refines CredentialsSignin (a subclass of it sets its own `code`). It is shown only when it looks
// like an identifier: free text in the alert would let anyone put words in the page's mouth with a link.
const DISPLAYABLE_CODE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/**
 * The `code` worth showing next to a CredentialsSignin message, or `undefined`: the default `credentials`
 * says nothing, and anything that is not a short identifier is not shown.
 */
export function displayableErrorCode(error: string | undefined, code: string | undefined): string | undefined {
  if (error !== "CredentialsSignin" || code === undefined || code === "credentials") return undefined;
  return DISPLAYABLE_CODE.test(code) ? code : undefined;
}

/** What the error page shows for one error type, and the HTTP status it is served with. */
export interface ErrorPageContent {
  status: number;
  heading: string;
  paragraphs: readonly string[];
  /** Whether to offer signing in again (pointless when the server is misconfigured). */
  offerSignIn: boolean;
}

interface ErrorPageKeys {
  status: number;
  heading: MessageKey;
  paragraphs: readonly MessageKey[];
  offerSignIn: boolean;
}

const ERROR_PAGE_CONTENT: Readonly<Record<string, ErrorPageKeys>> = Object.freeze({
  Configuration: {
    status: 500,
    heading: "error.configuration.heading",
    paragraphs: ["error.configuration.problem", "error.configuration.logs"],
    offerSignIn: false,
  },
  AccessDenied: { status: 403, heading: "error.accessDenied.heading", paragraphs: ["error.accessDenied.text"], offerSignIn: true },
  Verification: {
    status: 403,
    heading: "error.verification.heading",
    paragraphs: ["error.verification.invalid", "error.verification.reason"],
    offerSignIn: true,
  },
  LinkAlreadyUsed: { status: 410, heading: "error.linkUsed.heading", paragraphs: ["error.linkUsed.text"], offerSignIn: true },
  ImpersonationForbidden: {
    status: 403,
    heading: "error.accessDenied.heading",
    paragraphs: ["impersonation.forbidden"],
    offerSignIn: false,
  },
});

/**
 * The error page for a type no entry covers, and for no type. Status 200 as in Auth.js: the page itself
 * was served fine, and the same URL without `?error` is a plain landing page.
 */
const DEFAULT_ERROR_PAGE_CONTENT: ErrorPageKeys = Object.freeze<ErrorPageKeys>({
  status: 200,
  heading: "error.default.heading",
  paragraphs: ["error.default.text"],
  offerSignIn: true,
});

/** The error page's content for `?error=<type>` (the default for unknown types). */
export function errorPageContent(text: Translator, error: string | undefined): ErrorPageContent {
  const keys = lookup(ERROR_PAGE_CONTENT, error) ?? DEFAULT_ERROR_PAGE_CONTENT;
  return {
    status: keys.status,
    heading: text.t(keys.heading),
    paragraphs: keys.paragraphs.map((key) => text.t(key)),
    offerSignIn: keys.offerSignIn,
  };
}

const PASSWORD_ERROR_MESSAGES: Readonly<Record<string, MessageKey>> = Object.freeze({
  InvalidName: "passwordError.invalidName",
  EmailSignInError: "formError.emailNotSent",
  MissingCSRF: "formError.expired",
  RateLimited: "formError.rateLimited",
  Verification: "formError.linkInvalid",
});

/**
 * The message a password page shows for `?error=<type>` (and, for `InvalidPassword`, the rule in
 * `?code=`), or `undefined` when there is no error.
 */
export function passwordErrorMessage(
  text: Translator,
  error: string | undefined,
  code: string | undefined,
  rules: { minLength: number; maxLength: number },
): string | undefined {
  if (error === undefined || error === "") return undefined;
  if (error === "InvalidPassword") {
    if (code === "too-short") return text.t("passwordError.tooShort", { minLength: rules.minLength });
    if (code === "too-long") return text.t("passwordError.tooLong", { maxLength: rules.maxLength });
    return text.t("passwordError.missing");
  }
  return text.t(lookup(PASSWORD_ERROR_MESSAGES, error) ?? "passwordError.default");
}

const ACCOUNT_NOTICES: Readonly<Record<string, MessageKey>> = Object.freeze({
  "password-changed": "account.done.passwordChanged",
  unlinked: "account.done.unlinked",
  linked: "account.done.linked",
  "email-sent": "account.done.emailSent",
  "email-changed": "account.done.emailChanged",
  "passkey-added": "account.done.passkeyAdded",
  "passkey-renamed": "account.done.passkeyRenamed",
  "passkey-removed": "account.done.passkeyRemoved",
  // The last linked account unlinked: how the user signs in from now on.
  "unlinked-password": "account.done.unlinkedPassword",
  "unlinked-passkey": "account.done.unlinkedPasskey",
  "unlinked-email": "account.done.unlinkedEmail",
});

const ACCOUNT_ERRORS: Readonly<Record<string, MessageKey>> = Object.freeze({
  LastSignInMethod: "accountError.lastSignInMethod",
  AccountNotFound: "accountError.accountNotFound",
  PasskeyNotFound: "accountError.passkeyNotFound",
  InvalidName: "accountError.invalidName",
  IncorrectPassword: "accountError.incorrectPassword",
  InvalidPassword: "accountError.invalidPassword",
  PasswordNotSet: "accountError.passwordNotSet",
  MissingCSRF: "formError.expired",
  RateLimited: "formError.rateLimited",
  EmailSignInError: "formError.emailNotSent",
  RecentSignInRequired: "accountError.recentSignInRequired",
  ImpersonationForbidden: "impersonation.forbidden",
  Verification: "formError.linkInvalid",
  IncorrectCode: "accountError.incorrectCode",
});

/** The tables of the page's sections (`FeatureDefinition.accountSection`): their forms' notices and errors. */
type SectionMessages = ReadonlyArray<{ notices?: Readonly<Record<string, MessageKey>>; errors?: Readonly<Record<string, MessageKey>> }>;

/**
 * The account page's message for `?error=` (an alert) or `?done=` (a notice), or `undefined`: the page's
 * own tables first, then its sections'.
 */
export function accountNotice(
  text: Translator,
  error: string | undefined,
  done: string | undefined,
  sections: SectionMessages = [],
): { message: string; error: boolean } | undefined {
  const inSections = (table: "notices" | "errors", value: string | undefined) =>
    sections.map((section) => lookup(section[table] ?? {}, value)).find((key) => key !== undefined);
  if (error)
    return { message: text.t(lookup(ACCOUNT_ERRORS, error) ?? inSections("errors", error) ?? "accountError.default"), error: true };
  const key = lookup(ACCOUNT_NOTICES, done) ?? inSections("notices", done);
  return key ? { message: text.t(key), error: false } : undefined;
}

const CODE_ERRORS: Readonly<Record<string, MessageKey>> = Object.freeze({
  IncorrectCode: "codeError.incorrect",
  RateLimited: "codeError.rateLimited",
  MissingCSRF: "formError.expired",
});

/** The verify-request page's message for a refused code (`?error=`), or `undefined`. */
export function codeErrorMessage(text: Translator, error: string | undefined): string | undefined {
  if (error === undefined || error === "") return undefined;
  return text.t(lookup(CODE_ERRORS, error) ?? "codeError.default");
}
