/**
 * The guide's production sections as steps the consumer test takes: each shell command of a section is
 * read into a step (an unknown command fails the test, so the guide cannot say something the test does
 * not do), and the steps that build run the app's own `npm run build`.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { AdapterName } from "./adapters.js";
import { guideCommands } from "./guide.js";
import { shellEnv } from "./server.js";

/** One command of the guide, as the test carries it out. */
export type GuideStep =
  /** `npm run qwik add <adapter>`: see adapters.ts for why the test copies the adapter itself. */
  | { kind: "add-adapter"; adapter: AdapterName }
  /** `npm run build`, run as written. */
  | { kind: "build" }
  /** `echo "NAME=…" >> .env` (or `.dev.vars`): the test writes that variable, with its own value, to that file. */
  | { kind: "var"; file: ".env" | ".dev.vars"; name: string }
  /** `npm run dev`: the starter's `vite --mode ssr`, on a port of the test's (server.ts). */
  | { kind: "dev" }
  /** `npm run serve`: the adapter's script (wrangler pages dev), mapped in workerd.ts. */
  | { kind: "serve" }
  /** `[VAR=value …] node …`, run as written (with the test's Node). */
  | { kind: "node"; command: string }
  /** `npx authlib db migrate`, run as written. */
  | { kind: "migrate" }
  /** `npm pkg set …` (a change to the app's package.json): run as written, in a shell. */
  | { kind: "shell"; command: string }
  /** `npm install …`: done once when the app is made (app.ts). */
  | { kind: "install"; command: string };

/** Reads one guide command into a step; throws for a command the test does not know how to take. */
export function readStep(command: string): GuideStep {
  const add = command.match(/^npm run qwik add (node-server|cloudflare-pages)$/);
  if (add) return { kind: "add-adapter", adapter: add[1] as AdapterName };
  if (command === "npm run build") return { kind: "build" };
  if (command === "npm run serve") return { kind: "serve" };
  if (command === "npx authlib db migrate") return { kind: "migrate" };
  if (command.startsWith("npm install ")) return { kind: "install", command };
  if (command.startsWith("npm pkg set ")) return { kind: "shell", command };
  if (command === "npm run dev") return { kind: "dev" };
  const variable = command.match(/^echo "([A-Z_]+)=.*" >> (\.env|\.dev\.vars)$/);
  if (variable) return { kind: "var", file: variable[2] as ".env" | ".dev.vars", name: variable[1] };
  if (/^([A-Z_]+=\S+ )*node /.test(command)) return { kind: "node", command };
  throw new Error(`the consumer test does not know how to run the guide's command: ${command}`);
}

/** The steps of a section of docs/getting-started.md. */
export function guideSteps(section: string): GuideStep[] {
  return guideCommands(section).map(readStep);
}

/** Runs `npm <args>` in `app` with a plain shell's environment; returns what it printed, throws if it failed. */
export function npm(app: string, ...args: string[]): string {
  const result = spawnSync("npm", args, { cwd: app, encoding: "utf8", env: shellEnv() });
  const output = `${result.stdout}${result.stderr}`;
  if (result.status !== 0) throw new Error(`npm ${args.join(" ")} failed (${result.status}):\n${output}`);
  return output;
}

/** Runs a guide's command line in `app` through `sh`, as a reader's shell would. */
export function shell(app: string, command: string): string {
  const result = spawnSync("sh", ["-c", command], { cwd: app, encoding: "utf8", env: shellEnv() });
  const output = `${result.stdout}${result.stderr}`;
  if (result.status !== 0) throw new Error(`${command} failed (${result.status}):\n${output}`);
  return output;
}

/** Runs `npx authlib db migrate` in `app` (the guide's migration of the database under `./.authlib-db`). */
export function migrate(app: string): string {
  const result = spawnSync("npx", ["--no-install", "authlib", "db", "migrate"], { cwd: app, encoding: "utf8", env: shellEnv() });
  const output = `${result.stdout}${result.stderr}`;
  if (result.status !== 0) throw new Error(`npx authlib db migrate failed (${result.status}):\n${output}`);
  return output;
}

/**
 * The client chunks of the last build (`dist/build/*.js`) that import a `node:` module or Vite's
 * browser stub for one, by file name: the browser cannot load them. authlib's Vite plugin should already
 * have failed the build; this reads the output itself.
 */
export function nodeModulesInClientChunks(app: string): string[] {
  const folder = join(app, "dist/build");
  return readdirSync(folder)
    .filter((name) => name.endsWith(".js"))
    .filter((name) => /(from\s*|import\s*\(?\s*)["']node:|__vite-browser-external/.test(readFileSync(join(folder, name), "utf8")));
}
