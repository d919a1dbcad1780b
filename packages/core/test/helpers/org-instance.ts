/**
 * Test fixture: ONE authlib instance with organizations in its own process, for the tests across instances
 * (`organizations/organizations-processes.test.ts`). Started as `node --import tsx org-instance.ts` with its
 * settings in the environment: `AUTH_SECRET`; `STORE_URL`, the shared organization store
 * (`org-store-server.ts`); JWT sessions with their registry in Redis (`REDIS_URL`, `REDIS_PREFIX`),
 * `REVOCATION` (`strict` or `eventual`) and `REVALIDATE_AFTER` (seconds).
 *
 * The credentials provider signs in `<name>@example.com` (user id `user-<name>`) with the password `pw`.
 * Over the IPC channel it answers `{ id, op, … }` with `{ id, value }` or `{ id, error }` (the error's type):
 * `signIn` (the new session's Cookie header), `session` (the session as `auth.api.getSession` reads it),
 * `api` (`auth.api[name](request, input)`; `cookie` answers the Cookie header with the cookies it set).
 */
import { createClient } from "redis";
import { createAuth } from "../../src/kernel/instance.js";
import Credentials from "../../src/providers/credentials.js";
import { redisSessionStore } from "../../src/session/redis.js";
import type { Cookie } from "../../src/types/internal.js";
import { storeClient } from "./org-store-server.js";

/** A message from the test. */
export type OrgInstanceCommand =
  | { id: number; op: "signIn"; user: string }
  | { id: number; op: "session"; cookie: string }
  | { id: number; op: "api"; cookie: string; name: string; input?: Record<string, unknown> }
  | { close: true };

function setting(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`org-instance: ${name} is not set`);
  return value;
}

const ORIGIN = "https://app.example.com";
const redis = await createClient({ url: setting("REDIS_URL") }).connect();

const auth = createAuth({
  secret: setting("AUTH_SECRET"),
  url: ORIGIN,
  adapter: storeClient(setting("STORE_URL")),
  session: {
    strategy: "jwt",
    store: redisSessionStore({ client: redis, prefix: setting("REDIS_PREFIX") }),
    revocation: setting("REVOCATION") as "strict" | "eventual",
    revalidateAfter: Number(setting("REVALIDATE_AFTER")),
  },
  organizations: {},
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
  logger: { error: () => {}, warn: () => {}, debug: () => {} },
});

const as = (cookie: string) => ({ headers: { cookie }, url: ORIGIN });

/** `cookie` with `set` applied (a cleared cookie goes). */
function merged(cookie: string, set: readonly Cookie[]): string {
  const jar = new Map(
    cookie
      .split("; ")
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)] as const),
  );
  for (const { name, value } of set) {
    if (value === "") jar.delete(name);
    else jar.set(name, value);
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
}

async function run(command: Exclude<OrgInstanceCommand, { close: true }>): Promise<unknown> {
  if (command.op === "signIn") {
    const { cookies } = await auth.api.signIn(
      { headers: {}, url: ORIGIN },
      { providerId: "credentials", email: `${command.user}@example.com`, password: "pw" },
    );
    return merged("", cookies);
  }
  if (command.op === "session") return (await auth.api.getSession(as(command.cookie))).session;
  const operation = (auth.api as unknown as Record<string, (request: unknown, input: unknown) => Promise<unknown>>)[command.name];
  if (!operation) throw new Error(`no operation ${command.name}`);
  const value = await operation(as(command.cookie), command.input);
  const cookies = (value as { cookies?: Cookie[] } | undefined)?.cookies;
  return cookies ? { ...(value as object), cookie: merged(command.cookie, cookies) } : value;
}

process.on("message", async (message: OrgInstanceCommand) => {
  if ("close" in message) {
    redis.destroy();
    process.disconnect();
    return;
  }
  try {
    process.send?.({ id: message.id, value: await run(message) });
  } catch (error) {
    const type = (error as { type?: string }).type;
    process.send?.({ id: message.id, error: type ?? `${(error as Error).name}: ${(error as Error).message}` });
  }
});
process.send?.({ ready: true });
