/**
 * The `authlib` command line: parses the command and its options, runs it, and returns the exit code
 * (0 success, 1 failure or problems found, 2 wrong usage).
 *
 * It lives in @authlib/core so that `authlib secret` and `authlib doctor` work in every app, with or
 * without a database; `authlib db …` loads @authlib/hosted-db-adapter on use (see `cli/db.ts`), which
 * keeps its own `authlib-db` name for the same commands.
 *
 * @module cli/run
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { runDb } from "./db.js";
import { runDoctor } from "./doctor/doctor.js";
import { runOrg } from "./org.js";
import { addSecretToEnvFile, generateSecret } from "./secret.js";
import type { Terminal } from "./terminal.js";

/** The help text. */
export const USAGE = `Usage: authlib <command> [options]

Commands:
  secret                       Print a new AUTH_SECRET (32 random bytes, base64url)
    --append <file>            Add it to an env file as AUTH_SECRET= instead (never printed)
    --force                    With --append: replace an AUTH_SECRET already there (ends every session)
  db migrate|status|prune      Create/upgrade, or show, the tables of @authlib/hosted-db-adapter,
                               or delete their expired rows (prune)
    [--url <url>] [--branch <name>] [--data-dir <dir>]   (see \`authlib db --help\`)
  db import-authjs             Copy the users, accounts, sessions and passkeys of an Auth.js
                               database into them (see \`authlib db --help\`)
  doctor                       Check the environment and the configuration; exit code 1 on errors
    --config <module>          The app's config module (default export or \`authConfig\`: an AuthConfig)
    --env <file>               The env file read under the process env (default: .env when it exists)
  org verify-domains           Re-check every proven organization domain's TXT record (on a schedule);
                               exit code 1 when a lookup failed (see \`authlib org --help\`)
    --config <module>          The app's config module, as for doctor
  help                         Show this help

Exit codes: 0 success, 1 failure or problems found, 2 wrong usage.
Colours only on a terminal, and never with NO_COLOR set.
`;

function usageError(terminal: Terminal, message: string): number {
  terminal.err(`authlib: ${message}\n\n${USAGE}`);
  return 2;
}

/** Runs `authlib <args>`; resolves to the exit code. Never throws for bad input. */
export async function runCli(args: readonly string[], terminal: Terminal): Promise<number> {
  const [command, ...rest] = args;
  if (command === undefined) {
    terminal.err(USAGE);
    return 2;
  }
  if (command === "help" || command === "--help" || command === "-h") {
    terminal.out(USAGE);
    return 0;
  }
  try {
    switch (command) {
      case "secret":
        return await secretCommand(rest, terminal);
      case "db":
        return await runDb(rest, terminal);
      case "doctor":
        return await doctorCommand(rest, terminal);
      case "org":
        return await runOrg(rest, terminal);
      default:
        return usageError(terminal, `unknown command ${JSON.stringify(command)}`);
    }
  } catch (thrown) {
    // Option parsing errors are the user's; anything else is a failure, still said in one line.
    const code = (thrown as { code?: unknown })?.code;
    const message = (thrown instanceof Error ? thrown.message : String(thrown)).split("\n", 1)[0];
    if (typeof code === "string" && code.startsWith("ERR_PARSE_ARGS")) return usageError(terminal, message ?? "bad option");
    terminal.err(`authlib: ${command} failed: ${message}\n`);
    return 1;
  }
}

async function secretCommand(args: readonly string[], terminal: Terminal): Promise<number> {
  const { values } = parseArgs({
    args: [...args],
    options: { append: { type: "string" }, force: { type: "boolean" }, help: { type: "boolean", short: "h" } },
  });
  if (values.help) {
    terminal.out(USAGE);
    return 0;
  }
  if (values.force && values.append === undefined) return usageError(terminal, "--force only goes with --append <file>");
  const secret = generateSecret();
  if (values.append === undefined) {
    terminal.out(`${secret}\n`);
    return 0;
  }
  const file = values.append;
  const change = await addSecretToEnvFile(resolve(terminal.cwd, file), secret, values.force === true);
  if (change === "kept") {
    terminal.err(
      `authlib: ${file} already has an AUTH_SECRET; it was kept. Use --force to replace it (this ends every session), or add the new secret as AUTH_SECRET_1 to rotate without signing anyone out.\n`,
    );
    return 1;
  }
  const done = { created: `Created ${file} with`, appended: `Added to ${file}:`, replaced: `Replaced in ${file}:` }[change];
  terminal.out(`${done} AUTH_SECRET (32 random bytes, base64url). Keep ${file} out of version control.\n`);
  return 0;
}

async function doctorCommand(args: readonly string[], terminal: Terminal): Promise<number> {
  const { values } = parseArgs({
    args: [...args],
    options: { config: { type: "string" }, env: { type: "string" }, help: { type: "boolean", short: "h" } },
  });
  if (values.help) {
    terminal.out(USAGE);
    return 0;
  }
  return runDoctor(terminal, { config: values.config, envFile: values.env });
}
