/**
 * The Password() provider's acceptance in Debian's Chromium: the built-in pages of a real Node server
 * running `createAuth` with Nodemailer (a real SMTP server whose mails are parsed and whose links are
 * opened), Password() and a real local OpenID Provider, on the hosted-db adapter — once on PGlite with
 * JWT sessions and once on the PostgreSQL server with database sessions (a fresh schema, dropped
 * afterwards; skipped, saying why, when the server does not answer). Browser, SMTP server and PGlite are
 * shared by the file; each row has its own server, OP and database, shared by its tests.
 *
 * - sign up → the mail's verification link in the same browser → confirm → signed in → sign out → sign
 *   in with the password;
 * - forgot → reset: in another browser the link's page says it was asked for elsewhere (no password form);
 *   in the asking one the new password signs in, the old one is refused and every other session has ended;
 * - a reset link opened on another device: "Email me a link for this browser" mails a new link, which
 *   resets there; the first link is dead afterwards;
 * - change on the account page: a wrong current password is shown there; the new password signs in, the
 *   old one does not;
 * - link the OP's account on the account page (through the OP's login page), see it listed, unlink it;
 *   a user whose only way in is an OP account with no vouched-for address is refused the unlink;
 * - axe-core finds no WCAG 2.1 A/AA violation on the sign-up, forgot, reset, verify and account pages.
 *
 * Contexts that run axe are opened with `bypassCSP` (the pages' CSP blocks the injected script); every
 * other context keeps the CSP, and its pages must report no CSP violation or script error.
 */
import type { ParsedMail } from "mailparser";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { HostedDbAdapter, HostedDbClient } from "../../../hosted-db-adapter/src/index.js";
import { dropBranch, postgresAnswers, randomBranch, testDatabaseURL } from "../../../hosted-db-adapter/test/helpers.js";
import { AuthError } from "../../src/errors.js";
import { createAuth } from "../../src/kernel/instance.js";
import Nodemailer from "../../src/providers/nodemailer.js";
import Password from "../../src/providers/password.js";
import type { Adapter } from "../../src/types/adapters.js";
import type { AuthConfig, SessionStrategy } from "../../src/types/config.js";
import { axeViolations, launchChromium, openWatchedTab, type WatchedTab } from "../helpers/chromium.js";
import { closeSharedPglite, freshDatabase, sharedPglite } from "../helpers/database.js";
import { type NodeServer, startNodeServer } from "../helpers/node-server.js";
import { DEFAULT_USERS, opProvider, startTestOP, type TestOP } from "../helpers/oidc-provider.js";
import { startSmtpServer } from "../helpers/smtp.js";

const secret = "password-browser-secret-0123456789abcdef";
/** Browser round trips on a busy machine: more than the default, never close to it when idle. */
const BROWSER_TEST_TIMEOUT = 60_000;

/** The OP's accounts: alice's address is vouched for; carol's is not (`email_verified: false`). */
const OP_USERS = {
  alice: DEFAULT_USERS.alice as Record<string, unknown>,
  carol: { email: "carol@example.com", email_verified: false, name: "Carol Unproven" },
  dave: { name: "Dave NoAddress" },
};

/** A database the app runs on, and how to release it. */
interface Database {
  adapter: Adapter;
  close(): Promise<void>;
}

/** One run of the file: a database and the session strategy to use on it. */
interface DatabaseRow {
  name: string;
  strategy: SessionStrategy;
  /** False when the row's server does not answer (the row is skipped, saying why). */
  available: boolean;
  open(): Promise<Database>;
}

/** A fresh migrated branch of the test file's PGlite (the PGlite itself is closed in `afterAll`). */
async function pgliteDatabase(): Promise<Database> {
  const { adapter } = await freshDatabase();
  return { adapter, close: async () => {} };
}

/** A fresh migrated schema of the tests' PostgreSQL server, dropped by `close`. */
async function postgresDatabase(): Promise<Database> {
  const branch = randomBranch("password_browser");
  const client = new HostedDbClient({ databaseURL: testDatabaseURL(), branch });
  await client.migrate();
  return {
    adapter: HostedDbAdapter(client),
    close: async () => {
      await dropBranch(client, branch);
      await client.close();
    },
  };
}

const postgres = await postgresAnswers(testDatabaseURL(), "the password browser test on PostgreSQL");

const rows: DatabaseRow[] = [
  { name: "PGlite, JWT sessions", strategy: "jwt", available: true, open: pgliteDatabase },
  { name: "PostgreSQL, database sessions", strategy: "database", available: postgres, open: postgresDatabase },
];

type Smtp = Awaited<ReturnType<typeof startSmtpServer>>;

let browser: Browser;
let smtp: Smtp;

beforeAll(async () => {
  // Cold starts belong to the hook, not to the tests' time budget.
  const [chromium, mailServer] = await Promise.all([launchChromium(), startSmtpServer(), sharedPglite().waitReady]);
  browser = chromium;
  smtp = mailServer;
});

afterAll(async () => {
  await browser?.close();
  await smtp?.close();
  await closeSharedPglite();
});

const homePage = () =>
  new Response('<!doctype html><html lang="en"><meta charset="utf-8"><title>Home</title><h1>Home</h1></html>', {
    headers: { "content-type": "text/html; charset=utf-8" },
  });

/** The app of one row: its server, OP and database, and the types of the errors the auth instance logged. */
interface App {
  origin: string;
  adapter: Adapter;
  loggedErrors: string[];
  close(): Promise<void>;
}

/**
 * Starts the server first (the OP must know its callback URL), then the OP with that redirect URI, then
 * the auth instance the server hands `/auth` requests to.
 */
async function startApp(row: DatabaseRow): Promise<App> {
  const database = await row.open();
  let handler: ((request: Request, clientAddress?: string) => Promise<Response>) | undefined;
  const server: NodeServer = await startNodeServer(
    (request, { remoteAddress }) => (handler ? handler(request, remoteAddress) : new Response("Starting", { status: 503 })),
    { fallback: homePage },
  );
  const op: TestOP = await startTestOP({
    users: OP_USERS,
    clients: [{ client_id: "app", client_secret: "app-secret", redirect_uris: [`${server.origin}/auth/callback/op`] }],
  });
  const loggedErrors: string[] = [];
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter: database.adapter,
    session: { strategy: row.strategy },
    providers: [Nodemailer({ server: smtp.transport, from: "Demo <no-reply@demo.test>" }), Password(), opProvider(op)],
    // `loggedErrors`: every failure the instance logs, at its level (a user's refusal arrives at debug).
    debug: true,
    logger: {
      error: (error) => void loggedErrors.push(error instanceof AuthError ? error.type : `${error.name}: ${error.message}`),
      warn: () => {},
      debug: (_line, metadata) => {
        const type = (metadata as { type?: string } | undefined)?.type;
        if (type) loggedErrors.push(type);
      },
    },
  };
  const auth = createAuth(config);
  handler = (request, clientAddress) => auth.handler(request, { clientAddress });
  return {
    origin: server.origin,
    adapter: database.adapter,
    loggedErrors,
    close: async () => {
      await server.close();
      await op.close();
      await database.close();
    },
  };
}

type Tab = WatchedTab;

/** Opens a context; `axe: true` lets axe-core be injected past the pages' CSP. */
function openTab(axe = false): Promise<Tab> {
  return openWatchedTab(browser, axe);
}

/** The session `/auth/session` answers in the tab's browser (`null` when signed out). */
async function session(page: Page): Promise<{ user?: { email?: string | null; name?: string | null } } | null> {
  return page.evaluate(async () => (await fetch("/auth/session", { cache: "no-store" })).json());
}

/** The email of the tab's session, or `null`. */
async function signedInAs(page: Page): Promise<string | null | undefined> {
  return (await session(page))?.user?.email ?? null;
}

/** The WCAG 2.1 A/AA rules the page breaks (none expected). */
async function expectAccessible(page: Page): Promise<void> {
  expect(await axeViolations(page), `axe on ${new URL(page.url()).pathname}`).toEqual([]);
}

/** The newest mail to `to` after `since` mails, waiting a little for the SMTP server's parser. */
async function mailTo(to: string, since: number): Promise<ParsedMail> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const mail = smtp.mails
      .slice(since)
      .reverse()
      .find((m) => (m.to as { text: string } | undefined)?.text === to);
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`No mail to ${to}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The link under `path` in `mail`'s text. */
function linkIn(mail: ParsedMail, origin: string, path: string): string {
  const link = mail.text?.match(new RegExp(`${origin}${path}\\?\\S+`))?.[0];
  if (!link) throw new Error(`No ${path} link in: ${mail.text}`);
  return link;
}

/** Leaves an `/auth/...` page for wherever the form sends the browser next (outside `notUnder`). */
function leaving(page: Page, notUnder: string): Promise<void> {
  return page.waitForURL((url) => !url.pathname.startsWith(notUnder));
}

/**
 * Signs up on the built-in pages, reached from the sign-in page's "Create an account" link; ends on the
 * "Check your email" page. `axe` checks the sign-up page on the way.
 */
async function signUp(page: Page, origin: string, person: { name: string; email: string; password: string }, axe = false) {
  await page.goto(`${origin}/auth/signin`);
  await Promise.all([page.waitForURL(`${origin}/auth/password/sign-up`), page.getByRole("link", { name: "Create an account" }).click()]);
  await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Create an account");
  if (axe) await expectAccessible(page);
  await page.getByLabel("Name").fill(person.name);
  await page.getByLabel("Email").fill(person.email);
  await page.getByLabel("Password").fill(person.password);
  await Promise.all([page.waitForURL(/\/auth\/verify-request\?/), page.getByRole("button", { name: "Create account" }).click()]);
  await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Check your email");
}

/** Opens the sign-up mail's verification link in `page` and confirms: signed in there. */
async function confirmFromMail(page: Page, origin: string, email: string, since: number, axe = false): Promise<void> {
  const mail = await mailTo(email, since);
  expect(mail.subject).toBe(`Confirm your email address for ${new URL(origin).host}`);
  await page.goto(linkIn(mail, origin, "/auth/password/verify"));
  await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Confirm your email address");
  if (axe) await expectAccessible(page);
  await Promise.all([leaving(page, "/auth/password/"), page.getByRole("button", { name: "Confirm email address" }).click()]);
}

/** A new user with a password and a proven address, signed in in `page`. */
async function signUpAndConfirm(page: Page, origin: string, person: { name: string; email: string; password: string }): Promise<void> {
  const since = smtp.mails.length;
  await signUp(page, origin, person);
  await confirmFromMail(page, origin, person.email, since);
  expect(await signedInAs(page)).toBe(person.email);
}

/** The sign-in page's password form. */
function passwordForm(page: Page) {
  return page.locator("form").filter({ has: page.getByRole("button", { name: "Sign in with Password" }) });
}

/** Signs in with the password on the built-in sign-in page; answers where the browser ended up. */
async function signInWithPassword(page: Page, origin: string, email: string, password: string): Promise<URL> {
  await page.goto(`${origin}/auth/signin?callbackUrl=${encodeURIComponent(`${origin}/`)}`);
  const form = passwordForm(page);
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Password").fill(password);
  await Promise.all([page.waitForURL((url) => url.pathname !== "/auth/callback/password"), form.getByRole("button").click()]);
  await page.waitForLoadState();
  return new URL(page.url());
}

/** Signs out on the built-in sign-out page. */
async function signOut(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/auth/signout`);
  await Promise.all([leaving(page, "/auth/signout"), page.getByRole("button", { name: "Sign out" }).click()]);
}

/** Signs in at the test OP's login page as `account` (the browser is on it or on its way there). */
async function signInAtOP(page: Page, origin: string, account: string): Promise<void> {
  await page.waitForURL((url) => url.pathname.startsWith("/interaction/"));
  await page.getByLabel("Account").fill(account);
  await Promise.all([
    page.waitForURL((url) => url.origin === origin && !url.pathname.startsWith("/auth/callback/")),
    page.getByRole("button", { name: "Sign in", exact: true }).click(),
  ]);
}

/** The names the account page lists under "Sign-in methods". */
function methods(page: Page): Promise<string[]> {
  return page.locator("ul.methods li span").allTextContents();
}

/** An alert or notice the account page shows. */
function notice(page: Page) {
  return page.locator('[role="alert"], [role="status"]');
}

describe.each(rows.filter((row) => row.available))("Password() in Chromium on $name", (row) => {
  let app: App;
  const tabs: Tab[] = [];
  /** A context of this test, closed afterwards; its pages must not break the CSP unless it bypasses it. */
  const tab = async (axe = false) => {
    const opened = await openTab(axe);
    tabs.push(opened);
    return opened;
  };

  /** The refusals the instance logged since the last call: exactly the ones the test provoked. */
  const expectLogged = (types: string[]) => expect(app.loggedErrors.splice(0)).toEqual(types);

  beforeAll(async () => {
    app = await startApp(row);
  });

  afterAll(async () => {
    await Promise.all(tabs.map((t) => t.context.close()));
    await app?.close();
  });

  it(
    "sign up → the mail's link in the same browser → confirm → signed in → sign out → sign in with the password",
    async () => {
      const { origin } = app;
      const { page, problems } = await tab(true);
      const ada = { name: "Ada Lovelace", email: "ada@example.com", password: "correct horse battery" };
      const since = smtp.mails.length;
      await signUp(page, origin, ada, true);
      // Nothing is stored before the address is proven.
      expect(await app.adapter.getUserByEmail?.(ada.email)).toBeNull();

      await confirmFromMail(page, origin, ada.email, since, true);
      expect(await session(page)).toMatchObject({ user: { email: ada.email, name: ada.name } });

      await page.goto(`${origin}/auth/account`);
      await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Your account");
      await expect(page.locator("body").textContent()).resolves.toContain(ada.email);
      expect(await methods(page)).toEqual(["Password"]);
      await expectAccessible(page);

      await signOut(page, origin);
      expect(await signedInAs(page)).toBeNull();
      expect((await signInWithPassword(page, origin, ada.email, ada.password)).href).toBe(`${origin}/`);
      expect(await signedInAs(page)).toBe(ada.email);
      expect(problems).toEqual([]);
      expectLogged([]);
    },
    BROWSER_TEST_TIMEOUT,
  );

  it(
    "forgot → reset: no password form in another browser; in the asking one the new password signs in, the old is refused, other sessions end",
    async () => {
      const { origin } = app;
      const grace = { name: "Grace Hopper", email: "grace@example.com", password: "first password 1" };
      const laptop = await tab();
      await signUpAndConfirm(laptop.page, origin, grace);
      const phone = await tab();
      expect((await signInWithPassword(phone.page, origin, grace.email, grace.password)).href).toBe(`${origin}/`);
      expect(await signedInAs(phone.page)).toBe(grace.email);

      // Someone who forgot the password, on a new browser.
      const asker = await tab(true);
      await asker.page.goto(`${origin}/auth/signin`);
      await Promise.all([
        asker.page.waitForURL(`${origin}/auth/password/forgot`),
        asker.page.getByRole("link", { name: "Forgot your password?" }).click(),
      ]);
      await expectAccessible(asker.page);
      const since = smtp.mails.length;
      await asker.page.getByLabel("Email").fill(grace.email);
      await Promise.all([
        asker.page.waitForURL(/\/auth\/verify-request\?/),
        asker.page.getByRole("button", { name: "Email me a link" }).click(),
      ]);
      await expect(asker.page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Check your email");
      const mail = await mailTo(grace.email, since);
      expect(mail.subject).toBe(`Reset your password for ${new URL(origin).host}`);
      const link = linkIn(mail, origin, "/auth/password/reset");

      // The link in a browser that did not ask for it: it says so, with no form to type a password into.
      const stranger = await tab();
      const elsewhere = await stranger.page.goto(link);
      expect(elsewhere?.status()).toBe(200);
      await expect(stranger.page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe(
        "This link was asked for in another browser",
      );
      expect(await stranger.page.getByLabel("Password").count()).toBe(0);

      await asker.page.goto(link);
      await expect(asker.page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Choose a new password");
      await expectAccessible(asker.page);
      await asker.page.getByLabel("Password").fill("second password 2");
      await Promise.all([
        leaving(asker.page, "/auth/password/"),
        asker.page.getByRole("button", { name: "Set password and sign in" }).click(),
      ]);
      expect(await signedInAs(asker.page)).toBe(grace.email);

      // Every earlier session ended: the one that signed up and the one signed in with the password.
      expect(await signedInAs(laptop.page)).toBeNull();
      expect(await signedInAs(phone.page)).toBeNull();

      const old = await signInWithPassword(phone.page, origin, grace.email, grace.password);
      expect(old.pathname).toBe("/auth/signin");
      expect(old.searchParams.get("error")).toBe("CredentialsSignin");
      await expect(phone.page.getByRole("alert").textContent()).resolves.toContain("Sign in failed.");
      expect(await signedInAs(phone.page)).toBeNull();
      expect((await signInWithPassword(phone.page, origin, grace.email, "second password 2")).href).toBe(`${origin}/`);
      expect(await signedInAs(phone.page)).toBe(grace.email);

      // Spent: the link does not open a second time, even in the browser that asked.
      expect((await asker.page.goto(link))?.status()).toBe(403);
      for (const t of [laptop, phone, stranger, asker]) expect(t.problems).toEqual([]);
      expectLogged(["CredentialsSignin", "Verification"]);
    },
    BROWSER_TEST_TIMEOUT,
  );

  it(
    "a reset link opened on another device: 'Email me a link for this browser', then the new link resets there",
    async () => {
      const { origin } = app;
      const lin = { name: "Lin Ye", email: "lin@example.com", password: "first password 1" };
      const laptop = await tab();
      await signUpAndConfirm(laptop.page, origin, lin);
      await signOut(laptop.page, origin);
      await laptop.page.goto(`${origin}/auth/password/forgot`);
      let since = smtp.mails.length;
      await laptop.page.getByLabel("Email").fill(lin.email);
      await Promise.all([
        laptop.page.waitForURL(/\/auth\/verify-request\?/),
        laptop.page.getByRole("button", { name: "Email me a link" }).click(),
      ]);
      const first = linkIn(await mailTo(lin.email, since), origin, "/auth/password/reset");

      // The mail is read on the phone: the page says where the link belongs and how to go on here.
      const phone = await tab(true);
      const opened = await phone.page.goto(first);
      expect(opened?.status()).toBe(200);
      expect(await opened?.headerValue("referrer-policy")).toBe("same-origin");
      await expect(phone.page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("This link was asked for in another browser");
      await expect(phone.page.locator("body").textContent()).resolves.toContain("This link is still valid and has not been used.");
      expect(await phone.page.getByLabel("Password").count()).toBe(0);
      await expectAccessible(phone.page);
      since = smtp.mails.length;
      await Promise.all([
        phone.page.waitForURL(/\/auth\/verify-request\?/),
        phone.page.getByRole("button", { name: "Email me a link for this browser" }).click(),
      ]);
      await expect(phone.page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Check your email");
      const second = linkIn(await mailTo(lin.email, since), origin, "/auth/password/reset");
      expect(second).not.toBe(first);

      await phone.page.goto(second);
      await expect(phone.page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Choose a new password");
      await phone.page.getByLabel("Password").fill("second password 2");
      await Promise.all([
        leaving(phone.page, "/auth/password/"),
        phone.page.getByRole("button", { name: "Set password and sign in" }).click(),
      ]);
      expect(await signedInAs(phone.page)).toBe(lin.email);

      // The laptop's link died with the old password.
      expect((await laptop.page.goto(first))?.status()).toBe(403);
      for (const t of [laptop, phone]) expect(t.problems).toEqual([]);
      expectLogged(["Verification"]);
    },
    BROWSER_TEST_TIMEOUT,
  );

  it(
    "change password on the account page: a wrong current password is shown there; the new one signs in, the old one does not",
    async () => {
      const { origin } = app;
      const linus = { name: "Linus", email: "linus@example.com", password: "old password 1" };
      const { page, problems } = await tab();
      await signUpAndConfirm(page, origin, linus);

      await page.goto(`${origin}/auth/account`);
      await page.getByLabel("Current password").fill("not my password");
      await page.getByLabel("New password").fill("new password 2");
      await Promise.all([page.waitForURL(/\/auth\/account\?error=/), page.getByRole("button", { name: "Change password" }).click()]);
      await expect(page.getByRole("alert").textContent()).resolves.toBe("The current password is not right.");
      expect(await signedInAs(page)).toBe(linus.email);

      await page.getByLabel("Current password").fill(linus.password);
      await page.getByLabel("New password").fill("new password 2");
      await Promise.all([page.waitForURL(/\/auth\/account\?done=/), page.getByRole("button", { name: "Change password" }).click()]);
      await expect(page.getByRole("status").textContent()).resolves.toBe("Your password was changed. Your other devices were signed out.");
      expect(await signedInAs(page)).toBe(linus.email);

      const other = await tab();
      expect((await signInWithPassword(other.page, origin, linus.email, linus.password)).searchParams.get("error")).toBe(
        "CredentialsSignin",
      );
      expect((await signInWithPassword(other.page, origin, linus.email, "new password 2")).href).toBe(`${origin}/`);
      expect(await signedInAs(other.page)).toBe(linus.email);
      expect([...problems, ...other.problems]).toEqual([]);
      expectLogged(["IncorrectPassword", "CredentialsSignin"]);
    },
    BROWSER_TEST_TIMEOUT,
  );

  it(
    "a session 30 minutes old changing the address: sent to sign in again, told why, back on the account page where it works",
    async () => {
      const { origin } = app;
      const { page, problems } = await tab(true);
      const owner = { name: "Owner", email: "owner@example.com", password: "owner password 1" };
      await signUpAndConfirm(page, origin, owner);
      // The server's clock moves on: the session is now a copy as good as a stolen one.
      vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 30 * 60_000 });
      try {
        await page.goto(`${origin}/auth/account`);
        await page.getByLabel("New email address").fill("owner.new@example.com");
        await Promise.all([page.waitForURL(/\/auth\/signin\?/), page.getByRole("button", { name: "Send the link" }).click()]);
        const signIn = new URL(page.url());
        expect(signIn.searchParams.get("callbackUrl")).toBe(`${origin}/auth/account`);
        await expect(page.getByRole("alert").textContent()).resolves.toBe(
          "Sign in again to continue: changing how you sign in needs a recent sign-in.",
        );
        await expectAccessible(page);
        // Nothing changed, and the owner is still signed in.
        expect(await signedInAs(page)).toBe(owner.email);
        const form = passwordForm(page);
        await form.getByLabel("Email").fill(owner.email);
        await form.getByLabel("Password").fill(owner.password);
        await Promise.all([page.waitForURL(`${origin}/auth/account`), form.getByRole("button").click()]);
        await page.getByLabel("New email address").fill("owner.new@example.com");
        await Promise.all([
          page.waitForURL(/\/auth\/account\?done=email-sent/),
          page.getByRole("button", { name: "Send the link" }).click(),
        ]);
        await expect(notice(page).textContent()).resolves.toContain("We sent a link to the new address.");
      } finally {
        vi.useRealTimers();
      }
      expect(problems).toEqual([]);
      expectLogged(["RecentSignInRequired"]);
    },
    BROWSER_TEST_TIMEOUT,
  );

  it(
    "links the OP's account on the account page through the OP's login page, lists it, unlinks it",
    async () => {
      const { origin } = app;
      const { page, problems } = await tab();
      await signUpAndConfirm(page, origin, { name: "Linker", email: "linker@example.com", password: "linker password 1" });
      const user = await app.adapter.getUserByEmail?.("linker@example.com");

      await page.goto(`${origin}/auth/account`);
      await page.getByRole("button", { name: "Link Test OP" }).click();
      await signInAtOP(page, origin, "alice");
      expect(page.url()).toBe(`${origin}/auth/account?done=linked`);
      await expect(notice(page).textContent()).resolves.toBe("The account was linked. You can now sign in with it too.");
      expect(await methods(page)).toEqual(expect.arrayContaining(["Password", "Test OP"]));
      expect((await app.adapter.getUserByAccount?.({ provider: "op", providerAccountId: "alice" }))?.id).toBe(user?.id);
      // Still the same person: linking changed neither who is signed in nor their address.
      expect(await signedInAs(page)).toBe("linker@example.com");

      await Promise.all([page.waitForURL(/\/auth\/account\?done=unlinked/), page.getByRole("button", { name: "Unlink Test OP" }).click()]);
      // The last linked account went: the notice says how this user signs in from now on.
      await expect(notice(page).textContent()).resolves.toBe(
        "The account was unlinked. From now on you sign in with your email address and password.",
      );
      expect(await methods(page)).toEqual(["Password"]);
      expect(await page.getByRole("button", { name: "Unlink Test OP" }).count()).toBe(0);
      expect(await app.adapter.getUserByAccount?.({ provider: "op", providerAccountId: "alice" })).toBeNull();
      expect(problems).toEqual([]);
      expectLogged([]);
    },
    BROWSER_TEST_TIMEOUT,
  );

  it(
    "change the email address on the account page: the new address's link, confirmed there; the old address is told and no longer signs in",
    async () => {
      const { origin } = app;
      const grace = { name: "Grace", email: "grace.old@example.com", password: "grace password 1" };
      const { page, problems } = await tab(true);
      await signUpAndConfirm(page, origin, grace);

      await page.goto(`${origin}/auth/account`);
      const since = smtp.mails.length;
      await page.getByLabel("New email address").fill("grace.new@example.com");
      await Promise.all([page.waitForURL(/\/auth\/account\?done=email-sent/), page.getByRole("button", { name: "Send the link" }).click()]);
      await expect(notice(page).textContent()).resolves.toContain("We sent a link to the new address.");
      // Nothing changed before the new address is proven.
      expect(await signedInAs(page)).toBe(grace.email);

      const mail = await mailTo("grace.new@example.com", since);
      expect(mail.subject).toBe(`Confirm your new email address for ${new URL(origin).host}`);
      await page.goto(linkIn(mail, origin, "/auth/account/confirm-email"));
      await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Use this email address");
      await expectAccessible(page);
      await Promise.all([
        page.waitForURL(/\/auth\/account\?done=email-changed/),
        page.getByRole("button", { name: "Use this address" }).click(),
      ]);
      await expect(notice(page).textContent()).resolves.toBe("Your email address was changed.");
      await expect(page.locator("body").textContent()).resolves.toContain("grace.new@example.com");
      expect((await mailTo(grace.email, since)).subject).toBe(`Your email address for ${new URL(origin).host} changed`);

      const other = await tab();
      expect((await signInWithPassword(other.page, origin, grace.email, grace.password)).searchParams.get("error")).toBe(
        "CredentialsSignin",
      );
      expect((await signInWithPassword(other.page, origin, "grace.new@example.com", grace.password)).href).toBe(`${origin}/`);
      expect([...problems, ...other.problems]).toEqual([]);
      expectLogged(["CredentialsSignin"]);
    },
    BROWSER_TEST_TIMEOUT,
  );

  it(
    "add an email address: an OP-only user without one proves an address on the account page",
    async () => {
      const { origin } = app;
      const { page, problems } = await tab();
      await page.goto(`${origin}/auth/signin?callbackUrl=${encodeURIComponent(`${origin}/auth/account`)}`);
      await page.getByRole("button", { name: "Sign in with Test OP" }).click();
      await signInAtOP(page, origin, "dave");
      expect(page.url()).toBe(`${origin}/auth/account`);
      await expect(page.getByRole("heading", { name: "Add an email address" }).count()).resolves.toBe(1);

      const since = smtp.mails.length;
      await page.getByLabel("New email address").fill("dave@example.com");
      await Promise.all([page.waitForURL(/\/auth\/account\?done=email-sent/), page.getByRole("button", { name: "Send the link" }).click()]);
      await page.goto(linkIn(await mailTo("dave@example.com", since), origin, "/auth/account/confirm-email"));
      await Promise.all([
        page.waitForURL(/\/auth\/account\?done=email-changed/),
        page.getByRole("button", { name: "Use this address" }).click(),
      ]);
      expect(await signedInAs(page)).toBe("dave@example.com");
      expect((await app.adapter.getUserByEmail?.("dave@example.com"))?.emailVerified).toBeInstanceOf(Date);
      expect(problems).toEqual([]);
      expectLogged([]);
    },
    BROWSER_TEST_TIMEOUT,
  );

  it(
    "refuses to unlink the last way in: an OP-only user whose address the OP does not vouch for",
    async () => {
      const { origin } = app;
      const { page, problems } = await tab(true);
      await page.goto(`${origin}/auth/signin?callbackUrl=${encodeURIComponent(`${origin}/auth/account`)}`);
      await page.getByRole("button", { name: "Sign in with Test OP" }).click();
      await signInAtOP(page, origin, "carol");
      expect(page.url()).toBe(`${origin}/auth/account`);
      // A new user without the unproven address, and so without a password or an email sign-in.
      expect(await session(page)).toMatchObject({ user: { name: "Carol Unproven" } });
      expect(await signedInAs(page)).toBeNull();
      expect(await app.adapter.getUserByEmail?.("carol@example.com")).toBeNull();
      await expect(page.locator("body").textContent()).resolves.toContain("No email address");
      await expect(page.locator("body").textContent()).resolves.toContain("You sign in without a password.");
      expect(await methods(page)).toEqual(["Test OP"]);

      await Promise.all([page.waitForURL(/\/auth\/account\?error=/), page.getByRole("button", { name: "Unlink Test OP" }).click()]);
      await expect(page.getByRole("alert").textContent()).resolves.toBe(
        "That is your last way to sign in: link another account, add a passkey or set a password first.",
      );
      expect(await methods(page)).toEqual(["Test OP"]);
      expect(await app.adapter.getUserByAccount?.({ provider: "op", providerAccountId: "carol" })).not.toBeNull();
      // The account page with an alert and an OAuth row is accessible too.
      await expectAccessible(page);
      expect(problems).toEqual([]);
      expectLogged(["LastSignInMethod"]);
    },
    BROWSER_TEST_TIMEOUT,
  );
});
