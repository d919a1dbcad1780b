/**
 * The `import-authjs` database command (`authlib db import-authjs`, `authlib-db import-authjs`): parses
 * its options, runs `importFromAuthjs` into the branch and prints what was copied. A failure is one line
 * (no stack), as for the other database commands.
 *
 * @module import-authjs-command
 */
import { parseArgs } from "node:util";
import { HostedDbClient } from "./client.js";
import type { CommandNames, CommandOutput } from "./command-types.js";
import { firstLine } from "./connection-failure.js";
import { type AuthjsTables, importFromAuthjs } from "./import-authjs.js";

/** The subcommand's help, appended to the CLI's usage. */
export const IMPORT_AUTHJS_USAGE = `
import-authjs      Copy users, accounts, sessions and authenticators from Auth.js tables (one transaction, safe to run again)
  --from <url>       postgres:// URL of the database holding the Auth.js tables (required)
  --from-schema <s>  Schema of the Auth.js tables (default "public")
  --tables <kind>    pg-adapter (users, accounts, …) or xata (nextauth_*) (default pg-adapter)
  --trust-emails     Mark imported addresses without emailVerified as verified (only if every provider verified them)
  --url, --branch, --data-dir as for migrate: where authlib's tables are (run migrate first)
`;

/**
 * Runs `authlib-db import-authjs` with the arguments after the subcommand name; resolves to the exit code
 * (0 done, 1 failed, 2 bad usage). Nothing is written unless everything is.
 */
export async function runImportAuthjs(args: readonly string[], io: CommandOutput, names: CommandNames): Promise<number> {
  let values: ReturnType<typeof parseImportArgs>["values"];
  try {
    ({ values } = parseImportArgs(args));
  } catch (error) {
    io.err(`${names.prefix} import-authjs: ${error instanceof Error ? error.message : String(error)}\n${IMPORT_AUTHJS_USAGE}`);
    return 2;
  }
  const tables = (values.tables ?? "pg-adapter") as AuthjsTables;
  if (!values.from || (tables !== "pg-adapter" && tables !== "xata")) {
    io.err(`${names.prefix} import-authjs: --from <postgres-url> is required; --tables is pg-adapter or xata\n${IMPORT_AUTHJS_USAGE}`);
    return 2;
  }
  let client: HostedDbClient | undefined;
  try {
    client = new HostedDbClient({ databaseURL: values.url, branch: values.branch, dataDir: values["data-dir"] });
    const result = await importFromAuthjs(client, {
      from: values.from,
      schema: values["from-schema"],
      tables,
      trustEmails: values["trust-emails"],
    });
    const line = (name: string, c: { read: number; imported: number }) => `  ${name}: ${c.imported} imported (${c.read} in Auth.js)\n`;
    io.out(
      `Imported from Auth.js (${tables}) into branch "${client.branch}":\n${line("users", result.users)}${line("accounts", result.accounts)}` +
        `${line("sessions", result.sessions)}${line("authenticators", result.authenticators)}` +
        `  pending sign-in links not carried over: ${result.pendingSignInLinks}\n`,
    );
    return 0;
  } catch (error) {
    // One line, no stack: the failure may be either database's (the source or the branch), so it is named as is.
    io.err(`${names.prefix}: import-authjs failed: ${firstLine(error)}\n`);
    return 1;
  } finally {
    await client?.close();
  }
}

function parseImportArgs(args: readonly string[]) {
  return parseArgs({
    args: [...args],
    allowPositionals: false,
    options: {
      from: { type: "string" },
      "from-schema": { type: "string" },
      tables: { type: "string" },
      "trust-emails": { type: "boolean" },
      url: { type: "string" },
      branch: { type: "string" },
      "data-dir": { type: "string" },
    },
  });
}
