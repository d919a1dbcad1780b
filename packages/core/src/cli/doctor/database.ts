/**
 * Whether the database answers: the hosted database at `AUTHLIB_DATABASE_URL` (through
 * @authlib/hosted-db-adapter's probe: reachable, and migrated), and the configuration's adapter (one
 * harmless read, `getUser` of an id nobody has).
 *
 * @module cli/doctor/database
 */
import type { Adapter } from "../../types/adapters.js";
import { loadDbCommands } from "../db.js";
import { error, type Finding } from "./findings.js";

/** How long the adapter's read may take before the doctor calls the database unreachable. */
const ADAPTER_READ_TIMEOUT_MS = 15_000;

/** The hosted database at `databaseURL` (branch `branch`): reachable and fully migrated. */
export async function hostedDatabaseFindings(databaseURL: string, branch: string | undefined): Promise<Finding[]> {
  const commands = await loadDbCommands();
  // Its absence is a peer finding already.
  if (!commands) return [];
  const probe = await commands.probeDatabase({ databaseURL, branch });
  if (!probe.ok) {
    return [error(`${probe.problem}.`, "start the database, or correct AUTHLIB_DATABASE_URL (host, port, user, password, database).")];
  }
  const { pending, branch: probed } = probe.status;
  if (pending.length === 0) return [];
  return [
    error(
      `Branch "${probed}" of ${probe.databaseURL} lacks migration(s) ${pending.join(", ")}: the adapter's queries fail until they are applied.`,
      "run `npx authlib db migrate` (once per deploy).",
    ),
  ];
}

function describe(thrown: unknown): string {
  if (!(thrown instanceof Error)) return String(thrown);
  const code = (thrown as { code?: unknown }).code;
  const message = thrown.message.split("\n", 1)[0] || (typeof code === "string" ? code : thrown.name);
  return typeof code === "string" && !message.includes(code) ? `${message} (${code})` : message;
}

/** The adapter answers a read within {@link ADAPTER_READ_TIMEOUT_MS}. */
export async function adapterFindings(adapter: Adapter): Promise<Finding[]> {
  if (typeof adapter.getUser !== "function") return [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ADAPTER_READ_TIMEOUT_MS / 1000} s`)), ADAPTER_READ_TIMEOUT_MS);
  });
  try {
    await Promise.race([adapter.getUser(crypto.randomUUID()), timeout]);
    return [];
  } catch (thrown) {
    return [
      error(
        `The adapter could not read from its database (getUser: ${describe(thrown)}).`,
        "check that the database runs and is migrated (`npx authlib db status`).",
      ),
    ];
  } finally {
    clearTimeout(timer);
  }
}
