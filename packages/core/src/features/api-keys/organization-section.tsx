/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// The pragmas keep these files on the Preact runtime under any transpiler, e.g. Qwik's Vite config.
/**
 * The organization page's section of organization keys (`FeatureDefinition.organizationSection`), for a
 * member whose role grants `apiKeys.organizationPermission`: the organization's live keys with a revoke
 * form each, and a create form offering the permissions the member's role grants. Its forms post to
 * `api-keys/form-*?organizationId=…` and come back to this page; a created key is shown once on the page
 * the form answers.
 *
 * @module features/api-keys/organization-section
 */
import { HiddenFields } from "../../pages/layout.js";
import { toSafeNavigationUrl } from "../../pages/theme.js";
import type { Translator } from "../../types/i18n.js";
import type { InternalOptions, RequestInternal } from "../../types/internal.js";
import { defaultRoles } from "../organizations/public.js";
import { createdOn, KeyList } from "./account-section.js";
import { listed } from "./keys.js";
import { settingsOf } from "./settings.js";
import { storeOf } from "./store.js";
import { roleGrants } from "./verify.js";

const MESSAGES = { ApiKeyNotFound: "apiKeys.notFound", InvalidApiKeyRequest: "apiKeys.invalid" } as const;

/** The section for `organizationId` and the request's member of role `role`, or `undefined` when they may not manage keys. */
export async function apiKeysOrganizationSection(
  options: InternalOptions,
  request: RequestInternal,
  page: { text: Translator; csrfToken: string; organizationId: string; role: string },
): Promise<{ content: unknown } | undefined> {
  const { organizationPermission } = settingsOf(options.config);
  if (!roleGrants(options, page.role, [organizationPermission])) return undefined;
  const { text, csrfToken, organizationId } = page;
  const now = Date.now();
  const keys = (await storeOf(options).listApiKeysByOrganization(organizationId))
    .filter((key) => key.revokedAt === null && (key.expiresAt === null || key.expiresAt.getTime() > now))
    .map(listed);
  const permissions = (options.config.organizations?.roles ?? defaultRoles).map[page.role] ?? [];
  const query = `?${new URLSearchParams({ organizationId })}`;
  const base = `${options.authUrl}/api-keys`;
  const created = request.query.organizationId === organizationId ? createdOn(request) : undefined;
  const error = request.query.error as keyof typeof MESSAGES | undefined;
  return {
    content: (
      <section aria-labelledby="organization-api-keys">
        <h2 id="organization-api-keys">{text.t("apiKeys.organizationTitle")}</h2>
        {request.query.done === "apiKeyRevoked" && (
          <p class="notice" role="status">
            {text.t("apiKeys.revoked")}
          </p>
        )}
        {error !== undefined && Object.hasOwn(MESSAGES, error) && (
          <p class="alert" role="alert">
            {text.t(MESSAGES[error])}
          </p>
        )}
        {created !== undefined && (
          <div class="notice" role="status">
            <label for="organization-api-key-new">{text.t("apiKeys.newKey")}</label>
            <input id="organization-api-key-new" type="text" readOnly value={created} autocomplete="off" spellcheck={false} />
            <p>{text.t("apiKeys.copyHint")}</p>
          </div>
        )}
        <KeyList text={text} keys={keys} action={`${base}/form-revoke${query}`} csrfToken={csrfToken} />
        <form action={toSafeNavigationUrl(`${base}/form-create${query}`)} method="post" class="stack">
          <HiddenFields csrfToken={csrfToken} />
          <label for="organization-api-key-name">{text.t("apiKeys.name")}</label>
          <input id="organization-api-key-name" name="name" type="text" required maxLength={64} autocomplete="off" />
          <fieldset>
            <legend>{text.t("apiKeys.scopes")}</legend>
            {permissions.map((permission) => (
              <label key={permission}>
                <input type="checkbox" name={`scope.${permission}`} /> <code>{permission}</code>
              </label>
            ))}
          </fieldset>
          <button type="submit" class="button">
            {text.t("apiKeys.create")}
          </button>
        </form>
      </section>
    ),
  };
}
