/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// The pragmas keep these files on the Preact runtime under any transpiler, e.g. Qwik's Vite config.
/**
 * The page shown after a magic link was sent. It names the site's host so that the user can tell a
 * genuine sign-in mail from a phishing one that points elsewhere.
 *
 * @module pages/verify-request
 */
import type { Theme } from "../types.js";
import { HiddenFields, renderDocument } from "./layout.js";
import { codeErrorMessage } from "./messages.js";
import { resolveTheme, toSafeNavigationUrl } from "./theme.js";

/** What the verify-request page shows. */
export interface VerifyRequestPageParams {
  /** The site's host (`example.com`), as the link in the mail shows it. */
  host: string;
  theme: Theme;
  /** The application's home page. */
  homeUrl: string;
  /**
   * Which mail was sent (`?type=`): `email` (a sign-in link, the default), `password-sign-up`,
   * `password-reset`; or `password-verified` (an address confirmed in another browser than the sign-up's).
   */
  type?: string;
  /**
   * The form for the mailed code, shown in the browser that asked for a sign-in mail whose provider sends
   * codes: where it posts (`<authUrl>/callback/<id>`), the code's length, the CSRF token, and `?error=`
   * after a refused code (mapped to a message, never shown itself).
   */
  codeForm?: { actionUrl: string; length: number; csrfToken: string; error?: string };
}

/** The form that takes the mailed code. */
function CodeForm({ form }: { form: NonNullable<VerifyRequestPageParams["codeForm"]> }) {
  const message = codeErrorMessage(form.error);
  return (
    <form action={toSafeNavigationUrl(form.actionUrl)} method="post">
      {message ? (
        <div class="alert" role="alert">
          <p>{message}</p>
        </div>
      ) : null}
      <HiddenFields csrfToken={form.csrfToken} />
      <div class="field">
        <label for="code">Code from the email</label>
        <input
          id="code"
          name="code"
          type="text"
          inputMode="numeric"
          autocomplete="one-time-code"
          pattern={`[0-9]{${form.length}}`}
          minLength={form.length}
          maxLength={form.length}
          required
          aria-describedby="code-hint"
        />
        <p id="code-hint" class="muted">
          {form.length} digits. Or follow the link in the email.
        </p>
      </div>
      <button type="submit" class="button">
        Sign in
      </button>
    </form>
  );
}

const LEADS: Readonly<Record<string, { heading: string; lead: string }>> = Object.freeze({
  "password-sign-up": { heading: "Check your email", lead: "We sent a message to the address you gave. Follow its link to finish." },
  "password-reset": {
    heading: "Check your email",
    lead: "We sent a message to the address you gave. Follow its link to choose a new password.",
  },
  "password-verified": { heading: "Email address confirmed", lead: "Your account is ready: sign in with your email address and password." },
});

const SIGN_IN_LINK = { heading: "Check your email", lead: "A sign in link has been sent to your email address." };
const SIGN_IN_LINK_AND_CODE = {
  heading: "Check your email",
  lead: "We sent a sign-in link and a code to your email address. Follow the link, or type the code here.",
};

/** Renders the verify-request page (a complete HTML document). */
export function renderVerifyRequestHtml(params: VerifyRequestPageParams): string {
  const { codeForm } = params;
  const signIn = codeForm ? SIGN_IN_LINK_AND_CODE : SIGN_IN_LINK;
  const text = (params.type !== undefined && Object.hasOwn(LEADS, params.type) ? LEADS[params.type] : undefined) ?? signIn;
  return renderDocument({
    title: text.heading,
    theme: resolveTheme(params.theme),
    children: (
      <>
        <h1>{text.heading}</h1>
        <p class="center">{text.lead}</p>
        {codeForm ? <CodeForm form={codeForm} /> : null}
        <p class="center muted">
          The link leads to <span class="host">{params.host}</span>. Do not open a sign-in link that leads anywhere else.
        </p>
        <p class="center">
          <a href={toSafeNavigationUrl(params.homeUrl) ?? "/"}>Back to {params.host}</a>
        </p>
      </>
    ),
  });
}
