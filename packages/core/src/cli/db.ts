/**
 * The bridge to @authlib/hosted-db-adapter's database commands (`authlib db migrate|status|prune`, and the
 * database probe of `authlib doctor`). The `authlib` command lives in core so that `secret` and
 * `doctor` work in every app, with or without a database; the database commands live with the
 * database package, which core must not depend on. So the package is loaded here, on first use, by
 * name; when it is not installed, the user is told what to install.
 *
 * @module cli/db
 */
import { exportToProcess, readEnvironment } from "./doctor/environment.js";
import type { Terminal } from "./terminal.js";

/** Where a database command writes (the adapter's `CommandOutput`). */
export interface DbCommandOutput {
  out(text: string): void;
  err(text: string): void;
}

/** What the doctor learns from the adapter's probe (the adapter's `DatabaseProbe`). */
export type DbProbe =
  | { ok: true; databaseURL: string; status: { branch: string; pending: number[]; tables: string[] } }
  | { ok: false; databaseURL: string | undefined; problem: string };

/** The surface of `@authlib/hosted-db-adapter/commands` this command line uses. */
export interface DbCommands {
  runDbCommand(args: readonly string[], io: DbCommandOutput, names: { usage: string; prefix: string }): Promise<number>;
  probeDatabase(options?: { databaseURL?: string; branch?: string }): Promise<DbProbe>;
}

/** The package that has the database commands. */
export const DB_PACKAGE = "@authlib/hosted-db-adapter";

/** Kept in a variable so that neither TypeScript nor a bundler tries to resolve the optional package. */
const DB_COMMANDS_MODULE = `${DB_PACKAGE}/commands`;

/** The adapter's commands, or `undefined` when the package is not installed. Other load errors throw. */
export async function loadDbCommands(): Promise<DbCommands | undefined> {
  try {
    // Resolving finds the package itself; a failure to load it once found (a missing dependency of its own) throws below.
    import.meta.resolve(DB_COMMANDS_MODULE);
  } catch {
    return undefined;
  }
  return (await import(DB_COMMANDS_MODULE)) as DbCommands;
}

/**
 * `authlib db …`: runs the adapter's command, or says in one line what to install (exit code 1). It reads
 * the working directory's `.env` first, as `authlib doctor` does (the process environment wins), so
 * `AUTHLIB_DATABASE_URL` and `AUTHLIB_BRANCH` written there reach the same database as the app.
 */
export async function runDb(args: readonly string[], terminal: DbCommandOutput & Pick<Terminal, "env" | "cwd">): Promise<number> {
  const commands = await loadDbCommands();
  if (!commands) {
    terminal.err(`authlib: the db commands come with ${DB_PACKAGE}, which is not installed: npm install ${DB_PACKAGE}\n`);
    return 1;
  }
  const { fileValues } = await readEnvironment(terminal.env, terminal.cwd, undefined);
  exportToProcess(fileValues, process.env);
  return commands.runDbCommand(args, terminal, { usage: "authlib db", prefix: "authlib" });
}
