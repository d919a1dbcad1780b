/**
 * The demo's log, as an operator reads it: the built demo walked in real Chromium through every page
 * signed out and every failure a user causes (a wrong password on the demo's form and on authlib's page, a
 * mistyped address, an unknown or cut link, a second step with no sign-in waiting) prints no `[authlib][error]` line. Those are the users' expected failures (logged at debug, not shown
 * without `debug: true`); an error line means a server fault someone has to fix (docs/observability.md).
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { launchChromium, newContext } from "./chromium.js";
import { type DemoServer, startDemo } from "./demo-server.js";

const EMAIL = "demo@authlib.dev";
const PASSWORD = "correct-horse-battery";

let demo: DemoServer;
let browser: Browser;

beforeAll(async () => {
  [demo, browser] = await Promise.all([startDemo({ AUTH_SECRET: "demo-log-test-secret-0123456789abcdef0123456789" }), launchChromium()]);
});

afterAll(async () => {
  await browser?.close();
  await demo?.stop();
});

/** Every page of the demo and of authlib under it that a signed-out visitor can open. */
const SIGNED_OUT_PAGES = [
  "/",
  "/signin",
  "/protected",
  "/profile",
  "/devices",
  "/audit",
  "/dev/mailbox",
  "/check-email",
  "/auth/signin",
  "/auth/signin?error=CredentialsSignin",
  "/auth/signout",
  "/auth/account",
  "/auth/account/deleted",
  "/auth/error",
  "/auth/error?error=Verification",
  "/auth/verify-request",
  "/auth/two-factor",
  "/auth/password/sign-up",
  "/auth/password/forgot",
  "/auth/password/reset",
  "/auth/session",
  "/auth/providers",
  "/auth/sessions",
];

/** Posts the demo's own sign-in form (its Credentials provider). */
async function demoSignIn(page: Page, password: string): Promise<void> {
  await page.goto("/signin?redirectTo=/profile");
  const form = page.getByTestId("signin-form");
  await form.getByLabel("Email").fill(EMAIL);
  await form.getByLabel("Password").fill(password);
  await form.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** The lines of the demo's output at authlib's error level. */
function errorLines(): string[] {
  return demo
    .output()
    .split("\n")
    .filter((line) => line.includes("[authlib][error]"));
}

test("signed-out pages and every user's failure leave no error line in the demo's log", async () => {
  const context = await newContext(browser, demo.origin);
  try {
    const page = await context.newPage();
    for (const path of SIGNED_OUT_PAGES) {
      const response = await page.goto(path);
      expect(response?.status() ?? 0, path).toBeLessThan(500);
    }

    // A wrong password on the demo's own form: the form says so.
    await demoSignIn(page, "not the password");
    await page.getByRole("alert").first().waitFor();

    // A wrong password, and an address no mail is sent to, on authlib's built-in sign-in page.
    await page.goto("/auth/signin");
    const passwordForm = page.locator("form", { has: page.getByRole("button", { name: "Sign in with Email and password", exact: true }) });
    await passwordForm.getByLabel("Email").fill("nobody@example.com");
    await passwordForm.getByLabel("Password").fill("not the password");
    await Promise.all([page.waitForURL(/error=CredentialsSignin/), passwordForm.getByRole("button").click()]);
    await page.goto("/auth/signin");
    const emailForm = page.locator("form", { has: page.getByRole("button", { name: "Sign in with Email", exact: true }) });
    await emailForm.getByLabel("Email").fill("not-an-address@");
    await emailForm.getByRole("button").click();
    await page.waitForLoadState();

    // Links that do not work any more, or never did: a sign-up, a reset and an email sign-in link.
    for (const path of [
      "/auth/password/verify?token=cut-token",
      "/auth/password/reset?token=cut-token",
      "/auth/callback/nodemailer?token=cut-token&email=demo%40authlib.dev",
    ]) {
      const response = await page.goto(path);
      expect(response?.status() ?? 0, path).toBeLessThan(500);
    }

    // Signed in: the signed-in user's pages, the second step's page with no sign-in waiting.
    await demoSignIn(page, PASSWORD);
    await page.waitForURL("**/profile");
    for (const path of ["/profile", "/devices", "/audit", "/auth/account", "/auth/two-factor"]) {
      const response = await page.goto(path);
      expect(response?.status() ?? 0, path).toBeLessThan(500);
    }
    // A crafted link sending the user to another site after sign-in: a warning (the client's doing), which
    // also shows that this test reads the log authlib writes.
    await page.goto("/auth/signin?callbackUrl=https%3A%2F%2Fevil.example%2F");
  } finally {
    await context.close();
  }
  await expect.poll(() => demo.output().includes("[authlib][warn][callback-url-refused]")).toBe(true);
  expect(errorLines()).toEqual([]);
}, 120_000);
