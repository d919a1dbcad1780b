/**
 * Debian's Chromium (/usr/bin/chromium) through playwright-core with the flags our machines need, and a
 * Chrome DevTools virtual authenticator for passkey tests. Shared by the core and demo browser tests.
 */
import { createRequire } from "node:module";
import { type Browser, type BrowserContext, type CDPSession, chromium, type Page } from "playwright-core";

/** Chromium's flags on our machines (see reference/machine-facts.md). */
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Starts Chromium: one per test file. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
}

/**
 * Adds a platform authenticator with user verification (a passkey-capable device) to `page`, through
 * the DevTools protocol (`WebAuthn.enable`, `WebAuthn.addVirtualAuthenticator`).
 */
export async function addVirtualAuthenticator(context: BrowserContext, page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable", { enableUI: false });
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

/** The session as the page's own script sees it (`GET /auth/session`, never cached). */
export async function pageSession(page: Page): Promise<{ user?: { id?: string; email?: string | null; name?: string | null } } | null> {
  return page.evaluate(async () => (await fetch("/auth/session", { cache: "no-store" })).json());
}

/** Signs out on the built-in sign-out page, which sends the browser to the home page. */
export async function signOutInPage(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/auth/signout`);
  await Promise.all([page.waitForURL(`${origin}/`), page.getByRole("button", { name: /sign out/i }).click()]);
}

/**
 * Registers a passkey named `name` (default "Ada Lovelace", typed with spaces around it) on the built-in
 * sign-in page; the page follows the server's answer to the home page.
 */
export async function registerPasskey(page: Page, origin: string, name = "  Ada Lovelace "): Promise<void> {
  await page.goto(`${origin}/auth/signin`);
  await page.getByLabel("Display name").fill(name);
  await Promise.all([page.waitForURL(`${origin}/`), page.getByRole("button", { name: "Register a passkey" }).click()]);
}

/**
 * Signs in with the "Sign in with Passkey" button of the built-in page (a discoverable credential, no name
 * typed). Use with `enableConditionalUI: false`: Chrome's virtual authenticator answers an autofill request
 * at once, which would race the button.
 */
export async function signInWithPasskey(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/auth/signin`);
  await Promise.all([page.waitForURL(`${origin}/`), page.getByRole("button", { name: "Sign in with Passkey" }).click()]);
}

/** A browser context and its page; `problems` collects the script errors and CSP violations of its pages. */
export interface WatchedTab {
  context: BrowserContext;
  page: Page;
  problems: string[];
}

/**
 * Opens a context of `browser` whose pages' script errors and CSP violations are collected; `axe: true`
 * lets axe-core be injected past the pages' CSP (every other context keeps it). A missing element fails a
 * step in 10 s, well inside a test's own timeout.
 */
export async function openWatchedTab(browser: Browser, axe = false): Promise<WatchedTab> {
  const context = await browser.newContext({ bypassCSP: axe });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("pageerror", (error) => void problems.push(`script error: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy/i.test(message.text())) problems.push(message.text());
  });
  return { context, page, problems };
}

/** One accessibility rule a page breaks, as axe-core reports it: the rule, its impact, where. */
export interface AxeViolation {
  id: string;
  impact: string | null;
  targets: string[];
}

/** axe-core's browser build, injected into the page under test. */
const AXE_SCRIPT = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

/**
 * The WCAG 2 A/AA rules `page` breaks as it is now, by axe-core run in the page. The context must allow
 * the injected script (`bypassCSP: true` where the app sends a Content-Security-Policy).
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.addScriptTag({ path: AXE_SCRIPT });
  return page.evaluate(async () => {
    type Result = { violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: string[] }> }> };
    const axe = (globalThis as unknown as { axe: { run(context: Document, options: object): Promise<Result> } }).axe;
    const { violations } = await axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } });
    return violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(" ")) }));
  });
}
