/**
 * The built-in pages a signed-in user reaches (the account page in its states, the sign-out confirmation)
 * and the pages in an app-added right-to-left language (Arabic, `dir="rtl"`), in Debian's Chromium, light
 * and dark, at 320, 390 and 1280 px: axe-core finds no WCAG 2.1 A/AA violation and no page scrolls
 * sideways. At 390 and 1280 px a screenshot of each is saved under `.test-results/screenshots/` and the
 * page is as wide as the viewport with its heading and buttons inside it.
 */
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Nodemailer from "../../src/providers/nodemailer.js";
import Passkey from "../../src/providers/passkey.js";
import Password from "../../src/providers/password.js";
import { axeViolations } from "../helpers/chromium.js";
import { type PagesApp, startPagesApp } from "../helpers/pages-app.js";

const BROWSER_TEST_TIMEOUT = 180_000;
const SCREENSHOTS = fileURLToPath(new URL("../../../../.test-results/screenshots/", import.meta.url));
let app: PagesApp;

// A small Arabic catalog, as an app adds one: the keys it leaves out are English, the layout is right to left.
const ARABIC = {
  "signin.title": "تسجيل الدخول",
  "signin.withProvider": "تسجيل الدخول باستخدام {provider}",
  "signin.email": "البريد الإلكتروني",
  "signin.or": "أو",
  "signout.heading": "تسجيل الخروج",
  "signout.question": "هل تريد تسجيل الخروج؟",
  "signout.button": "تسجيل الخروج",
  "account.title": "حسابك",
  "account.signOut": "تسجيل الخروج",
  "error.default.heading": "خطأ",
} as const;

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  app = await startPagesApp((smtp) => ({
    secret: "pages-signed-in-secret-0123456789abcdef0123",
    experimental: { enableWebAuthn: true },
    providers: [Nodemailer({ server: smtp.transport, from: "Demo <no-reply@demo.test>" }), Password(), Passkey()],
    messages: { ar: ARABIC },
    logger: { error: () => {}, warn: () => {} },
  }));
});

afterAll(() => app?.close());

/** Signs `page` in with an email link (asked and followed in the same browser). */
async function signIn(page: Page, buttonName: string): Promise<void> {
  const before = app.smtp.mails.length;
  await page.goto(`${app.server.origin}/auth/signin`);
  const form = page.locator("form").filter({ has: page.getByRole("button", { name: buttonName }) });
  await form.locator('input[type="email"]').fill(`signed-in-${crypto.randomUUID()}@example.com`);
  await Promise.all([page.waitForURL(/\/auth\/verify-request\?/), form.getByRole("button").click()]);
  const link = (await app.smtp.nextMail(before)).text?.match(/http:\/\/\S+\/auth\/callback\/nodemailer\?\S+/)?.[0];
  if (!link) throw new Error("no link in the mail");
  await page.goto(link);
  await page.waitForURL((url) => !url.pathname.startsWith("/auth/callback"));
}

/** Visits each path at each width: axe violations and sideways overflow, by path and width (empty when all is well). */
async function sweep(page: Page, paths: readonly string[], widths: readonly number[], label: string): Promise<Record<string, unknown>> {
  const found: Record<string, unknown> = {};
  for (const width of widths) {
    await page.setViewportSize({ width, height: 800 });
    for (const path of paths) {
      await page.goto(`${app.server.origin}${path}`);
      const violations = await axeViolations(page);
      const overflow = (await page.evaluate(() => document.documentElement.scrollWidth)) - width;
      if (violations.length > 0 || overflow > 0) found[`${path} at ${width}`] = { violations, overflow };
      if (width === 390 || width === 1280) {
        const name = `${label}-${path.replace(/[^a-z0-9]+/gi, "_")}-${width}.png`;
        await page.screenshot({ path: `${SCREENSHOTS}${name}`, fullPage: true });
        const outside = await page.evaluate((viewport) => {
          const elements = [...document.querySelectorAll("h1, button, .button, input:not([type=hidden])")];
          return elements
            .map((element) => element.getBoundingClientRect())
            .filter((box) => box.width > 0 && (box.left < 0 || box.right > viewport)).length;
        }, width);
        const pageWidth = await page.evaluate(() => document.documentElement.getBoundingClientRect().width);
        if (outside > 0 || pageWidth !== width) found[`${path} screenshot at ${width}`] = { outside, pageWidth };
      }
    }
  }
  return found;
}

async function withContext<T>(options: { colorScheme: "light" | "dark"; locale?: string }, run: (context: BrowserContext) => Promise<T>) {
  const context = await app.browser.newContext({ ...options, viewport: { width: 1280, height: 800 }, bypassCSP: true });
  context.setDefaultTimeout(10_000);
  try {
    return await run(context);
  } finally {
    await context.close();
  }
}

describe.each(["light", "dark"] as const)("signed in, %s", (colorScheme) => {
  it(
    "the account page in its states and the sign-out confirmation: no violation, no sideways scroll, screenshots in bounds",
    async () => {
      await withContext({ colorScheme, locale: "en-US" }, async (context) => {
        const page = await context.newPage();
        await signIn(page, "Sign in with Email");
        const paths = [
          "/auth/account",
          "/auth/account?done=password-changed",
          "/auth/account?done=email-sent",
          "/auth/account?error=LastSignInMethod",
          "/auth/account?error=RecentSignInRequired",
          "/auth/signout",
        ];
        expect(await sweep(page, paths, [320, 390, 1280], `signed-in-${colorScheme}`)).toEqual({});
        await page.goto(`${app.server.origin}/auth/account`);
        expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Your account");
      });
    },
    BROWSER_TEST_TIMEOUT,
  );
});

describe.each(["light", "dark"] as const)("an app's Arabic catalog, right to left, %s", (colorScheme) => {
  it(
    "signed out and signed in: dir=rtl, no violation, no sideways scroll",
    async () => {
      await withContext({ colorScheme, locale: "ar-EG" }, async (context) => {
        const page = await context.newPage();
        await page.goto(`${app.server.origin}/auth/signin`);
        expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(["ar", "rtl"]);
        const signedOut = ["/auth/signin", "/auth/signin?error=Verification", "/auth/error", "/auth/password/sign-up"];
        expect(await sweep(page, signedOut, [320, 390, 1280], `rtl-${colorScheme}`)).toEqual({});
        await signIn(page, "تسجيل الدخول باستخدام Email");
        expect(await sweep(page, ["/auth/account", "/auth/signout"], [320, 390, 1280], `rtl-signed-in-${colorScheme}`)).toEqual({});
        // Right to left for real: the heading's text starts at the right edge of the card.
        await page.goto(`${app.server.origin}/auth/signout`);
        expect(await page.evaluate(() => getComputedStyle(document.querySelector("p.center") as Element).direction)).toBe("rtl");
      });
    },
    BROWSER_TEST_TIMEOUT,
  );
});
