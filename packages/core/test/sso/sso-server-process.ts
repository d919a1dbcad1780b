/**
 * Test fixture: ONE server process of `two-processes.test.ts`. It runs an app with organizations, SSO and
 * SCIM on the hosted-db adapter at `DATABASE_URL` / `BRANCH` (audit rows in the same database) for each
 * session setting of {@link SESSION_SETTINGS}, each its own instance on its own port of 127.0.0.1, all
 * under the one public address `PUBLIC_URL`: the instances stand behind one load balancer, so a SAML
 * response names the same audience and recipient whichever instance it reaches. `REVALIDATE_AFTER` is the
 * eventual setting's bound (seconds). The credentials provider signs in any stored user by their address
 * (`username`).
 *
 * Over the IPC channel it answers `{ id }` with `{ id, origins }` (each setting's server), and
 * `{ id, clockOffset }` (ms) by moving this process's clock (`Date.now`, what `revalidateAfter` is
 * measured by) that far ahead of the real one, so a test need not sleep through the bound. It closes on
 * `{ close: true }`.
 */
import { HostedDbAdapter, HostedDbClient, hostedDbAuditStore } from "../../../hosted-db-adapter/src/index.js";
import { createAuth } from "../../src/kernel/instance.js";
import Credentials from "../../src/providers/credentials.js";
import type { AuthConfig } from "../../src/types/config.js";
import { type NodeServer, startNodeServer } from "../helpers/node-server.js";

/** The session settings an instance is started with, by name. */
export type SessionSetting = "database" | "jwtStrict" | "jwtEventual";

/** A command of the test (`forkInstance` adds its id; `{ close: true }` is its own message). */
export interface ServerProcessCommand {
  /** How far (ms) this process's clock is to run ahead of the real one from now on; 0 puts it back. */
  clockOffset?: number;
}

/** The answer to every command but `close`: each setting's server origin. */
export interface ServerProcessAnswer {
  origins: Record<SessionSetting, string>;
}

function setting(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`sso-server-process: ${name} is not set`);
  return value;
}

const database = new HostedDbClient({ databaseURL: setting("DATABASE_URL"), branch: setting("BRANCH") });
const adapter = HostedDbAdapter(database);

const SESSION_SETTINGS: Record<SessionSetting, AuthConfig["session"]> = {
  database: { strategy: "database" },
  jwtStrict: { strategy: "jwt", revocation: "strict" },
  jwtEventual: { strategy: "jwt", revocation: "eventual", revalidateAfter: Number(setting("REVALIDATE_AFTER")) },
};

/** An app with `session`, as every instance of the test runs it. */
function appConfig(session: AuthConfig["session"]): AuthConfig {
  return {
    secret: setting("AUTH_SECRET"),
    url: setting("PUBLIC_URL"),
    adapter,
    session,
    organizations: {},
    sso: {},
    audit: { store: hostedDbAuditStore(database) },
    providers: [
      Credentials({
        credentials: { username: {} },
        authorize: async ({ username }) => (typeof username === "string" ? await adapter.getUserByEmail(username) : null),
      }),
    ],
    logger: { error: (error) => console.error(`[sso-server-process] ${error.name}: ${error.message}`), warn: () => {}, debug: () => {} },
  };
}

const servers = {} as Record<SessionSetting, NodeServer>;
for (const [name, session] of Object.entries(SESSION_SETTINGS) as Array<[SessionSetting, AuthConfig["session"]]>) {
  const auth = createAuth(appConfig(session));
  servers[name] = await startNodeServer((request) => auth.handler(request));
}
const origins = Object.fromEntries(Object.entries(servers).map(([name, server]) => [name, server.origin])) as Record<
  SessionSetting,
  string
>;

const realNow = Date.now;

process.on("message", async (message: (ServerProcessCommand & { id: number }) | { close: true }) => {
  if ("close" in message) {
    await Promise.all(Object.values(servers).map((server) => server.close()));
    await database.close();
    process.exit(0);
  }
  if (message.clockOffset !== undefined) {
    const offset = message.clockOffset;
    Date.now = offset === 0 ? realNow : () => realNow() + offset;
  }
  process.send?.({ id: message.id, origins } satisfies ServerProcessAnswer & { id: number });
});
process.send?.({ ready: true });
