/**
 * What the database commands write to and how they name themselves: shared by `db-commands.ts` (which
 * re-exports them, its public names) and the subcommand it runs, `import-authjs-command.ts`, so that the
 * two need not import each other.
 *
 * @module command-types
 */

/** Where a command writes: whole lines (or blocks) of text to stdout and stderr. */
export interface CommandOutput {
  out(text: string): void;
  err(text: string): void;
}

/** How the commands name themselves in usage and error lines. */
export interface CommandNames {
  /** The command as typed, for the usage text: `authlib db` or `authlib-db`. */
  usage: string;
  /** The prefix of error lines: `authlib` or `authlib-db`. */
  prefix: string;
}
