/**
 * The fresh Qwik City app, with the Qwik README's set-up, driven in Chromium: in `vite` dev mode and as a
 * production build on the node-server adapter. Credentials sign-in, a wrong password shown on the form,
 * the protected page, sign-out.
 */
import { spawnSync } from "node:child_process";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, onTestFailed, test } from "vitest";
import { launchChromium } from "../packages/core/test/helpers/chromium.js";
import { CREDENTIALS_SIGNIN_MESSAGE } from "../packages/qwik/src/messages.js";
import { ADA } from "./fixture/src/server/users.js";
import { type AppServer, startDev, startProduction } from "./server.js";

const app = inject("consumerApp");
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** A page that records what the browser loaded and every error it reported. */
async function openPage(): Promise<{ page: Page; requests: string[]; errors: string[]; close(): Promise<void> }> {
  const context = await browser.newContext();
  // Fail a step with its own message well before the test's time runs out.
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  page.on("request", (request) => requests.push(request.url()));
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    // A rejected sign-in is a 401 answer to the action, which Chromium reports as a console error.
    if (message.type() === "error" && !message.text().includes("status of 401")) errors.push(message.text());
  });
  return { page, requests, errors, close: () => context.close() };
}

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** `vite build` in the app, as a production build; returns what it printed. */
function viteBuild(...args: string[]): string {
  // vitest sets NODE_ENV=test, which would make Vite build something else than a production build.
  const env = { ...process.env, NODE_ENV: "production" };
  const vite = `${app}/node_modules/vite/bin/vite.js`;
  const result = spawnSync(process.execPath, [vite, "build", ...args], { cwd: app, encoding: "utf8", env });
  const output = `${result.stdout}${result.stderr}`;
  if (result.status !== 0) throw new Error(`vite build ${args.join(" ")} failed:\n${output}`);
  return output;
}

/** The README's flow, the same against both servers. */
function signInFlow(server: () => AppServer): void {
  beforeEach(() => {
    onTestFailed(() => console.error(`server output:\n${server().output()}`));
  });

  test("the protected page sends a signed-out visitor to the sign-in page", async () => {
    const { page, close } = await openPage();
    await page.goto(`${server().url}/protected/`);
    expect(new URL(page.url()).pathname).toBe("/signin/");
    await close();
  });

  test("a wrong password stays on the form and shows the error; the right one reaches the protected page; sign-out ends it", async () => {
    const { page, requests, errors, close } = await openPage();
    await page.goto(`${server().url}/signin/`, { waitUntil: "networkidle" });

    await signIn(page, ADA.email, "not the password");
    await expect.poll(() => page.getByRole("alert").textContent()).toContain(CREDENTIALS_SIGNIN_MESSAGE);
    expect(new URL(page.url()).pathname).toBe("/signin/");

    await signIn(page, ADA.email, ADA.password);
    await page.waitForURL((url) => url.pathname === "/protected/");
    await expect.poll(() => page.getByText("Signed in as").textContent()).toBe(`Signed in as ${ADA.name}`);
    const cookies = await page.context().cookies();
    expect(cookies.some((cookie) => cookie.name.endsWith("session-token") && cookie.httpOnly)).toBe(true);

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL((url) => url.pathname === "/signin/");
    expect((await page.context().cookies()).some((cookie) => cookie.name.endsWith("session-token"))).toBe(false);
    await page.goto(`${server().url}/protected/`);
    expect(new URL(page.url()).pathname).toBe("/signin/");

    // The client never loaded core (its server-only modules) and no script failed.
    // (Its errors module, which imports nothing, may load: the hooks' `instanceof` checks use it.)
    expect(requests.filter((url) => /\/cookie\/|@authlib\/core\/dist\/(index|password|webauthn)/.test(url))).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  });
}

describe("vite dev", () => {
  let server: AppServer;
  beforeAll(async () => {
    server = await startDev(app);
    // Vite optimizes dependencies on the first visit and may reload once: let it settle first.
    const { page, close } = await openPage();
    await page.goto(`${server.url}/signin/`, { waitUntil: "networkidle" });
    await close();
  });
  afterAll(async () => {
    await server?.stop();
  });
  signInFlow(() => server);
});

describe("vite build + node server", () => {
  let server: AppServer;
  let clientBuild = "";
  beforeAll(async () => {
    clientBuild = viteBuild();
    viteBuild("-c", "adapters/node-server/vite.config.ts");
    server = await startProduction(app);
  });
  afterAll(async () => {
    await server?.stop();
  });

  test("the client build has no Node-only module in it", () => {
    expect(clientBuild).not.toMatch(/externalized for browser compatibility/);
  });
  signInFlow(() => server);
});

test("the README's set-up type-checks in the app (the starter's `build.types`)", () => {
  const result = spawnSync(process.execPath, [`${app}/node_modules/typescript/bin/tsc`, "--incremental", "--noEmit"], {
    cwd: app,
    encoding: "utf8",
  });
  expect(`${result.stdout}${result.stderr}`).toBe("");
  expect(result.status).toBe(0);
});
