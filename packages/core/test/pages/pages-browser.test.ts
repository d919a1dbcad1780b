/**
 * Every built-in page a signed-out visitor can reach, in Debian's Chromium, light and dark, on 320 and
 * 390 px phones and a 1280 px screen: axe-core finds no WCAG 2.1 A/AA violation, and no page scrolls
 * sideways.
 * The pages come from a real Node server running `createAuth` with email sign-in (Nodemailer on a real
 * SMTP server), credentials, `Password()` and passkeys, on PGlite.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Credentials from "../../src/providers/credentials.js";
import Nodemailer from "../../src/providers/nodemailer.js";
import Passkey from "../../src/providers/passkey.js";
import Password from "../../src/providers/password.js";
import { axeViolations } from "../helpers/chromium.js";
import { type PagesApp, startPagesApp } from "../helpers/pages-app.js";

const BROWSER_TEST_TIMEOUT = 120_000;
let app: PagesApp;

beforeAll(async () => {
  app = await startPagesApp((smtp) => ({
    secret: "pages-browser-secret-0123456789abcdef0123",
    experimental: { enableWebAuthn: true },
    providers: [
      Nodemailer({ server: smtp.transport, from: "Demo <no-reply@demo.test>" }),
      Credentials({
        name: "Company account",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        authorize: () => null,
      }),
      Password(),
      Passkey(),
    ],
    logger: { error: () => {}, warn: () => {} },
  }));
});

afterAll(() => app?.close());

/** Asks for a sign-in mail in `page` (so its verify-request page has the code form); the mail's link. */
async function askForMail(page: Page): Promise<string> {
  const before = app.smtp.mails.length;
  await page.goto(`${app.server.origin}/auth/signin`);
  const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Sign in with Email" }) });
  // An address per run: the mail limit (5 per address per window) would refuse the sixth.
  await form.getByLabel("Email").fill(`pages-${crypto.randomUUID()}@example.com`);
  await Promise.all([page.waitForURL(/\/auth\/verify-request\?/), form.getByRole("button").click()]);
  const link = (await app.smtp.nextMail(before)).text?.match(/http:\/\/\S+\/auth\/callback\/nodemailer\?\S+/)?.[0];
  if (!link) throw new Error("no link in the mail");
  return link;
}

describe.each(["light", "dark"] as const)("the built-in pages, %s", (colorScheme) => {
  it.each([320, 390, 1280])(
    "at %i px: no WCAG 2.1 A/AA violation, no sideways scroll",
    async (width) => {
      const context = await app.browser.newContext({ colorScheme, viewport: { width, height: 800 }, bypassCSP: true });
      context.setDefaultTimeout(10_000);
      try {
        const page = await context.newPage();
        const link = await askForMail(page);
        const pages = [
          "/auth/signin",
          "/auth/signin?error=CredentialsSignin",
          "/auth/signin?error=EmailSignInError&code=invalid-address",
          "/auth/signout",
          "/auth/error?error=Verification",
          "/auth/error?error=Configuration",
          "/auth/verify-request?provider=nodemailer&type=email",
          "/auth/verify-request?provider=nodemailer&type=email&error=IncorrectCode",
          "/auth/password/sign-up",
          "/auth/password/sign-up?error=InvalidPassword&code=too-short",
          "/auth/password/forgot",
        ];
        const found: Record<string, unknown> = {};
        const visit = async (name: string, url: string) => {
          await page.goto(url);
          const violations = await axeViolations(page);
          const overflow = (await page.evaluate(() => document.documentElement.scrollWidth)) - width;
          if (violations.length > 0 || overflow > 0) found[name] = { violations, overflow };
        };
        for (const path of pages) await visit(path, `${app.server.origin}${path}`);
        // The code form is there (this browser asked), and the link's confirmation page (another browser's view).
        await page.goto(`${app.server.origin}/auth/verify-request?provider=nodemailer&type=email`);
        expect(await page.getByLabel("Code from the email").count()).toBe(1);
        const other = await app.browser.newContext({ colorScheme, viewport: { width, height: 800 }, bypassCSP: true });
        try {
          const otherPage = await other.newPage();
          await otherPage.goto(link);
          const violations = await axeViolations(otherPage);
          const overflow = (await otherPage.evaluate(() => document.documentElement.scrollWidth)) - width;
          if (violations.length > 0 || overflow > 0) found["the link's confirmation page"] = { violations, overflow };
        } finally {
          await other.close();
        }
        expect(found).toEqual({});
      } finally {
        await context.close();
      }
    },
    BROWSER_TEST_TIMEOUT,
  );
});
