/**
 * Email sign-in in Debian's Chromium, on the built-in pages of a real Node server (`createAuth` with
 * Nodemailer, a real SMTP server, PGlite): the code typed on the verify-request page (a wrong one first),
 * and the link opened in another browser (its confirmation page, then signed in there). axe-core checks
 * the verify-request page with its code form and the confirmation page; no page may report a CSP
 * violation or a script error (contexts that run axe bypass the CSP for its script).
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuthError } from "../../src/errors.js";
import Nodemailer from "../../src/providers/nodemailer.js";
import { axeViolations, openWatchedTab, pageSession } from "../helpers/chromium.js";
import { type PagesApp, startPagesApp } from "../helpers/pages-app.js";

const BROWSER_TEST_TIMEOUT = 60_000;
const loggedErrors: string[] = [];
let app: PagesApp;

beforeAll(async () => {
  app = await startPagesApp((smtp) => ({
    secret: "email-code-browser-secret-0123456789abcdef",
    providers: [Nodemailer({ server: smtp.transport, from: "Demo <no-reply@demo.test>" })],
    // `loggedErrors`: every failure logged, at its level (a wrong code is a user's: debug).
    debug: true,
    logger: {
      error: (error) => void loggedErrors.push(error instanceof AuthError ? error.type : error.name),
      warn: () => {},
      debug: (_line, metadata) => {
        const type = (metadata as { type?: string } | undefined)?.type;
        if (type) loggedErrors.push(type);
      },
    },
  }));
});

afterAll(() => app?.close());

const openTab = (axe = false) => openWatchedTab(app.browser, axe);

async function signedInAs(page: Page): Promise<string | null> {
  return (await pageSession(page))?.user?.email ?? null;
}

/** Asks for a sign-in mail on the built-in sign-in page; the mail's link and code. */
async function askForMail(page: Page, email: string): Promise<{ link: string; code: string }> {
  const since = app.smtp.mails.length;
  await page.goto(`${app.server.origin}/auth/signin`);
  await page.getByLabel("Email", { exact: true }).fill(email);
  await Promise.all([page.waitForURL(/\/auth\/verify-request\?/), page.getByRole("button", { name: /^Sign in with / }).click()]);
  const text = (await app.smtp.nextMail(since)).text ?? "";
  const link = text.match(new RegExp(`${app.server.origin}/auth/callback/nodemailer\\?\\S+`))?.[0];
  const code = text.match(/asked to sign in: (\d{6})/)?.[1];
  if (!link || !code) throw new Error(`no link or code in: ${text}`);
  return { link, code };
}

describe("email sign-in in Chromium", () => {
  it(
    "the code typed on the verify-request page signs in (after a wrong one, said on the page)",
    async () => {
      const { context, page, problems } = await openTab(true);
      try {
        const { code } = await askForMail(page, "chromium-code@example.com");
        await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Check your email");
        expect(await axeViolations(page)).toEqual([]);
        const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0");
        await page.getByLabel("Code from the email").fill(wrong);
        await Promise.all([page.waitForURL(/error=IncorrectCode/), page.getByRole("button", { name: "Sign in" }).click()]);
        await expect(page.getByRole("alert").textContent()).resolves.toContain("That is not the code in the email.");
        expect(await axeViolations(page)).toEqual([]);
        await page.getByLabel("Code from the email").fill(code);
        await Promise.all([page.waitForURL(`${app.server.origin}/`), page.getByRole("button", { name: "Sign in" }).click()]);
        expect(await signedInAs(page)).toBe("chromium-code@example.com");
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    },
    BROWSER_TEST_TIMEOUT,
  );

  it(
    "the link opened in another browser: its confirmation page, then signed in there only",
    async () => {
      const asking = await openTab();
      const other = await openTab(true);
      try {
        const { link } = await askForMail(asking.page, "chromium-link@example.com");
        await other.page.goto(link);
        await expect(other.page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe(
          `Sign in to ${new URL(app.server.origin).host}`,
        );
        await expect(other.page.locator("main").textContent()).resolves.toContain("chromium-link@example.com");
        expect(await axeViolations(other.page)).toEqual([]);
        expect(await signedInAs(other.page)).toBeNull();
        await Promise.all([other.page.waitForURL(`${app.server.origin}/`), other.page.getByRole("button", { name: "Sign in" }).click()]);
        expect(await signedInAs(other.page)).toBe("chromium-link@example.com");
        expect(await signedInAs(asking.page)).toBeNull();
        expect([...asking.problems, ...other.problems]).toEqual([]);
        expect(loggedErrors).toEqual(["IncorrectCode"]);
      } finally {
        await asking.context.close();
        await other.context.close();
      }
    },
    BROWSER_TEST_TIMEOUT,
  );
});
