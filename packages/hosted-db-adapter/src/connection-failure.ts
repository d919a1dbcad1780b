/**
 * A failure to reach the database, said in one line: what the command line prints instead of a stack
 * trace when the server is down, the host unknown or the password wrong.
 *
 * @module connection-failure
 */

/** Node's socket error codes and Postgres' connection-time SQLSTATEs, in words. */
const REASONS: Readonly<Record<string, string>> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  ETIMEDOUT: "timed out",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host not found",
  "28P01": "authentication failed",
  "28000": "access refused by the server (pg_hba.conf)",
  "3D000": "the database does not exist",
  "57P03": "the server is starting up",
  "53300": "too many connections",
};

function codeOf(error: unknown): string | undefined {
  const code = typeof error === "object" && error !== null && "code" in error ? (error as { code: unknown }).code : undefined;
  return typeof code === "string" ? code : undefined;
}

/** The errors inside `error`: itself, an AggregateError's members (one per address tried), its cause. */
function chain(error: unknown): unknown[] {
  const found: unknown[] = [error];
  if (error instanceof AggregateError) found.push(...error.errors);
  if (error instanceof Error && error.cause !== undefined) found.push(error.cause);
  return found;
}

/**
 * Why the database could not be reached, in a few words (`connection refused`, `authentication
 * failed`, …), or `undefined` when `error` is not a connection failure (a failing statement, say).
 * `pg`'s own timeout (`connect_timeout`) is recognised by its message.
 */
export function connectionFailureReason(error: unknown): string | undefined {
  for (const candidate of chain(error)) {
    const code = codeOf(candidate);
    if (code !== undefined && Object.hasOwn(REASONS, code)) return REASONS[code];
    if (candidate instanceof Error && /^Connection terminated due to connection timeout/.test(candidate.message)) return "timed out";
  }
  return undefined;
}

/** The first line of an error's message (driver messages can span lines); never its stack. */
export function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const line = message.split("\n", 1)[0]?.trim();
  return line === undefined || line === "" ? (error instanceof Error ? error.name : "unknown error") : line;
}
