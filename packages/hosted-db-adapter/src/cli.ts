#!/usr/bin/env node
/**
 * `authlib-db`: the database commands under this package's own name, the same as `authlib db` (the
 * `authlib` command of @authlib/core, which runs this package's `db-commands` module).
 *
 *     npx authlib-db migrate|status|prune [--url <databaseURL>] [--branch <name>] [--data-dir <folder>]
 *
 * Without flags it uses the same defaults as `new HostedDbClient()`: `AUTHLIB_DATABASE_URL`,
 * `AUTHLIB_BRANCH`, else the embedded database in `./.authlib-db` and the branch `main`.
 *
 * @module cli
 */
import { type CommandOutput, runDbCommand } from "./db-commands.js";

const output: CommandOutput = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
};

process.exitCode = await runDbCommand(process.argv.slice(2), output, { usage: "authlib-db", prefix: "authlib-db" });
