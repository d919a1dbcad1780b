/**
 * Second factors in Debian's Chromium, on the built-in pages of a real Node server (`createAuth`, JWT
 * sessions, the hosted-db adapter on PGlite, a real SMTP server, a real local OpenID Provider):
 * - password sign-in → the `/two-factor` page → a TOTP computed by an independent implementation
 *   (`otpauth`) → a session of level 2; a wrong code is shown on the page; a recovery code works once;
 * - a passkey as the second factor of a password sign-in (Chromium's virtual authenticator), and a passkey
 *   sign-in on its own (no second step, level 2), each an audit row (the two-step one names its second factor);
 * - an OAuth sign-in at the OP ends in the second step too;
 * - linking the OP's account on the account page while TOTP is on is no sign-in: back to the account page
 *   with "linked", the level-2 session as it was (no "Confirm it is you");
 * - axe-core finds no WCAG 2.1 A/AA violation on the second step's page (code form, passkey button, error).
 * TOTP is set up through the settings routes over HTTP, as a page's script would (`fetch` with the CSRF token).
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuth } from "../../src/kernel/instance.js";
import Nodemailer from "../../src/providers/nodemailer.js";
import Passkey from "../../src/providers/passkey.js";
import Password from "../../src/providers/password.js";
import type { AuditEvent } from "../../src/types/telemetry.js";
import {
  addVirtualAuthenticator,
  axeViolations,
  launchChromium,
  openWatchedTab,
  registerPasskey,
  signOutInPage,
  type WatchedTab,
} from "../helpers/chromium.js";
import { closeSharedPglite, freshDatabase, sharedPglite } from "../helpers/database.js";
import { type NodeServer, startNodeServer } from "../helpers/node-server.js";
import { opProvider, startTestOP, type TestOP } from "../helpers/oidc-provider.js";
import { startSmtpServer } from "../helpers/smtp.js";
import { codeOf, PASSWORD } from "./helpers.js";

const TIMEOUT = 60_000;
let browser: Browser;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let server: NodeServer;
let op: TestOP;
const tabs: WatchedTab[] = [];
const auditRows: AuditEvent[] = [];

const homePage = () =>
  new Response('<!doctype html><html lang="en"><meta charset="utf-8"><title>Home</title><h1>Home</h1></html>', {
    headers: { "content-type": "text/html; charset=utf-8" },
  });

beforeAll(async () => {
  [browser, smtp] = await Promise.all([launchChromium(), startSmtpServer(), sharedPglite().waitReady]);
  const { adapter } = await freshDatabase();
  let handler: ((request: Request, clientAddress?: string) => Promise<Response>) | undefined;
  server = await startNodeServer(
    (request, { remoteAddress }) => (handler ? handler(request, remoteAddress) : new Response("Starting", { status: 503 })),
    { fallback: homePage },
  );
  op = await startTestOP({
    clients: [{ client_id: "app", client_secret: "app-secret", redirect_uris: [`${server.origin}/auth/callback/op`] }],
  });
  const auth = createAuth({
    secret: "two-factor-browser-secret-0123456789abcdef",
    trustHost: true,
    adapter,
    session: { strategy: "jwt" },
    experimental: { enableWebAuthn: true },
    providers: [
      Nodemailer({ server: smtp.transport, from: "Demo <no-reply@demo.test>" }),
      Password(),
      // Conditional UI off: Chrome's virtual authenticator would answer its autofill request at once.
      Passkey({ enableConditionalUI: false }),
      opProvider(op),
    ],
    twoFactor: { passkeys: true },
    audit: { store: { write: (event) => void auditRows.push(event) } },
    callbacks: { session: ({ session }) => session },
  });
  handler = (request, clientAddress) => auth.handler(request, { clientAddress });
}, TIMEOUT);

afterAll(async () => {
  for (const tab of tabs) await tab.context.close();
  await browser?.close();
  await server?.close();
  await op?.close();
  await smtp?.close();
  await closeSharedPglite();
});

async function tab(axe = false): Promise<WatchedTab> {
  const opened = await openWatchedTab(browser, axe);
  tabs.push(opened);
  return opened;
}

type Assured = { user?: { email?: string | null }; aal?: number; amr?: string[]; authTime?: number } | null;

function session(page: Page): Promise<Assured> {
  return page.evaluate(async () => (await fetch("/auth/session", { cache: "no-store" })).json());
}

/** Calls a second-factor settings route from the page, as its script would: JSON with the CSRF token. */
function settings(page: Page, name: string, body: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  return page.evaluate(
    async ({ name, body }) => {
      const { csrfToken } = await (await fetch("/auth/csrf")).json();
      const response = await fetch(`/auth/two-factor/${name}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ ...body, csrfToken }),
      });
      return { status: response.status, body: await response.json() };
    },
    { name, body },
  );
}

/** Signs up with a password on the built-in pages and confirms the address from the mail: signed in. */
async function signUp(page: Page, email: string): Promise<void> {
  const since = smtp.mails.length;
  await page.goto(`${server.origin}/auth/password/sign-up`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await Promise.all([page.waitForURL(/\/auth\/verify-request\?/), page.getByRole("button", { name: "Create account" }).click()]);
  const mail = await smtp.nextMail(since);
  const link = mail.text?.match(new RegExp(`${server.origin}/auth/password/verify\\?\\S+`))?.[0] as string;
  await page.goto(link);
  await Promise.all([
    page.waitForURL((url) => !url.pathname.startsWith("/auth/password/")),
    page.getByRole("button", { name: "Confirm email address" }).click(),
  ]);
}

/** Turns TOTP on for the page's signed-in user: the secret and the recovery codes. */
async function turnOnTotp(page: Page): Promise<{ secret: string; recoveryCodes: string[] }> {
  const enrolled = await settings(page, "enroll");
  expect(enrolled.status).toBe(200);
  const secret = enrolled.body.secret as string;
  const confirmed = await settings(page, "confirm", { code: codeOf(secret) });
  expect(confirmed.status).toBe(200);
  return { secret, recoveryCodes: confirmed.body.recoveryCodes as string[] };
}

/** Signs in with the password on the built-in sign-in page; waits for the second step's page. */
async function passwordThenSecondStep(page: Page, email: string): Promise<void> {
  await page.goto(`${server.origin}/auth/signin?callbackUrl=${encodeURIComponent(`${server.origin}/`)}`);
  const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Sign in with Password" }) });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Password").fill(PASSWORD);
  await Promise.all([
    page.waitForURL(`${server.origin}/auth/two-factor`),
    form.getByRole("button", { name: "Sign in with Password" }).click(),
  ]);
  await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Confirm it is you");
  expect(await session(page)).toBeNull();
}

/** Types `code` on the second step's page and continues. */
async function typeCode(page: Page, code: string, to: string | RegExp): Promise<void> {
  await page.getByLabel("Code from your authenticator app").fill(code);
  await Promise.all([page.waitForURL(to), page.getByRole("button", { name: "Continue" }).click()]);
}

describe("second factors in Chromium", () => {
  it(
    "password → TOTP from another implementation → level 2; a wrong code is said on the page; a recovery code works once",
    async () => {
      const { page, problems } = await tab(true);
      await signUp(page, "ada@example.com");
      const { secret, recoveryCodes } = await turnOnTotp(page);
      await signOutInPage(page, server.origin);

      await passwordThenSecondStep(page, "ada@example.com");
      expect(await axeViolations(page)).toEqual([]);
      const wrong = codeOf(secret, 3) === "123456" ? "654321" : "123456";
      await typeCode(page, wrong, `${server.origin}/auth/two-factor?error=IncorrectCode`);
      await expect(page.getByRole("alert").textContent()).resolves.toContain("That code did not work");
      expect(await axeViolations(page)).toEqual([]);
      await typeCode(page, codeOf(secret, 1), `${server.origin}/`);
      const signedIn = await session(page);
      expect([signedIn?.user?.email, signedIn?.aal, signedIn?.amr]).toEqual(["ada@example.com", 2, ["pwd", "otp"]]);

      await signOutInPage(page, server.origin);
      await passwordThenSecondStep(page, "ada@example.com");
      await typeCode(page, recoveryCodes[0] as string, `${server.origin}/`);
      expect((await session(page))?.amr).toEqual(["pwd", "recovery"]);

      await signOutInPage(page, server.origin);
      await passwordThenSecondStep(page, "ada@example.com");
      await typeCode(page, recoveryCodes[0] as string, `${server.origin}/auth/two-factor?error=IncorrectCode`);
      expect(await session(page)).toBeNull();
      expect(problems).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    "a passkey is the second factor of a password sign-in; alone, a passkey signs in at level 2",
    async () => {
      const { context, page, problems } = await tab(true);
      await addVirtualAuthenticator(context, page);
      await signUp(page, "bob@example.com");
      await registerPasskey(page, server.origin, "Bob");
      await signOutInPage(page, server.origin);

      await passwordThenSecondStep(page, "bob@example.com");
      // No authenticator app: only the passkey button.
      expect(await page.getByLabel("Code from your authenticator app").count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      await Promise.all([page.waitForURL(`${server.origin}/`), page.getByRole("button", { name: "Use a passkey" }).click()]);
      const signedIn = await session(page);
      expect([signedIn?.user?.email, signedIn?.aal, signedIn?.amr]).toEqual(["bob@example.com", 2, ["pwd", "hwk"]]);

      await signOutInPage(page, server.origin);
      await page.goto(`${server.origin}/auth/signin`);
      await Promise.all([page.waitForURL(`${server.origin}/`), page.getByRole("button", { name: "Sign in with Passkey" }).click()]);
      const passkeyOnly = await session(page);
      expect([passkeyOnly?.user?.email, passkeyOnly?.aal, passkeyOnly?.amr]).toEqual(["bob@example.com", 2, ["hwk"]]);
      // The audit trail: the two-step sign-in names its second factor; the passkey alone is one step.
      const signIns = () => auditRows.filter((row) => row.type === "signIn").map((row) => [row.provider, row.detail]);
      await expect
        .poll(() => signIns().slice(-2))
        .toEqual([
          ["password", "hwk"],
          ["passkey", null],
        ]);
      expect(problems).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    "an OAuth sign-in at the OP ends in the second step too",
    async () => {
      const { page, problems } = await tab();
      await page.goto(`${server.origin}/auth/signin?callbackUrl=${encodeURIComponent(`${server.origin}/`)}`);
      const opButton = page.getByRole("button", { name: "Sign in with Test OP" });
      await opButton.click();
      await page.waitForURL((url) => url.pathname.startsWith("/interaction/"));
      await page.getByLabel("Account").fill("alice");
      await Promise.all([page.waitForURL(`${server.origin}/`), page.getByRole("button", { name: "Sign in", exact: true }).click()]);
      const { secret } = await turnOnTotp(page);
      await signOutInPage(page, server.origin);

      // The OP remembers alice: it answers at once, and authlib holds the sign-in for its second step.
      await page.goto(`${server.origin}/auth/signin?callbackUrl=${encodeURIComponent(`${server.origin}/`)}`);
      await Promise.all([page.waitForURL(`${server.origin}/auth/two-factor`), opButton.click()]);
      expect(await session(page)).toBeNull();
      await typeCode(page, codeOf(secret, 1), `${server.origin}/`);
      expect((await session(page))?.amr).toEqual(["fed", "otp"]);
      expect(problems).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    "linking the OP's account on the account page while TOTP is on: back to the account page with 'linked', the session as it was",
    async () => {
      const { page, problems } = await tab();
      await signUp(page, "cara@example.com");
      const { secret } = await turnOnTotp(page);
      await signOutInPage(page, server.origin);
      await passwordThenSecondStep(page, "cara@example.com");
      await typeCode(page, codeOf(secret, 1), `${server.origin}/`);
      const before = await session(page);
      expect([before?.user?.email, before?.aal, before?.amr]).toEqual(["cara@example.com", 2, ["pwd", "otp"]]);
      // A session started anew would have a later authTime.
      await new Promise((resolve) => setTimeout(resolve, 1100));

      await page.goto(`${server.origin}/auth/account`);
      await page.getByRole("button", { name: "Link Test OP" }).click();
      await page.waitForURL((url) => url.pathname.startsWith("/interaction/"));
      await page.getByLabel("Account").fill("bob");
      await Promise.all([
        page.waitForURL(`${server.origin}/auth/account?done=linked`),
        page.getByRole("button", { name: "Sign in", exact: true }).click(),
      ]);
      await expect(page.locator(".notice").textContent()).resolves.toBe("The account was linked. You can now sign in with it too.");
      await expect(page.locator("ul.methods li span").allTextContents()).resolves.toEqual(expect.arrayContaining(["Password", "Test OP"]));
      expect(await session(page)).toEqual(before);
      expect(problems).toEqual([]);
    },
    TIMEOUT,
  );
});
