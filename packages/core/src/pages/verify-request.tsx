/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// The pragmas keep these files on the Preact runtime under any transpiler, e.g. Qwik's Vite config.
/**
 * The page shown after a magic link was sent. It names the site's host so that the user can tell a
 * genuine sign-in mail from a phishing one that points elsewhere.
 *
 * @module pages/verify-request
 */
import { ENGLISH } from "../i18n/translator.js";
import type { Theme } from "../types/config.js";
import type { MessageKey, Translator } from "../types/i18n.js";
import { Filled, HiddenFields, renderDocument } from "./layout.js";
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
   * `password-reset`; or `password-verified` (an address confirmed in another browser than the sign-up's),
   * `password-exists` (a sign-up link for an address that has an account by now: no password was added),
   * `email-reverted` (an email change undone from the previous address).
   */
  type?: string;
  /** "Forgot your password?" (`<authUrl>/password/forgot`), offered after `password-exists` and `email-reverted`. */
  forgotUrl?: string;
  /**
   * The form for the mailed code, shown in the browser that asked for a sign-in mail whose provider sends
   * codes: where it posts (`<authUrl>/callback/<id>`), the code's length, the CSRF token, and `?error=`
   * after a refused code (mapped to a message, never shown itself).
   */
  codeForm?: { actionUrl: string; length: number; csrfToken: string; error?: string };
  /** The request's language (default English). */
  text?: Translator;
}

/** The form that takes the mailed code. */
function CodeForm({ form, text }: { form: NonNullable<VerifyRequestPageParams["codeForm"]>; text: Translator }) {
  const message = codeErrorMessage(text, form.error);
  return (
    <form action={toSafeNavigationUrl(form.actionUrl)} method="post">
      {message ? (
        <div class="alert" role="alert">
          <p>{message}</p>
        </div>
      ) : null}
      <HiddenFields csrfToken={form.csrfToken} />
      <div class="field">
        <label for="code">{text.t("verify.codeLabel")}</label>
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
          {text.t("verify.codeHint", { length: form.length })}
        </p>
      </div>
      <button type="submit" class="button">
        {text.t("verify.signIn")}
      </button>
    </form>
  );
}

type Lead = { heading: MessageKey; lead: MessageKey; offerForgot?: true };

const LEADS: Readonly<Record<string, Lead>> = Object.freeze({
  "password-sign-up": { heading: "verify.checkEmail", lead: "verify.passwordSignUp" },
  "password-reset": { heading: "verify.checkEmail", lead: "verify.passwordReset" },
  "password-verified": { heading: "verify.passwordVerifiedHeading", lead: "verify.passwordVerified" },
  "password-exists": { heading: "verify.addressHasAccountHeading", lead: "verify.addressHasAccount", offerForgot: true },
  "email-reverted": { heading: "verify.emailRevertedHeading", lead: "verify.emailReverted", offerForgot: true },
});

const SIGN_IN_LINK: Lead = { heading: "verify.checkEmail", lead: "verify.signInLink" };
const SIGN_IN_LINK_AND_CODE: Lead = { heading: "verify.checkEmail", lead: "verify.signInLinkAndCode" };

/** Renders the verify-request page (a complete HTML document). */
export function renderVerifyRequestHtml(params: VerifyRequestPageParams): string {
  const { codeForm } = params;
  const signIn = codeForm ? SIGN_IN_LINK_AND_CODE : SIGN_IN_LINK;
  const keys = (params.type !== undefined && Object.hasOwn(LEADS, params.type) ? LEADS[params.type] : undefined) ?? signIn;
  const text = params.text ?? ENGLISH;
  const host = <span class="host">{params.host}</span>;
  return renderDocument({
    title: text.t(keys.heading),
    text,
    theme: resolveTheme(params.theme),
    children: (
      <>
        <h1>{text.t(keys.heading)}</h1>
        <p class="center">{text.t(keys.lead)}</p>
        {keys.offerForgot && params.forgotUrl ? (
          <p class="center">
            <a href={toSafeNavigationUrl(params.forgotUrl) ?? "#"}>{text.t("signin.forgotPassword")}</a>
          </p>
        ) : null}
        {codeForm ? <CodeForm form={codeForm} text={text} /> : null}
        <p class="center muted">
          <Filled text={text.t("verify.linkLeadsTo")} values={{ host }} />
        </p>
        <p class="center">
          <a href={toSafeNavigationUrl(params.homeUrl) ?? "/"}>{text.t("verify.backTo", { host: params.host })}</a>
        </p>
      </>
    ),
  });
}
