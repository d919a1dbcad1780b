/**
 * The demo's other sign-in methods in real Chromium, against the production build with a fresh database:
 * the development OpenID Provider (its login page filled by hand), email links through the development
 * SMTP server and /dev/mailbox, passkeys with a virtual authenticator (Chrome DevTools Protocol), and the
 * profile page's list of database sessions.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { addVirtualAuthenticator, axeViolations, launchChromium, newContext, openPage as openPageOn, pathOf } from "./chromium.js";
import { type DemoServer, startDemo } from "./demo-server.js";

let demo: DemoServer;
let browser: Browser;

beforeAll(async () => {
  [demo, browser] = await Promise.all([startDemo({ AUTH_SECRET: "browser-providers-secret-0123456789abcdef0123" }), launchChromium()]);
});

afterAll(async () => {
  await browser?.close();
  await demo?.stop();
});

function openPage(): Promise<Page> {
  return openPageOn(browser, demo.origin);
}

/** Signs in at the development OP as `username`, starting from the app's sign-in page; ends on /profile. */
async function signInWithDemoOP(page: Page, username: string): Promise<void> {
  await page.goto("/signin?redirectTo=/profile");
  await page.getByRole("button", { name: "Sign in with Demo OpenID Provider" }).click();
  // The OP's own login page, on its own port.
  await page.getByLabel("Username").fill(username);
  expect(new URL(page.url()).pathname).toMatch(/^\/interaction\//);
  expect(new URL(page.url()).origin).not.toBe(demo.origin);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL(`${demo.origin}/profile`);
}

/** The token prefixes of the sessions listed on the profile page, and the one marked as this browser's. */
async function listedSessions(page: Page): Promise<{ prefixes: string[]; current: string | undefined }> {
  await page.goto("/profile");
  const rows = page.getByTestId("active-session");
  const prefixes = await rows.getByTestId("session-token-prefix").allTextContents();
  const currentRow = rows.filter({ has: page.getByTestId("current-session") });
  const current =
    (await currentRow.count()) === 1 ? ((await currentRow.getByTestId("session-token-prefix").textContent()) ?? undefined) : undefined;
  return { prefixes, current };
}

async function signOut(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL((url) => url.pathname === "/");
  await page.getByText("You are signed out.").waitFor();
}

describe("the demo's providers in Chromium", () => {
  test("signs in through the development OpenID Provider, its login page filled by hand", async () => {
    const page = await openPage();
    // Any username: the OP makes the account "ada-oidc" of it.
    await signInWithDemoOP(page, "Ada Oidc");
    expect(await page.getByTestId("signed-in-as").textContent()).toBe("ada-oidc@example.com");
    expect(await page.getByTestId("profile-name").textContent()).toBe("Ada Oidc");
    const sessionJson = (await page.getByTestId("session-json").textContent()) ?? "";
    expect(JSON.parse(sessionJson)).toMatchObject({ user: { email: "ada-oidc@example.com", name: "Ada Oidc" } });
    const { prefixes, current } = await listedSessions(page);
    expect(prefixes).toHaveLength(1);
    expect(current).toBe(prefixes[0]);

    // A new user and account in the database, and the audit trail's rows of it on the audit page.
    await page.goto("/audit");
    const log = (await page.getByTestId("audit-log").textContent()) ?? "";
    for (const event of ["linkAccount", "signIn"]) expect(log).toContain(event);
    expect(log).toContain("provider demo-op");
    await page.context().close();
  });

  test("email: a link is sent to the dev mailbox, signs in once, and a second click ends on the Verification error", async () => {
    const page = await openPage();
    const address = "mail.reader@example.com";
    await page.goto("/signin?redirectTo=/profile");
    const form = page.getByTestId("email-signin-form");
    await form.getByLabel("Email address").fill(address);
    await form.getByRole("button", { name: "Send me a sign-in link" }).click();
    // The app's own verify-request page (pages.verifyRequest), with the code form (useEmailCode).
    await page.waitForURL((url) => url.pathname === "/check-email");
    expect(await page.getByTestId("email-code-form").isVisible()).toBe(true);

    await page.goto("/dev/mailbox");
    const mail = page.getByTestId("mail").filter({ hasText: address }).first();
    expect(await mail.getByTestId("mail-to").textContent()).toBe(address);
    expect(await mail.getByTestId("mail-subject").textContent()).toBe(`Sign in to ${new URL(demo.origin).host}`);
    // The HTML part is shown only in a sandboxed frame.
    expect(await mail.locator("iframe").getAttribute("sandbox")).toBe("");
    const link = mail.getByTestId("mail-link");
    const href = (await link.getAttribute("href")) ?? "";
    expect(new URL(href).pathname).toBe("/auth/callback/nodemailer");

    await link.click();
    await page.waitForURL(`${demo.origin}/profile`);
    expect(await page.getByTestId("signed-in-as").textContent()).toBe(address);

    // The link works once: opened again (the flow is over here, so its confirmation page), it is refused.
    await page.goto("/dev/mailbox");
    await page.getByTestId("mail").filter({ hasText: address }).first().getByTestId("mail-link").click();
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL((url) => url.pathname === "/auth/error");
    expect(new URL(page.url()).searchParams.get("error")).toBe("Verification");
    await page.context().close();
  });

  test("email code: typed on the app's /check-email page (useEmailCode); a wrong one is said there, the right one signs in", async () => {
    const page = await openPage();
    const address = "code.typer@example.com";
    await page.goto("/signin?redirectTo=/profile");
    const form = page.getByTestId("email-signin-form");
    await form.getByLabel("Email address").fill(address);
    await form.getByRole("button", { name: "Send me a sign-in link" }).click();
    await page.waitForURL((url) => url.pathname === "/check-email");
    const checkEmail = page.url();

    await page.goto("/dev/mailbox");
    const code = (await page.getByTestId("mail").filter({ hasText: address }).first().getByTestId("mail-code").textContent()) ?? "";
    expect(code).toMatch(/^\d{6}$/);

    await page.goto(checkEmail);
    const codeForm = page.getByTestId("email-code-form");
    await codeForm.getByLabel("Code from the email").fill(String((Number(code) + 1) % 1_000_000).padStart(6, "0"));
    await codeForm.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByTestId("email-code-error").textContent()).resolves.toContain("tries left");
    await codeForm.getByLabel("Code from the email").fill(code);
    await codeForm.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${demo.origin}/profile`);
    expect(await page.getByTestId("signed-in-as").textContent()).toBe(address);
    await page.context().close();
  });

  test("passkeys: registers on the built-in page with a virtual authenticator, signs out, signs in with the passkey", async () => {
    const context = await newContext(browser, demo.origin);
    const page = await context.newPage();
    const { cdp, authenticatorId } = await addVirtualAuthenticator(context, page);
    const optionsRequests: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/auth/webauthn-options/")) optionsRequests.push(new URL(request.url()).searchParams.get("action") ?? "");
    });
    const displayName = "Passkey User";

    await page.goto("/auth/signin?callbackUrl=/profile");
    const registration = page.locator("form[data-webauthn-register]");
    await registration.getByLabel("Display name").fill(displayName);
    await registration.getByRole("button", { name: "Register a passkey" }).click();
    await page.waitForURL(`${demo.origin}/profile`);
    // A passkey user holds no address: the page shows the display name.
    expect(await page.getByTestId("signed-in-as").textContent()).toBe(displayName);
    const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
    expect(credentials).toHaveLength(1);

    await signOut(page);

    // The sign-in page asks for a passkey as soon as it loads (conditional UI: the browser offers it in
    // the email field's autofill); the virtual authenticator answers at once, as a user picking it would.
    optionsRequests.length = 0;
    await page.goto("/auth/signin?callbackUrl=/profile");
    await page.waitForURL(`${demo.origin}/profile`);
    expect(optionsRequests).toContain("authenticate");
    expect(await page.getByTestId("signed-in-as").textContent()).toBe(displayName);
    const { prefixes, current } = await listedSessions(page);
    expect(prefixes).toHaveLength(1);
    expect(current).toBe(prefixes[0]);
    // The audit log names the passkey user (who has no address) by their display name.
    await page.goto("/audit");
    const users = await page.locator("[data-testid=audit-log] tbody tr td:nth-child(4)").allTextContents();
    expect(users).toContain(`${displayName} (no email)`);
    // Every row about a user names them (rows of anonymous failed attempts have no user).
    expect(users.filter((user) => user.startsWith("user "))).toEqual([]);
    await context.close();
  });

  test("profile: 'Link another account' links the demo OP account to the signed-in user, who can then sign in with it", async () => {
    // bypassCSP: axe-core is injected into the page below.
    const page = await openPageOn(browser, demo.origin, { bypassCSP: true });
    await page.goto("/signin?redirectTo=/profile");
    const form = page.getByTestId("signin-form");
    await form.getByLabel("Email").fill("demo@authlib.dev");
    await form.getByLabel("Password").fill("correct-horse-battery");
    await form.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${demo.origin}/profile`);
    expect(await page.getByTestId("signed-in-as").textContent()).toBe("demo@authlib.dev");
    // The password is not an account row: nothing is linked yet.
    await page.getByTestId("accounts-empty").waitFor();
    expect(await page.getByTestId("linked-account").count()).toBe(0);

    await page.getByTestId("link-account-form").getByRole("button", { name: "Link another account" }).click();
    await page.getByLabel("Username").fill("linked-demo");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL(`${demo.origin}/profile`);
    expect(await page.getByTestId("signed-in-as").textContent()).toBe("demo@authlib.dev");

    // The section lists the linked OP account. Unlinking it is refused: the demo password (the app's own
    // authorize) does not count and the address is not proven, so it is the user's last way in.
    const linked = page.getByTestId("linked-account");
    expect(await linked.count()).toBe(1);
    expect(await linked.textContent()).toContain("demo-op (oidc)");
    await linked.getByRole("button", { name: "Unlink" }).click();
    await expect.poll(() => page.getByTestId("unlink-error").textContent()).toMatch(/last way to sign in.*\(LastSignInMethod\)/);
    expect(await page.getByTestId("linked-account").count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);

    // Signed out, the OP account now signs in as the demo user (not as a new user).
    await signOut(page);
    await signInWithDemoOP(page, "linked-demo");
    expect(await page.getByTestId("signed-in-as").textContent()).toBe("demo@authlib.dev");
    await page.context().close();
  });

  test("the profile lists the user's active sessions; signing out removes this browser's", async () => {
    const [first, second] = [await openPage(), await openPage()];
    await signInWithDemoOP(first, "sam");
    await signInWithDemoOP(second, "sam");

    const seenByFirst = await listedSessions(first);
    expect(seenByFirst.prefixes).toHaveLength(2);
    for (const prefix of seenByFirst.prefixes) expect(prefix).toMatch(/^[\w-]{6}…$/);
    expect(seenByFirst.current).toBeDefined();
    const seenBySecond = await listedSessions(second);
    expect(seenBySecond.prefixes.toSorted()).toEqual(seenByFirst.prefixes.toSorted());
    expect(seenBySecond.current).not.toBe(seenByFirst.current);

    // Never more of the token than the prefix: the page does not contain the session cookie's value.
    const [cookie] = (await first.context().cookies()).filter((c) => c.name === "authlib.session-token");
    expect(cookie?.value).toBeTruthy();
    expect(await first.content()).not.toContain(cookie?.value);

    await signOut(first);
    expect(pathOf(first)).toBe("/");
    const afterSignOut = await listedSessions(second);
    expect(afterSignOut.prefixes).toEqual([seenBySecond.current]);
    expect(afterSignOut.current).toBe(seenBySecond.current);
    await Promise.all([first.context().close(), second.context().close()]);
  });
});
