/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// The pragmas keep these files on the Preact runtime under any transpiler, e.g. Qwik's Vite config.
/**
 * The error page (`?error=<type>`). Only known types change what it says; the type itself is never shown.
 *
 * @module pages/error
 */
import type { Theme } from "../types.js";
import { renderDocument } from "./layout.js";
import { type ErrorPageContent, errorPageContent } from "./messages.js";
import { resolveTheme, toSafeNavigationUrl } from "./theme.js";

/** What the error page shows. */
export interface ErrorPageParams {
  /** `?error=` type. User input: used only to pick the content. */
  error?: string;
  /** The sign-in page (`<origin><basePath>/signin`). */
  signinUrl: string;
  /** The application's home page. */
  homeUrl: string;
  theme: Theme;
}

/** Renders the error page; returns the HTTP status that goes with the error type, and the document. */
export function renderErrorHtml(params: ErrorPageParams): { status: number; html: string } {
  const content: ErrorPageContent = errorPageContent(params.error);
  const signinUrl = toSafeNavigationUrl(params.signinUrl);
  const homeUrl = toSafeNavigationUrl(params.homeUrl) ?? "/";
  const html = renderDocument({
    title: content.heading,
    theme: resolveTheme(params.theme),
    children: (
      <>
        <h1>{content.heading}</h1>
        <div class="center">
          {content.paragraphs.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </div>
        <div class="actions">
          {content.offerSignIn && signinUrl ? (
            <a class="button" href={signinUrl}>
              Sign in
            </a>
          ) : null}
          <p class="center">
            <a href={homeUrl}>Go to the home page</a>
          </p>
        </div>
      </>
    ),
  });
  return { status: content.status, html };
}
