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
  /**
   * Which mail was sent (`?type=`): `email` (a sign-in link, the default), `password-sign-up`,
   * `password-reset`; or `password-verified` (an address confirmed in another browser than the sign-up's).
   */
  type?: string;
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

/** Renders the verify-request page (a complete HTML document). */
export function renderVerifyRequestHtml(params: VerifyRequestPageParams): string {
  const text = (params.type !== undefined && Object.hasOwn(LEADS, params.type) ? LEADS[params.type] : undefined) ?? SIGN_IN_LINK;
  return renderDocument({
    title: text.heading,
    theme: resolveTheme(params.theme),
    children: (
      <>
        <h1>{text.heading}</h1>
        <p class="center">{text.lead}</p>
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
