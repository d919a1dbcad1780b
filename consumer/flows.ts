/**
 * The sign-in flows of the guide, in Chromium, against any running consumer app (vite dev, a production
 * server, workerd): credentials, a wrong password shown on the form, OAuth at the local OpenID Provider,
 * an email link (SMTP or an HTTP mail API, see mailbox.ts), sign-out. {@link registerFlows} registers them as tests of the calling `describe`, so
 * every app and mode runs the same ones.
 */
import type { Browser, Page } from "playwright-core";
import { beforeEach, expect, onTestFailed, test } from "vitest";
import { CREDENTIALS_SIGNIN_MESSAGE } from "../packages/qwik/src/messages.js";
import type { Mailbox } from "./mailbox.js";
import type { AppServer } from "./server.js";
import { type Services, SSO } from "./services.js";

/** The user the guide's `src/server/users.ts` seeds (step 3). */
export const ADA = { email: "ada@example.com", password: "correct horse battery staple", name: "Ada Lovelace" };

/** What a mode's flows need beyond the app: where its email provider's mails arrive. */
export interface FlowOptions {
  mailbox: () => Mailbox;
}

/** A page that records what the browser loaded and every error it reported. */
interface WatchedPage {
  page: Page;
  requests: string[];
  errors: string[];
  close(): Promise<void>;
}

/** Opens a fresh context (no cookies) of `browser`, watching its page. */
export async function openPage(browser: Browser): Promise<WatchedPage> {
  const context = await browser.newContext();
  // Fail a step with its own message well before the test's time runs out.
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  page.on("request", (request) => requests.push(request.url()));
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    // Failed loads are recorded with their URL below.
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) errors.push(message.text());
  });
  page.on("response", (response) => {
    // A rejected sign-in is a 401 answer to the action; the OP's pages have no favicon.
    const ignored = response.status() === 401 || new URL(response.url()).pathname === "/favicon.ico";
    if (response.status() >= 400 && !ignored) errors.push(`${response.status()} ${response.url()}`);
  });
  return { page, requests, errors, close: () => context.close() };
}

async function signInWithPassword(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** The README's protected page shows `name` as the signed-in user. */
async function expectSignedInAs(page: Page, origin: string, name: string): Promise<void> {
  await page.goto(`${origin}/protected/`);
  expect(new URL(page.url()).pathname).toBe("/protected/");
  await expect.poll(async () => (await page.getByText("Signed in as").textContent())?.trim()).toBe(`Signed in as ${name}`.trim());
}

/** Signs out with the protected page's form; the session cookie is gone and the page is closed again. */
async function signOut(page: Page, origin: string): Promise<void> {
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL((url) => url.pathname === "/signin/");
  expect((await page.context().cookies()).some((cookie) => cookie.name.endsWith("session-token"))).toBe(false);
  await page.goto(`${origin}/protected/`);
  expect(new URL(page.url()).pathname).toBe("/signin/");
}

/** The session as the app's `/auth/session` endpoint gives it to the page. */
async function sessionEmail(page: Page): Promise<string | undefined> {
  const session = await page.evaluate(async () => (await fetch("/auth/session", { cache: "no-store" })).json());
  return session?.user?.email;
}

/**
 * Registers the flows as tests against `server()`, with the file's `services()`; call inside the
 * `describe` whose `beforeAll` starts the server.
 */
export function registerFlows(server: () => AppServer, services: () => Services, options: FlowOptions): void {
  beforeEach(() => {
    onTestFailed(() => console.error(`server output:\n${server().output()}`));
  });

  test("the protected page sends a signed-out visitor to the sign-in page", async () => {
    const { page, close } = await openPage(services().browser);
    await page.goto(`${server().url}/protected/`);
    expect(new URL(page.url()).pathname).toBe("/signin/");
    await close();
  });

  test("credentials: a wrong password stays on the form and shows the error; the right one reaches the protected page; sign-out ends it", async () => {
    const { page, requests, errors, close } = await openPage(services().browser);
    const origin = server().url;
    await page.goto(`${origin}/signin/`, { waitUntil: "networkidle" });

    await signInWithPassword(page, ADA.email, "not the password");
    await expect.poll(() => page.getByRole("alert").textContent()).toContain(CREDENTIALS_SIGNIN_MESSAGE);
    expect(new URL(page.url()).pathname).toBe("/signin/");

    await signInWithPassword(page, ADA.email, ADA.password);
    await page.waitForURL((url) => url.pathname === "/protected/");
    await expect.poll(() => page.getByText("Signed in as").textContent()).toBe(`Signed in as ${ADA.name}`);
    const cookies = await page.context().cookies();
    expect(cookies.some((cookie) => cookie.name.endsWith("session-token") && cookie.httpOnly)).toBe(true);
    await signOut(page, origin);

    // The client never loaded core (its server-only modules) and no script failed.
    // (Its errors module, which imports nothing, may load: the hooks' `instanceof` checks use it.)
    expect(requests.filter((url) => /\/cookie\/|@authlib\/core\/dist\/(index|password|webauthn)/.test(url))).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  });

  test("OAuth: the built-in page's button signs in at the local OpenID Provider and back; sign-out ends it", async () => {
    const { page, errors, close } = await openPage(services().browser);
    const origin = server().url;
    await page.goto(`${origin}/auth/signin`);
    await page.getByRole("button", { name: SSO.button }).click();
    await page.waitForURL((url) => url.origin === services().op.issuer);
    await page.getByLabel("Account").fill("alice");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL((url) => url.origin === origin && !url.pathname.startsWith("/auth/callback"));
    expect(await sessionEmail(page)).toBe("alice@example.com");
    await expectSignedInAs(page, origin, "Alice Liddell");
    await signOut(page, origin);
    expect(errors).toEqual([]);
    await close();
  });

  test("email: the built-in page mails a link; the link signs in; sign-out ends it", async () => {
    const { page, errors, close } = await openPage(services().browser);
    const origin = server().url;
    const mailbox = options.mailbox();
    const since = mailbox.count();
    const address = `grace-${since}@example.com`;
    await page.goto(`${origin}/auth/signin`);
    const form = page.getByRole("form", { name: "Sign in with Email" });
    await form.getByLabel("Email").fill(address);
    await form.getByRole("button", { name: "Sign in with Email" }).click();
    await page.waitForURL((url) => url.pathname === "/auth/verify-request");

    const mail = await mailbox.nextMail(since);
    expect(mail.to).toBe(address);
    const link = mail.text.match(new RegExp(`https?://\\S+/auth/callback/${mailbox.providerId}\\S*`))?.[0];
    expect(link, mail.text).toBeDefined();
    await page.goto(link as string);
    await page.waitForURL((url) => !url.pathname.startsWith("/auth/callback"));
    expect(await sessionEmail(page)).toBe(address);
    // An email-only user has no name yet: the page says "Signed in as" and nothing after it.
    await expectSignedInAs(page, origin, "");
    await signOut(page, origin);
    expect(errors).toEqual([]);
    await close();
  });
}
