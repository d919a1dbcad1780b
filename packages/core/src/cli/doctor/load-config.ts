/**
 * The app's configuration module for `authlib doctor --config <module>`: its default export or its
 * `authConfig` export, an `AuthConfig`, or a function returning one (as `FrameworkAuth$` takes), which
 * is called with a request-event stand-in whose `env.get` reads the doctor's environment.
 *
 * The module is imported by Node: a `.js`/`.mjs` file, or TypeScript when Node runs with a loader
 * (`NODE_OPTIONS="--import tsx" npx authlib doctor --config src/kernel/auth.ts`).
 *
 * @module cli/doctor/load-config
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { AuthConfig } from "../../types/config.js";

/** The loaded configuration, or why it could not be loaded (one line) and how to fix that. */
export type LoadedConfig = { ok: true; config: AuthConfig } | { ok: false; problem: string; fix: string };

function isConfig(value: unknown): value is AuthConfig {
  return typeof value === "object" && value !== null && Array.isArray((value as { providers?: unknown }).providers);
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n", 1)[0] ?? "";
}

/** Imports `modulePath` (relative to `cwd`) and finds the configuration in it. Never throws. */
export async function loadConfigModule(
  modulePath: string,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<LoadedConfig> {
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(resolve(cwd, modulePath)).href)) as Record<string, unknown>;
  } catch (error) {
    const code = (error as { code?: unknown })?.code;
    const typescript = code === "ERR_UNKNOWN_FILE_EXTENSION" && /\.[cm]?tsx?$/.test(modulePath);
    return {
      ok: false,
      problem: `The config module ${modulePath} could not be loaded (${firstLine(error)}).`,
      fix: typescript
        ? `Run the doctor with a TypeScript loader: NODE_OPTIONS="--import tsx" npx authlib doctor --config ${modulePath}`
        : "Pass the path of a module that imports without side effects on a running app (e.g. the file that exports your AuthConfig).",
    };
  }
  let exported = module.default ?? module.authConfig;
  try {
    if (typeof exported === "function") {
      const get = (name: string) => env[name];
      exported = await (exported as (event: unknown) => unknown)({ env: { get } });
    }
  } catch (error) {
    return {
      ok: false,
      problem: `The config function exported by ${modulePath} threw (${firstLine(error)}).`,
      fix: "Export the AuthConfig object itself as `authConfig`, or make the function work with only `ev.env`.",
    };
  }
  if (!isConfig(exported)) {
    return {
      ok: false,
      problem: `${modulePath} exports no AuthConfig (a default export or \`authConfig\` with a \`providers\` array).`,
      fix: "Export the configuration: `export const authConfig = { providers: [...], ... }`.",
    };
  }
  return { ok: true, config: exported };
}
