/**
 * The account page's passkeys section in Debian's Chromium with virtual authenticators (Chrome DevTools
 * Protocol), Auth() behind a node:http server and the hosted-db adapter on in-memory PGlite: the page
 * lists the passkey, "Add a passkey" adds one through the library's script, a passkey is renamed and
 * removed through its forms, the last one is refused, an add with a sign-in half an hour old goes to sign
 * in again and back, and axe-core finds no WCAG 2.1 A/AA violation on the page (two passkeys listed,
 * then an error shown).
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAuth } from "../../src/kernel/instance.js";
import Passkey from "../../src/providers/passkey.js";
import { addVirtualAuthenticator, axeViolations, launchChromium, openWatchedTab, registerPasskey } from "../helpers/chromium.js";
import { closeSharedPglite, freshDatabase, sharedPglite } from "../helpers/database.js";
import { type NodeServer, startNodeServer } from "../helpers/node-server.js";

const SECRET = "passkey-account-browser-secret-0123456789abcdef";
/** Browser round trips on a busy machine: more than the default 30 s, never close to it when idle. */
const BROWSER_TEST_TIMEOUT = 120_000;

let browser: Browser;
let server: NodeServer;

const homePage = () =>
  new Response('<!doctype html><html lang="en"><meta charset="utf-8"><title>Home</title><h1>Home</h1></html>', {
    headers: { "content-type": "text/html; charset=utf-8" },
  });

beforeAll(async () => {
  // Cold starts (PGlite, Chromium) belong to the hook, not to the test's time budget.
  [browser] = await Promise.all([launchChromium(), sharedPglite().waitReady]);
  const { adapter } = await freshDatabase();
  const auth = createAuth({
    secret: SECRET,
    trustHost: true,
    adapter,
    session: { strategy: "jwt" },
    // Conditional UI off: Chrome's virtual authenticator answers an autofill request at once.
    providers: [Passkey({ enableConditionalUI: false })],
    experimental: { enableWebAuthn: true },
    logger: { warn: () => {}, error: () => {} },
  });
  server = await startNodeServer((request) => auth.handler(request), { fallback: homePage });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await closeSharedPglite();
});

describe("the account page's passkeys in Chromium", () => {
  it(
    "lists the passkey, adds another with the button, renames one, removes it, refuses the last, sends an old sign-in to sign in again; no axe violation",
    async () => {
      const { origin } = server;
      const { context, page, problems } = await openWatchedTab(browser, true);
      try {
        const first = await addVirtualAuthenticator(context, page);
        await registerPasskey(page, origin);

        await page.goto(`${origin}/auth/account`);
        const section = page.locator("section", { has: page.getByRole("heading", { name: "Passkeys" }) });
        await expect.poll(() => section.locator("li").count()).toBe(1);
        const today = new Date().toISOString().slice(0, 10);
        expect(await section.locator("li strong").allTextContents()).toEqual([`Passkey ${today}`]);
        expect(await section.locator("li .muted").first().textContent()).toMatch(/^Added .+ · Not used yet$/);

        // A second device: the first authenticator holds a passkey of this user already (excluded).
        await first.cdp.send("WebAuthn.removeVirtualAuthenticator", { authenticatorId: first.authenticatorId });
        await addVirtualAuthenticator(context, page);
        await Promise.all([
          page.waitForURL(`${origin}/auth/account?done=passkey-added`),
          page.getByRole("button", { name: "Add a passkey" }).click(),
        ]);
        await expect.poll(() => page.getByRole("status").first().textContent()).toMatch(/The passkey was added/);
        expect(await section.locator("li").count()).toBe(2);

        expect(await axeViolations(page)).toEqual([]);

        // Rename the first passkey.
        await page.getByLabel(`New name for Passkey ${today}`).first().fill("  Work laptop ");
        await Promise.all([
          page.waitForURL(`${origin}/auth/account?done=passkey-renamed`),
          section.locator("li").first().getByRole("button", { name: "Rename" }).click(),
        ]);
        expect(await section.locator("li strong").allTextContents()).toEqual(["Work laptop", `Passkey ${today}`]);

        // Remove it: the other one stays.
        await Promise.all([
          page.waitForURL(`${origin}/auth/account?done=passkey-removed`),
          page.getByRole("button", { name: "Remove Work laptop" }).click(),
        ]);
        expect(await section.locator("li strong").allTextContents()).toEqual([`Passkey ${today}`]);
        expect(await page.getByRole("status").first().textContent()).toMatch(/The passkey was removed/);

        // The last one is the user's last way in: refused, and said so.
        await Promise.all([
          page.waitForURL(`${origin}/auth/account?error=LastSignInMethod`),
          page.getByRole("button", { name: `Remove Passkey ${today}` }).click(),
        ]);
        expect(await page.getByRole("alert").textContent()).toMatch(/last way to sign in/);
        expect(await section.locator("li").count()).toBe(1);
        expect(await axeViolations(page)).toEqual([]);

        // Half an hour later (the server's clock: it runs in this process) the sign-in is too old to add a
        // passkey: the options answer 403 RecentSignInRequired, and the page goes to sign in again and back.
        vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 30 * 60 * 1000 });
        try {
          await Promise.all([
            page.waitForURL((url) => url.pathname === "/auth/signin"),
            page.getByRole("button", { name: "Add a passkey" }).click(),
          ]);
        } finally {
          vi.useRealTimers();
        }
        const signIn = new URL(page.url());
        expect([signIn.searchParams.get("callbackUrl"), signIn.searchParams.get("error")]).toEqual([
          `${origin}/auth/account`,
          "RecentSignInRequired",
        ]);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    },
    BROWSER_TEST_TIMEOUT,
  );
});
