/**
 * The demo's production server: Node's own HTTP server in front of Qwik City. `npm start` runs it.
 * PORT (default 3000) and HOST (default localhost) choose where it listens.
 */
import { createServer } from "node:http";
import { createQwikCity } from "@builder.io/qwik-city/middleware/node";
import qwikCityPlan from "@qwik-city-plan";
import render from "./entry.ssr";
import { demoPasswordHash } from "./server/demo-user";

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? "localhost";

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
await demoPasswordHash();

server.listen(port, host, () => {
  console.log(`authlib demo listening on http://${host}:${port}`);
});

// Stop cleanly on Ctrl-C and when a test harness sends SIGTERM.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
