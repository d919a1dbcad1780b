/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// The pragmas keep these files on the Preact runtime under any transpiler, e.g. Qwik's Vite config.
/**
 * The sign-out confirmation page. Signing out is a POST with the CSRF token, so a link or an image on
 * another site cannot sign the user out.
 *
 * @module pages/signout
 */

import { ENGLISH } from "../i18n/translator.js";
import type { Theme } from "../types/config.js";
import type { Translator } from "../types/i18n.js";
import { HiddenFields, renderDocument } from "./layout.js";
import { resolveTheme, toSafeNavigationUrl } from "./theme.js";

/** What the sign-out page shows. */
export interface SignOutPageParams {
  /** Form action: the sign-out endpoint (`<origin><basePath>/signout`). */
  actionUrl: string;
  csrfToken: string;
  /** Where to go after signing out; posted back as a hidden field when given. */
  callbackUrl?: string;
  theme: Theme;
  /** The request's language (default English). */
  text?: Translator;
}

/** Renders the sign-out page (a complete HTML document). */
export function renderSignOutHtml(params: SignOutPageParams): string {
  const text = params.text ?? ENGLISH;
  return renderDocument({
    title: text.t("signout.title"),
    text,
    theme: resolveTheme(params.theme),
    children: (
      <>
        <h1>{text.t("signout.heading")}</h1>
        <p class="center">{text.t("signout.question")}</p>
        {/* Without a safe action the form posts to the current URL, which is the sign-out endpoint. */}
        <form action={toSafeNavigationUrl(params.actionUrl)} method="post">
          <HiddenFields csrfToken={params.csrfToken} callbackUrl={params.callbackUrl} />
          <button type="submit" class="button">
            {text.t("signout.button")}
          </button>
        </form>
      </>
    ),
  });
}
