/**
 * The README's sign-in flow, driven in Chromium against a consumer app's server: the protected page sends a
 * signed-out visitor to sign-in, a wrong password shows the error on the form, the right one reaches the
 * protected page, sign-out ends the session: the README's credentials-only set-up (flows.ts has the guide's
 * full set of flows, which need its providers and services).
 */
import type { Browser, Page } from "playwright-core";
import { beforeEach, expect, onTestFailed, test } from "vitest";
import { CREDENTIALS_SIGNIN_MESSAGE } from "../packages/qwik/src/messages.js";
import { ADA } from "./fixture/src/server/users.js";
import { openPage } from "./flows.js";
import type { AppServer } from "./server.js";

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** The README's flow as tests, the same against every server. */
export function signInFlow(browser: () => Browser, server: () => AppServer): void {
  beforeEach(() => {
    onTestFailed(() => console.error(`server output:\n${server().output()}`));
  });

  test("the protected page sends a signed-out visitor to the sign-in page", async () => {
    const { page, close } = await openPage(browser());
    await page.goto(`${server().url}/protected/`);
    expect(new URL(page.url()).pathname).toBe("/signin/");
    await close();
  });

  test("a wrong password stays on the form and shows the error; the right one reaches the protected page; sign-out ends it", async () => {
    const { page, requests, errors, close } = await openPage(browser());
    await page.goto(`${server().url}/signin/`, { waitUntil: "networkidle" });

    await signIn(page, ADA.email, "not the password");
    await expect.poll(() => page.getByRole("alert").textContent()).toContain(CREDENTIALS_SIGNIN_MESSAGE);
    expect(new URL(page.url()).pathname).toBe("/signin/");

    await signIn(page, ADA.email, ADA.password);
    await page.waitForURL((url) => url.pathname === "/protected/");
    await expect.poll(() => page.getByText("Signed in as").textContent()).toBe(`Signed in as ${ADA.name}`);
    const cookies = await page.context().cookies();
    expect(cookies.some((cookie) => cookie.name.endsWith("session-token") && cookie.httpOnly)).toBe(true);

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL((url) => url.pathname === "/signin/");
    expect((await page.context().cookies()).some((cookie) => cookie.name.endsWith("session-token"))).toBe(false);
    await page.goto(`${server().url}/protected/`);
    expect(new URL(page.url()).pathname).toBe("/signin/");

    // The client never loaded core (its server-only modules) and no script failed.
    // (Its errors module, which imports nothing, may load: the hooks' `instanceof` checks use it.)
    expect(requests.filter((url) => /\/cookie\/|@authlib\/core\/dist\/(index|password|webauthn)/.test(url))).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  });
}
