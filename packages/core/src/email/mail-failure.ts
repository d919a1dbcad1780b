/**
 * What of a failed send becomes the cause of `EmailSignInError`, and so reaches the logs. A mail server's
 * refusal quotes the recipient (`550 5.1.1 <person@example.com>: Recipient address rejected`), and
 * nodemailer puts that reply into its error's message, `response`, `rejected` and `rejectedErrors`; an
 * app's own `sendVerificationRequest` may throw anything. So a failure in someone else's words is
 * replaced by a summary that keeps what an operator needs to tell failures apart — its name, its `code`
 * (`EENVELOPE`, `ECONNECTION`, …), the server's `responseCode` (550) and the SMTP `command` — and none of
 * its text. Failures authlib words itself ({@link AuthlibMailError}: a mail service's HTTP status, a
 * missing API key) name no address, and are kept as they are.
 *
 * @module email/mail-failure
 */

/** A mail failure in authlib's own words: its message names no address and quotes no server, so it is logged as it is. */
export class AuthlibMailError extends Error {
  override name = "AuthlibMailError";
}

/** A failed send as the logs see it: the original's name and codes, none of its text. */
export class MailFailureSummary extends Error {
  /** The error's own code, e.g. nodemailer's `EENVELOPE` or a socket's `ECONNREFUSED`. */
  code?: string;
  /** The SMTP server's reply code, e.g. 550. */
  responseCode?: number;
  /** The SMTP command the server refused, e.g. `RCPT TO`. */
  command?: string;
}

/** `value` when it is a short token-like string (a code, a command), else `undefined`. */
function shortWord(value: unknown): string | undefined {
  return typeof value === "string" && /^[A-Za-z0-9_ .-]{1,32}$/.test(value) ? value : undefined;
}

/** The cause to attach to an error about `error`, a failed send (see the module comment). */
export function mailFailureCause(error: unknown): Error {
  if (error instanceof AuthlibMailError) return error;
  const failure = (typeof error === "object" && error !== null ? error : {}) as Record<string, unknown>;
  // The message is left empty on purpose: a summary of someone else's error has no words of its own.
  const summary = new MailFailureSummary();
  summary.name = shortWord(failure.name) ?? "Error";
  const code = shortWord(failure.code);
  const command = shortWord(failure.command);
  if (code) summary.code = code;
  if (typeof failure.responseCode === "number") summary.responseCode = failure.responseCode;
  if (command) summary.command = command;
  return summary;
}
