/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// The pragmas keep these files on the Preact runtime under any transpiler, e.g. Qwik's Vite config.
/**
 * The SCIM part of the organization page's SSO section: the SCIM base URL the identity provider is given,
 * the organization's live tokens (their start, when and by whom made, when last used: never the token),
 * a revoke button each, and a create form. A created token is shown once, on the page the create form
 * answers (no redirect: the token exists in clear only in that answer, `no-store`), never in a URL.
 * Creating and revoking are the owner-present operations of `tokens.ts`; a refusal comes back to the page
 * with `?error=<type>` (`organization-section.tsx` says it in words).
 *
 * @module features/sso/scim/token-section
 */
import { UnknownAction } from "../../../errors.js";
import { noStoreHeaders } from "../../../http/response.js";
import { HiddenFields } from "../../../pages/layout.js";
import { toSafeNavigationUrl } from "../../../pages/theme.js";
import { withCallbackUrl } from "../../../sign-in/flow.js";
import { signInUrl } from "../../../sign-in/urls.js";
import type { Translator } from "../../../types/i18n.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../../../types/internal.js";
import type { InputOf } from "../../../types/operation.js";
import { ReadOnlyField, type SectionPage, sectionDone, sectionPageUrl } from "../section-parts.js";
import type { tokenFormInput } from "./input.js";
import { storeOf } from "./store.js";
import { createScimToken, listed, revokeScimToken } from "./tokens.js";
import type { ListedScimToken } from "./types.js";

/** The token a create form of this request just made, shown once by the page it answers. */
const createdByRequest = new WeakMap<RequestInternal, string>();

function dateIn(text: Translator, date: Date): string {
  return new Intl.DateTimeFormat(text.locale, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(date);
}

/** Who made each token, as the page names them: their address (their id when the account is gone). */
async function creatorsOf(options: InternalOptions, tokens: readonly ListedScimToken[]): Promise<Map<string, string>> {
  const ids = [...new Set(tokens.map((token) => token.createdBy))];
  const users = await Promise.all(ids.map(async (id) => (await options.adapter?.getUser?.(id)) ?? null));
  return new Map(ids.map((id, index) => [id, users[index]?.email ?? id]));
}

/** The live tokens, each with its revoke button. */
function TokenList(props: {
  text: Translator;
  tokens: ListedScimToken[];
  creators: Map<string, string>;
  action: string;
  csrfToken: string;
}) {
  const { text, tokens, creators } = props;
  if (tokens.length === 0) return <p class="muted">{text.t("sso.scimNone")}</p>;
  return (
    <ul class="stack">
      {tokens.map((token) => (
        <li key={token.id}>
          <code>{token.start}…</code>{" "}
          <span class="muted">
            {text.t("sso.scimCreated", { date: dateIn(text, token.createdAt), creator: creators.get(token.createdBy) ?? token.createdBy })},{" "}
            {token.lastUsedAt ? text.t("sso.scimLastUsed", { date: dateIn(text, token.lastUsedAt) }) : text.t("sso.scimNeverUsed")}
          </span>
          <form action={toSafeNavigationUrl(props.action)} method="post">
            <HiddenFields csrfToken={props.csrfToken} />
            <input type="hidden" name="tokenId" value={token.id} />
            <button type="submit" class="button button-neutral" aria-label={`${text.t("sso.scimRevoke")}: ${token.start}…`}>
              {text.t("sso.scimRevoke")}
            </button>
          </form>
        </li>
      ))}
    </ul>
  );
}

/** The token this request's create form made, with the hint to copy it now. */
function NewToken({ text, token }: { text: Translator; token: string }) {
  return (
    <div class="notice" role="status">
      <ReadOnlyField id="org-scim-token-new" label={text.t("sso.scimNewToken")} value={token} />
      <p>{text.t("sso.scimCopyHint")}</p>
    </div>
  );
}

/** The SCIM part of the section for `page.organizationId` (the caller's role grants `sso:manage`). */
export async function scimTokensPart(options: InternalOptions, request: RequestInternal, page: SectionPage): Promise<unknown> {
  const { text, csrfToken, organizationId } = page;
  const tokens = (await storeOf(options).listScimTokens(organizationId)).filter((token) => token.revokedAt === null).map(listed);
  const creators = await creatorsOf(options, tokens);
  const query = `?${new URLSearchParams({ organizationId })}`;
  const base = `${options.authUrl}/scim-tokens`;
  const created = createdByRequest.get(request);
  const again = withCallbackUrl(signInUrl(options), sectionPageUrl(options, organizationId));
  return (
    <div class="stack">
      <h3 id="org-scim-heading">{text.t("sso.scimTitle")}</h3>
      <p>{text.t("sso.scimIntro")}</p>
      {request.query.error === "RecentSignInRequired" && (
        <p>
          <a href={toSafeNavigationUrl(again)}>{text.t("sso.signInAgain")}</a>
        </p>
      )}
      <ReadOnlyField id="org-scim-base-url" label={text.t("sso.scimBaseUrl")} value={`${options.authUrl}/scim/v2`} />
      {created !== undefined && <NewToken text={text} token={created} />}
      <TokenList text={text} tokens={tokens} creators={creators} action={`${base}/form-revoke${query}`} csrfToken={csrfToken} />
      <form action={toSafeNavigationUrl(`${base}/form-create${query}`)} method="post">
        <HiddenFields csrfToken={csrfToken} />
        <button type="submit" class="button">
          {text.t("sso.scimCreate")}
        </button>
      </form>
    </div>
  );
}

/**
 * The handler of `POST scim-tokens/form-create?organizationId=…`: a new token (`createScimToken`), shown
 * once on the organization page this answer is, marked `no-store`.
 */
export async function createScimTokenForm(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal> {
  const { body } = await createScimToken(options, request, { organizationId: request.query.organizationId ?? "" });
  createdByRequest.set(request, body.token);
  const page = options.handlerOf?.("organizationPage");
  if (!page) throw new UnknownAction("The organization page is not turned on in this configuration.");
  const answer = await page(options, request);
  return { ...answer, headers: { ...answer.headers, ...noStoreHeaders } };
}

/** The handler of `POST scim-tokens/form-revoke?organizationId=…`: the token ends (`revokeScimToken`), back to the page. */
export async function revokeScimTokenForm(
  options: InternalOptions,
  request: RequestInternal,
  input: InputOf<typeof tokenFormInput>,
): Promise<ResponseInternal> {
  await revokeScimToken(options, request, { organizationId: request.query.organizationId ?? "", tokenId: input.tokenId });
  return sectionDone(options, request, "scimTokenRevoked");
}
