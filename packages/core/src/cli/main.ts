#!/usr/bin/env node
/**
 * The `authlib` executable (`npx authlib …`): runs the command line on this process's arguments and
 * exits with its code once the output is written. Exiting explicitly matters for `doctor`: the app's
 * config module may have opened connections (a database pool) that would keep the process alive.
 *
 * @module cli/main
 */
import { runCli } from "./run.js";
import { processTerminal } from "./terminal.js";

const code = await runCli(process.argv.slice(2), processTerminal());
process.exitCode = code;
process.stdout.write("", () => process.stderr.write("", () => process.exit(code)));
