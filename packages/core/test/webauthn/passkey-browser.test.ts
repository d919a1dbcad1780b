/**
 * Passkeys end to end in Debian's Chromium: the built-in sign-in page, the library-served script, a
 * virtual authenticator (Chrome DevTools Protocol), Auth() behind a node:http server, and the hosted-db
 * adapter on in-memory PGlite.
 */

import type { HostedDbClient } from "@authlib/hosted-db-adapter";
import type { Browser, BrowserContext, CDPSession, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Auth } from "../../src/kernel/auth.js";
import Passkey, { type PasskeyOptions } from "../../src/providers/passkey.js";
import type { Adapter } from "../../src/types/adapters.js";
import type { AuthConfig, SessionStrategy } from "../../src/types/config.js";
import {
  addVirtualAuthenticator,
  launchChromium,
  registerPasskey as register,
  pageSession as session,
  signInWithPasskey,
  signOutInPage as signOut,
} from "../helpers/chromium.js";
import { closeSharedPglite, freshDatabase, sharedPglite } from "../helpers/database.js";
import { type NodeServer, startNodeServer } from "../helpers/node-server.js";

const secret = "passkey-browser-secret-0123456789abcdef";
/** Browser round trips on a busy machine: more than the default 30 s, never close to it when idle. */
const BROWSER_TEST_TIMEOUT = 90_000;

let browser: Browser;
const servers: NodeServer[] = [];

beforeAll(async () => {
  // Cold starts (PGlite, Chromium) belong to the hook, not to the tests' time budget.
  await sharedPglite().waitReady;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await Promise.all(servers.map((server) => server.close()));
  await closeSharedPglite();
});

const homePage = () =>
  new Response("<!doctype html><title>Home</title><h1>Home</h1>", { headers: { "content-type": "text/html; charset=utf-8" } });

/** An app with the passkey provider on its own database branch, served on http://localhost:<port>. */
async function startApp(strategy: SessionStrategy, passkey: PasskeyOptions = {}) {
  const db = await freshDatabase();
  const warnings: string[] = [];
  const errors: string[] = [];
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter: db.adapter,
    session: { strategy },
    providers: [Passkey(passkey)],
    experimental: { enableWebAuthn: true },
    logger: { warn: (code) => void warnings.push(code), error: (error) => void errors.push(`${error.name}: ${error.message}`) },
  };
  const server = await startNodeServer((request) => Auth(request, config), { fallback: homePage });
  servers.push(server);
  return { ...db, config, server, warnings, errors };
}

/** A browser context with a page and a CTAP2 platform authenticator that verifies the user. */
async function openBrowser(): Promise<{
  context: BrowserContext;
  page: Page;
  cdp: CDPSession;
  authenticatorId: string;
  pageErrors: string[];
}> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on("pageerror", (error) => void pageErrors.push(error.message));
  const { cdp, authenticatorId } = await addVirtualAuthenticator(context, page);
  return { context, page, cdp, authenticatorId, pageErrors };
}

/** The authenticators of the one user the test registered (a passkey user holds no email, see issue 12). */
async function authenticatorsOf(app: { adapter: Adapter; client: HostedDbClient }) {
  const users = await app.client.db.authlib_users.filter();
  expect(users).toHaveLength(1);
  return app.adapter.listAuthenticatorsByUserId!(users[0]!.id);
}

describe("passkeys in Chromium with a virtual authenticator", () => {
  it(
    "registers on the built-in page, signs out, signs in with the passkey button; the counter is stored (database sessions)",
    async () => {
      // Conditional UI off: Chrome's virtual authenticator answers an autofill request at once, which would
      // race the button.
      const app = await startApp("database", { enableConditionalUI: false });
      const { origin } = app.server;
      const { context, page, cdp, authenticatorId, pageErrors } = await openBrowser();
      const scripts: Array<{ status: number; type?: string; cache?: string }> = [];
      page.on("response", (response) => {
        if (!response.url().includes("/auth/webauthn-script")) return;
        const headers = response.headers();
        scripts.push({ status: response.status(), type: headers["content-type"], cache: headers["cache-control"] });
      });
      const optionsRequests: string[] = [];
      page.on("request", (request) => {
        if (request.url().includes("/auth/webauthn-options/")) optionsRequests.push(new URL(request.url()).search);
      });
      try {
        // An address typed as the display name is refused in the page: no options asked, nothing stored.
        await page.goto(`${origin}/auth/signin`);
        await page.getByLabel("Display name").fill("ada@example.com");
        await page.getByRole("button", { name: "Register a passkey" }).click();
        await expect.poll(() => page.locator("[data-webauthn-status]").textContent()).toMatch(/not an email address/);
        expect(optionsRequests).toEqual([]);
        expect(await app.client.db.authlib_users.filter()).toEqual([]);

        await register(page, origin);
        expect(optionsRequests).toEqual([`?${new URLSearchParams({ action: "register", name: "Ada Lovelace" })}`]);
        expect((await session(page))?.user).toMatchObject({ email: null, name: "Ada Lovelace" });
        const [stored] = await authenticatorsOf(app);
        expect(stored).toMatchObject({ credentialDeviceType: "singleDevice", credentialBackedUp: false, transports: "internal" });
        const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
        expect(credentials).toHaveLength(1);
        expect(credentials[0]?.isResidentCredential).toBe(true);
        const counterAfterRegistration = stored!.counter;
        expect(await app.adapter.getAccount!(stored!.credentialID, "passkey")).toMatchObject({ type: "webauthn", userId: stored!.userId });

        await signOut(page, origin);
        expect(await session(page)).toBeNull();

        // The passkey alone (discoverable credential, no email typed).
        await signInWithPasskey(page, origin);
        expect((await session(page))?.user).toMatchObject({ email: null, name: "Ada Lovelace" });

        // The authenticator's signature counter went up, and the database holds the new value.
        const [afterSignIn] = await authenticatorsOf(app);
        const {
          credentials: [credential],
        } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
        expect(afterSignIn!.counter).toBeGreaterThan(counterAfterRegistration);
        expect(afterSignIn!.counter).toBe(credential!.signCount);

        // The script came from the library itself, never cached (like the pages), and ran under the pages'
        // Content-Security-Policy; the feature warned once.
        expect(scripts[0]).toMatchObject({ status: 200, type: "text/javascript; charset=utf-8" });
        expect(scripts[0]?.cache).toBe("no-store");
        expect(app.warnings.filter((code) => code === "experimental-webauthn")).toHaveLength(1);
        expect(app.errors).toEqual([]);
        expect(pageErrors).toEqual([]);
      } finally {
        await context.close();
      }
    },
    BROWSER_TEST_TIMEOUT,
  );

  it(
    "signs in through conditional UI (autofill) after registering (JWT sessions)",
    async () => {
      const app = await startApp("jwt");
      const { origin } = app.server;
      const { context, page, pageErrors } = await openBrowser();
      const optionsRequests: string[] = [];
      page.on("request", (request) => {
        if (request.url().includes("/auth/webauthn-options/")) optionsRequests.push(new URL(request.url()).search);
      });
      try {
        await register(page, origin);
        expect((await session(page))?.user).toMatchObject({ email: null, name: "Ada Lovelace" });
        await signOut(page, origin);
        expect(await session(page)).toBeNull();

        // Loading the page arms an autofill request (mediation "conditional"); the virtual authenticator
        // answers it without a click, as a user picking the passkey from the display-name field's autofill would.
        optionsRequests.length = 0;
        await page.goto(`${origin}/auth/signin`);
        await page.waitForURL(`${origin}/`);
        expect(optionsRequests).toEqual(["?action=authenticate"]);
        expect((await session(page))?.user).toMatchObject({ email: null, name: "Ada Lovelace" });
        expect(app.errors).toEqual([]);
        expect(pageErrors).toEqual([]);
      } finally {
        await context.close();
      }
    },
    BROWSER_TEST_TIMEOUT,
  );
});
