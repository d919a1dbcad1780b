/**
 * The guide's three ways of running an app, as `describe`s of the calling test file: `npm run dev`, step 7's
 * Node server and its Cloudflare Pages build on workerd, each started by following the guide's sections
 * command by command (production.ts) and each running every flow of flows.ts; neither production build may
 * put a `node:` module into a client chunk. One set for both Qwik majors: a {@link QwikMajor} says how the
 * app's major writes the guide's files and where its adapters come from.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { appScript, QWIK1_STARTERS, useAdapter } from "./adapters.js";
import { writeAppFiles } from "./app.js";
import { openPage, registerFlows } from "./flows.js";
import { guideFilesFor, SECTIONS } from "./guide.js";
import { resendMailbox, smtpMailbox } from "./mailbox.js";
import { guideSteps, migrate, nodeModulesInClientChunks, npm, shell } from "./production.js";
import { type AppServer, newSecret, startDev, startNodeCommand, writeVars } from "./server.js";
import { serviceVars, useServices } from "./services.js";
import { parsePagesDev, parseVars, startPagesDev } from "./workerd.js";

/** What differs between the Qwik 1 and the Qwik 2 app for the guide's modes. */
export interface QwikMajor {
  /** The guide's files for `variant` (`Cloudflare`; none: Node), as this major's app has them. */
  guideFiles(variant?: string): Map<string, string>;
  /** The folder of the adapters' starter files (see adapters.ts). */
  readonly starters: string;
}

/** Qwik 1: the guide's files as written, the root's `@builder.io/qwik` starters. */
export const QWIK1: QwikMajor = { guideFiles: (variant) => guideFilesFor(variant), starters: QWIK1_STARTERS };

/** Registers the guide's dev, Node and workerd modes (each a `describe` running flows.ts) for `app`. */
export function registerGuideModes(app: string, major: QwikMajor): void {
  const services = useServices(["dev", "node", "workerd"]);

  describe("vite dev", () => {
    let server: AppServer;
    beforeAll(async () => {
      // The Node configuration (a rerun on a kept app may have left the Cloudflare one), its database.
      writeAppFiles(app, major.guideFiles());
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
      writeAppFiles(app, major.guideFiles());
      const port = services().ports.node;
      for (const step of guideSteps(SECTIONS.node)) {
        if (step.kind === "add-adapter") useAdapter(app, step.adapter, major.starters);
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
      writeAppFiles(app, major.guideFiles("Cloudflare"));
      const port = services().ports.workerd;
      const values: Record<string, string> = {
        AUTH_SECRET: newSecret(),
        AUTHLIB_URL: `http://127.0.0.1:${port}/auth`,
        AUTH_RESEND_KEY: mailApi.apiKey,
      };
      const devVars: Record<string, string> = {};
      for (const step of guideSteps(SECTIONS.cloudflare)) {
        if (step.kind === "add-adapter") useAdapter(app, step.adapter, major.starters);
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
      writeAppFiles(app, major.guideFiles());
      useAdapter(app, "node-server", major.starters);
    });

    test("no client chunk has a Node-only module in it", () => {
      expect(build).not.toMatch(/externalized for browser compatibility/);
      expect(nodeModulesInClientChunks(app)).toEqual([]);
    });
    registerFlows(() => server, services, { mailbox: () => mailApi });
  });
}

/**
 * Type-checks `app` as the starter's `build.types` does, with `readmeFiles` (a README's set-up, whose
 * plugin@auth.ts the guide's step-7 one replaces in the app) beside it in a folder the router does not
 * route, removed afterwards; returns tsc's output and exit status.
 */
export function typeCheckWithReadme(app: string, readmeFiles: { path: string; text: string }[]): { output: string; status: number | null } {
  const folder = "src/readme-setup";
  writeAppFiles(
    app,
    readmeFiles.map((file) => [file.path.replace(/^src\//, `${folder}/`), file.text] as const),
  );
  try {
    const result = spawnSync(process.execPath, [`${app}/node_modules/typescript/bin/tsc`, "--incremental", "--noEmit"], {
      cwd: app,
      encoding: "utf8",
    });
    return { output: `${result.stdout}${result.stderr}`, status: result.status };
  } finally {
    rmSync(join(app, folder), { recursive: true, force: true });
  }
}
