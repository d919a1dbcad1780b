/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// The pragmas keep these files on the Preact runtime under any transpiler, e.g. Qwik's Vite config.
/**
 * The error page (`?error=<type>`). Only known types change what it says; the type itself is never shown.
 *
 * @module pages/error
 */
import { ENGLISH } from "../i18n/translator.js";
import { TROUBLESHOOTING_URL } from "../logger.js";
import type { Theme } from "../types/config.js";
import type { Translator } from "../types/i18n.js";
import { Filled, renderDocument } from "./layout.js";
import { type ErrorPageContent, errorPageContent } from "./messages.js";
import { resolveTheme, toSafeNavigationUrl } from "./theme.js";

/** A `?cause=` is shown only when it looks like an error type's name (a link can put anything in the URL). */
const ERROR_TYPE_NAME = /^[A-Z][A-Za-z]{2,48}$/;

/** What the error page shows. */
export interface ErrorPageParams {
  /** `?error=` type. User input: used only to pick the content. */
  error?: string;
  /**
   * Development only (the caller passes it when `NODE_ENV=development`): the type of the error the server
   * logged (`?cause=`), shown with its troubleshooting entry when it looks like an error type's name.
   */
  cause?: string;
  /** The sign-in page (`<origin><basePath>/signin`). */
  signinUrl: string;
  /** The application's home page. */
  homeUrl: string;
  theme: Theme;
  /** The request's language (default English). */
  text?: Translator;
}

/** Renders the error page; returns the HTTP status that goes with the error type, and the document. */
export function renderErrorHtml(params: ErrorPageParams): { status: number; html: string } {
  const text = params.text ?? ENGLISH;
  const content: ErrorPageContent = errorPageContent(text, params.error);
  const signinUrl = toSafeNavigationUrl(params.signinUrl);
  const homeUrl = toSafeNavigationUrl(params.homeUrl) ?? "/";
  const cause = params.cause !== undefined && ERROR_TYPE_NAME.test(params.cause) ? params.cause : undefined;
  const html = renderDocument({
    title: content.heading,
    text,
    theme: resolveTheme(params.theme),
    children: (
      <>
        <h1>{content.heading}</h1>
        <div class="center">
          {content.paragraphs.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </div>
        {cause ? (
          <div class="notice">
            <p>
              <Filled text={text.t("error.devCause")} values={{ cause: <code>{cause}</code> }} />{" "}
              <a href={`${TROUBLESHOOTING_URL}#${cause.toLowerCase()}`}>{text.t("error.devCauseLink")}</a>
            </p>
          </div>
        ) : null}
        <div class="actions">
          {content.offerSignIn && signinUrl ? (
            <a class="button" href={signinUrl}>
              {text.t("error.signIn")}
            </a>
          ) : null}
          <p class="center">
            <a href={homeUrl}>{text.t("error.home")}</a>
          </p>
        </div>
      </>
    ),
  });
  return { status: content.status, html };
}
