/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// The pragmas keep these files on the Preact runtime under any transpiler, e.g. Qwik's Vite config.
/**
 * The admin's built-in pages: the user list (`GET <basePath>/admin`: a search form, a filter, one page of
 * users with a link to the next) and one user's page (`GET <basePath>/admin/user?userId=…`: details, linked
 * accounts, sessions, and the forms that ban or lift a ban, end sessions, set a password and delete, each
 * posting to `admin/form-*` with the page's CSRF token). Plain forms, no script; every text from the
 * catalog. The impersonation controls ("act as this user") belong on the user page, after the ban forms.
 *
 * @module features/admin/page-view
 */
import { Filled, HiddenFields, renderDocument } from "../../pages/layout.js";
import { resolveTheme, toSafeNavigationUrl } from "../../pages/theme.js";
import type { AdminUserDetails, AdminUserView } from "../../types/admin.js";
import type { Theme } from "../../types/config.js";
import type { MessageKey, Translator } from "../../types/i18n.js";

/** The notice of each `?done=` value. */
const NOTICES: Readonly<Record<string, MessageKey>> = Object.freeze({
  banned: "admin.done.banned",
  unbanned: "admin.done.unbanned",
  sessionsRevoked: "admin.done.sessionsRevoked",
  passwordSet: "admin.done.passwordSet",
  deleted: "admin.done.deleted",
});

interface PageBase {
  text: Translator;
  theme: Theme;
  csrfToken: string;
  /** `<origin><basePath>`: the links and forms go under `admin`. */
  authUrl: string;
  error?: string;
  done?: string;
}

/** What the user list shows. */
export interface UsersPageParams extends PageBase {
  users: readonly AdminUserView[];
  search?: string;
  banned?: boolean;
  /** The next page's cursor, or `null` on the last page. */
  nextCursor: string | null;
  /** Whether this is a later page (a link back to the first one). */
  paged: boolean;
}

/** What a user's page shows. */
export interface UserPageParams extends PageBase {
  details: AdminUserDetails;
  /** The signed-in admin's own page: the guarded forms (ban, password, delete) are left out. */
  self: boolean;
}

/** When a date is, in the page's language. */
function when(text: Translator, date: Date | string): string {
  return new Intl.DateTimeFormat(text.locale, { dateStyle: "medium", timeStyle: "short" }).format(new Date(date));
}

function Messages({ text, error, done }: PageBase) {
  const notice = done !== undefined && Object.hasOwn(NOTICES, done) ? NOTICES[done] : undefined;
  return (
    <>
      {notice ? (
        <div class="notice" role="status">
          <p>{text.t(notice)}</p>
        </div>
      ) : null}
      {error ? (
        <div class="alert" role="alert">
          <p>{text.t("admin.error", { error: /^[A-Za-z]{1,40}$/.test(error) ? error : "UnknownAction" })}</p>
        </div>
      ) : null}
    </>
  );
}

/** A POST form of the user page: its CSRF token and the user it acts on. */
function UserForm(props: { action: string; csrfToken: string; userId: string; children: preact.ComponentChildren }) {
  return (
    <form action={toSafeNavigationUrl(props.action)} method="post" class="stack">
      <HiddenFields csrfToken={props.csrfToken} />
      <input type="hidden" name="userId" value={props.userId} />
      {props.children}
    </form>
  );
}

/** The search form: a text and the ban filter, by GET (the list's address holds the query). */
function SearchForm({ params, filter }: { params: UsersPageParams; filter: string }) {
  const { text, authUrl } = params;
  return (
    <search>
      <form action={toSafeNavigationUrl(`${authUrl}/admin`)} method="get" class="stack">
        <div class="field">
          <label for="admin-search">{text.t("admin.users.search")}</label>
          <input id="admin-search" type="search" name="search" value={params.search ?? ""} maxLength={200} />
        </div>
        <div class="field">
          <label for="admin-filter">{text.t("admin.users.filter")}</label>
          <select id="admin-filter" name="banned">
            <option value="any" selected={filter === "any"}>
              {text.t("admin.users.filterAll")}
            </option>
            <option value="true" selected={filter === "true"}>
              {text.t("admin.users.filterBanned")}
            </option>
            <option value="false" selected={filter === "false"}>
              {text.t("admin.users.filterActive")}
            </option>
          </select>
        </div>
        <button type="submit" class="button">
          {text.t("admin.users.searchButton")}
        </button>
      </form>
    </search>
  );
}

/** The page's users: each address links to the user's page. */
function UsersTable({ params }: { params: UsersPageParams }) {
  const { text, authUrl } = params;
  if (params.users.length === 0) return <p class="muted">{text.t("admin.users.none")}</p>;
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">{text.t("admin.users.email")}</th>
          <th scope="col">{text.t("admin.users.name")}</th>
          <th scope="col">{text.t("admin.users.status")}</th>
        </tr>
      </thead>
      <tbody>
        {params.users.map((user) => (
          <tr key={user.id}>
            <td>
              <a href={toSafeNavigationUrl(`${authUrl}/admin/user?${new URLSearchParams({ userId: user.id })}`)}>{user.email ?? user.id}</a>
            </td>
            <td>{user.name ?? ""}</td>
            <td>{user.ban ? text.t("admin.users.banned") : text.t("admin.users.active")}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Renders the user list (a complete HTML document). */
export function renderUsersHtml(params: UsersPageParams): string {
  const { text, authUrl } = params;
  const pageUrl = (query: Record<string, string>) => `${authUrl}/admin?${new URLSearchParams(query)}`;
  const filter = params.banned === undefined ? "any" : String(params.banned);
  const kept: Record<string, string> = {
    ...(params.search ? { search: params.search } : {}),
    ...(filter !== "any" ? { banned: filter } : {}),
  };
  return renderDocument({
    title: text.t("admin.users.title"),
    text,
    theme: resolveTheme(params.theme),
    children: (
      <>
        <h1>{text.t("admin.users.title")}</h1>
        <Messages {...params} />
        <SearchForm params={params} filter={filter} />
        <UsersTable params={params} />
        <nav aria-label={text.t("admin.users.title")} class="center">
          {params.paged ? <a href={toSafeNavigationUrl(pageUrl(kept))}>{text.t("admin.users.first")}</a> : null}{" "}
          {params.nextCursor ? (
            <a href={toSafeNavigationUrl(pageUrl({ ...kept, cursor: params.nextCursor }))}>{text.t("admin.users.next")}</a>
          ) : null}
        </nav>
      </>
    ),
  });
}

/** The user's ban as the page says it: until when (or until lifted), and the reason. */
function BanState({ text, user }: { text: Translator; user: AdminUserView }) {
  if (!user.ban) return <>{text.t("admin.users.active")}</>;
  return (
    <>
      {user.ban.expiresAt ? (
        <Filled text={text.t("admin.user.bannedUntil")} values={{ date: when(text, user.ban.expiresAt) }} />
      ) : (
        text.t("admin.user.bannedForever")
      )}
      {user.ban.reason ? (
        <>
          {" "}
          <Filled text={text.t("admin.user.banReason")} values={{ reason: user.ban.reason }} />
        </>
      ) : null}
    </>
  );
}

/** The user's facts: address (proven or not), name, role, ban. */
function UserFacts({ text, user }: { text: Translator; user: AdminUserView }) {
  return (
    <dl>
      <dt>{text.t("admin.users.email")}</dt>
      <dd>
        {user.email ?? "—"} ({text.t(user.emailVerified ? "admin.user.emailProven" : "admin.user.emailUnproven")})
      </dd>
      <dt>{text.t("admin.users.name")}</dt>
      <dd>{user.name ?? "—"}</dd>
      <dt>{text.t("admin.user.role")}</dt>
      <dd>{user.role ?? "—"}</dd>
      <dt>{text.t("admin.users.status")}</dt>
      <dd>
        <BanState text={text} user={user} />
      </dd>
    </dl>
  );
}

/** The linked accounts and the sessions (with the form that ends them all). */
function AccountsAndSessions({ params }: { params: UserPageParams }) {
  const { text, details } = params;
  return (
    <>
      <section class="stack" aria-labelledby="admin-accounts-heading">
        <h2 id="admin-accounts-heading">{text.t("admin.user.accounts")}</h2>
        {details.accounts.length === 0 ? (
          <p class="muted">{text.t("admin.user.noAccounts")}</p>
        ) : (
          <ul class="methods stack">
            {details.accounts.map((account) => (
              <li key={`${account.provider} ${account.providerAccountId}`}>
                {account.provider} <span class="muted">{account.type}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section class="stack" aria-labelledby="admin-sessions-heading">
        <h2 id="admin-sessions-heading">{text.t("admin.user.sessions")}</h2>
        {details.sessions === null ? (
          <p class="muted">{text.t("admin.user.sessionsUnavailable")}</p>
        ) : details.sessions.length === 0 ? (
          <p class="muted">{text.t("admin.user.noSessions")}</p>
        ) : (
          <ul class="methods stack">
            {details.sessions.map((session) => (
              <li key={session.id}>
                {session.userAgent ?? session.provider ?? session.id}{" "}
                <span class="muted">
                  <Filled text={text.t("admin.user.lastSeen")} values={{ date: when(text, session.lastSeenAt) }} />
                </span>
              </li>
            ))}
          </ul>
        )}
        <UserForm action={`${params.authUrl}/admin/form-revoke-sessions`} csrfToken={params.csrfToken} userId={details.user.id}>
          <button type="submit" class="button button-neutral">
            {text.t("admin.sessions.revoke")}
          </button>
        </UserForm>
      </section>
    </>
  );
}

/** Ban (a reason, an end in hours) or lift the ban. */
function BanSection({ params }: { params: UserPageParams }) {
  const { text, csrfToken } = params;
  const { user } = params.details;
  const form = (path: string) => `${params.authUrl}/admin/form-${path}`;
  return (
    <section class="stack" aria-labelledby="admin-ban-heading">
      <h2 id="admin-ban-heading">{text.t("admin.ban.title")}</h2>
      {user.ban ? (
        <UserForm action={form("unban")} csrfToken={csrfToken} userId={user.id}>
          <button type="submit" class="button button-neutral">
            {text.t("admin.unban.submit")}
          </button>
        </UserForm>
      ) : (
        <UserForm action={form("ban")} csrfToken={csrfToken} userId={user.id}>
          <div class="field">
            <label for="admin-ban-reason">{text.t("admin.ban.reason")}</label>
            <input id="admin-ban-reason" name="reason" type="text" maxLength={500} />
          </div>
          <div class="field">
            <label for="admin-ban-hours">{text.t("admin.ban.hours")}</label>
            <input id="admin-ban-hours" name="hours" type="number" min={1} max={87600} step={1} inputMode="numeric" />
          </div>
          <button type="submit" class="button button-danger">
            {text.t("admin.ban.submit")}
          </button>
        </UserForm>
      )}
    </section>
  );
}

/** Set a password, and delete the user. */
function PasswordAndDelete({ params }: { params: UserPageParams }) {
  const { text, csrfToken } = params;
  const userId = params.details.user.id;
  const form = (path: string) => `${params.authUrl}/admin/form-${path}`;
  return (
    <>
      <section class="stack" aria-labelledby="admin-password-heading">
        <h2 id="admin-password-heading">{text.t("admin.password.title")}</h2>
        <UserForm action={form("set-password")} csrfToken={csrfToken} userId={userId}>
          <div class="field">
            <label for="admin-password">{text.t("admin.password.new")}</label>
            <input id="admin-password" name="password" type="password" autoComplete="new-password" required />
          </div>
          <button type="submit" class="button button-neutral">
            {text.t("admin.password.submit")}
          </button>
        </UserForm>
      </section>
      <section class="stack" aria-labelledby="admin-delete-heading">
        <h2 id="admin-delete-heading">{text.t("admin.delete.title")}</h2>
        <p>{text.t("admin.delete.warning")}</p>
        <UserForm action={form("delete")} csrfToken={csrfToken} userId={userId}>
          <button type="submit" class="button button-danger">
            {text.t("admin.delete.submit")}
          </button>
        </UserForm>
      </section>
    </>
  );
}

/** Renders one user's page (a complete HTML document). */
export function renderUserHtml(params: UserPageParams): string {
  const { text, authUrl, details } = params;
  const { user } = details;
  const heading = user.email ?? user.name ?? user.id;
  return renderDocument({
    title: `${text.t("admin.user.title")}: ${heading}`,
    text,
    theme: resolveTheme(params.theme),
    children: (
      <>
        <h1>{heading}</h1>
        <Messages {...params} />
        <UserFacts text={text} user={user} />
        <AccountsAndSessions params={params} />
        {params.self ? null : (
          <>
            <BanSection params={params} />
            <PasswordAndDelete params={params} />
          </>
        )}
        <p class="center">
          <a href={toSafeNavigationUrl(`${authUrl}/admin`)}>{text.t("admin.user.back")}</a>
        </p>
      </>
    ),
  });
}
