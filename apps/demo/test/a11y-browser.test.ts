/**
 * Every page of the demo (`src/routes/**`: home, sign-in, check-email, profile, devices, organizations,
 * audit, protected, the dev mailbox) and the built-in pages it links to, signed out and signed in, light and dark, in
 * Debian's Chromium at 320, 390 and 1280 px: axe-core finds no WCAG 2.1 A/AA violation, and no page
 * scrolls sideways. At 390 and 1280 px a screenshot of each is saved under `.test-results/screenshots/`
 * and the page is as wide as the viewport with its heading, buttons and fields inside it.
 */
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { axeViolations, launchChromium, newContext } from "./chromium.js";
import { type DemoServer, startDemo } from "./demo-server.js";

const EMAIL = "demo@authlib.dev";
const PASSWORD = "correct-horse-battery";
const SCREENSHOTS = fileURLToPath(new URL("../../../.test-results/screenshots/", import.meta.url));
const SWEEP_TIMEOUT = 240_000;

let demo: DemoServer;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  [demo, browser] = await Promise.all([startDemo({ AUTH_SECRET: "a11y-test-secret-0123456789abcdef0123456789" }), launchChromium()]);
});

afterAll(async () => {
  await browser?.close();
  await demo?.stop();
});

/** Axe violations, sideways overflow and out-of-bounds elements of each path at each width (empty when all is well). */
async function sweep(page: Page, paths: readonly string[], label: string): Promise<Record<string, unknown>> {
  const found: Record<string, unknown> = {};
  for (const width of [320, 390, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    for (const path of paths) {
      await page.goto(path);
      const violations = await axeViolations(page);
      const overflow = (await page.evaluate(() => document.documentElement.scrollWidth)) - width;
      if (violations.length > 0 || overflow > 0) found[`${path} at ${width}`] = { violations, overflow };
      if (width === 320) continue;
      await page.screenshot({ path: `${SCREENSHOTS}demo-${label}-${path.replace(/[^a-z0-9]+/gi, "_")}-${width}.png`, fullPage: true });
      const outside = await page.evaluate((viewport) => {
        const elements = [...document.querySelectorAll("h1, button, .button, input:not([type=hidden]), select, textarea")];
        return elements
          .map((element) => ({ tag: element.tagName, box: element.getBoundingClientRect() }))
          .filter(({ box }) => box.width > 0 && (box.left < 0 || box.right > viewport))
          .map(({ tag, box }) => `${tag} ${Math.round(box.left)}..${Math.round(box.right)}`);
      }, width);
      const pageWidth = await page.evaluate(() => document.documentElement.getBoundingClientRect().width);
      if (outside.length > 0 || pageWidth !== width) found[`${path} screenshot at ${width}`] = { outside, pageWidth };
    }
  }
  return found;
}

describe.each(["light", "dark"] as const)("the demo's pages, %s", (colorScheme) => {
  test(
    "signed out, then signed in: no WCAG 2.1 A/AA violation, no sideways scroll, in bounds at 390 and 1280 px",
    async () => {
      const context = await newContext(browser, demo.origin, { colorScheme, bypassCSP: true, viewport: { width: 1280, height: 800 } });
      try {
        const page = await context.newPage();
        const signedOut = await sweep(
          page,
          ["/", "/signin", "/check-email", "/organizations", "/dev/mailbox", "/auth/signin"],
          `${colorScheme}-out`,
        );
        await page.setViewportSize({ width: 1280, height: 800 });
        await page.goto("/signin?redirectTo=%2Fprofile");
        const form = page.getByTestId("signin-form");
        await form.getByLabel("Email").fill(EMAIL);
        await form.getByLabel("Password").fill(PASSWORD);
        await Promise.all([page.waitForURL("**/profile"), form.getByRole("button", { name: "Sign in", exact: true }).click()]);
        const signedIn = await sweep(
          page,
          [
            "/",
            "/profile",
            "/devices",
            "/organizations",
            "/auth/organization",
            "/protected",
            "/audit",
            "/dev/mailbox",
            "/auth/account",
            "/auth/signout",
          ],
          `${colorScheme}-in`,
        );
        expect({ signedOut, signedIn }).toEqual({ signedOut: {}, signedIn: {} });
      } finally {
        await context.close();
      }
    },
    SWEEP_TIMEOUT,
  );
});
