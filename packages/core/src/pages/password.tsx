/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// The pragmas keep these files on the Preact runtime under any transpiler, e.g. Qwik's Vite config.
/**
 * The Password() provider's pages: create an account, forgot password, choose a new password (from a
 * reset link; in another browser than the one that asked, a button that mails a link for this one), and
 * confirm an address (from a sign-up link: one click that POSTs, so a mail scanner that
 * only fetches the link spends nothing). Plain forms, no script.
 *
 * @module pages/password
 */
import { ENGLISH } from "../i18n/translator.js";
import type { Theme } from "../types/config.js";
import type { MessageKey, Translator } from "../types/i18n.js";
import { Filled, HiddenFields, renderDocument } from "./layout.js";
import { passwordErrorMessage } from "./messages.js";
import { resolveTheme, toSafeNavigationUrl } from "./theme.js";

/** The password pages (`resend`: a reset link opened in a browser other than the one that asked for it). */
export type PasswordForm = "sign-up" | "forgot" | "reset" | "verify" | "resend";

/** What a password page shows. */
export interface PasswordPageParams {
  form: PasswordForm;
  /** Where the form posts (`<authUrl>/password/<form>`). */
  actionUrl: string;
  csrfToken: string;
  callbackUrl: string;
  /** The link's token (reset and verify pages), posted back as a hidden field. */
  token?: string;
  /** `?error=` type and `?code=` (the password rule), mapped to a message, never shown themselves. */
  error?: string;
  code?: string;
  /**
   * What the person typed before a refused post (`?name=`, `?email=`): the sign-up and forgot forms keep it.
   * On the verify page, `email` is the address the sign-up link confirms (read from the link itself).
   */
  name?: string;
  email?: string;
  /** The password rules, for the field's hints. */
  minLength: number;
  maxLength: number;
  signInUrl: string;
  signUpUrl: string;
  forgotUrl: string;
  theme: Theme;
  /** The request's language (default English). */
  text?: Translator;
}

const TITLES: Record<PasswordForm, MessageKey> = {
  "sign-up": "password.signUpTitle",
  forgot: "password.forgotTitle",
  reset: "password.resetTitle",
  verify: "password.verifyTitle",
  resend: "password.resendTitle",
};

function Field(props: {
  id: string;
  label: string;
  name: string;
  type: string;
  autocomplete: string;
  required?: boolean;
  hint?: string;
  minLength?: number;
  maxLength?: number;
  value?: string;
}) {
  const hintId = props.hint ? `${props.id}-hint` : undefined;
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <input
        id={props.id}
        name={props.name}
        type={props.type}
        autocomplete={props.autocomplete}
        required={props.required === true}
        minLength={props.minLength}
        maxLength={props.maxLength}
        value={props.value}
        aria-describedby={hintId}
      />
      {props.hint ? (
        <p id={hintId} class="muted">
          {props.hint}
        </p>
      ) : null}
    </div>
  );
}

function NewPasswordField({ params, text }: { params: PasswordPageParams; text: Translator }) {
  return (
    <Field
      id="password"
      label={text.t("password.password")}
      name="password"
      type="password"
      autocomplete="new-password"
      required
      minLength={params.minLength}
      hint={text.t("password.hint", { minLength: params.minLength })}
    />
  );
}

function FormBody({ params, text }: { params: PasswordPageParams; text: Translator }) {
  switch (params.form) {
    case "sign-up":
      return (
        <>
          <Field id="name" label={text.t("password.name")} name="name" type="text" autocomplete="name" maxLength={64} value={params.name} />
          <Field id="email" label={text.t("password.email")} name="email" type="email" autocomplete="email" required value={params.email} />
          <NewPasswordField params={params} text={text} />
          <button type="submit" class="button">
            {text.t("password.createButton")}
          </button>
        </>
      );
    case "forgot":
      return (
        <>
          <p class="muted">{text.t("password.forgotLead")}</p>
          <Field id="email" label={text.t("password.email")} name="email" type="email" autocomplete="email" required value={params.email} />
          <button type="submit" class="button">
            {text.t("password.forgotButton")}
          </button>
        </>
      );
    case "reset":
      return (
        <>
          <input type="hidden" name="token" value={params.token ?? ""} />
          <NewPasswordField params={params} text={text} />
          <button type="submit" class="button">
            {text.t("password.resetButton")}
          </button>
        </>
      );
    case "resend":
      return (
        <>
          <p>{text.t("password.resendLead")}</p>
          <p class="muted">{text.t("password.resendHere")}</p>
          <input type="hidden" name="token" value={params.token ?? ""} />
          <button type="submit" class="button">
            {text.t("password.resendButton")}
          </button>
        </>
      );
    default:
      return <VerifyBody params={params} text={text} />;
  }
}

/** The sign-up link's page: the address it confirms, and the button that confirms it (a POST). */
function VerifyBody({ params, text }: { params: PasswordPageParams; text: Translator }) {
  return (
    <>
      <p class="muted">
        {params.email ? (
          <Filled text={text.t("password.verifyLeadAddress")} values={{ email: <strong>{params.email}</strong> }} />
        ) : (
          text.t("password.verifyLead")
        )}
      </p>
      <input type="hidden" name="token" value={params.token ?? ""} />
      <button type="submit" class="button">
        {text.t("password.verifyButton")}
      </button>
    </>
  );
}

/** Renders a password page (a complete HTML document). */
export function renderPasswordHtml(params: PasswordPageParams): string {
  const text = params.text ?? ENGLISH;
  const title = text.t(TITLES[params.form]);
  const message = passwordErrorMessage(text, params.error, params.code, params);
  return renderDocument({
    title,
    text,
    theme: resolveTheme(params.theme),
    children: (
      <>
        <h1>{title}</h1>
        {message ? (
          <div class="alert" role="alert">
            <p>{message}</p>
          </div>
        ) : null}
        <form action={toSafeNavigationUrl(params.actionUrl)} method="post">
          <HiddenFields csrfToken={params.csrfToken} callbackUrl={params.callbackUrl} />
          <FormBody params={params} text={text} />
        </form>
        <p class="center muted">
          {params.form === "sign-up" ? (
            <a href={toSafeNavigationUrl(params.signInUrl)}>{text.t("password.haveAccount")}</a>
          ) : (
            <a href={toSafeNavigationUrl(params.signInUrl)}>{text.t("password.backToSignIn")}</a>
          )}
        </p>
      </>
    ),
  });
}
