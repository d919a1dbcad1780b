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
import { renderDocument } from "./layout.js";
import { resolveTheme, toSafeNavigationUrl } from "./theme.js";

/** What the verify-request page shows. */
export interface VerifyRequestPageParams {
  /** The site's host (`example.com`), as the link in the mail shows it. */
  host: string;
  theme: Theme;
  /** The application's home page. */
  homeUrl: string;
}

/** Renders the verify-request page (a complete HTML document). */
export function renderVerifyRequestHtml(params: VerifyRequestPageParams): string {
  return renderDocument({
    title: "Check your email",
    theme: resolveTheme(params.theme),
    children: (
      <>
        <h1>Check your email</h1>
        <p class="center">A sign in link has been sent to your email address.</p>
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
