/**
 * The environment the doctor checks: the process environment over the app's env file (`.env` by
 * default, as Vite and most frameworks load it), so a secret kept in `.env` is seen where the app
 * would see it.
 *
 * @module cli/doctor/environment
 */
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { parseEnv } from "node:util";

/** The environment to check, and which file contributed to it. */
export interface DoctorEnvironment {
  env: Record<string, string | undefined>;
  /** The env file read, relative to the working directory as given; `undefined` when none was. */
  file: string | undefined;
  /** The values the env file defines. */
  fileValues: Record<string, string>;
}

/**
 * The process env over the values of `file` (default `.env` when it exists). A `file` given explicitly
 * must exist: its absence is an error (thrown as `Error` with a one-line message).
 */
export async function readEnvironment(
  processEnv: Readonly<Record<string, string | undefined>>,
  cwd: string,
  file: string | undefined,
): Promise<DoctorEnvironment> {
  const path = file ?? ".env";
  let text: string;
  try {
    text = await readFile(resolve(cwd, path), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT" && file === undefined)
      return { env: { ...processEnv }, file: undefined, fileValues: {} };
    throw new Error(`cannot read the env file ${path} (${(error as NodeJS.ErrnoException).code ?? "unreadable"})`);
  }
  const fileValues = parseEnv(text) as Record<string, string>;
  return { env: { ...fileValues, ...processEnv }, file: path, fileValues };
}

/**
 * Puts the env file's values into this process's environment where unset (as `node --env-file` does),
 * so that the app's config module, which may read `process.env` itself (a database client does), sees
 * the environment the doctor checks.
 */
export function exportToProcess(fileValues: Readonly<Record<string, string>>, target: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(fileValues)) if (target[name] === undefined) target[name] = value;
}
