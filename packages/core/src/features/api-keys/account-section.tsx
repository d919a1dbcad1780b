/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// The pragmas keep these files on the Preact runtime under any transpiler, e.g. Qwik's Vite config.
/**
 * The account page's section of API keys: the user's live keys (name, start, scopes, when created, last
 * used and expiring) with a revoke form each, and a create form. A created key is shown on the page the
 * create form answers (no redirect: the key exists in clear only in that one answer, marked `no-store`),
 * with a hint to copy it now. Added to the page through `FeatureDefinition.accountSection`.
 *
 * @module features/api-keys/account-section
 */
import { UnknownAction } from "../../errors.js";
import { HiddenFields } from "../../pages/layout.js";
import { toSafeNavigationUrl } from "../../pages/theme.js";
import { accountFormRefusal, accountUrl } from "../../sign-in/account-form.js";
import type { AuthErrorShape } from "../../types/errors.js";
import type { Translator } from "../../types/i18n.js";
import type { AccountSectionView, InternalOptions, RequestInternal, ResponseInternal } from "../../types/internal.js";
import { createApiKey, listed, revokeApiKey } from "./keys.js";
import { settingsOf } from "./settings.js";
import { storeOf } from "./store.js";
import type { ListedApiKey } from "./types.js";

/** The key a create form of this request just made, shown once by the page it answers. */
const createdByRequest = new WeakMap<RequestInternal, string>();

function dateIn(text: Translator, date: Date): string {
  return new Intl.DateTimeFormat(text.locale, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(date);
}

export function KeyList({ text, keys, action, csrfToken }: { text: Translator; keys: ListedApiKey[]; action: string; csrfToken: string }) {
  if (keys.length === 0) return <p class="muted">{text.t("apiKeys.none")}</p>;
  return (
    <ul class="stack">
      {keys.map((key) => (
        <li key={key.id}>
          <strong>{key.name}</strong> — <code>{key.start}…</code> <code>{key.scopes.join(" ") || "—"}</code>
          <br />
          <span class="muted">
            {text.t("apiKeys.created", { date: dateIn(text, key.createdAt) })},{" "}
            {key.lastUsedAt ? text.t("apiKeys.lastUsed", { date: dateIn(text, key.lastUsedAt) }) : text.t("apiKeys.neverUsed")},{" "}
            {key.expiresAt ? text.t("apiKeys.expires", { date: dateIn(text, key.expiresAt) }) : text.t("apiKeys.neverExpires")}
          </span>
          <form action={toSafeNavigationUrl(action)} method="post">
            <HiddenFields csrfToken={csrfToken} />
            <input type="hidden" name="keyId" value={key.id} />
            <button type="submit" class="button button-neutral" aria-label={`${text.t("apiKeys.revoke")}: ${key.name}`}>
              {text.t("apiKeys.revoke")}
            </button>
          </form>
        </li>
      ))}
    </ul>
  );
}

function CreateForm({ text, scopes, action, csrfToken }: { text: Translator; scopes: string[]; action: string; csrfToken: string }) {
  return (
    <form action={toSafeNavigationUrl(action)} method="post" class="stack">
      <HiddenFields csrfToken={csrfToken} />
      <label for="api-key-name">{text.t("apiKeys.name")}</label>
      <input id="api-key-name" name="name" type="text" required maxLength={64} autocomplete="off" />
      {scopes.length > 0 && (
        <fieldset>
          <legend>{text.t("apiKeys.scopes")}</legend>
          {scopes.map((scope) => (
            <label key={scope}>
              <input type="checkbox" name={`scope.${scope}`} /> <code>{scope}</code>
            </label>
          ))}
        </fieldset>
      )}
      <button type="submit" class="button">
        {text.t("apiKeys.create")}
      </button>
    </form>
  );
}

/** The section for the request's signed-in user. */
export async function apiKeysAccountSection(
  options: InternalOptions,
  request: RequestInternal,
  page: { text: Translator; csrfToken: string },
): Promise<AccountSectionView | undefined> {
  const current = await options.sessionStrategy.currentAssurance(options, request);
  if (!current) return undefined;
  const now = Date.now();
  const keys = (await storeOf(options).listApiKeysByUser(current.userId))
    .filter((key) => key.organizationId === null && key.revokedAt === null && (key.expiresAt === null || key.expiresAt.getTime() > now))
    .map(listed);
  // A key made by the organization page's form is that page's to show.
  const created = request.query.organizationId ? undefined : createdByRequest.get(request);
  const base = `${options.authUrl}/api-keys`;
  return {
    content: (
      <section aria-labelledby="api-keys">
        <h2 id="api-keys">{page.text.t("apiKeys.title")}</h2>
        {created !== undefined && (
          <div class="notice" role="status">
            <label for="api-key-new">{page.text.t("apiKeys.newKey")}</label>
            <input id="api-key-new" type="text" readOnly value={created} autocomplete="off" spellcheck={false} />
            <p>{page.text.t("apiKeys.copyHint")}</p>
          </div>
        )}
        <KeyList text={page.text} keys={keys} action={`${base}/form-revoke`} csrfToken={page.csrfToken} />
        <CreateForm
          text={page.text}
          scopes={Object.keys(settingsOf(options.config).scopes)}
          action={`${base}/form-create`}
          csrfToken={page.csrfToken}
        />
      </section>
    ),
    done: created === undefined ? undefined : "apiKeyCreated",
  };
}

/** The key a create form of `request` just made, or `undefined`. */
export function createdOn(request: RequestInternal): string | undefined {
  return createdByRequest.get(request);
}

/** Where a form of the organization page (`?organizationId=` in its action) or of the account page goes back to. */
function pageOf(options: InternalOptions, request: RequestInternal): string {
  const organizationId = request.query.organizationId;
  return organizationId ? `${options.authUrl}/organization?${new URLSearchParams({ organizationId })}` : accountUrl(options);
}

/**
 * The handler of `POST api-keys/form-create`: the page it came from (the account page, or the organization
 * page for an organization key: `?organizationId=` in the form's action), showing the new key once.
 */
export async function createApiKeyForm(
  options: InternalOptions,
  request: RequestInternal,
  input: { name: string; scopes?: string[]; expiresIn?: number },
): Promise<ResponseInternal> {
  const organizationId = request.query.organizationId || undefined;
  const { body } = await createApiKey(options, request, {
    name: input.name,
    scopes: input.scopes,
    expiresIn: input.expiresIn,
    organizationId,
  });
  createdByRequest.set(request, body.key);
  const page = options.handlerOf?.(organizationId ? "organizationPage" : "accountPage");
  if (!page) throw new UnknownAction("The page is not turned on in this configuration.");
  const answer = await page(options, request);
  return { ...answer, headers: { ...answer.headers, "cache-control": "no-store" } };
}

/** The handler of `POST api-keys/form-revoke`: back to the account page with its notice. */
export async function revokeApiKeyForm(
  options: InternalOptions,
  request: RequestInternal,
  input: { keyId: string; organizationId?: string },
): Promise<ResponseInternal> {
  await revokeApiKey(options, request, { keyId: input.keyId });
  const back = pageOf(options, request);
  return { redirect: `${back}${back.includes("?") ? "&" : "?"}done=apiKeyRevoked` };
}

/** A refused form: an error the section names back on the account page, anything else as every account form's refusal. */
export function apiKeyFormRefusal(options: InternalOptions, request: RequestInternal, error: AuthErrorShape): ResponseInternal | undefined {
  const back = pageOf(options, request);
  const organizationForm = back !== accountUrl(options);
  if (
    error.type === "ApiKeyNotFound" ||
    error.type === "InvalidApiKeyRequest" ||
    (organizationForm && error.type.startsWith("Organization"))
  )
    return { redirect: `${back}${organizationForm ? "&" : "?"}error=${error.type}`, failure: error as unknown as Error };
  return accountFormRefusal(options, request, error);
}
