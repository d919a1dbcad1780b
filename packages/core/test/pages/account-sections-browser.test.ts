/**
 * The account page's new sections and states of issue 50 in Debian's Chromium, light and dark, at 390 and
 * 1280 px: the second factor turned on (the QR code and key, the recovery codes shown once, on, a refused
 * code), the delete section, the page after a deletion, and the sign-in page with a form's own error.
 * axe-core finds no WCAG 2.1 A/AA violation (none serious, none at all) and no page scrolls sideways.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { base32Decode } from "../../src/features/two-factor/base32.js";
import { totpAt } from "../../src/features/two-factor/totp.js";
import Nodemailer from "../../src/providers/nodemailer.js";
import Password from "../../src/providers/password.js";
import { axeViolations } from "../helpers/chromium.js";
import { type PagesApp, startPagesApp } from "../helpers/pages-app.js";

const BROWSER_TEST_TIMEOUT = 180_000;
let app: PagesApp;

beforeAll(async () => {
  app = await startPagesApp((smtp) => ({
    secret: "account-sections-secret-0123456789abcdef0123",
    providers: [Nodemailer({ server: smtp.transport, from: "Demo <no-reply@demo.test>" }), Password({ name: "Email and password" })],
    twoFactor: { issuer: "Pages test" },
    logger: { error: () => {}, warn: () => {} },
  }));
});

afterAll(() => app?.close());

async function signIn(page: Page): Promise<void> {
  const before = app.smtp.mails.length;
  await page.goto(`${app.server.origin}/auth/signin`);
  const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Sign in with Email", exact: true }) });
  await form.locator('input[type="email"]').fill(`sections-${crypto.randomUUID()}@example.com`);
  await Promise.all([page.waitForURL(/\/auth\/verify-request\?/), form.getByRole("button").click()]);
  const link = (await app.smtp.nextMail(before)).text?.match(/http:\/\/\S+\/auth\/callback\/nodemailer\?\S+/)?.[0];
  if (!link) throw new Error("no link in the mail");
  await page.goto(link);
  await page.waitForURL((url) => !url.pathname.startsWith("/auth/callback"));
}

/** The page as it is now, at each width: axe violations and sideways overflow (empty when all is well). */
async function check(page: Page, label: string, found: Record<string, unknown>): Promise<void> {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    const violations = await axeViolations(page);
    const overflow = (await page.evaluate(() => document.documentElement.scrollWidth)) - width;
    if (violations.length > 0 || overflow > 0) found[`${label} at ${width}`] = { violations, overflow };
  }
}

describe.each(["light", "dark"] as const)("the account page's new sections, %s", (colorScheme) => {
  it(
    "second factor on and off, recovery codes, a refused code, deletion: no violation, no sideways scroll",
    async () => {
      const context = await app.browser.newContext({
        colorScheme,
        locale: "en-US",
        viewport: { width: 1280, height: 800 },
        bypassCSP: true,
      });
      context.setDefaultTimeout(10_000);
      const found: Record<string, unknown> = {};
      try {
        const page = await context.newPage();
        await signIn(page);
        await page.goto(`${app.server.origin}/auth/account`);
        await check(page, "off", found);

        await Promise.all([
          page.waitForURL(/two-factor-enroll/),
          page.getByRole("button", { name: "Turn on with an authenticator app" }).click(),
        ]);
        expect(await page.getByRole("img", { name: "QR code to scan with your authenticator app" }).isVisible()).toBe(true);
        await check(page, "set up", found);
        const secret = (await page.locator("#totp-secret").textContent()) as string;
        const code = await totpAt(base32Decode(secret) as Uint8Array, Math.floor(Date.now() / 1000));
        await page.getByLabel("Code from your authenticator app").fill(code);
        await Promise.all([page.waitForURL(/two-factor-confirm/), page.getByRole("button", { name: "Turn on", exact: true }).click()]);
        expect(await page.locator(".codes li").count()).toBe(10);
        const firstCode = (await page.locator(".codes li code").first().textContent()) as string;
        await check(page, "recovery codes", found);

        await page.goto(`${app.server.origin}/auth/account`);
        expect(await page.getByText("10 recovery codes left.").isVisible()).toBe(true);
        await check(page, "on", found);
        // The codes are not shown again; new ones, with one of the codes shown before.
        expect(await page.locator(".codes li").count()).toBe(0);
        await page.locator("#recovery-codes-code").fill(firstCode);
        await Promise.all([
          page.waitForURL(/two-factor-recovery-codes/),
          page.getByRole("button", { name: "Make new recovery codes" }).click(),
        ]);
        expect(await page.locator(".codes li").count()).toBe(10);
        await check(page, "new recovery codes", found);

        await page.goto(`${app.server.origin}/auth/account`);
        await page.locator("#totp-disable-code").fill("000000");
        await Promise.all([page.waitForURL(/form=two-factor/), page.getByRole("button", { name: "Turn off" }).click()]);
        await check(page, "refused code", found);

        await page.goto(
          `${app.server.origin}/auth/signin?error=CredentialsSignin&code=credentials&provider=password&email=a%40example.com`,
        );
        await check(page, "sign-in form error", found);
        await page.goto(`${app.server.origin}/auth/account/deleted`);
        await check(page, "deleted", found);
      } finally {
        await context.close();
      }
      expect(found).toEqual({});
    },
    BROWSER_TEST_TIMEOUT,
  );
});
