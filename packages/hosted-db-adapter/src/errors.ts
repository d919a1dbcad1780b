/**
 * The one error class of the hosted-database package.
 *
 * @module errors
 */

/**
 * What went wrong:
 * - `InvalidOptions`: the client options (or `AUTHLIB_*` environment) cannot work; fix the configuration;
 * - `MissingMigration`: a table or branch does not exist yet; run `npx authlib-db migrate`;
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
