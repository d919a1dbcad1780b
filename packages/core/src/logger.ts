/**
 * The logger. Log lines carry error names and messages, and of each cause its name, its codes and (unless
 * it quotes a server's reply) its message; never tokens, cookies or secrets: errors are built so that
 * their messages hold none. A server's reply can quote what the user typed (an SMTP refusal names the
 * recipient), so a cause carrying one is logged by its name and codes only (see email/mail-failure.ts).
 */
import { AuthError, CredentialsSignin } from "./errors.js";
import type { AuthConfig, LoggerInstance, WarningCode } from "./types/config.js";

/**
 * The warnings' texts load with the first warning the built-in logger prints: most processes print none,
 * and the texts would otherwise weigh on every server bundle. Not per configuration: a module memo.
 */
let warningTexts: Promise<typeof import("./warning-texts.js")> | undefined;

/** Prints the built-in line of warning `code` (once its text has loaded). */
function printWarning(code: WarningCode): void {
  warningTexts ??= import("./warning-texts.js");
  void warningTexts.then(({ warningText }) => console.warn(`[authlib][warn][${code}] ${warningText(code)}${readMore(code)}`));
}

/** Where each error type and warning code is explained: `#<type or code in lower case>` is its entry. */
export const TROUBLESHOOTING_URL = "https://github.com/authlib/authlib/blob/main/docs/troubleshooting.md";

/** ` Read more: <troubleshooting entry>` for an authlib error or a warning code; empty for other errors. */
export function readMore(subject: Error | WarningCode): string {
  const anchor = typeof subject === "string" ? subject : subject instanceof AuthError ? subject.type : undefined;
  return anchor ? ` Read more: ${TROUBLESHOOTING_URL}#${anchor.toLowerCase()}` : "";
}

/** One line describing an error and its chain of causes, without any data fields. */
export function describeError(error: Error): string {
  const code = error instanceof CredentialsSignin ? ` (code ${error.code})` : "";
  // A rejected sign-in needs no message of the app's own: the line still says what happened.
  const fallback = error instanceof CredentialsSignin ? "the credentials were rejected" : "(no message)";
  const parts = [`${error.name}: ${error.message || fallback}${code}`];
  let cause = error instanceof AuthError ? error.cause?.err : (error.cause as Error | undefined);
  for (let depth = 0; cause instanceof Error && depth < 3; depth++) {
    parts.push(`caused by ${describeCause(cause)}`);
    cause = cause.cause as Error | undefined;
  }
  return parts.join(" — ");
}

/**
 * A cause as a log line shows it: `Name (code X, response code N): message`. The message is left out when
 * the cause carries a server's reply (`responseCode` or `response`, as nodemailer's errors do): that text
 * can quote the address the user typed.
 */
function describeCause(cause: Error): string {
  const fields = cause as Error & { code?: unknown; responseCode?: unknown; response?: unknown };
  const codes = [
    typeof fields.code === "string" || typeof fields.code === "number" ? `code ${fields.code}` : "",
    typeof fields.responseCode === "number" ? `response code ${fields.responseCode}` : "",
  ].filter(Boolean);
  const quotesServer = fields.responseCode !== undefined || fields.response !== undefined;
  const message = quotesServer || !cause.message ? "" : `: ${cause.message}`;
  return `${cause.name}${codes.length > 0 ? ` (${codes.join(", ")})` : ""}${message}`;
}

/** The logger for a configuration: the user's levels where given, the built-in ones otherwise. */
export function createLogger(config: Pick<AuthConfig, "logger" | "debug">): LoggerInstance {
  const custom = config.logger ?? {};
  return {
    error: custom.error ?? ((error: Error) => console.error(`[authlib][error] ${describeError(error)}${readMore(error)}`)),
    warn: custom.warn ?? printWarning,
    debug: config.debug
      ? (custom.debug ?? ((message: string, metadata?: unknown) => console.debug(`[authlib][debug] ${message}`, metadata ?? "")))
      : () => {},
  };
}
