/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// The pragmas keep these files on the Preact runtime under any transpiler, e.g. Qwik's Vite config.
/**
 * The account page's section of connected applications: each live grant with its client, scopes, when it
 * was given and last used, and a form that revokes it (`POST oauth2/grants-form`, back to the account page).
 * Added to the page through `FeatureDefinition.accountSection`.
 *
 * @module features/authorization-server/account-section
 */
import { HiddenFields } from "../../pages/layout.js";
import { toSafeNavigationUrl } from "../../pages/theme.js";
import { accountFormRefusal, accountUrl } from "../../sign-in/account-form.js";
import type { AuthErrorShape } from "../../types/errors.js";
import type { Translator } from "../../types/i18n.js";
import type { AccountSectionView, InternalOptions, RequestInternal, ResponseInternal } from "../../types/internal.js";
import { OAuthError } from "./oauth-error.js";
import type { ListedGrant } from "./types.js";
import { grantsOf, revokeUserGrant } from "./user-grants.js";

function dateIn(text: Translator, date: Date): string {
  return new Intl.DateTimeFormat(text.locale, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(date);
}

function GrantList({ text, grants, action, csrfToken }: { text: Translator; grants: ListedGrant[]; action: string; csrfToken: string }) {
  if (grants.length === 0) return <p class="muted">{text.t("oauth.grants.none")}</p>;
  return (
    <ul class="stack">
      {grants.map((grant) => (
        <li key={grant.id}>
          <strong>{grant.clientName}</strong> — <code>{grant.scopes.join(" ") || "—"}</code>
          <br />
          <span class="muted">
            {text.t("oauth.grants.since", { date: dateIn(text, grant.createdAt) })},{" "}
            {text.t("oauth.grants.lastUsed", { date: dateIn(text, grant.lastUsedAt) })}
          </span>
          <form action={toSafeNavigationUrl(action)} method="post">
            <HiddenFields csrfToken={csrfToken} />
            <input type="hidden" name="grantId" value={grant.id} />
            <button type="submit" class="button button-neutral" aria-label={`${text.t("oauth.grants.revoke")}: ${grant.clientName}`}>
              {text.t("oauth.grants.revoke")}
            </button>
          </form>
        </li>
      ))}
    </ul>
  );
}

/** The section for the request's signed-in user. */
export async function grantsAccountSection(
  options: InternalOptions,
  request: RequestInternal,
  page: { text: Translator; csrfToken: string },
): Promise<AccountSectionView | undefined> {
  const current = await options.sessionStrategy.currentAssurance(options, request);
  if (!current) return undefined;
  const grants = await grantsOf(options, current.userId);
  return {
    content: (
      <section aria-labelledby="connected-applications">
        <h2 id="connected-applications">{page.text.t("oauth.grants.title")}</h2>
        <GrantList text={page.text} grants={grants} action={`${options.authUrl}/oauth2/grants-form`} csrfToken={page.csrfToken} />
      </section>
    ),
  };
}

/** The handler of `POST oauth2/grants-form`: revokes the grant, back to the account page with its notice. */
export async function revokeGrantForm(
  options: InternalOptions,
  request: RequestInternal,
  input: { grantId: string },
): Promise<ResponseInternal> {
  await revokeUserGrant(options, request, input);
  return { redirect: `${accountUrl(options)}?done=grantRevoked` };
}

/**
 * How a refused revoke form is presented: a grant that is not the user's (or is gone: purged after it
 * ended, under a page left open) back on the account page saying so, never the operator's error page;
 * anything else as every account form's refusal.
 */
export function grantsFormRefusal(options: InternalOptions, request: RequestInternal, error: AuthErrorShape): ResponseInternal | undefined {
  if (error instanceof OAuthError) return { redirect: `${accountUrl(options)}?error=${error.type}`, failure: error };
  return accountFormRefusal(options, request, error);
}
