/**
 * The impersonation banner in Debian's Chromium: while an admin acts as a user, every built-in page shows
 * "You are acting as X (signed in as admin Y)" with a Stop button (in the page's language), with no WCAG 2.1
 * A/AA violation (axe-core) and no CSP violation; the Stop button ends the impersonation and brings the admin
 * back to their own session; pages of a session that is no impersonation show no banner.
 */
import type { Browser as Chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, launchChromium, openWatchedTab, pageSession } from "../helpers/chromium.js";
import { type Browser, impersonationApp } from "./impersonation-app.js";

const TIMEOUT = 120_000;

describe("the impersonation banner in Chromium", () => {
  let chromium: Chromium;
  let app: Awaited<ReturnType<typeof impersonationApp>>;
  let admin: Browser & { userId: string };
  let user: Browser & { userId: string };

  beforeAll(async () => {
    [chromium, app] = await Promise.all([launchChromium(), impersonationApp("database")]);
    admin = await app.signedUp("admin@example.com");
    user = await app.signedUp("user@example.com");
    await app.store.updateUser?.({ id: user.userId, name: "Ursula <User>" });
  }, TIMEOUT);

  afterAll(async () => {
    await chromium?.close();
    await app?.close();
  });

  /** A Chromium tab with `browser`'s cookies. */
  async function tabOf(browser: Browser, axe = true) {
    const tab = await openWatchedTab(chromium, axe);
    await tab.context.addCookies(
      [...browser.jar.cookies.values()].map(({ name, value }) => ({ name, value: encodeURIComponent(value), url: app.origin })),
    );
    return tab;
  }

  it(
    "shows on every built-in page, accessibly and in the page's language, and its Stop button brings the admin back",
    async () => {
      const own = await tabOf(admin);
      try {
        // The admin's own pages: no banner.
        await own.page.goto(`${app.origin}/auth/account`);
        expect(await own.page.locator(".impersonation").count()).toBe(0);
      } finally {
        await own.context.close();
      }

      expect((await app.impersonate(admin, user.userId))[0]).toBe(200);
      const { context, page, problems } = await tabOf(admin);
      try {
        for (const path of ["/auth/account", "/auth/signin", "/auth/signout", "/auth/error?error=Verification"]) {
          await page.goto(`${app.origin}${path}`);
          const banner = page.getByRole("region", { name: "Acting as another user" });
          expect(await banner.textContent(), path).toContain("You are acting as Ursula <User> (signed in as admin admin@example.com).");
          expect(await banner.getByRole("button", { name: "Stop" }).count(), path).toBe(1);
          expect(await axeViolations(page), `axe on ${path}`).toEqual([]);
        }
        expect(problems).toEqual([]);

        // Stop: the impersonated session ends, the admin's own comes back.
        await page.goto(`${app.origin}/auth/account`);
        await Promise.all([page.waitForURL(`${app.origin}/`), page.getByRole("button", { name: "Stop" }).click()]);
        expect((await pageSession(page))?.user?.email).toBe("admin@example.com");
        await page.goto(`${app.origin}/auth/account`);
        expect(await page.locator(".impersonation").count()).toBe(0);
      } finally {
        await context.close();
      }
    },
    TIMEOUT,
  );

  it(
    "speaks the page's language",
    async () => {
      const second = await app.signedUp("second-admin@example.com");
      expect((await app.impersonate(second, user.userId))[0]).toBe(200);
      const tab = await openWatchedTab(chromium, true);
      try {
        await tab.context.setExtraHTTPHeaders({ "Accept-Language": "de" });
        await tab.context.addCookies(
          [...second.jar.cookies.values()].map(({ name, value }) => ({ name, value: encodeURIComponent(value), url: app.origin })),
        );
        await tab.page.goto(`${app.origin}/auth/account`);
        const banner = tab.page.getByRole("region", { name: "Handeln als anderer Benutzer" });
        expect(await banner.textContent()).toContain("Sie handeln als Ursula <User>");
        expect(await banner.getByRole("button", { name: "Beenden" }).count()).toBe(1);
        expect(await axeViolations(tab.page)).toEqual([]);
      } finally {
        await tab.context.close();
      }
    },
    TIMEOUT,
  );
});
