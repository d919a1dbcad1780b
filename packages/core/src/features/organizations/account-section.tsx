/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// The pragmas keep these files on the Preact runtime under any transpiler, e.g. Qwik's Vite config.
/**
 * The account page's organizations section: the switcher (`page-view.tsx`), each of the user's
 * organizations a link to its page and a form that makes it the session's active one, and a link to the
 * organization page. Added to the page through `FeatureDefinition.accountSection`.
 *
 * @module features/organizations/account-section
 */
import { toSafeNavigationUrl } from "../../pages/theme.js";
import type { Translator } from "../../types/i18n.js";
import type { AccountSectionView, InternalOptions, RequestInternal } from "../../types/internal.js";
import { Switcher } from "./page-view.js";
import { organizationPageUrl, switcherEntries } from "./pages.js";

/** The section for the request's signed-in user. */
export async function organizationsAccountSection(
  options: InternalOptions,
  request: RequestInternal,
  page: { text: Translator; csrfToken: string },
): Promise<AccountSectionView> {
  const organizations = await switcherEntries(options, request);
  return {
    content: (
      <div class="stack">
        <Switcher text={page.text} authUrl={options.authUrl} csrfToken={page.csrfToken} organizations={organizations} />
        <p>
          <a href={toSafeNavigationUrl(organizationPageUrl(options))}>{page.text.t("organization.page.title")}</a>
        </p>
      </div>
    ),
  };
}
