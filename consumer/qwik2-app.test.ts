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
import { openPage } from "./flows.js";
import { nodeModulesInClientChunks } from "./production.js";
import { type AppServer, freePort, newSecret, shellEnv, startDev, startNodeCommand, writeVars } from "./server.js";
import { signInFlow } from "./sign-in-flow.js";

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

/** `vite build` in the app, as a production build; returns what it printed. */
function viteBuild(...args: string[]): string {
  const vite = join(app, "node_modules/vite/bin/vite.js");
  const result = spawnSync(process.execPath, [vite, "build", ...args], {
    cwd: app,
    encoding: "utf8",
    env: shellEnv({ NODE_ENV: "production" }),
  });
  const output = `${result.stdout}${result.stderr}`;
  if (result.status !== 0) throw new Error(`vite build ${args.join(" ")} failed:\n${output}`);
  return output;
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
    // The README's development set-up: `AUTH_SECRET` in `.env`, nothing else.
    writeVars(app, ".env", { AUTH_SECRET: newSecret() });
    server = await startDev(app, await freePort());
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
    clientBuild = viteBuild();
    viteBuild("-c", "adapters/node-server/vite.config.ts");
    // The README's production checklist: the public URL, the secret, NODE_ENV, from `.env` on Node.
    const port = await freePort();
    writeVars(app, ".env", { AUTH_SECRET: newSecret(), AUTHLIB_URL: `http://127.0.0.1:${port}/auth`, PORT: String(port) });
    server = await startNodeCommand(app, "NODE_ENV=production node --env-file=.env server/entry.node-server", port);
  });
  afterAll(async () => {
    await server?.stop();
  });

  test("the client build has no Node-only module in it", () => {
    expect(clientBuild).not.toMatch(/externalized for browser compatibility/);
    expect(nodeModulesInClientChunks(app)).toEqual([]);
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
