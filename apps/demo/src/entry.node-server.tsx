/**
 * The demo's production server: Node's own HTTP server in front of Qwik City. `npm start` runs it.
 * PORT (default 3000) and HOST (default localhost) choose where it listens. Before it listens it opens
 * the database and starts the development OpenID Provider and SMTP server (see server/services.ts);
 * SIGINT and SIGTERM stop all of them.
 */
import { createServer } from "node:http";
import { createQwikCity } from "@builder.io/qwik-city/middleware/node";
import qwikCityPlan from "@qwik-city-plan";
import render from "./entry.ssr";
import { demoPasswordHash } from "./server/demo-user";
import { startDemoServices, stopDemoServices } from "./server/services";

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? "localhost";
/** How long a shutdown may take before the process exits anyway. */
const SHUTDOWN_TIMEOUT = 10_000;

const { router, notFound, staticFile } = createQwikCity({
  render,
  qwikCityPlan,
  static: { cacheControl: "public, max-age=31536000, immutable" },
});

const server = createServer((req, res) => {
  staticFile(req, res, () => {
    router(req, res, () => {
      notFound(req, res, () => {});
    });
  });
});

// The demo user's password hash is computed at start, as an app would have it stored.
const [services] = await Promise.all([startDemoServices(), demoPasswordHash()]).catch(async (error: unknown) => {
  console.error(`[authlib demo] ${error instanceof Error ? error.message : String(error)}`);
  await stopDemoServices();
  process.exit(1);
});

server.listen(port, host, () => {
  console.log(`authlib demo listening on http://${host}:${port}`);
  console.log(`  database: ${services.database.location}`);
  console.log(`  development OpenID Provider: ${services.oidc.issuer} (any username)`);
  console.log(`  development SMTP server: 127.0.0.1:${services.smtp.port} (mails at /dev/mailbox)`);
});

let stopping = false;
async function shutdown(): Promise<void> {
  if (stopping) return;
  stopping = true;
  setTimeout(() => {
    console.error("[authlib demo] Shutdown took too long; exiting.");
    process.exit(1);
  }, SHUTDOWN_TIMEOUT).unref();
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
  // After the last request: the database closes cleanly (PGlite flushes its folder).
  await stopDemoServices();
  process.exit(0);
}

// Stop cleanly on Ctrl-C and when a test harness sends SIGTERM.
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void shutdown());
