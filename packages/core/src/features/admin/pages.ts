/**
 * The admin's built-in pages (`page-view.tsx`): `GET admin` (the user list: `?search`, `?banned`,
 * `?cursor`) and `GET admin/user?userId=…`. Both read; every change is a form (`page-forms.ts`). Signed
 * out: the sign-in page, back here after; not an admin: the refusal (`AccessDenied`, the error page).
 *
 * @module features/admin/pages
 */
import { UserNotFound } from "../../errors.js";
import { html } from "../../pages/html.js";
import { loadPages } from "../../pages/lazy.js";
import { withCallbackUrl } from "../../sign-in/flow.js";
import { signInUrl } from "../../sign-in/urls.js";
import type { AdminUserDetails, UserPage } from "../../types/admin.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../../types/internal.js";
import { listUsersInput, userInput } from "./input.js";
import { renderUserHtml, renderUsersHtml } from "./page-view.js";
import { getUser, listUsers } from "./users.js";

/** The admin pages' address: `admin`, or `admin/user` of `userId`, with `query` (`done`, `error`). */
export function adminPageUrl(options: InternalOptions, userId?: string, query: Record<string, string> = {}): string {
  const params = new URLSearchParams(userId === undefined ? query : { userId, ...query });
  const search = params.toString();
  return `${options.authUrl}/admin${userId === undefined ? "" : "/user"}${search ? `?${search}` : ""}`;
}

/** Signed out: to the sign-in page, back to `here` after. */
async function signInFirst(options: InternalOptions, request: RequestInternal, here: string): Promise<ResponseInternal | undefined> {
  if (await options.sessionStrategy.currentAssurance(options, request)) return undefined;
  return { redirect: withCallbackUrl(signInUrl(options), here) };
}

/** GET admin: one page of users. A query the list refuses (a bad cursor) shows the first page with the refusal. */
export async function usersPage(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal> {
  const away = await signInFirst(options, request, adminPageUrl(options));
  if (away) return away;
  const query = request.query;
  let input = listUsersInput.parse({
    search: query.search,
    banned: query.banned === "any" ? undefined : query.banned,
    cursor: query.cursor,
  });
  let error = query.error;
  let page: UserPage;
  try {
    page = (await listUsers(options, request, input)).body as UserPage;
  } catch (refusal) {
    if (!(refusal instanceof Error && "type" in refusal && refusal.type === "InvalidUser")) throw refusal;
    input = listUsersInput.parse({});
    error = "InvalidUser";
    page = (await listUsers(options, request, input)).body as UserPage;
  }
  const { text } = await loadPages(options.config, request.request, options.featureMessages);
  const base = { text, theme: options.theme, csrfToken: options.csrfToken, authUrl: options.authUrl, error, done: query.done };
  return html({
    status: 200,
    html: renderUsersHtml({
      ...base,
      users: page.users,
      ...(input.search ? { search: input.search } : {}),
      ...(input.banned === undefined ? {} : { banned: input.banned }),
      nextCursor: page.nextCursor,
      paged: input.cursor !== undefined,
    }),
  });
}

/** GET admin/user?userId=…: one user's page; an unknown user, 404 on the list page. */
export async function userPage(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal> {
  const userId = (request.query.userId ?? "").slice(0, 128);
  const away = await signInFirst(options, request, adminPageUrl(options, userId));
  if (away) return away;
  let details: AdminUserDetails;
  try {
    details = (await getUser(options, request, userInput.parse({ userId }))).body as AdminUserDetails;
  } catch (error) {
    if (!(error instanceof UserNotFound || (error instanceof Error && "type" in error && error.type === "InvalidUser"))) throw error;
    const { text } = await loadPages(options.config, request.request, options.featureMessages);
    const base = { text, theme: options.theme, csrfToken: options.csrfToken, authUrl: options.authUrl, error: "UserNotFound" };
    return html({ status: 404, html: renderUsersHtml({ ...base, users: [], nextCursor: null, paged: false }) });
  }
  const { text } = await loadPages(options.config, request.request, options.featureMessages);
  const current = await options.sessionStrategy.currentAssurance(options, request);
  return html({
    status: 200,
    html: renderUserHtml({
      text,
      theme: options.theme,
      csrfToken: options.csrfToken,
      authUrl: options.authUrl,
      error: request.query.error,
      done: request.query.done,
      details,
      self: current?.userId === details.user.id,
    }),
  });
}
