/**
 * Test fixture: ONE authlib instance in its own process, for the session control tests across instances
 * (issue 27). Started by `session/session-control-processes.test.ts` as
 * `node --import tsx session-instance.ts` with its settings in the environment:
 *
 * - `REGISTRY`: `redis` (JWT sessions, `redisSessionStore` on `REDIS_URL` under `REDIS_PREFIX`),
 *   `postgres` (JWT sessions, `hostedDbSessionStore` on `DATABASE_URL` / `BRANCH`) or `database`
 *   (database sessions in the hosted-db adapter on the same database);
 * - `REVOCATION` (`strict` or `eventual`), `REVALIDATE_AFTER` (seconds), `AUTH_SECRET`.
 *
 * The credentials provider signs in `ada@example.com` / `bob@example.com` with the password `pw` (with
 * database sessions, the users must exist in the database: the test creates them). Over the IPC channel
 * it answers `{ id, op, cookie? , user? }` with `{ id, value }` or `{ id, error }`: `signIn` (the new
 * session's Cookie header), `name` (the session's user name, or null), `revokeOthers` (how many ended).
 */
import { createClient } from "redis";
import { HostedDbAdapter, HostedDbClient, hostedDbSessionStore } from "../../../hosted-db-adapter/src/index.js";
import { createAuth } from "../../src/kernel/instance.js";
import Credentials from "../../src/providers/credentials.js";
import { redisSessionStore } from "../../src/session/redis.js";
import type { AuthConfig } from "../../src/types/config.js";

/** A message from the test. */
export type SessionInstanceCommand =
  | { id: number; op: "signIn"; user: string }
  | { id: number; op: "name" | "revokeOthers"; cookie: string }
  | { close: true };

function setting(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`session-instance: ${name} is not set`);
  return value;
}

const ORIGIN = "https://app.example.com";
const kind = setting("REGISTRY");
const database = kind === "redis" ? undefined : new HostedDbClient({ databaseURL: setting("DATABASE_URL"), branch: setting("BRANCH") });
const redis = kind === "redis" ? await createClient({ url: setting("REDIS_URL") }).connect() : undefined;

const session: AuthConfig["session"] = {
  revocation: setting("REVOCATION") as "strict" | "eventual",
  revalidateAfter: Number(setting("REVALIDATE_AFTER")),
};
if (redis) session.store = redisSessionStore({ client: redis, prefix: setting("REDIS_PREFIX") });
else if (kind === "postgres") session.store = hostedDbSessionStore(database as HostedDbClient);
else session.strategy = "database";

const auth = createAuth({
  secret: setting("AUTH_SECRET"),
  url: ORIGIN,
  ...(kind === "database" ? { adapter: HostedDbAdapter(database as HostedDbClient) } : {}),
  session,
  providers: [
    Credentials({
      credentials: { email: {}, password: {} },
      async authorize({ email, password }) {
        if (password !== "pw" || typeof email !== "string") return null;
        const name = email.split("@")[0] as string;
        return { id: `user-${name}`, email, name };
      },
    }),
  ],
  logger: { error: (error) => console.error(`[session-instance] ${error.name}: ${error.message}`), warn: () => {} },
});

const as = (cookie: string) => ({ headers: { cookie }, url: ORIGIN });

async function run(command: Exclude<SessionInstanceCommand, { close: true }>): Promise<unknown> {
  if (command.op === "signIn") {
    const { cookies } = await auth.api.signIn(
      { headers: {}, url: ORIGIN },
      { providerId: "credentials", email: `${command.user}@example.com`, password: "pw" },
    );
    return cookies.map((c) => `${c.name}=${c.value}`).join("; ");
  }
  if (command.op === "name") return (await auth.api.getSession(as(command.cookie))).session?.user?.name ?? null;
  return (await auth.api.revokeOtherSessions(as(command.cookie))).revoked;
}

process.on("message", async (message: SessionInstanceCommand) => {
  if ("close" in message) {
    await database?.close();
    redis?.destroy();
    process.disconnect();
    return;
  }
  try {
    process.send?.({ id: message.id, value: await run(message) });
  } catch (error) {
    process.send?.({ id: message.id, error: `${(error as Error).name}: ${(error as Error).message}` });
  }
});
process.send?.({ ready: true });
