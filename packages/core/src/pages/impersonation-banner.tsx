/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * The banner every built-in page shows while an admin acts as the user (`impersonateUser`, docs/admin.md
 * "Impersonation"): who is acted as, by whom, and a button that ends it (a POST form with the CSRF token,
 * to `stopImpersonating`). A named `<section>` (a region landmark) of its own, placed before the page's `<main>`; no script,
 * styled by the page's one stylesheet (`.impersonation`).
 *
 * @module pages/impersonation-banner
 */
import { renderToString } from "preact-render-to-string";
import type { Translator } from "../types/i18n.js";
import { Filled, HiddenFields } from "./layout.js";

/** What the banner shows and where its form posts. */
export interface ImpersonationBannerParams {
  text: Translator;
  /** The user acted as: their name, else their email, else their id. */
  user: string;
  /** The admin acting: their name, else their email, else their id. */
  admin: string;
  /** Where the form posts: `<basePath>/admin/stop-impersonating`. */
  action: string;
  csrfToken: string;
  /** Where the browser goes once the admin is back in their own session. */
  callbackUrl?: string;
}

function Banner({ text, user, admin, action, csrfToken, callbackUrl }: ImpersonationBannerParams) {
  return (
    <section class="impersonation" aria-label={text.t("impersonation.label")}>
      <p>
        <Filled text={text.t("impersonation.banner")} values={{ user: <strong>{user}</strong>, admin: <strong>{admin}</strong> }} />
      </p>
      <form method="post" action={action}>
        <HiddenFields csrfToken={csrfToken} callbackUrl={callbackUrl} />
        <button type="submit" class="button button-neutral">
          {text.t("impersonation.stop")}
        </button>
      </form>
    </section>
  );
}

/** The banner's HTML (every value escaped by the renderer), for a page's `<body>`. */
export function renderImpersonationBanner(params: ImpersonationBannerParams): string {
  return renderToString(<Banner {...params} />);
}

/**
 * `html` (a built-in page) with `banner` at the top of its body, the body marked so the card stays below it;
 * `html` unchanged when it is not one of the pages' documents.
 */
export function withBanner(html: string, banner: string): string {
  const at = html.indexOf("<body>");
  if (at < 0) return html;
  return `${html.slice(0, at)}<body class="impersonated">${banner}${html.slice(at + "<body>".length)}`;
}
