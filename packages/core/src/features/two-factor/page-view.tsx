/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// The pragmas keep these files on the Preact runtime under any transpiler, e.g. Qwik's Vite config.
/**
 * The second step of a sign-in: a form for a code of the authenticator app (or a recovery code), and a
 * passkey button when the user has passkeys. The passkey button runs the library's own script; the code
 * form works without scripts.
 *
 * @module features/two-factor/page-view
 */
import { ENGLISH } from "../../i18n/translator.js";
import { HiddenFields, PasskeyStatus, passkeyMessages, renderDocument } from "../../pages/layout.js";
import { errorMessageIn } from "../../pages/messages.js";
import { resolveTheme, toSafeNavigationUrl } from "../../pages/theme.js";
import type { Theme } from "../../types/config.js";
import type { MessageKey, Translator } from "../../types/i18n.js";
import { webAuthnScriptUrl } from "../../webauthn/client-script.js";

const SECOND_STEP_ERRORS: Readonly<Record<string, MessageKey>> = Object.freeze({
  IncorrectCode: "twoFactorError.incorrect",
  RateLimited: "twoFactorError.rateLimited",
  MissingCSRF: "formError.expired",
  WebAuthnVerificationError: "twoFactorError.passkeyFailed",
  InvalidCheck: "twoFactorError.passkeyExpired",
});

/** What the second step's page shows. */
export interface TwoFactorPageParams {
  /** `<origin><basePath>`: where the form posts (`/two-factor`) and the passkey script and options live. */
  authUrl: string;
  csrfToken: string;
  theme: Theme;
  /** The code form: the user has an authenticator app (TOTP). */
  totp: boolean;
  /** The passkey button: the id of the passkey provider, when the user has passkeys. */
  passkeyProviderId?: string;
  /** `?error=` after a refused try (mapped to a message, never shown itself). */
  error?: string;
  /** Where "start again" leads: the sign-in page. */
  signInUrl: string;
  /** The request's language (default English). */
  text?: Translator;
}

function CodeForm({ authUrl, csrfToken, text }: Pick<TwoFactorPageParams, "authUrl" | "csrfToken"> & { text: Translator }) {
  return (
    <form action={toSafeNavigationUrl(`${authUrl}/two-factor`)} method="post">
      <HiddenFields csrfToken={csrfToken} />
      <div class="field">
        <label for="code">{text.t("twoFactor.codeLabel")}</label>
        <input
          id="code"
          name="code"
          type="text"
          inputMode="text"
          autocomplete="one-time-code"
          autocapitalize="off"
          spellcheck={false}
          minLength={6}
          maxLength={16}
          required
          aria-describedby="code-hint"
        />
        <p id="code-hint" class="muted">
          {text.t("twoFactor.codeHint")}
        </p>
      </div>
      <button type="submit" class="button">
        {text.t("twoFactor.continue")}
      </button>
    </form>
  );
}

function PasskeyButton({
  authUrl,
  csrfToken,
  providerId,
  text,
}: {
  authUrl: string;
  csrfToken: string;
  providerId: string;
  text: Translator;
}) {
  return (
    <div
      class="stack"
      data-authlib-webauthn=""
      data-options-url={`${authUrl}/webauthn-options/${encodeURIComponent(providerId)}`}
      data-callback-url={`${authUrl}/two-factor`}
      data-csrf-url={`${authUrl}/csrf`}
      data-csrf-token={csrfToken}
      data-conditional-ui="false"
      {...passkeyMessages(text)}
    >
      <button type="button" class="button button-neutral" data-webauthn-second-factor="">
        {text.t("twoFactor.usePasskey")}
      </button>
      <PasskeyStatus text={text} />
    </div>
  );
}

/** Renders the second step's page (a complete HTML document). */
export function renderTwoFactorHtml(params: TwoFactorPageParams): string {
  const text = params.text ?? ENGLISH;
  const message = errorMessageIn(text, SECOND_STEP_ERRORS, params.error, "twoFactorError.default");
  const { authUrl, csrfToken, passkeyProviderId } = params;
  return renderDocument({
    title: text.t("twoFactor.title"),
    text,
    theme: resolveTheme(params.theme),
    scripts: passkeyProviderId === undefined ? [] : [webAuthnScriptUrl(authUrl)],
    children: (
      <>
        <h1>{text.t("twoFactor.title")}</h1>
        <p class="center">{text.t("twoFactor.lead")}</p>
        {message ? (
          <div class="alert" role="alert">
            <p>{message}</p>
          </div>
        ) : null}
        {params.totp ? <CodeForm authUrl={authUrl} csrfToken={csrfToken} text={text} /> : null}
        {passkeyProviderId !== undefined ? (
          <PasskeyButton authUrl={authUrl} csrfToken={csrfToken} providerId={passkeyProviderId} text={text} />
        ) : null}
        <p class="center">
          {/* createAuth refuses a pages.signIn that is not a page of the app: the URL is always safe. */}
          <a href={toSafeNavigationUrl(params.signInUrl)}>{text.t("twoFactor.cancel")}</a>
        </p>
      </>
    ),
  });
}
