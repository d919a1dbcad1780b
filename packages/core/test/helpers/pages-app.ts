/**
 * The set-up of the browser tests of the built-in pages: Debian's Chromium, a real SMTP server, and a
 * Node server running `createAuth` (JWT sessions, a fresh branch of the test file's PGlite) with the
 * configuration the test gives; other paths answer a plain home page.
 */
import type { Browser } from "playwright-core";
import { createAuth } from "../../src/kernel/instance.js";
import type { AuthConfig } from "../../src/types/config.js";
import { launchChromium } from "./chromium.js";
import { closeSharedPglite, freshDatabase, sharedPglite } from "./database.js";
import { type NodeServer, startNodeServer } from "./node-server.js";
import { startSmtpServer } from "./smtp.js";

/** What {@link startPagesApp} started. */
export interface PagesApp {
  browser: Browser;
  smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  server: NodeServer;
  /** Stops all of it (and closes the file's PGlite). */
  close(): Promise<void>;
}

const homePage = () =>
  new Response('<!doctype html><html lang="en"><meta charset="utf-8"><title>Home</title><h1>Home</h1></html>', {
    headers: { "content-type": "text/html; charset=utf-8" },
  });

/** Starts the browser, the SMTP server and the app whose configuration `configOf` makes (it gets the SMTP server). */
export async function startPagesApp(configOf: (smtp: PagesApp["smtp"]) => Omit<AuthConfig, "adapter">): Promise<PagesApp> {
  // Cold starts belong to the hook, not to the tests' time budget.
  const [browser, smtp] = await Promise.all([launchChromium(), startSmtpServer(), sharedPglite().waitReady]);
  const { adapter } = await freshDatabase();
  const auth = createAuth({ trustHost: true, session: { strategy: "jwt" }, ...configOf(smtp), adapter });
  const server = await startNodeServer((request, { remoteAddress }) => auth.handler(request, { clientAddress: remoteAddress }), {
    fallback: homePage,
  });
  return {
    browser,
    smtp,
    server,
    async close() {
      await browser.close();
      await server.close();
      await smtp.close();
      await closeSharedPglite();
    },
  };
}
