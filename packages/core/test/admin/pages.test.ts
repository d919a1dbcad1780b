/**
 * The admin's built-in pages over real HTTP in Chromium: the user list (search, filter, pagination links)
 * and a user's page (details, the ban form with a reason and an end, lifting the ban, ending sessions,
 * setting a password, deleting), each form with the page's CSRF token; localized; no WCAG 2.1 A/AA
 * violation (axe-core). A non-admin reaches neither page nor any form.
 */
import type { Browser as Chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, launchChromium, openWatchedTab } from "../helpers/chromium.js";
import { adminApp, PASSWORD, post, serve } from "./helpers.js";

describe("the admin pages", () => {
  let chromium: Chromium;
  let stop: () => Promise<void>;
  let origin: string;
  let app: ReturnType<typeof adminApp>;

  beforeAll(async () => {
    app = adminApp();
    const served = await serve(app.config);
    origin = served.server.origin;
    stop = () => served.server.close();
    chromium = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await chromium?.close();
    await stop?.();
  });

  /** A browser context signed in as `email` (signed up over HTTP first), `admin` made an admin in the store. */
  async function signedInTab(email: string, admin: boolean, locale = "en-US") {
    const tab = await openWatchedTab(chromium, true);
    await tab.context.setExtraHTTPHeaders({ "accept-language": locale });
    const http = (await import("../helpers/auth-client.js")).httpClient(origin);
    await post(http as never, "/auth/password/sign-up", { email, password: PASSWORD });
    await post(http as never, "/auth/password/verify", {
      token: app.linkTo(email, "/auth/password/verify").searchParams.get("token") as string,
    });
    const user = await app.store.getUserByEmail?.(email);
    if (admin) app.memory.users.set(user?.id as string, { ...user, role: "admin" } as never);
    await tab.page.goto(`${origin}/auth/signin`);
    await tab.page.getByLabel("Email").fill(email);
    await tab.page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await tab.page
      .getByRole("button", { name: /sign in/i })
      .first()
      .click();
    await tab.page.waitForURL((url) => !url.pathname.startsWith("/auth/signin"));
    return { ...tab, userId: user?.id as string };
  }

  it("list, search, user page, ban with a reason and an end, lift, end sessions, delete; axe finds nothing", async () => {
    const victim = await signedInTab("victim@example.com", false);
    const { context, page, problems } = await signedInTab("admin@example.com", true);
    try {
      for (let i = 0; i < 22; i++)
        await app.store.createUser?.({ id: `user-${String(i).padStart(2, "0")}`, email: `bulk${i}@example.com`, emailVerified: null });
      const list = await page.goto(`${origin}/auth/admin`);
      expect(list?.status()).toBe(200);
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Users");
      expect(await axeViolations(page)).toEqual([]);
      // Pagination: the next page's link, then the first page's.
      await page.getByRole("link", { name: "Next page" }).click();
      await page.getByRole("link", { name: "First page" }).waitFor();
      // Search.
      await page.getByLabel("Search by email or name").fill("victim");
      await page.getByRole("button", { name: "Search" }).click();
      await page.getByRole("link", { name: "victim@example.com" }).click();
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("victim@example.com");
      expect(await axeViolations(page)).toEqual([]);
      // Ban for 2 hours with a reason: the victim's open session ends.
      await page.getByLabel("Reason (seen by admins only)").fill("chargeback fraud");
      await page.getByLabel("Ends after (hours; empty: until lifted)").fill("2");
      await page.getByRole("button", { name: "Ban", exact: true }).click();
      await page.getByText("The user is banned: their sessions have ended.").waitFor();
      expect(await page.getByText("Reason: chargeback fraud").count()).toBe(1);
      const ban = app.admin.bans.get(victim.userId);
      expect(Math.round(((ban?.expiresAt?.getTime() ?? 0) - Date.now()) / 60_000)).toBe(120);
      expect(await axeViolations(page)).toEqual([]);
      const session = await victim.page.goto(`${origin}/auth/session`);
      expect(await session?.json()).toBeNull();
      // Lift the ban; end sessions; set a password; delete.
      await page.getByRole("button", { name: "Lift the ban" }).click();
      await page.getByText("The ban is lifted.").waitFor();
      await page.getByRole("button", { name: "End all sessions" }).click();
      await page.getByText("Every session of the user has ended.").waitFor();
      await page.getByLabel("New password").fill("short");
      await page.getByRole("button", { name: "Set the password" }).click();
      await page.getByText("This was refused (InvalidUser).").waitFor();
      await page.getByLabel("New password").fill("a new password from support 1");
      await page.getByRole("button", { name: "Set the password" }).click();
      await page.getByText("The password is set; the user was told by mail.").waitFor();
      await page.getByRole("button", { name: "Delete the user" }).click();
      await page.getByText("The user is deleted.").waitFor();
      expect(app.memory.users.has(victim.userId)).toBe(false);
      // The admin's own page has no ban, password or delete form.
      await page.goto(`${origin}/auth/admin/user?userId=${(await app.store.getUserByEmail?.("admin@example.com"))?.id}`);
      expect(await page.getByRole("button", { name: "Ban", exact: true }).count()).toBe(0);
      // Localized (German) and still accessible.
      await context.setExtraHTTPHeaders({ "accept-language": "de" });
      await page.goto(`${origin}/auth/admin`);
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Benutzer");
      expect(await axeViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
      await victim.context.close();
    }
  }, 120_000);

  it("a signed-in non-admin gets neither page, and a form of theirs changes nothing", async () => {
    const { context, page, userId } = await signedInTab("nosy@example.com", false);
    try {
      const other = await app.store.createUser?.({ id: "target-user", email: "target@example.com", emailVerified: null });
      for (const path of ["/auth/admin", `/auth/admin/user?userId=${other?.id}`]) {
        const response = await page.goto(`${origin}${path}`);
        expect(response?.status(), path).toBe(403);
      }
      const cookie = (await context.cookies()).map(({ name, value }) => `${name}=${value}`).join("; ");
      const csrf = (await (await fetch(`${origin}/auth/csrf`, { headers: { cookie } })).json()) as { csrfToken: string };
      for (const form of ["ban", "unban", "revoke-sessions", "set-password", "delete"]) {
        const response = await fetch(`${origin}/auth/admin/form-${form}`, {
          method: "POST",
          redirect: "manual",
          headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ csrfToken: csrf.csrfToken, userId: other?.id as string, password: "a long enough password 1" }),
        });
        expect(response.headers.get("location"), form).toContain("error=AccessDenied");
      }
      expect(app.admin.bans.has(other?.id as string)).toBe(false);
      expect(app.memory.users.has(other?.id as string)).toBe(true);
      expect(userId).toBeTruthy();
    } finally {
      await context.close();
    }
  }, 60_000);
});
