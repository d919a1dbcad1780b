/**
 * Helpers the demo's browser test files share; Chromium itself and the virtual authenticator come from
 * the core test helpers.
 */
import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";

export { addVirtualAuthenticator, axeViolations, launchChromium } from "../../../packages/core/test/helpers/chromium.js";

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
