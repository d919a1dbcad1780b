/**
 * Organizations on the built-in pages in Debian's Chromium: a real Node server running `createAuth` with
 * Nodemailer (a real SMTP server whose mails are parsed and whose links are opened) and Password(), on the
 * in-memory adapter with the organization methods of `memory-organizations.ts` (the hosted-db adapter has
 * no organizations on this branch yet).
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
import { afterAll, beforeAll, expect, it } from "vitest";
import { createAuth } from "../../src/kernel/instance.js";
import Nodemailer from "../../src/providers/nodemailer.js";
import Password from "../../src/providers/password.js";
import type { AuthConfig } from "../../src/types/config.js";
import { axeViolations, launchChromium, openWatchedTab, pageSession } from "../helpers/chromium.js";
import { memoryAdapter, withVerificationTokens } from "../helpers/memory-adapter.js";
import { memoryOrganizations } from "../helpers/memory-organizations.js";
import { type NodeServer, startNodeServer } from "../helpers/node-server.js";
import { startSmtpServer } from "../helpers/smtp.js";

/** Many browser round trips on a busy 2-core machine. */
const TEST_TIMEOUT = 180_000;

let browser: Browser;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let server: NodeServer;

const homePage = () =>
  new Response('<!doctype html><html lang="en"><meta charset="utf-8"><title>Home</title><h1>Home</h1></html>', {
    headers: { "content-type": "text/html; charset=utf-8" },
  });

beforeAll(async () => {
  [browser, smtp] = await Promise.all([launchChromium(), startSmtpServer()]);
  const memory = memoryAdapter({ sessionRecords: true });
  const config: AuthConfig = {
    secret: "organizations-browser-secret-0123456789abcdef",
    trustHost: true,
    adapter: { ...withVerificationTokens(memory.adapter), ...memoryOrganizations().methods },
    providers: [Nodemailer({ server: smtp.transport, from: "Demo <no-reply@demo.test>" }), Password()],
    organizations: { resolveTxt: async () => [] },
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
  };
  const auth = createAuth(config);
  server = await startNodeServer((request, { remoteAddress }) => auth.handler(request, { clientAddress: remoteAddress }), {
    fallback: homePage,
  });
});

afterAll(async () => {
  await browser?.close();
  await smtp?.close();
  await server?.close();
});

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

function linkIn(mail: ParsedMail, path: string): string {
  const link = mail.text?.match(new RegExp(`${server.origin}${path}\\?\\S+`))?.[0];
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
async function confirmFromMail(page: Page, email: string, since: number): Promise<void> {
  await page.goto(linkIn(await mailTo(email, since), "/auth/password/verify"));
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

it(
  "an owner creates an organization, invites by mail, changes the role, removes the member; the switcher moves between two",
  async () => {
    const origin = server.origin;
    const owner = await openWatchedTab(browser, true);
    const member = await openWatchedTab(browser);
    const visitor = await openWatchedTab(browser, true);

    // The owner signs up, and creates an organization on the organization page.
    let since = smtp.mails.length;
    await owner.page.goto(`${origin}/auth/password/sign-up`);
    await signUpHere(owner.page, { name: "Ada", email: "ada@example.com" });
    await confirmFromMail(owner.page, "ada@example.com", since);
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
    const link = linkIn(invitation, "/auth/organization/invitation");

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
    await confirmFromMail(member.page, "bob@example.com", since);
    expect(member.page.url()).toBe(link);
    await Promise.all([member.page.waitForURL(/done=joined/), member.page.getByRole("button", { name: "Accept the invitation" }).click()]);
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
    await Promise.all([owner.context.close(), member.context.close(), visitor.context.close()]);
  },
  TEST_TIMEOUT,
);
