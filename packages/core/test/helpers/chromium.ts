/**
 * Debian's Chromium (/usr/bin/chromium) through playwright-core with the flags our machines need, and a
 * Chrome DevTools virtual authenticator for passkey tests. Shared by the core and demo browser tests.
 */
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
