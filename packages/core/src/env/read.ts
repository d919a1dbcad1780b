/**
 * Reading the environment: where variables come from on each runtime, how one is read (empty means
 * unset, a refused read too), and the names authlib reads. Nothing here changes a configuration; that is
 * `env/defaults.ts`.
 *
 * @module env/read
 */

/** Where env variables come from: a plain record (`process.env`) or a getter (`{ get(name) }`, Qwik's `ev.env`). */
export type EnvSource =
  | Record<string, string | undefined>
  | {
      /** The variable's value, or `undefined` when it is unset. */
      get(name: string): string | undefined;
    };

/**
 * Reads one variable from an env source. Empty strings count as unset, and so does a read the runtime
 * refuses: Deno without `--allow-env` throws `NotCapable` on every `process.env`/`Deno.env` read, and an
 * app that passes its whole configuration explicitly must still run there without the permission.
 */
export function readEnv(env: EnvSource, name: string): string | undefined {
  let value: unknown;
  try {
    value =
      typeof env.get === "function"
        ? (env as { get(n: string): string | undefined }).get(name)
        : (env as Record<string, string | undefined>)[name];
  } catch {
    return undefined;
  }
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** The process environment where there is one (Node, Bun, Deno's compat); an empty record on edge runtimes. */
export function processEnv(): Record<string, string | undefined> {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
}

/** Parses a boolean env value: `true/1/yes/on` and `false/0/no/off`; anything else is `undefined`. */
export function parseBooleanEnv(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  const v = value.trim().toLowerCase();
  if (["true", "1", "yes", "on"].includes(v)) return true;
  if (["false", "0", "no", "off"].includes(v)) return false;
  return undefined;
}

/**
 * The canonical URL from the environment: `AUTHLIB_URL`, else `AUTH_URL` (Auth.js's name, accepted so an
 * Auth.js deployment keeps working unchanged). When both are set and differ, `AUTHLIB_URL` wins and
 * `env-url-alias-conflict` is logged through `warn` (getToken passes none: it cannot log warnings).
 */
export function readCanonicalUrlEnv(env: EnvSource, warn?: (code: "env-url-alias-conflict") => void): string | undefined {
  const own = readEnv(env, "AUTHLIB_URL");
  const authjs = readEnv(env, "AUTH_URL");
  if (own !== undefined && authjs !== undefined && own !== authjs) warn?.("env-url-alias-conflict");
  return own ?? authjs;
}

/** A comma-separated env list, entries trimmed, empty entries dropped; `undefined` when unset. */
export function readList(env: EnvSource, name: string): string[] | undefined {
  const value = readEnv(env, name);
  return value === undefined
    ? undefined
    : value
        .split(",")
        .map((entry) => entry.trim())
        .filter((entry) => entry !== "");
}

/** The prefix of a provider's env variables: `AUTH_<ID>_`, the id upper-cased with `-` as `_`. */
export function providerEnvPrefix(providerId: string): string {
  return `AUTH_${providerId.toUpperCase().replace(/-/g, "_")}_`;
}

/**
 * True when this process says it is in development (`NODE_ENV=development`, as Vite's dev server and most
 * dev scripts set it): pages may then say more about a server error (its type, never its message).
 */
export function inDevelopment(): boolean {
  return readEnv(processEnv(), "NODE_ENV") === "development";
}
