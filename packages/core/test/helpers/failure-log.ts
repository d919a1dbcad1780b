/**
 * A logger that records every failure authlib logs, at whichever level its meaning puts it
 * (src/http/log-level.ts): a user's failure arrives at `debug` (with `{ type, level }`), a client's signal
 * as a warning code and its line at `debug`, a fault at `error`. Give the configuration `debug: true` and
 * `logger`, then read `failures` (every failed request's type and line, oldest first) or `errorsLogged`.
 */
import { AuthError } from "../../src/errors.js";
import { describeError } from "../../src/logger.js";
import type { LoggerInstance, WarningCode } from "../../src/types/config.js";

/** One logged failure: its type, the level it was logged at, its line (name, message, causes). */
export interface LoggedFailure {
  type: string;
  level: "debug" | "warn" | "error";
  line: string;
}

export function failureLog() {
  const failures: LoggedFailure[] = [];
  const errorsLogged: Error[] = [];
  const warnings: WarningCode[] = [];
  const logger: LoggerInstance = {
    error: (error) => {
      errorsLogged.push(error);
      failures.push({ type: error instanceof AuthError ? error.type : error.name, level: "error", line: describeError(error) });
    },
    warn: (code) => void warnings.push(code),
    debug: (message, metadata) => {
      const { type, level } = (metadata ?? {}) as { type?: string; level?: "debug" | "warn" };
      if (typeof type === "string" && level !== undefined) failures.push({ type, level, line: message });
    },
  };
  return {
    /** Give it to the configuration with `debug: true`. */
    logger,
    failures,
    errorsLogged,
    warnings,
    /** The types of the failures logged, oldest first. */
    types: () => failures.map((failure) => failure.type),
    /** The newest failure. */
    last: () => failures.at(-1),
  };
}

/**
 * Logger levels that put every failure into `into`, as tests that read a flow's named errors expect: an
 * error as it is; a failure logged at debug or warn (a user's or a client's, src/http/log-level.ts) as an
 * `AuthError` of its type and message. Give the configuration `debug: true` too.
 */
export function recordFailures(into: Error[]): Pick<LoggerInstance, "error" | "debug"> {
  return {
    error: (error) => void into.push(error),
    debug: (_line, metadata) => {
      const { type, message } = (metadata ?? {}) as { type?: string; message?: string };
      if (typeof type !== "string") return;
      const failure = new AuthError(message);
      failure.type = type as AuthError["type"];
      failure.name = type;
      into.push(failure);
    },
  };
}

/**
 * Logger levels that write every failure into `lines` as `Type: message`, whatever level its meaning puts it
 * at (a user's mistake arrives at debug), and each warning as `warn <code>` (the `debug-enabled` warning of
 * the test's own `debug: true` left out). Give the configuration `debug: true` too.
 */
export function failureLines(lines: string[]): LoggerInstance {
  return {
    error: (error) => void lines.push(`${error.name}: ${error.message}`),
    warn: (code) => void (code === "debug-enabled" || lines.push(`warn ${code}`)),
    debug: (_line, metadata) => {
      const { type, message } = (metadata ?? {}) as { type?: string; message?: string };
      if (type) lines.push(`${type}: ${message}`);
    },
  };
}
