/**
 * Organizations on the built-in pages in Debian's Chromium (issue 46's acceptance): a real Node server
 * running `createAuth` with Nodemailer (a real SMTP server whose mails are parsed and whose links are
 * opened) and Password(), on the hosted-db adapter (its organization methods, migration 7) — once on a
 * fresh branch of the file's PGlite with JWT sessions, and once on a fresh schema of the PostgreSQL server
 * with database sessions (dropped afterwards; skipped, saying why, when the server does not answer).
 * Chromium, the SMTP server and PGlite are shared by the file; each row has its own server and database.
 *
 * The owner signs up and creates an organization on its page; invites a second person, whose mail's link
 * opens the invitation page signed out; that person creates an account from it (the address filled in),
 * confirms it from the sign-up mail, lands back on the invitation and accepts; the owner makes them an
 * admin, then removes them, and the removed member's open page is refused on its next request. The
 * switcher moves the session's active organization between two organizations. axe-core finds no WCAG 2.1
 * A/AA violation on the organization page and the invitation page; the member's context keeps the pages'
 * CSP and reports no violation of it and no script error.
 */
import type { ParsedMail } from "mailparser";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HostedDbAdapter, HostedDbClient } from "../../../hosted-db-adapter/src/index.js";
import { dropBranch, postgresAnswers, randomBranch, testDatabaseURL } from "../../../hosted-db-adapter/test/helpers.js";
import { createAuth } from "../../src/kernel/instance.js";
import Nodemailer from "../../src/providers/nodemailer.js";
import Password from "../../src/providers/password.js";
import type { Adapter } from "../../src/types/adapters.js";
import type { AuthConfig, SessionStrategy } from "../../src/types/config.js";
import { axeViolations, launchChromium, openWatchedTab, pageSession } from "../helpers/chromium.js";
import { closeSharedPglite, freshDatabase, sharedPglite } from "../helpers/database.js";
import { type NodeServer, startNodeServer } from "../helpers/node-server.js";
import { startSmtpServer } from "../helpers/smtp.js";

/** Many browser round trips on a busy 2-core machine. */
const TEST_TIMEOUT = 180_000;

/** A database the app runs on, and how to release it. */
interface Database {
  adapter: Adapter;
  close(): Promise<void>;
}

/** One run of the flow: a database and the session strategy to use on it. */
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
  const branch = randomBranch("organizations_browser");
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

const postgres = await postgresAnswers(testDatabaseURL(), "the organizations browser test on PostgreSQL");

const rows: DatabaseRow[] = [
  { name: "PGlite, JWT sessions", strategy: "jwt", available: true, open: pgliteDatabase },
  { name: "PostgreSQL, database sessions", strategy: "database", available: postgres, open: postgresDatabase },
];

let browser: Browser;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

beforeAll(async () => {
  // Cold starts belong to the hook, not to the tests' time budget.
  [browser, smtp] = await Promise.all([launchChromium(), startSmtpServer(), sharedPglite().waitReady]);
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

/** The app of one row: its server on its database, and the errors the instance logged (none expected). */
interface App {
  origin: string;
  loggedErrors: string[];
  close(): Promise<void>;
}

async function startApp(row: DatabaseRow): Promise<App> {
  const database = await row.open();
  const loggedErrors: string[] = [];
  const config: AuthConfig = {
    secret: "organizations-browser-secret-0123456789abcdef",
    trustHost: true,
    adapter: database.adapter,
    session: { strategy: row.strategy },
    providers: [Nodemailer({ server: smtp.transport, from: "Demo <no-reply@demo.test>" }), Password()],
    organizations: { resolveTxt: async () => [] },
    logger: { error: (error) => void loggedErrors.push(`${error.name}: ${error.message}`), warn: () => {}, debug: () => {} },
  };
  const auth = createAuth(config);
  const server: NodeServer = await startNodeServer(
    (request, { remoteAddress }) => auth.handler(request, { clientAddress: remoteAddress }),
    { fallback: homePage },
  );
  return {
    origin: server.origin,
    loggedErrors,
    close: async () => {
      await server.close();
      await database.close();
    },
  };
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

function linkIn(mail: ParsedMail, origin: string, path: string): string {
  const link = mail.text?.match(new RegExp(`${origin}${path}\\?\\S+`))?.[0];
  if (!link) throw new Error(`No ${path} link in: ${mail.text}`);
  return link;
}

async function expectAccessible(page: Page): Promise<void> {
  expect(await axeViolations(page), `axe on ${new URL(page.url()).pathname}`).toEqual([]);
}

/** The session's active organization, as the page's own script reads it. */
async function activeOrganization(page: Page): Promise<string | undefined> {
  return ((await pageSession(page)) as { activeOrganizationId?: string } | null)?.activeOrganizationId;
}

const heading = (page: Page) => page.getByRole("heading", { level: 1 }).textContent();

/** Fills and sends the sign-up form the page shows (the address is filled in when the page came with one). */
async function signUpHere(page: Page, person: { name: string; email: string }): Promise<void> {
  await page.getByLabel("Name", { exact: true }).fill(person.name);
  await page.getByLabel("Email").fill(person.email);
  await page.getByLabel("Password").fill("a long password 1234");
  await Promise.all([page.waitForURL(/\/auth\/verify-request\?/), page.getByRole("button", { name: "Create account" }).click()]);
}

/** Opens the sign-up mail's link in `page` and confirms: signed in there, sent to where the sign-up was to lead. */
async function confirmFromMail(page: Page, origin: string, email: string, since: number): Promise<void> {
  await page.goto(linkIn(await mailTo(email, since), origin, "/auth/password/verify"));
  await Promise.all([
    page.waitForURL((url) => !url.pathname.startsWith("/auth/password/")),
    page.getByRole("button", { name: "Confirm email address" }).click(),
  ]);
}

/** Sends the form of the button named `name` and waits for the page it comes back to (`?done=` or `?error=`). */
async function press(page: Page, name: string): Promise<URL> {
  await Promise.all([page.waitForURL(/[?&](done|error)=/), page.getByRole("button", { name, exact: true }).click()]);
  return new URL(page.url());
}

describe.each(rows.filter((row) => row.available))("organizations in Chromium on $name", (row) => {
  let app: App;

  beforeAll(async () => {
    app = await startApp(row);
  });

  afterAll(async () => {
    await app?.close();
  });

  it(
    "an owner creates an organization, invites by mail, changes the role, removes the member; the switcher moves between two",
    async () => {
      const { origin } = app;
      const owner = await openWatchedTab(browser, true);
      const member = await openWatchedTab(browser);
      const visitor = await openWatchedTab(browser, true);

      // The owner signs up, and creates an organization on the organization page.
      let since = smtp.mails.length;
      await owner.page.goto(`${origin}/auth/password/sign-up`);
      await signUpHere(owner.page, { name: "Ada", email: "ada@example.com" });
      await confirmFromMail(owner.page, origin, "ada@example.com", since);
      await owner.page.goto(`${origin}/auth/organization`);
      await owner.page.getByLabel("Name", { exact: true }).fill("Acme");
      await owner.page.getByLabel("Short name").fill("acme");
      const created = await press(owner.page, "Create the organization");
      expect(created.searchParams.get("done")).toBe("created");
      const acme = created.searchParams.get("organizationId") as string;
      expect(await heading(owner.page)).toBe("Acme");
      await owner.page.getByText("Your role: Owner").waitFor();

      // The invitation: mailed through the SMTP server.
      since = smtp.mails.length;
      await owner.page.getByLabel("Email address").fill("bob@example.com");
      expect((await press(owner.page, "Send the invitation")).searchParams.get("done")).toBe("invited");
      await expectAccessible(owner.page);
      const invitation = await mailTo("bob@example.com", since);
      expect(invitation.subject).toContain("Acme");
      const link = linkIn(invitation, origin, "/auth/organization/invitation");

      // Signed out, the page shows the invitation and accepts nothing; axe on it.
      await visitor.page.goto(link);
      expect(await heading(visitor.page)).toBe("Invitation");
      await expectAccessible(visitor.page);

      // Bob: the link, "Create an account" (his address filled in), the sign-up mail, back on the invitation, accept.
      await member.page.goto(link);
      await Promise.all([
        member.page.waitForURL(/\/auth\/password\/sign-up\?/),
        member.page.getByRole("link", { name: "Create an account" }).click(),
      ]);
      expect(await member.page.getByLabel("Email").inputValue()).toBe("bob@example.com");
      since = smtp.mails.length;
      await signUpHere(member.page, { name: "Bob", email: "bob@example.com" });
      await confirmFromMail(member.page, origin, "bob@example.com", since);
      expect(member.page.url()).toBe(link);
      await Promise.all([
        member.page.waitForURL(/done=joined/),
        member.page.getByRole("button", { name: "Accept the invitation" }).click(),
      ]);
      expect(await heading(member.page)).toBe("Acme");
      await member.page.getByText("Your role: Member").waitFor();

      // The owner makes Bob an admin, then removes him.
      await owner.page.goto(`${origin}/auth/organization?organizationId=${acme}`);
      await owner.page.getByLabel("Role of Bob").selectOption("admin");
      expect((await press(owner.page, "Change the role")).searchParams.get("done")).toBe("roleChanged");
      await member.page.reload();
      await member.page.getByText("Your role: Administrator").waitFor();
      expect((await press(owner.page, "Remove Bob")).searchParams.get("done")).toBe("removed");

      // Bob's open page, on its next request: not his organization any more.
      const refused = await member.page.goto(`${origin}/auth/organization?organizationId=${acme}`);
      expect(refused?.status()).toBe(404);
      expect(await member.page.getByRole("alert").textContent()).toContain("no longer one of its members");

      // A second organization, and the switcher between the two.
      await owner.page.getByLabel("Name", { exact: true }).fill("Globex");
      await owner.page.getByLabel("Short name").fill("globex");
      const globex = (await press(owner.page, "Create the organization")).searchParams.get("organizationId");
      expect((await press(owner.page, "Make active: Acme")).searchParams.get("done")).toBe("active");
      expect(await heading(owner.page)).toBe("Acme");
      expect(await activeOrganization(owner.page)).toBe(acme);
      await press(owner.page, "Make active: Globex");
      expect(await heading(owner.page)).toBe("Globex");
      expect(await activeOrganization(owner.page)).toBe(globex);
      await owner.page.goto(`${origin}/auth/organization`);
      expect(await heading(owner.page)).toBe("Globex");
      await expectAccessible(owner.page);

      expect(member.problems).toEqual([]);
      expect(app.loggedErrors).toEqual([]);
      await Promise.all([owner.context.close(), member.context.close(), visitor.context.close()]);
    },
    TEST_TIMEOUT,
  );
});
