/**
 * The demo in real Chromium (Debian's /usr/bin/chromium through playwright-core), against the production
 * build served on 127.0.0.1: the credentials sign-in flows, the protected page, a session update,
 * sign-out, the audit log, and screenshots of the sign-in pages in light and dark mode
 * (test-artifacts/demo/). The other providers are in browser-providers.test.ts.
 */
import { once } from "node:events";
import { mkdirSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { launchChromium, openPage as openPageOn, pathOf } from "./chromium.js";
import { type DemoServer, startDemo } from "./demo-server.js";

const EMAIL = "demo@authlib.dev";
const PASSWORD = "correct-horse-battery";
const FAILED = "Sign in failed. Check the details you provided are correct.";
const artifacts = fileURLToPath(new URL("../../../test-artifacts/demo/", import.meta.url));

let demo: DemoServer;
let browser: Browser;

beforeAll(async () => {
  [demo, browser] = await Promise.all([startDemo({ AUTH_SECRET: "browser-test-secret-0123456789abcdef0123456789" }), launchChromium()]);
});

afterAll(async () => {
  await browser?.close();
  await demo?.stop();
});

/** A page in a fresh context (its own cookies). */
function openPage(options: BrowserContextOptions = {}): Promise<Page> {
  return openPageOn(browser, demo.origin, options);
}

/** Signs in on the app's own page (useSignIn) and waits for the redirect. */
async function signInWithForm(page: Page, password: string, redirectTo = "/profile"): Promise<void> {
  await page.goto(`/signin?redirectTo=${encodeURIComponent(redirectTo)}`);
  const form = page.getByTestId("signin-form");
  await form.getByLabel("Email").fill(EMAIL);
  await form.getByLabel("Password").fill(password);
  await form.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** The built-in page's credentials form (the page has other Email fields: the email link and passkeys). */
function builtInCredentialsForm(page: Page) {
  return page.locator("form").filter({ has: page.getByRole("button", { name: "Sign in with Demo account" }) });
}

describe("the demo in Chromium", () => {
  test("the home page shows the demo account", async () => {
    const page = await openPage();
    await page.goto("/");
    expect(await page.getByTestId("demo-email").textContent()).toBe(EMAIL);
    expect(await page.getByTestId("demo-password").textContent()).toBe(PASSWORD);
    await page.context().close();
  });

  test("the protected page sends a signed-out visitor to the built-in sign-in page, and opens after signing in there", async () => {
    const page = await openPage();
    await page.goto("/protected");
    expect(pathOf(page)).toBe("/auth/signin");
    expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe("/protected");

    await builtInCredentialsForm(page).getByLabel("Email").fill(EMAIL);
    await builtInCredentialsForm(page).getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Sign in with Demo account" }).click();
    await page.waitForURL(/error=CredentialsSignin/);
    expect(new URL(page.url()).searchParams.get("code")).toBe("invalid-login");
    expect(await page.getByRole("alert").textContent()).toContain(FAILED);

    await builtInCredentialsForm(page).getByLabel("Email").fill(EMAIL);
    await builtInCredentialsForm(page).getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in with Demo account" }).click();
    await page.waitForURL("**/protected");
    expect(await page.getByTestId("protected-content").textContent()).toContain("Only signed-in users see this");
    expect(await page.getByTestId("signed-in-as").textContent()).toBe(EMAIL);
    await page.context().close();
  });

  test("the app's sign-in page (useSignIn) shows a wrong password's error and code in the form, and signs in with the right one", async () => {
    const page = await openPage();
    await signInWithForm(page, "not-the-password");
    const error = page.getByTestId("signin-error");
    await error.waitFor();
    expect(await error.textContent()).toBe(`${FAILED} (code: invalid-login)`);
    expect(pathOf(page)).toBe("/signin");

    await page.getByTestId("signin-form").getByLabel("Password").fill(PASSWORD);
    await page.getByTestId("signin-form").getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL("**/profile");
    expect(await page.getByTestId("profile-name").textContent()).toBe("Demo User");
    expect(await page.getByTestId("session-json").textContent()).toContain(EMAIL);
    await page.context().close();
  });

  test("a session update is stored on the user (database sessions) and survives a reload", async () => {
    const page = await openPage();
    await signInWithForm(page, PASSWORD);
    await page.waitForURL("**/profile");

    await page.getByLabel("Display name").fill("Ada Lovelace");
    await page.getByRole("button", { name: "Update session" }).click();
    await expect.poll(() => page.getByTestId("update-status").textContent()).toBe("Session updated: Ada Lovelace");
    expect(await page.getByTestId("profile-name").textContent()).toBe("Ada Lovelace");

    // The server now reads the new name from the database.
    await page.reload();
    expect(await page.getByTestId("profile-name").textContent()).toBe("Ada Lovelace");
    expect(await page.getByTestId("session-json").textContent()).toContain('"name": "Ada Lovelace"');
    await page.context().close();
  });

  test("signing out ends the session", async () => {
    const page = await openPage();
    await signInWithForm(page, PASSWORD, "/protected");
    await page.waitForURL("**/protected");

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    await page.getByText("You are signed out.").waitFor();

    await page.goto("/protected");
    expect(pathOf(page)).toBe("/auth/signin");
    await page.context().close();
  });

  test("no page scrolls sideways on a 390 px phone, signed in or out", async () => {
    const page = await openPage({ viewport: { width: 390, height: 844 } });
    const widths: Record<string, number> = {};
    const measure = async (path: string) => {
      await page.goto(path);
      widths[path] = await page.evaluate(() => document.documentElement.scrollWidth);
    };
    for (const path of ["/", "/signin", "/check-email", "/dev/mailbox"]) await measure(path);
    await signInWithForm(page, PASSWORD, "/profile");
    await page.waitForURL("**/profile");
    for (const path of ["/profile", "/devices", "/protected", "/audit"]) await measure(path);
    expect(widths).toEqual(Object.fromEntries(Object.keys(widths).map((path) => [path, 390])));
    await page.context().close();
  });

  test("the audit page lists the events as they happen", async () => {
    const page = await openPage();
    await signInWithForm(page, PASSWORD, "/audit");
    await page.waitForURL("**/audit");
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    await page.goto("/audit");
    const log = (await page.getByTestId("audit-log").textContent()) ?? "";
    expect(log).toContain("signIn");
    expect(log).toContain("signOut");
    expect(log).toContain(EMAIL);
    // Session reads (one per page view) are not listed: they would bury the events that matter.
    const events = await page.locator("[data-testid=audit-log] tbody tr td:nth-child(3)").allTextContents();
    expect(events.length).toBeGreaterThan(0);
    expect(events).not.toContain("session");
    await page.context().close();
  });

  test("the sign-in pages follow the color scheme (screenshots in test-artifacts/demo/)", async () => {
    mkdirSync(artifacts, { recursive: true });
    const backgrounds: Record<string, string[]> = {};
    for (const colorScheme of ["light", "dark"] as const) {
      const page = await openPage({ colorScheme, viewport: { width: 900, height: 760 } });
      for (const [name, path] of [
        ["builtin-signin", "/auth/signin"],
        ["app-signin", "/signin"],
      ] as const) {
        await page.goto(path);
        await page.screenshot({ path: `${artifacts}${name}-${colorScheme}.png`, fullPage: true });
        const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
        backgrounds[name] = [...(backgrounds[name] ?? []), background];
      }
      await page.context().close();
    }
    for (const [light, dark] of Object.values(backgrounds)) expect(dark).not.toBe(light);
  });
  test("no other site can frame the sign-in page: Chromium refuses the frame (clickjacking)", async () => {
    // The attacker's page, on another origin (another port of 127.0.0.1), frames the built-in sign-in page
    // and the app's own sign-in page.
    const attacker = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(`<!doctype html><title>Win a prize</title>
        <iframe id="builtin" src="${demo.origin}/auth/signin"></iframe>
        <iframe id="signout" src="${demo.origin}/auth/signout"></iframe>`);
    });
    attacker.listen(0, "127.0.0.1");
    await once(attacker, "listening");
    const page = await openPage();
    try {
      const responses = ["/auth/signin", "/auth/signout"].map((path) =>
        page.waitForResponse((response) => new URL(response.url()).pathname === path),
      );
      await page.goto(`http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`);
      for (const response of await Promise.all(responses)) {
        expect(response.headers()["x-frame-options"]).toBe("DENY");
        expect(response.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
      }
      // Chromium replaces a refused frame by its error document: nothing of the page (no form to click on).
      for (const id of ["builtin", "signout"]) {
        const frame = await (await page.$(`#${id}`))?.contentFrame();
        await expect.poll(() => frame?.url(), { timeout: 10_000 }).toMatch(/^chrome-error:/);
        expect(await frame?.locator("form").count()).toBe(0);
      }
    } finally {
      await page.context().close();
      attacker.closeAllConnections();
      await new Promise((resolve) => attacker.close(resolve));
    }
  });

  test("the development tools answer only a local client, not one that came through a proxy", async () => {
    expect((await fetch(`${demo.origin}/audit`)).status).toBe(200);
    expect((await fetch(`${demo.origin}/dev/mailbox`)).status).toBe(200);
    for (const header of ["X-Forwarded-For", "Forwarded", "X-Real-IP"]) {
      for (const path of ["/audit", "/dev/mailbox"]) {
        const response = await fetch(`${demo.origin}${path}`, { headers: { [header]: "203.0.113.7" } });
        expect(response.status).toBe(404);
        expect(await response.text()).not.toContain("audit-log");
      }
    }
  });
});
