/**
 * A fresh Qwik 2 app (the 2.0 beta starter), with the Qwik README's "Qwik 2" set-up (`@authlib/qwik/qwik2`),
 * driven in Chromium: in `vite` dev mode and as a production build on the node-server adapter. Credentials
 * sign-in, a wrong password shown on the form, the protected page, sign-out; no `node:` module in a client chunk.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { launchChromium } from "../packages/core/test/helpers/chromium.js";
import { listFiles } from "./app.js";
import { type AppServer, startDev, startProduction } from "./server.js";
import { openPage, signInFlow, viteBuild } from "./sign-in-flow.js";

const app = inject("consumerQwik2App");
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** The version of a package installed in the app (throws when it is not installed). */
function installedVersion(name: string): string {
  return JSON.parse(readFileSync(join(app, "node_modules", name, "package.json"), "utf8")).version;
}

test("the app runs Qwik 2 and @authlib/qwik/qwik2, without Qwik 1", () => {
  expect(installedVersion("@qwik.dev/core")).toMatch(/^2\./);
  expect(installedVersion("@qwik.dev/router")).toMatch(/^2\./);
  expect(() => installedVersion("@builder.io/qwik")).toThrow();
  expect(readFileSync(join(app, "src/routes/plugin@auth.ts"), "utf8")).toContain('from "@authlib/qwik/qwik2"');
});

describe("vite dev", () => {
  let server: AppServer;
  beforeAll(async () => {
    server = await startDev(app);
    // Vite optimizes dependencies on the first visit and may reload once: let it settle first.
    const { page, close } = await openPage(browser);
    await page.goto(`${server.url}/signin/`, { waitUntil: "networkidle" });
    await close();
  });
  afterAll(async () => {
    await server?.stop();
  });
  signInFlow(
    () => browser,
    () => server,
  );
});

describe("vite build + node server", () => {
  let server: AppServer;
  let clientBuild = "";
  beforeAll(async () => {
    clientBuild = viteBuild(app);
    viteBuild(app, "-c", "adapters/node-server/vite.config.ts");
    server = await startProduction(app);
  });
  afterAll(async () => {
    await server?.stop();
  });

  test("the client build has no Node-only module in it", () => {
    expect(clientBuild).not.toMatch(/externalized for browser compatibility/);
    const chunks = listFiles(join(app, "dist")).filter((file) => /\.m?js$/.test(file));
    expect(chunks.length).toBeGreaterThan(0);
    const withNode = chunks.filter((file) =>
      /\bfrom\s*["']node:|\bimport\s*\(\s*["']node:|\brequire\(\s*["']node:/.test(readFileSync(join(app, "dist", file), "utf8")),
    );
    expect(withNode).toEqual([]);
  });
  signInFlow(
    () => browser,
    () => server,
  );
});

test("the README's Qwik 2 set-up type-checks in the app (the starter's `build.types`)", () => {
  const result = spawnSync(process.execPath, [`${app}/node_modules/typescript/bin/tsc`, "--incremental", "--noEmit"], {
    cwd: app,
    encoding: "utf8",
  });
  expect(`${result.stdout}${result.stderr}`).toBe("");
  expect(result.status).toBe(0);
});
