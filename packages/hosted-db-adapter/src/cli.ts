#!/usr/bin/env node
/**
 * `authlib-db`: the command line of the hosted database.
 *
 *     npx authlib-db migrate [--url <databaseURL>] [--branch <name>] [--data-dir <folder>]
 *
 * Without flags it uses the same defaults as `new HostedDbClient()`: `AUTHLIB_DATABASE_URL`,
 * `AUTHLIB_BRANCH`, else the embedded database in `./.authlib-db` and the branch `main`.
 *
 * @module cli
 */
import { parseArgs } from "node:util";
import { HostedDbClient } from "./client.js";
import { HostedDbError } from "./errors.js";
import { IMPORT_AUTHJS_USAGE, runImportAuthjs } from "./import-authjs-command.js";

const USAGE = `Usage: authlib-db <command> [options]

Commands:
  migrate            Create or upgrade the authlib tables of a branch (safe to run again)
  import-authjs      Copy the data of an Auth.js adapter into the branch (see below)

Options:
  --url <url>        postgres://…, file://<folder> or memory:// (default: $AUTHLIB_DATABASE_URL, else ./.authlib-db)
  --branch <name>    Branch (Postgres schema) to migrate (default: $AUTHLIB_BRANCH, else "main")
  --data-dir <dir>   Folder of the embedded database when no URL is given
  -h, --help         Show this help
${IMPORT_AUTHJS_USAGE}`;

/** Runs the command line with `args` (without `node` and the script); resolves to the exit code. */
export async function main(args: readonly string[]): Promise<number> {
  if (args[0] === "import-authjs") return runImportAuthjs(args.slice(1));
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(args);
  } catch (error) {
    process.stderr.write(`authlib-db: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const [command, ...extra] = positionals;
  if (command !== "migrate" || extra.length > 0) {
    process.stderr.write(
      command === undefined ? USAGE : `authlib-db: unknown command ${JSON.stringify(positionals.join(" "))}\n\n${USAGE}`,
    );
    return 2;
  }

  let client: HostedDbClient | undefined;
  try {
    client = new HostedDbClient({ databaseURL: values.url, branch: values.branch, dataDir: values["data-dir"] });
    const { databaseURL } = await client.getConfig();
    const result = await client.migrate();
    const target = `branch "${result.branch}" of ${databaseURL}`;
    process.stdout.write(
      result.applied.length === 0
        ? `Up to date: ${target} is at version ${result.version}.\n`
        : `Applied migration(s) ${result.applied.join(", ")} to ${target}; now at version ${result.version}.\n`,
    );
    return 0;
  } catch (error) {
    const message = error instanceof HostedDbError || !(error instanceof Error) ? String(error) : (error.stack ?? error.message);
    process.stderr.write(`authlib-db: migrate failed: ${message}\n`);
    return 1;
  } finally {
    await client?.close();
  }
}

function parseCommandLine(args: readonly string[]) {
  return parseArgs({
    args: [...args],
    allowPositionals: true,
    options: {
      url: { type: "string" },
      branch: { type: "string" },
      "data-dir": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
}

process.exitCode = await main(process.argv.slice(2));
