/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// The pragmas keep these files on the Preact runtime under any transpiler, e.g. Qwik's Vite config.
/**
 * The second step of a sign-in: a form for a code of the authenticator app (or a recovery code), and a
 * passkey button when the user has passkeys. The passkey button runs the library's own script; the code
 * form works without scripts.
 *
 * @module pages/two-factor
 */
import type { Theme } from "../types.js";
import { webAuthnScriptUrl } from "../webauthn/client-script.js";
import { HiddenFields, renderDocument } from "./layout.js";
import { secondStepErrorMessage } from "./messages.js";
import { resolveTheme, toSafeNavigationUrl } from "./theme.js";

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
}

function CodeForm({ authUrl, csrfToken }: Pick<TwoFactorPageParams, "authUrl" | "csrfToken">) {
  return (
    <form action={toSafeNavigationUrl(`${authUrl}/two-factor`)} method="post">
      <HiddenFields csrfToken={csrfToken} />
      <div class="field">
        <label for="code">Code from your authenticator app</label>
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
          6 digits. Lost your phone? Type one of your recovery codes instead.
        </p>
      </div>
      <button type="submit" class="button">
        Continue
      </button>
    </form>
  );
}

function PasskeyButton({ authUrl, csrfToken, providerId }: { authUrl: string; csrfToken: string; providerId: string }) {
  return (
    <div
      class="stack"
      data-authlib-webauthn=""
      data-options-url={`${authUrl}/webauthn-options/${encodeURIComponent(providerId)}`}
      data-callback-url={`${authUrl}/two-factor`}
      data-csrf-url={`${authUrl}/csrf`}
      data-csrf-token={csrfToken}
      data-conditional-ui="false"
    >
      <button type="button" class="button button-neutral" data-webauthn-second-factor="">
        Use a passkey
      </button>
      <p class="muted center" role="status" aria-live="polite" data-webauthn-status="" />
      <noscript>
        <p class="muted center">Passkeys need JavaScript.</p>
      </noscript>
    </div>
  );
}

/** Renders the second step's page (a complete HTML document). */
export function renderTwoFactorHtml(params: TwoFactorPageParams): string {
  const message = secondStepErrorMessage(params.error);
  const { authUrl, csrfToken, passkeyProviderId } = params;
  return renderDocument({
    title: "Confirm it is you",
    theme: resolveTheme(params.theme),
    scripts: passkeyProviderId === undefined ? [] : [webAuthnScriptUrl(authUrl)],
    children: (
      <>
        <h1>Confirm it is you</h1>
        <p class="center">Your account has two-step verification. Finish signing in with your second factor.</p>
        {message ? (
          <div class="alert" role="alert">
            <p>{message}</p>
          </div>
        ) : null}
        {params.totp ? <CodeForm authUrl={authUrl} csrfToken={csrfToken} /> : null}
        {passkeyProviderId !== undefined ? <PasskeyButton authUrl={authUrl} csrfToken={csrfToken} providerId={passkeyProviderId} /> : null}
        <p class="center">
          <a href={toSafeNavigationUrl(params.signInUrl) ?? "/"}>Cancel and sign in again</a>
        </p>
      </>
    ),
  });
}
