/**
 * Identifiers in SQL text. Values always travel as parameters; the only names ever put into SQL text are
 * the branch (validated here) and the fixed table and column names of this package, always quoted.
 *
 * @module sql
 */
import { HostedDbError } from "./errors.js";

/**
 * What a branch may be called. A branch is a Postgres schema, so: at most 63 bytes, lower case (unquoted
 * names fold to lower case; mixed case would need quoting in every hand-written query), not a system
 * schema (`pg_*`).
 */
const BRANCH_NAME = /^(?!pg_)[a-z_][a-z0-9_-]{0,62}$/;

/** Returns `branch` when it is a valid branch name, else throws `HostedDbError("InvalidOptions")`. */
export function assertBranchName(branch: string): string {
  if (!BRANCH_NAME.test(branch)) {
    throw new HostedDbError(
      "InvalidOptions",
      `Invalid branch name ${JSON.stringify(branch)}: use 1-63 lower-case letters, digits, "_" or "-", starting with a letter or "_" and not with "pg_".`,
    );
  }
  return branch;
}

/** Quotes an identifier for SQL text ("a""b" for a"b). */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
