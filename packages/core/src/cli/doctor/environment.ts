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
    if ((error as NodeJS.ErrnoException).code === "ENOENT" && file === undefined) return { env: { ...processEnv }, file: undefined };
    throw new Error(`cannot read the env file ${path} (${(error as NodeJS.ErrnoException).code ?? "unreadable"})`);
  }
  return { env: { ...parseEnv(text), ...processEnv }, file: path };
}
