/**
 * Email-and-password accounts (`Password()`) in real Chromium against the built demo (database sessions in
 * PGlite, mails through the development SMTP server): a visitor finds sign-up from the home page, creates
 * an account on authlib's built-in page, confirms it from /dev/mailbox, changes the password on the profile
 * page (`useChangePassword`), signs out and signs in with the new password on the app's sign-in page.
 */
import * as OTPAuth from "otpauth";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { axeViolations, launchChromium, newContext, pathOf } from "./chromium.js";
import { type DemoServer, startDemo } from "./demo-server.js";

const FIRST_PASSWORD = "first password of mine";
const NEW_PASSWORD = "a newer, longer password";

let demo: DemoServer;
let browser: Browser;

beforeAll(async () => {
  [demo, browser] = await Promise.all([startDemo({ AUTH_SECRET: "password-browser-secret-0123456789abcdef0123" }), launchChromium()]);
});

afterAll(async () => {
  await browser?.close();
  await demo?.stop();
});

/** Signs in with `password` on the app's sign-in page (useSignIn, the Password() provider's form). */
async function signInWithPassword(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/signin?redirectTo=/profile");
  const form = page.getByTestId("password-signin-form");
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Password").fill(password);
  await form.getByRole("button", { name: "Sign in", exact: true }).click();
}

/**
 * Creates an account through the built-in pages, reached from the home page or the app's sign-in page,
 * and confirms it from the mailbox: signed in, on /profile.
 */
async function signUp(page: Page, email: string, from: "/" | "/signin?redirectTo=/profile"): Promise<void> {
  await page.goto(from);
  await page.getByRole("link", { name: "create an account" }).click();
  await page.waitForURL((url) => url.pathname === "/auth/password/sign-up");
  await page.getByLabel("Name").fill("Grace Hopper");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(FIRST_PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await page.waitForURL((url) => url.pathname === "/check-email");

  await page.goto("/dev/mailbox");
  const mail = page.getByTestId("mail").filter({ hasText: email }).first();
  expect(await mail.getByTestId("mail-subject").textContent()).toBe(`Confirm your email address for ${new URL(demo.origin).host}`);
  const link = mail.getByTestId("mail-link");
  expect(new URL((await link.getAttribute("href")) ?? "").pathname).toBe("/auth/password/verify");
  await link.click();
  // One click on the page the link opens: a mail scanner that only fetches the link confirms nothing.
  await page.getByRole("button", { name: "Confirm email address" }).click();
  await page.waitForURL(`${demo.origin}/profile`);
}

/** The code an independent TOTP implementation (otpauth) computes for `secret`, `offsetSteps` steps from now. */
function totpCode(secret: string, offsetSteps = 0): string {
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 });
  return totp.generate({ timestamp: Date.now() + offsetSteps * 30_000 });
}

describe("password accounts in Chromium", () => {
  let context: BrowserContext;
  let other: BrowserContext;

  beforeAll(async () => {
    // bypassCSP: axe-core is injected as a script tag.
    context = await newContext(browser, demo.origin, { bypassCSP: true });
    other = await newContext(browser, demo.origin);
  });

  afterAll(async () => {
    await Promise.all([context?.close(), other?.close()]);
  });

  test("sign up, confirm from the mailbox, change the password on the profile, sign out, sign in with the new one", async () => {
    const email = "grace.hopper@example.com";
    const page = await context.newPage();
    await signUp(page, email, "/");
    expect(await page.getByTestId("signed-in-as").textContent()).toBe(email);
    expect(await page.getByTestId("profile-name").textContent()).toBe("Grace Hopper");

    // A second browser signs in with the first password; the change will sign it out.
    const otherPage = await other.newPage();
    await signInWithPassword(otherPage, email, FIRST_PASSWORD);
    await otherPage.waitForURL(`${demo.origin}/profile`);

    // A wrong current password: the form says so at the field, and nothing changes.
    const form = page.getByTestId("change-password-form");
    await form.getByLabel("Current password").fill("not my password");
    await form.getByLabel("New password").fill(NEW_PASSWORD);
    await form.getByRole("button", { name: "Change password" }).click();
    const error = page.getByTestId("current-password-error");
    await error.waitFor();
    expect(await error.textContent()).toBe("The current password is not right.");
    expect(await form.getByLabel("Current password").getAttribute("aria-invalid")).toBe("true");
    expect(await form.getByLabel("Current password").getAttribute("aria-describedby")).toBe("current-password-error");
    expect(pathOf(page)).toBe("/profile");

    await form.getByLabel("Current password").fill(FIRST_PASSWORD);
    await form.getByLabel("New password").fill(NEW_PASSWORD);
    await form.getByRole("button", { name: "Change password" }).click();
    await page.waitForURL(`${demo.origin}/profile?password=changed`);
    expect(await page.getByTestId("password-changed").textContent()).toBe("Your password was changed. Your other devices were signed out.");
    // This browser stays signed in; the other one is signed out.
    expect(await page.getByTestId("signed-in-as").textContent()).toBe(email);
    await otherPage.goto("/protected");
    expect(pathOf(otherPage)).toBe("/auth/signin");

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    await page.getByText("You are signed out.").waitFor();

    // The old password no longer signs in; the new one does.
    await signInWithPassword(page, email, FIRST_PASSWORD);
    await page.getByTestId("password-signin-error").waitFor();
    expect(pathOf(page)).toBe("/signin");
    await signInWithPassword(page, email, NEW_PASSWORD);
    await page.waitForURL(`${demo.origin}/profile`);
    expect(await page.getByTestId("signed-in-as").textContent()).toBe(email);
    await page.close();
    // Two scrypt hashes per sign-up, sign-in and change, two browsers and the mailbox: slower than one page.
  }, 60_000);

  test("the profile page with its change-password form breaks no WCAG 2.1 A/AA rule (axe-core), errors shown or not", async () => {
    const page = await context.newPage();
    await signUp(page, "ada.byron@example.com", "/signin?redirectTo=/profile");
    expect(await page.getByTestId("change-password-form").count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);

    const form = page.getByTestId("change-password-form");
    await form.getByLabel("Current password").fill("not my password");
    await form.getByLabel("New password").fill(NEW_PASSWORD);
    await form.getByRole("button", { name: "Change password" }).click();
    await page.getByTestId("current-password-error").waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.close();
  }, 60_000);

  test("an authenticator app on the profile (useEnrollTotp, useConfirmTotp): the next sign-in takes the second step; a recovery code turns it off", async () => {
    const email = "katherine.johnson@example.com";
    const page = await context.newPage();
    await signUp(page, email, "/signin?redirectTo=/profile");
    const section = page.getByTestId("two-factor");
    expect(await section.getByTestId("two-factor-status").textContent()).toContain("Authenticator app: off.");
    await section.getByRole("button", { name: "Set up an authenticator app" }).click();
    const secret = (await section.getByTestId("totp-secret").textContent()) as string;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(await section.getByRole("img", { name: "QR code for your authenticator app" }).locator("svg").count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    // A wrong code: said in the section, nothing turned on.
    await section.getByLabel("Code from the app").fill(totpCode(secret, 4) === "000000" ? "111111" : "000000");
    await section.getByRole("button", { name: "Turn on" }).click();
    await section.getByTestId("two-factor-error").waitFor();
    await section.getByLabel("Code from the app").fill(totpCode(secret));
    await section.getByRole("button", { name: "Turn on" }).click();
    await section.getByTestId("recovery-codes").waitFor();
    const recoveryCodes = await section.getByTestId("recovery-code").allTextContents();
    expect(recoveryCodes).toHaveLength(10);
    expect(await section.getByTestId("two-factor-status").textContent()).toBe("Authenticator app: on. 10 recovery codes left.");
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    await signInWithPassword(page, email, FIRST_PASSWORD);
    await page.waitForURL((url) => url.pathname === "/auth/two-factor");
    await page.getByLabel("Code from your authenticator app").fill(totpCode(secret, 1));
    await page.getByRole("button", { name: "Continue" }).click();
    await page.waitForURL(`${demo.origin}/profile`);
    const session = JSON.parse((await page.getByTestId("session-json").textContent()) as string);
    expect([session.aal, session.amr]).toEqual([2, ["pwd", "otp"]]);

    // Off with a recovery code (the sign-in is recent).
    await section.getByLabel("Code from the app, or a recovery code").fill(recoveryCodes[0] as string);
    await section.getByRole("button", { name: "Turn off" }).click();
    await page.waitForFunction(() => document.querySelector('[data-testid="two-factor-status"]')?.textContent?.includes("off."));
    await page.close();
  }, 60_000);
});
