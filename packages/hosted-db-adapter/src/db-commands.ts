/**
 * The database commands of the command line, `migrate`, `status` and `prune`, and the probe `authlib doctor`
 * uses. Run by `authlib db …` (the `authlib` command of @authlib/core, which loads this module when the
 * package is installed) and by this package's own `authlib-db …`, which is the same thing under its old
 * name.
 *
 * Every failure is one line on stderr and exit code 1, never a stack trace: a database that cannot be
 * reached is `<program>: cannot reach the database at <url> (<reason>)`, with the password masked.
 *
 * @module db-commands
 */
import { readFile } from "node:fs/promises";
import { isAbsolute, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { type BaseClientOptions, HostedDbClient } from "./client.js";
import type { CommandNames, CommandOutput } from "./command-types.js";
import { connectionFailureReason, firstLine } from "./connection-failure.js";
import { HostedDbError } from "./errors.js";
import { IMPORT_AUTHJS_USAGE, runImportAuthjs } from "./import-authjs-command.js";
import { type HostedDbMigrationStatus, migrationStatus } from "./migration-status.js";
import { migrations } from "./migrations.js";
import { type HostedDbPruneResult, pruneExpiredRows } from "./prune.js";

export type { CommandNames, CommandOutput };

/** Seconds a `postgres://` connection may take before the commands give up (unless the URL says otherwise). */
const CONNECT_TIMEOUT_SECONDS = 10;
const ADDED_TIMEOUT = new RegExp(`[?&]connect_timeout=${CONNECT_TIMEOUT_SECONDS}$`);

/** The usage text of the database commands. */
export function dbUsage(names: CommandNames): string {
  return `Usage: ${names.usage} <command> [options]

Commands:
  migrate            Create or upgrade the authlib tables of a branch (safe to run again)
  status             Show applied and pending migrations and the branch's tables
                     (exit code 1 when migrations are pending)
  prune              Delete expired rows: unused sign-in links, used passkey challenges
                     past their expiry, expired sessions and session records, ended
                     rate-limit windows, the authorization server's expired codes and
                     keys and its grants that ended more than a day ago
                     (safe to run any time, e.g. daily)

Options:
  --url <url>        postgres://…, file://<folder> or memory:// (default: $AUTHLIB_DATABASE_URL, else ./.authlib-db)
  --branch <name>    Branch (Postgres schema) (default: $AUTHLIB_BRANCH, else "main")
  --data-dir <dir>   Folder of the embedded database when no URL is given
  -h, --help         Show this help
${IMPORT_AUTHJS_USAGE}`;
}

/** The commands that take only the connection options. */
const COMMANDS = ["migrate", "status", "prune"] as const;
type Command = (typeof COMMANDS)[number];

function isCommand(value: string | undefined): value is Command {
  return (COMMANDS as readonly (string | undefined)[]).includes(value);
}

/** Runs `migrate`, `status`, `prune` or `import-authjs` with `args` (after the command name's own words); resolves to the exit code. */
export async function runDbCommand(args: readonly string[], io: CommandOutput, names: CommandNames): Promise<number> {
  if (args[0] === "import-authjs") return runImportAuthjs(args.slice(1), io, names);
  let parsed: ReturnType<typeof parseDbArgs>;
  try {
    parsed = parseDbArgs(args);
  } catch (error) {
    io.err(`${names.prefix}: ${firstLine(error)}\n\n${dbUsage(names)}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.out(dbUsage(names));
    return 0;
  }
  const [command, ...extra] = positionals;
  if (!isCommand(command) || extra.length > 0) {
    io.err(
      command === undefined
        ? dbUsage(names)
        : `${names.prefix}: unknown command ${JSON.stringify(positionals.join(" "))}\n\n${dbUsage(names)}`,
    );
    return 2;
  }
  const options = { databaseURL: values.url, branch: values.branch, dataDir: values["data-dir"] };
  return withClient(options, io, names.prefix, command, async (client, databaseURL) => {
    if (command === "migrate") return migrateWithProgress(client, databaseURL, io);
    if (command === "prune") {
      io.out(describePrune(await pruneExpiredRows(client), `branch "${client.branch}" of ${databaseURL}`));
      return 0;
    }
    const status = await migrationStatus(client, client.branch);
    io.out(describeStatus(status, databaseURL, names.usage));
    return status.pending.length === 0 ? 0 : 1;
  });
}

/**
 * `migrate`, saying what it does while it does it: which database it opens (an embedded one's first start
 * takes a while), which migrations it applies, what it did, and, for an embedded database in a folder of
 * the working directory that `.gitignore` does not list, that the folder is to be ignored.
 */
async function migrateWithProgress(client: HostedDbClient, databaseURL: string, io: CommandOutput): Promise<number> {
  const embedded = databaseURL.startsWith("file://");
  io.out(`Opening ${databaseURL}${embedded ? " (embedded PGlite: its first start takes a while)" : ""}…\n`);
  const { pending } = await migrationStatus(client, client.branch);
  if (pending.length > 0) {
    io.out(`Applying ${pending.length} migration(s) to branch "${client.branch}", in one transaction:\n`);
    for (const migration of migrations.filter((m) => pending.includes(m.version))) io.out(`  ${migration.version} ${migration.name}\n`);
  }
  const result = await client.migrate();
  const target = `branch "${result.branch}" of ${databaseURL}`;
  io.out(
    result.applied.length === 0
      ? `Up to date: ${target} is at version ${result.version}.\n`
      : `Applied migration(s) ${result.applied.join(", ")} to ${target}; now at version ${result.version}.\n`,
  );
  const folder = embedded ? await unignoredFolder(fileURLToPath(databaseURL), process.cwd()) : undefined;
  if (folder !== undefined) {
    io.out(`${folder} holds this machine's database, not source: add it to .gitignore (echo "${folder}" >> .gitignore).\n`);
  }
  return 0;
}

/** `dir` as `<relative path>/` when it lies in `cwd` and `cwd`'s `.gitignore` does not name it; else undefined. */
async function unignoredFolder(dir: string, cwd: string): Promise<string | undefined> {
  const path = relative(cwd, dir).split(sep).join("/");
  if (path === "" || path.startsWith("../") || isAbsolute(path)) return undefined;
  const ignore = await readFile(join(cwd, ".gitignore"), "utf8").catch(() => "");
  const names = new Set([path, `${path}/`, `/${path}`, `/${path}/`]);
  if (ignore.split(/\r?\n/).some((line) => names.has(line.trim()))) return undefined;
  return `${path}/`;
}

/** What `prune` deleted, in one line. */
function describePrune(result: HostedDbPruneResult, target: string): string {
  return `Pruned ${target}: ${result.verificationTokens} expired verification token(s) (sign-in links, passkey challenges), ${result.sessions} expired session(s), ${result.sessionRecords} expired JWT session record(s), ${result.rateLimitWindows} ended rate-limit window(s), ${result.oauthAuthorizationCodes} expired authorization code(s), ${result.oauthDeviceCodes} expired device code(s), ${result.oauthGrants} ended OAuth grant(s), ${result.oauthSigningKeys} expired signing key(s), ${result.apiKeys} ended API key(s), ${result.userBans} ended ban(s).\n`;
}

/** The status report: location, applied and pending migrations, tables. */
function describeStatus(status: HostedDbMigrationStatus, databaseURL: string, usage: string): string {
  const applied =
    status.applied.length === 0 ? "none" : status.applied.map((m) => `${m.version} (${m.name}, ${m.appliedAt.toISOString()})`).join(", ");
  const pending = status.pending.length === 0 ? "none" : `${status.pending.join(", ")} (run \`${usage} migrate\`)`;
  const tables = status.tables.length === 0 ? "none" : `${status.tables.join(", ")} (${status.tables.length})`;
  return `Database: ${databaseURL}, branch "${status.branch}"
Applied:  ${applied}
Pending:  ${pending}
Tables:   ${tables}
`;
}

/** What `probeDatabase` found: the status, or the one line that says why the database is out of reach. */
export type DatabaseProbe =
  | { ok: true; databaseURL: string; status: HostedDbMigrationStatus }
  | { ok: false; databaseURL: string | undefined; problem: string };

/**
 * Connects with `options` (and the `AUTHLIB_*` environment, as `HostedDbClient` does), reads the
 * migration status and closes again. Never throws: a failure is `{ ok: false, problem }`, one line
 * without the password.
 */
export async function probeDatabase(options: BaseClientOptions = {}): Promise<DatabaseProbe> {
  let databaseURL: string | undefined;
  let client: HostedDbClient | undefined;
  try {
    ({ client, databaseURL } = await openClient(options));
    return { ok: true, databaseURL, status: await migrationStatus(client, client.branch) };
  } catch (error) {
    return { ok: false, databaseURL, problem: failureLine(error, databaseURL, "status") };
  } finally {
    await client?.close().catch(() => {});
  }
}

/** Opens a client, runs `work`, closes it; any failure becomes one line on stderr and exit code 1. */
async function withClient(
  options: BaseClientOptions,
  io: CommandOutput,
  prefix: string,
  command: string,
  work: (client: HostedDbClient, databaseURL: string) => Promise<number>,
): Promise<number> {
  let client: HostedDbClient | undefined;
  let databaseURL: string | undefined;
  try {
    ({ client, databaseURL } = await openClient(options));
    return await work(client, databaseURL);
  } catch (error) {
    io.err(`${prefix}: ${failureLine(error, databaseURL, command)}\n`);
    return 1;
  } finally {
    await client?.close().catch(() => {});
  }
}

/** One line for a failure: unreachable database, invalid options, or the command's own failure. */
function failureLine(error: unknown, databaseURL: string | undefined, command: string): string {
  const reason = connectionFailureReason(error);
  if (reason !== undefined) return `cannot reach the database at ${databaseURL ?? "(unknown)"} (${reason})`;
  if (error instanceof HostedDbError) return firstLine(error);
  return `${command} failed: ${firstLine(error)}`;
}

/**
 * A client for `options`, with a connection timeout on a `postgres://` URL that has none (`pg` waits
 * forever by default), so a server that drops packets fails in seconds like one that refuses; and the
 * location to show, as the user gave it (password masked, without the added timeout).
 */
async function openClient(options: BaseClientOptions): Promise<{ client: HostedDbClient; databaseURL: string }> {
  const url = options.databaseURL || process.env.AUTHLIB_DATABASE_URL;
  let timed = options;
  if (url !== undefined && /^postgres(ql)?:\/\//.test(url) && URL.canParse(url)) {
    const parsed = new URL(url);
    if (!parsed.searchParams.has("connect_timeout")) {
      parsed.searchParams.set("connect_timeout", String(CONNECT_TIMEOUT_SECONDS));
      timed = { ...options, databaseURL: parsed.href };
    }
  }
  const client = new HostedDbClient(timed);
  const shown = (await client.getConfig()).databaseURL;
  return { client, databaseURL: timed === options ? shown : shown.replace(ADDED_TIMEOUT, "") };
}

function parseDbArgs(args: readonly string[]) {
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
