/**
 * The one error class of the hosted-database package.
 *
 * @module errors
 */

/**
 * What went wrong:
 * - `InvalidOptions`: the client options (or `AUTHLIB_*` environment) cannot work; fix the configuration;
 * - `MissingMigration`: a table or branch does not exist yet; run `npx authlib db migrate`;
 * - `MissingDriver`: the database the options name needs a driver package that is not installed
 *   (`@electric-sql/pglite` for the embedded database, `pg` for a PostgreSQL server); install it;
 * - `NotFound`: a write targeted a record that does not exist;
 * - `UnexpectedData`: a stored value is outside what the adapter contract allows;
 * - `Closed`: the client was used after `close()`;
 * - `ImportConflict`: `importFromAuthjs` found authlib rows that contradict the Auth.js data (nothing was written);
 * - `Timeout`: PostgreSQL did not open a connection or answer a statement within the client's
 *   `connectTimeoutMillis` / `queryTimeoutMillis` (server down, frozen or unreachable).
 */
export type HostedDbErrorCode =
  | "InvalidOptions"
  | "MissingMigration"
  | "MissingDriver"
  | "NotFound"
  | "UnexpectedData"
  | "Closed"
  | "ImportConflict"
  | "Timeout";

/** Raised by the client, the tables and the adapter. Driver errors (constraint violations, …) pass through unchanged. */
export class HostedDbError extends Error {
  /** Which kind of failure this is. */
  readonly code: HostedDbErrorCode;

  constructor(code: HostedDbErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "HostedDbError";
    this.code = code;
  }
}

/**
 * `import(specifier)` of a database driver, or `MissingDriver` naming the package to install and what
 * needs it, when the package is not installed (instead of Node's raw "Cannot find package").
 */
export async function importDriver<T>(specifier: "pg" | "@electric-sql/pglite", load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const code = (error as { code?: unknown })?.code;
    if (code !== "ERR_MODULE_NOT_FOUND" || !String((error as Error).message).includes(`'${specifier}'`)) throw error;
    const what = specifier === "pg" ? "A PostgreSQL server (a postgres:// URL)" : "The embedded database (no URL, file:// or memory://)";
    const other = specifier === "pg" ? "" : ", or set AUTHLIB_DATABASE_URL (or --url) to your PostgreSQL server's postgres:// URL";
    throw new HostedDbError(
      "MissingDriver",
      `${what} needs the package ${specifier}, which is not installed: npm install ${specifier}${other}.`,
      {
        cause: error,
      },
    );
  }
}
