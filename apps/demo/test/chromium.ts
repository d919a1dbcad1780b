/**
 * Debian's Chromium (/usr/bin/chromium) through playwright-core, with the flags our machines need, and
 * small helpers the browser test files share.
 */
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium, type Page } from "playwright-core";

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

/** Starts Chromium: one per test file, each test in a context of its own. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
}

/** A fresh context (its own cookies) on `origin`, with a 10 s default timeout. */
export async function newContext(browser: Browser, origin: string, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: origin, ...options });
  context.setDefaultTimeout(10_000);
  return context;
}

/** A page in a fresh context. */
export async function openPage(browser: Browser, origin: string, options: BrowserContextOptions = {}): Promise<Page> {
  return (await newContext(browser, origin, options)).newPage();
}

/** The path of the page's URL. */
export function pathOf(page: Page): string {
  return new URL(page.url()).pathname;
}
