/**
 * The fresh Qwik City app, set up as the Qwik README and docs/getting-started.md say, driven in Chromium
 * in `vite` dev mode, as the guide's Node server build and as its Cloudflare Pages build on workerd: every
 * flow of flows.ts in each. The production builds are made by following the guide's sections command by
 * command (production.ts), and neither may put a `node:` module into a client chunk.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { appScript, useAdapter } from "./adapters.js";
import { readmeFiles, writeAppFiles } from "./app.js";
import { openPage, registerFlows } from "./flows.js";
import { guideFilesFor, SECTIONS } from "./guide.js";
import { resendMailbox, smtpMailbox } from "./mailbox.js";
import { guideSteps, migrate, nodeModulesInClientChunks, npm, shell } from "./production.js";
import { type AppServer, newSecret, startDev, startNodeCommand, writeVars } from "./server.js";
import { serviceVars, useServices } from "./services.js";
import { parsePagesDev, parseVars, startPagesDev } from "./workerd.js";

const app = inject("consumerApp");
const services = useServices(["dev", "node", "workerd"]);

describe("vite dev", () => {
  let server: AppServer;
  beforeAll(async () => {
    // The Node configuration (a rerun on a kept app may have left the Cloudflare one), its database.
    writeAppFiles(app, guideFilesFor());
    for (const step of guideSteps(SECTIONS.serverOnly)) if (step.kind === "migrate") migrate(app);
    // Step 2's `.env` (and step 7's providers' variables): nothing else in development; step 5 starts it.
    const values: Record<string, string> = { AUTH_SECRET: newSecret() };
    const env: Record<string, string> = {};
    for (const step of [...guideSteps(SECTIONS.secret), ...guideSteps(SECTIONS.pages)]) {
      if (step.kind === "var" && step.file === ".env") env[step.name] = values[step.name];
      else if (step.kind === "dev") {
        writeVars(app, ".env", { ...env, ...serviceVars(services(), true) });
        server = await startDev(app, services().ports.dev);
      } else throw new Error(`unexpected step in the guide's development steps: ${JSON.stringify(step)}`);
    }
    if (!server) throw new Error(`"${SECTIONS.pages}" starts no server`);
    // Vite optimizes dependencies on the first visit and may reload once: let it settle first.
    const { page, close } = await openPage(services().browser);
    await page.goto(`${server.url}/signin/`, { waitUntil: "networkidle" });
    await close();
  });
  afterAll(async () => {
    await server?.stop();
  });
  registerFlows(() => server, services, { mailbox: () => smtpMailbox(services().smtp) });
});

describe("the guide's Node server", () => {
  let server: AppServer;
  let build = "";
  beforeAll(async () => {
    writeAppFiles(app, guideFilesFor());
    const port = services().ports.node;
    for (const step of guideSteps(SECTIONS.node)) {
      if (step.kind === "add-adapter") useAdapter(app, step.adapter);
      else if (step.kind === "build") build = npm(app, "run", "build");
      else if (step.kind === "node") {
        // The production `.env` the section's command reads (`--env-file=.env`).
        const vars = { AUTH_SECRET: newSecret(), AUTHLIB_URL: `http://127.0.0.1:${port}/auth`, PORT: String(port) };
        writeVars(app, ".env", { ...vars, ...serviceVars(services(), true) });
        server = await startNodeCommand(app, step.command, port);
      } else throw new Error(`unexpected step under "${SECTIONS.node}": ${JSON.stringify(step)}`);
    }
    if (!server) throw new Error(`"${SECTIONS.node}" starts no server`);
  });
  afterAll(async () => {
    await server?.stop();
  });

  test("no client chunk has a Node-only module in it", () => {
    expect(build).not.toMatch(/externalized for browser compatibility/);
    expect(nodeModulesInClientChunks(app)).toEqual([]);
  });
  registerFlows(() => server, services, { mailbox: () => smtpMailbox(services().smtp) });
});

describe("the guide's Cloudflare Pages build on workerd", () => {
  let server: AppServer;
  // Resend's API, which the worker's requests to api.resend.com reach instead of the real one.
  const mailApi = resendMailbox(`re_${newSecret()}`);
  let build = "";
  beforeAll(async () => {
    writeAppFiles(app, guideFilesFor("Cloudflare"));
    const port = services().ports.workerd;
    const values: Record<string, string> = {
      AUTH_SECRET: newSecret(),
      AUTHLIB_URL: `http://127.0.0.1:${port}/auth`,
      AUTH_RESEND_KEY: mailApi.apiKey,
    };
    const devVars: Record<string, string> = {};
    for (const step of guideSteps(SECTIONS.cloudflare)) {
      if (step.kind === "add-adapter") useAdapter(app, step.adapter);
      else if (step.kind === "install")
        continue; // app.ts ran it when it made the app
      else if (step.kind === "shell") shell(app, step.command);
      else if (step.kind === "build") build = npm(app, "run", "build");
      else if (step.kind === "var" && step.file === ".dev.vars") {
        if (!(step.name in values)) throw new Error(`the test has no value for the guide's ${step.name}`);
        devVars[step.name] = values[step.name];
      } else if (step.kind === "serve") {
        // `.dev.vars`: the guide's lines, and the provider's variables it names beside them.
        writeVars(app, ".dev.vars", { ...devVars, ...serviceVars(services(), false) });
        const vars = parseVars(readFileSync(join(app, ".dev.vars"), "utf8"));
        server = await startPagesDev(app, parsePagesDev(appScript(app, "serve")), vars, port, mailApi);
      } else throw new Error(`unexpected step under "${SECTIONS.cloudflare}": ${JSON.stringify(step)}`);
    }
    if (!server) throw new Error(`"${SECTIONS.cloudflare}" starts no server`);
  });
  afterAll(async () => {
    await server?.stop();
    // Back to the Node configuration for what runs after (the type check, a rerun on a kept app).
    writeAppFiles(app, guideFilesFor());
    useAdapter(app, "node-server");
  });

  test("no client chunk has a Node-only module in it", () => {
    expect(build).not.toMatch(/externalized for browser compatibility/);
    expect(nodeModulesInClientChunks(app)).toEqual([]);
  });
  registerFlows(() => server, services, { mailbox: () => mailApi });
});

test("the set-up type-checks in the app (the starter's `build.types`), the README's own plugin@auth.ts too", () => {
  // The app runs the guide's step-7 plugin@auth.ts, which replaces the README's; the README's files are
  // type-checked beside it, in a folder Qwik City does not route (removed afterwards).
  const readme = "src/readme-setup";
  writeAppFiles(
    app,
    readmeFiles().map((file) => [file.path.replace(/^src\//, `${readme}/`), file.text] as const),
  );
  try {
    const result = spawnSync(process.execPath, [`${app}/node_modules/typescript/bin/tsc`, "--incremental", "--noEmit"], {
      cwd: app,
      encoding: "utf8",
    });
    expect(`${result.stdout}${result.stderr}`).toBe("");
    expect(result.status).toBe(0);
  } finally {
    rmSync(join(app, readme), { recursive: true, force: true });
  }
});
