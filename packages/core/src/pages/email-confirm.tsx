/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// The pragmas keep these files on the Preact runtime under any transpiler, e.g. Qwik's Vite config.
/**
 * The page an email sign-in link opens outside the browser that asked for it (a mail scanner, another
 * device): it names the address and the site, and one button POSTs the sign-in. A scanner that only
 * fetches the link spends nothing; the person who clicks is signed in where they clicked.
 *
 * @module pages/email-confirm
 */
import { ENGLISH } from "../i18n/translator.js";
import type { Theme } from "../types/config.js";
import type { Translator } from "../types/i18n.js";
import { Filled, HiddenFields, renderDocument } from "./layout.js";
import { resolveTheme, toSafeNavigationUrl } from "./theme.js";

/** What the confirmation page of an email sign-in link shows. */
export interface EmailConfirmPageParams {
  /** Where the button posts (`<authUrl>/callback/<id>`). */
  actionUrl: string;
  csrfToken: string;
  callbackUrl: string;
  /** The address the link signs in. */
  email: string;
  /** The link's token, posted back as a hidden field. */
  token: string;
  /** The site's host, so the person can tell where they sign in. */
  host: string;
  theme: Theme;
  /** The request's language (default English). */
  text?: Translator;
}

/** Renders the confirmation page of an email sign-in link (a complete HTML document). */
export function renderEmailConfirmHtml(params: EmailConfirmPageParams): string {
  const text = params.text ?? ENGLISH;
  return renderDocument({
    title: text.t("emailConfirm.title", { host: params.host }),
    text,
    theme: resolveTheme(params.theme),
    children: (
      <>
        <h1>
          <Filled text={text.t("emailConfirm.title")} values={{ host: <span class="host">{params.host}</span> }} />
        </h1>
        <p class="center">
          <Filled text={text.t("emailConfirm.question")} values={{ email: <strong>{params.email}</strong> }} />
        </p>
        <form action={toSafeNavigationUrl(params.actionUrl)} method="post">
          <HiddenFields csrfToken={params.csrfToken} callbackUrl={params.callbackUrl} />
          <input type="hidden" name="email" value={params.email} />
          <input type="hidden" name="token" value={params.token} />
          <button type="submit" class="button">
            {text.t("emailConfirm.button")}
          </button>
        </form>
        <p class="center muted">{text.t("emailConfirm.notYou")}</p>
      </>
    ),
  });
}
