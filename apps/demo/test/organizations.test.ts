/**
 * The demo's organizations (issue 46) against the built demo: the demo user's two organizations, seeded
 * at start ("Acme" with no policy, "Vault" asking for a second factor), on the /organizations page over
 * plain HTTP; then in Chromium: switching to Acme (the session shows it), Vault refusing a session without
 * a second factor with its step-up link, and an invitation sent from the built-in /auth/organization page
 * arriving in /dev/mailbox.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { axeViolations, launchChromium, openPage } from "./chromium.js";
import { type DemoServer, startDemo } from "./demo-server.js";

const EMAIL = "demo@authlib.dev";
const PASSWORD = "correct-horse-battery";

let demo: DemoServer;
let browser: Browser;

beforeAll(async () => {
  [demo, browser] = await Promise.all([startDemo({ AUTH_SECRET: "organizations-demo-secret-0123456789abcdef0123" }), launchChromium()]);
});

afterAll(async () => {
  await browser?.close();
  await demo?.stop();
});

/** `name=value` of each Set-Cookie header, into `jar`. */
function keep(jar: Map<string, string>, response: Response): void {
  for (const header of response.headers.getSetCookie()) {
    const pair = header.split(";", 1)[0] ?? "";
    const at = pair.indexOf("=");
    jar.set(pair.slice(0, at), pair.slice(at + 1));
  }
}

/** The cookies of a credentials sign-in as the demo user, over HTTP (CSRF token first). */
async function signInOverHttp(): Promise<string> {
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
  const csrf = await fetch(`${demo.origin}/auth/csrf`);
  keep(jar, csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const response = await fetch(`${demo.origin}/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookieHeader() },
    body: new URLSearchParams({ csrfToken, email: EMAIL, password: PASSWORD, callbackUrl: "/organizations" }),
  });
  expect(response.status).toBe(302);
  keep(jar, response);
  return cookieHeader();
}

describe("the organizations page over HTTP", () => {
  test("signed out: asks to sign in", async () => {
    const response = await fetch(`${demo.origin}/organizations`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("<h1>Organizations</h1>");
    expect(html).toContain("to see your organizations");
  });

  test("signed in as the demo user: Acme and Vault, the user their owner, Vault asking for a second factor", async () => {
    const cookie = await signInOverHttp();
    const response = await fetch(`${demo.origin}/organizations`, { headers: { cookie } });
    expect(response.status).toBe(200);
    const html = await response.text();
    const listed = [...html.matchAll(/data-slug="([a-z-]+)"/g)].map((match) => match[1]);
    expect(listed.sort()).toEqual(["acme", "vault"]);
    expect(html.match(/data-testid="role"[^>]*>owner</g)).toHaveLength(2);
    expect(html).toContain("Needs a second factor");
    expect(html).toContain('href="/auth/organization"');
    expect(html).toMatch(/Active organization:.*none/s);
  });
});

/** Signs in on the app's own page and lands on /organizations. */
async function signIn(page: Page): Promise<void> {
  await page.goto("/signin?redirectTo=%2Forganizations");
  const form = page.getByTestId("signin-form");
  await form.getByLabel("Email").fill(EMAIL);
  await form.getByLabel("Password").fill(PASSWORD);
  await Promise.all([page.waitForURL("**/organizations"), form.getByRole("button", { name: "Sign in", exact: true }).click()]);
}

/** The organization's card on the page. */
function card(page: Page, slug: string) {
  return page.locator(`[data-testid="organization"][data-slug="${slug}"]`);
}

describe("the organizations page in Chromium", () => {
  test("switch to Acme, Vault refused with its step-up link, an invitation through /dev/mailbox", async () => {
    const page = await openPage(browser, demo.origin);
    try {
      await signIn(page);
      await expect.poll(() => page.getByTestId("active-organization").textContent()).toContain("none");

      await card(page, "acme").getByRole("button", { name: "Make active" }).click();
      await expect.poll(() => page.getByTestId("active-organization").textContent()).toContain("Acme (owner)");
      // The session itself says so, on a fresh load too.
      await page.reload();
      expect(await page.getByTestId("active-organization").textContent()).toContain("Acme (owner)");
      const session = await page.evaluate(async () => (await fetch("/auth/session")).json());
      expect(session).toMatchObject({ activeOrganizationRole: "owner" });
      expect(typeof session.activeOrganizationId).toBe("string");

      await card(page, "vault").getByRole("button", { name: "Make active" }).click();
      const refusal = page.getByTestId("switch-error");
      await expect.poll(() => refusal.textContent()).toContain("OrganizationPolicy");
      const stepUp = await page.getByTestId("step-up").getAttribute("href");
      const stepUpUrl = new URL(stepUp ?? "", demo.origin);
      expect(stepUpUrl.pathname).toBe("/auth/signin");
      expect(stepUpUrl.searchParams.get("callbackUrl")).toMatch(/^\/auth\/organization\?organizationId=/);
      expect((await fetch(stepUpUrl)).status).toBe(200);
      // Still Acme: the refusal changed nothing.
      expect(await page.getByTestId("active-organization").textContent()).toContain("Acme (owner)");
      expect(await axeViolations(page)).toEqual([]);

      // Invitations are sent from the built-in page (the active organization, Acme, is shown first).
      await page.getByRole("link", { name: "the built-in organization page" }).click();
      await page.waitForURL("**/auth/organization**");
      await page.getByLabel("Email address").fill("colleague@example.com");
      await Promise.all([page.waitForURL("**done=**"), page.getByRole("button", { name: "Send the invitation" }).click()]);
      await page.goto("/dev/mailbox");
      const mail = page.getByTestId("mail").filter({ hasText: "colleague@example.com" });
      await expect.poll(() => mail.count()).toBe(1);
      expect(await mail.getByTestId("mail-subject").textContent()).toContain("You are invited to join Acme");
      expect(await mail.getByTestId("mail-link").getAttribute("href")).toMatch(/\/auth\/organization\/invitation\?id=.+&token=/);
    } finally {
      await page.context().close();
    }
  }, 120_000);
});
