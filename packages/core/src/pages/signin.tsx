/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// The pragmas keep these files on the Preact runtime under any transpiler, e.g. Qwik's Vite config.
/**
 * The sign-in page: one section per provider, in configuration order. Consecutive OAuth/OIDC providers
 * share one list of buttons; each email, credentials or passkey section is its own group; an "or" separates
 * groups. A passkey section loads the library's own script (`<basePath>/webauthn-script`); every other part
 * of the page works without scripts.
 *
 * @module pages/signin
 */
import type { ComponentChildren } from "preact";
import { ENGLISH } from "../i18n/translator.js";
import { isOAuthProvider } from "../provider-kind.js";
import type { Theme } from "../types/config.js";
import type { MessageKey, Translator } from "../types/i18n.js";
import type { SignInEmailStep } from "../types/internal.js";
import type { CredentialInput } from "../types/providers.js";
import { webAuthnScriptUrl } from "../webauthn/client-script.js";
import { HiddenFields, passkeyMessages, renderDocument } from "./layout.js";
import { displayableErrorCode, providerDisplayName, signInErrorMessage } from "./messages.js";
import { type ProviderButtonColors, providerClassName } from "./styles.js";
import { DEFAULT_BUTTON_TEXT, resolveTheme, toSafeCssColor, toSafeImageUrl, toSafeNavigationUrl } from "./theme.js";

/** A provider as the sign-in page needs it. */
export interface PageProvider {
  id: string;
  /** Shown on the button: "Sign in with <name>". */
  name: string;
  type: "oauth" | "oidc" | "email" | "credentials" | "webauthn";
  /** Form action of OAuth/OIDC and email providers (`<origin><basePath>/signin/<id>`). */
  signinUrl: string;
  /** Form action of credentials providers (`<origin><basePath>/callback/<id>`). */
  callbackUrl: string;
  /** The fields of a credentials provider's form, keyed by the name they are posted under. */
  credentials?: Record<string, CredentialInput>;
  /** The registration form fields of a WebAuthn provider (the `name` field, a new user's display name, is the one used). */
  formFields?: Record<string, CredentialInput>;
  /** Present on the Password() provider: its form links to the sign-up and forgot-password pages. */
  passwordAccounts?: object;
  /** WebAuthn: offer passkeys in the autofill of the field whose `autocomplete` has `webauthn`. */
  enableConditionalUI?: boolean;
  /** Button look: a logo, a background colour and a text colour. Invalid values are ignored. */
  style?: { logo?: string; brandColor?: string; text?: string };
}

/** What the sign-in page shows. */
export interface SignInPageParams {
  providers: PageProvider[];
  csrfToken: string;
  /** Where to go after signing in; posted back as a hidden field. */
  callbackUrl: string;
  /** The messages of the features' own error types (`FeatureDefinition.signInErrors`), besides the page's. */
  errorMessages?: Readonly<Record<string, MessageKey>>;
  /** `?error=` type; mapped to a message, never shown itself. */
  error?: string;
  /** `?code=` of a CredentialsSignin error; shown only when it is a short identifier. */
  code?: string;
  /**
   * The id of the provider whose form failed (`?provider=`): the error is shown in that form, which says
   * its name. An id of no form on the page leaves the error at the top.
   */
  provider?: string;
  /** Prefills the email field: the failed form's (the address typed there), else the email link's. */
  email?: string;
  /** Ask for the address first (a feature's home realm discovery): its form, above the other ways in. */
  emailStep?: SignInEmailStep;
  theme: Theme;
  /** Title and heading of the page. Default "Sign In" in the request's language. */
  title?: string;
  /** The request's language (default English). */
  text?: Translator;
}

type IndexedProvider = { provider: PageProvider; index: number };

type ProviderGroup =
  | { kind: "buttons"; members: IndexedProvider[] }
  | { kind: "email" | "credentials" | "webauthn"; member: IndexedProvider };

function groupProviders(providers: readonly PageProvider[]): ProviderGroup[] {
  const groups: ProviderGroup[] = [];
  providers.forEach((provider, index) => {
    const member = { provider, index };
    if (isOAuthProvider(provider)) {
      const last = groups.at(-1);
      if (last?.kind === "buttons") last.members.push(member);
      else groups.push({ kind: "buttons", members: [member] });
    } else if (provider.type === "email" || provider.type === "credentials") {
      groups.push({ kind: provider.type, member });
    } else if (provider.type === "webauthn" && authUrlOf(provider) !== undefined) {
      groups.push({ kind: "webauthn", member });
    }
    // Any unknown type renders nothing.
  });
  return groups;
}

function providerColors(providers: readonly PageProvider[]): ProviderButtonColors[] {
  const colors: ProviderButtonColors[] = [];
  providers.forEach((provider, index) => {
    if (provider.type !== "oauth" && provider.type !== "oidc") return;
    const background = toSafeCssColor(provider.style?.brandColor);
    if (background) colors.push({ index, background, text: toSafeCssColor(provider.style?.text) ?? DEFAULT_BUTTON_TEXT });
  });
  return colors;
}

// Input types that make sense for a labelled credentials field; anything else renders as text.
const CREDENTIAL_INPUT_TYPES: ReadonlySet<string> = new Set([
  "text",
  "password",
  "email",
  "tel",
  "number",
  "url",
  "search",
  "date",
  "datetime-local",
  "month",
  "week",
  "time",
]);

function optionalString(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

type FormContext = { csrfToken: string; callbackUrl: string; text: Translator };

/** What a form shows when it is the one that failed: its alert, and the address typed. */
type FormState = { alert?: ComponentChildren; email?: string };

/** The provider's name as the page's language says it ("E-Mail und Passwort", but "GitHub"). */
function nameOf(provider: PageProvider, text: Translator): string {
  return providerDisplayName(text, provider.name);
}

function OAuthButton({ provider, index, csrfToken, callbackUrl, text }: IndexedProvider & FormContext) {
  const coloured = toSafeCssColor(provider.style?.brandColor) !== undefined;
  const logo = toSafeImageUrl(provider.style?.logo);
  return (
    <form action={toSafeNavigationUrl(provider.signinUrl)} method="post">
      <HiddenFields csrfToken={csrfToken} callbackUrl={callbackUrl} />
      <button type="submit" class={coloured ? `button button-provider ${providerClassName(index)}` : "button button-neutral"}>
        {logo ? <img class="provider-logo" src={logo} alt="" width={20} height={20} /> : null}
        <span>{text.t("signin.withProvider", { provider: nameOf(provider, text) })}</span>
      </button>
    </form>
  );
}

// Each form with fields has an accessible name (the button's words): the page may have several fields
// labelled "Email" (the email link, a credentials form, passkeys), and a screen reader says which form a
// field is in.
function EmailForm({ provider, index, csrfToken, callbackUrl, email, alert, text }: IndexedProvider & FormContext & FormState) {
  const inputId = `provider-${index}-email`;
  return (
    <form
      action={toSafeNavigationUrl(provider.signinUrl)}
      method="post"
      aria-label={text.t("signin.withProvider", { provider: nameOf(provider, text) })}
    >
      {alert}
      <HiddenFields csrfToken={csrfToken} callbackUrl={callbackUrl} />
      <div class="field">
        <label for={inputId}>{text.t("signin.email")}</label>
        <input
          id={inputId}
          type="email"
          name="email"
          autocomplete="email"
          placeholder={text.t("signin.emailPlaceholder")}
          value={email ?? ""}
          required
        />
      </div>
      <button type="submit" class="button">
        {text.t("signin.withProvider", { provider: nameOf(provider, text) })}
      </button>
    </form>
  );
}

// The address step (home realm discovery): one labelled field and its hint, named for a screen reader by
// its button's words; an address the app routes elsewhere leaves this page, any other comes back prefilled.
function EmailStepForm({ step, csrfToken, callbackUrl, email, text }: { step: SignInEmailStep; email?: string } & FormContext) {
  return (
    <form action={toSafeNavigationUrl(step.action)} method="post" aria-label={text.t(step.button)}>
      <HiddenFields csrfToken={csrfToken} callbackUrl={callbackUrl} />
      <div class="field">
        <label for="email-step">{text.t(step.label)}</label>
        <input
          id="email-step"
          type="email"
          name="email"
          autocomplete="email"
          aria-describedby="email-step-hint"
          placeholder={text.t("signin.emailPlaceholder")}
          value={email ?? ""}
          required
        />
        <p id="email-step-hint" class="muted">
          {text.t(step.hint)}
        </p>
      </div>
      <button type="submit" class="button">
        {text.t(step.button)}
      </button>
    </form>
  );
}

// The labels of the fields of Password() and Passkey(), which this page translates (an app's own labels are its own).
const BUILT_IN_LABELS: Readonly<Record<string, MessageKey>> = Object.freeze({
  Email: "signin.email",
  Password: "password.password",
  "Display name": "signin.displayName",
});

function FormField(props: { inputId: string; name: string; field: CredentialInput; value?: string; text: Translator }) {
  const { inputId, name, field, value, text } = props;
  const label = optionalString(field.label) ?? name;
  // Only known attributes are rendered: spreading the field object would let any key become an
  // attribute, event handlers included.
  const type = optionalString(field.type);
  return (
    <div class="field">
      <label for={inputId}>{Object.hasOwn(BUILT_IN_LABELS, label) ? text.t(BUILT_IN_LABELS[label] as MessageKey) : label}</label>
      <input
        id={inputId}
        name={name}
        type={type && CREDENTIAL_INPUT_TYPES.has(type) ? type : "text"}
        placeholder={optionalString(field.placeholder)}
        autocomplete={optionalString(field.autocomplete)}
        required={field.required === true}
        value={value}
      />
    </div>
  );
}

/** True for the field a failed form's address goes back into: the one posted as `email`, of type email or text. */
function holdsAddress(name: string, field: CredentialInput): boolean {
  return name === "email" && (field.type === undefined || field.type === "email" || field.type === "text");
}

/**
 * A credentials form. With `headed` (the page has several), a heading with the provider's name tops it and
 * names the form: two email-and-password forms are then told apart at a glance.
 */
function CredentialsForm(props: IndexedProvider & FormContext & FormState & { headed: boolean }) {
  const { provider, index, csrfToken, callbackUrl, text, headed, alert, email } = props;
  const fields = Object.entries(provider.credentials ?? {});
  const headingId = `provider-${index}-heading`;
  const form = (
    <form
      action={toSafeNavigationUrl(provider.callbackUrl)}
      method="post"
      aria-label={headed ? undefined : text.t("signin.withProvider", { provider: nameOf(provider, text) })}
      aria-labelledby={headed ? headingId : undefined}
    >
      {alert}
      <HiddenFields csrfToken={csrfToken} callbackUrl={callbackUrl} />
      {fields.map(([name, field], fieldIndex) => (
        <FormField
          key={name}
          inputId={`provider-${index}-field-${fieldIndex}`}
          name={name}
          field={field}
          text={text}
          value={email !== undefined && holdsAddress(name, field) ? email : undefined}
        />
      ))}
      <button type="submit" class="button">
        {text.t("signin.withProvider", { provider: nameOf(provider, text) })}
      </button>
      {provider.passwordAccounts ? <PasswordLinks provider={provider} text={text} /> : null}
    </form>
  );
  if (!headed) return form;
  return (
    <div class="stack">
      <h2 id={headingId}>{nameOf(provider, text)}</h2>
      {form}
    </div>
  );
}

/** The Password() provider's links: create an account, forgot password. */
function PasswordLinks({ provider, text }: { provider: PageProvider; text: Translator }) {
  const authUrl = authUrlOf(provider);
  if (authUrl === undefined) return null;
  return (
    <p class="center muted">
      <a href={toSafeNavigationUrl(`${authUrl}/password/forgot`)}>{text.t("signin.forgotPassword")}</a>
      {" · "}
      <a href={toSafeNavigationUrl(`${authUrl}/password/sign-up`)}>{text.t("signin.createAccount")}</a>
    </p>
  );
}

/**
 * `<origin><basePath>` of a provider, read off its callback URL (`<authUrl>/callback/<id>`), or
 * `undefined` when that URL has another shape (the part that needs it is then left out).
 */
function authUrlOf(provider: PageProvider): string | undefined {
  const suffix = `/callback/${provider.id}`;
  return provider.callbackUrl.endsWith(suffix) ? provider.callbackUrl.slice(0, -suffix.length) : undefined;
}

/**
 * The passkey section: a sign-in button and a registration form. The script served at
 * `<basePath>/webauthn-script` finds it by `data-authlib-webauthn` and reads its URLs from the data
 * attributes. Without scripts nothing happens but a note.
 */
function WebAuthnSection({ provider, index, csrfToken, callbackUrl, text }: IndexedProvider & FormContext) {
  const authUrl = authUrlOf(provider) ?? "";
  const fields = Object.entries(provider.formFields ?? {});
  return (
    <div
      class="stack"
      data-authlib-webauthn=""
      data-options-url={`${authUrl}/webauthn-options/${encodeURIComponent(provider.id)}`}
      data-callback-url={provider.callbackUrl}
      data-csrf-url={`${authUrl}/csrf`}
      data-csrf-token={csrfToken}
      data-redirect-to={callbackUrl}
      data-conditional-ui={provider.enableConditionalUI ? "true" : "false"}
      {...passkeyMessages(text)}
    >
      <button type="button" class="button" data-webauthn-signin="">
        {text.t("signin.withProvider", { provider: nameOf(provider, text) })}
      </button>
      {/* Right under the button (and above the registration form): in view where the person clicked. */}
      <p class="muted center" role="status" aria-live="polite" data-webauthn-status="" />
      <form data-webauthn-register="" aria-label={text.t("signin.registerPasskeyForm", { provider: nameOf(provider, text) })}>
        {fields.map(([name, field], fieldIndex) => (
          <FormField key={name} inputId={`provider-${index}-field-${fieldIndex}`} name={name} field={field} text={text} />
        ))}
        <button type="submit" class="button button-neutral">
          {text.t("signin.registerPasskey")}
        </button>
      </form>
      <noscript>
        <p class="muted center">{text.t("signin.passkeysNeedScript")}</p>
      </noscript>
    </div>
  );
}

function ErrorAlert({ message, code, failed, text }: { message: string; code?: string; failed?: string; text: Translator }) {
  return (
    <div class="alert" role="alert">
      {failed === undefined ? null : (
        <p>
          <strong>{text.t("signin.failedWith", { provider: failed })}</strong>
        </p>
      )}
      <p>{message}</p>
      {code ? (
        <p>
          {text.t("signin.errorCode")} <code>{code}</code>
        </p>
      ) : null}
    </div>
  );
}

/** The index of the provider whose form failed, when it has a form on the page (its error is shown there). */
function failedFormIndex(params: SignInPageParams, groups: readonly ProviderGroup[]): number | undefined {
  if (params.provider === undefined) return undefined;
  for (const group of groups) {
    if (group.kind === "email" || group.kind === "credentials") if (group.member.provider.id === params.provider) return group.member.index;
  }
  return undefined;
}

function SignInContent({ params, groups, text }: { params: SignInPageParams; groups: ProviderGroup[]; text: Translator }) {
  const { csrfToken, callbackUrl, email } = params;
  const message = signInErrorMessage(text, params.error, params.code, params.errorMessages);
  const context = { csrfToken, callbackUrl, text };
  const failedIndex = failedFormIndex(params, groups);
  const failedProvider = params.providers.find((provider) => provider.id === params.provider);
  const alert = message ? (
    <ErrorAlert
      message={message}
      code={displayableErrorCode(params.error, params.code)}
      failed={failedProvider ? nameOf(failedProvider, text) : undefined}
      text={text}
    />
  ) : null;
  // Several credentials forms (a Credentials() one and Password()'s both ask for an email and a password): headed.
  const headed = groups.filter((group) => group.kind === "credentials").length > 1;
  /** The failed form's alert and address; the other forms' (the email link's address when no form failed). */
  const stateOf = (index: number, kind: ProviderGroup["kind"]): FormState => {
    if (failedIndex !== undefined) return index === failedIndex ? { alert, email } : {};
    return kind === "email" ? { email } : {};
  };
  return (
    <>
      <h1>{params.title ?? text.t("signin.title")}</h1>
      {failedIndex === undefined ? alert : null}
      {params.emailStep ? <EmailStepForm step={params.emailStep} email={email} {...context} /> : null}
      {groups.length === 0 && !params.emailStep ? <p class="center muted">{text.t("signin.noMethods")}</p> : null}
      {groups.map((group, groupIndex) => {
        const key = group.kind === "buttons" ? group.members[0].index : group.member.index;
        return (
          <div key={key}>
            {groupIndex > 0 || params.emailStep ? (
              <div class="divider">
                <span>{text.t("signin.or")}</span>
              </div>
            ) : null}
            {group.kind === "buttons" ? (
              <div class="stack">
                {group.members.map((member) => (
                  <OAuthButton key={member.index} {...member} {...context} />
                ))}
              </div>
            ) : group.kind === "email" ? (
              <EmailForm {...group.member} {...context} {...stateOf(group.member.index, "email")} />
            ) : group.kind === "webauthn" ? (
              <WebAuthnSection {...group.member} {...context} />
            ) : (
              <CredentialsForm {...group.member} {...context} {...stateOf(group.member.index, "credentials")} headed={headed} />
            )}
          </div>
        );
      })}
    </>
  );
}

/** Renders the sign-in page (a complete HTML document). */
export function renderSignInHtml(params: SignInPageParams): string {
  const groups = groupProviders(params.providers);
  const passkeyGroup = groups.find((group) => group.kind === "webauthn");
  const passkeyAuthUrl = passkeyGroup?.kind === "webauthn" ? authUrlOf(passkeyGroup.member.provider) : undefined;
  const text = params.text ?? ENGLISH;
  return renderDocument({
    title: params.title ?? text.t("signin.title"),
    text,
    theme: resolveTheme(params.theme),
    providerColors: providerColors(params.providers),
    scripts: passkeyAuthUrl === undefined ? [] : [webAuthnScriptUrl(passkeyAuthUrl)],
    children: <SignInContent params={params} groups={groups} text={text} />,
  });
}
