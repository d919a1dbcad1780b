/**
 * Test fixture: ONE authlib instance in its own process, for tests of what instances share (issue 26's
 * refresh lease). Started by `refresh-lease-instances.test.ts` as
 * `node --import tsx refresh-instance.ts` with its settings in the environment:
 *
 * - `ISSUER`: the test OP (client `app` / `app-secret`), as a refreshing OIDC provider `op`;
 * - `DATABASE_URL`, `BRANCH`: the app's database (the hosted-db adapter, database sessions);
 * - `LEASE_STORE`: `postgres` (`hostedDbRateLimitStore` on the same database), `redis` (`redisRateLimitStore`
 *   on `REDIS_URL` with `REDIS_PREFIX`) or `none` (the default memory store, which has no lease);
 * - `AUTH_SECRET`.
 *
 * Over the IPC channel it answers `{ id, cookie, parallel }` with `{ id, results }`: `parallel` concurrent
 * `GET /auth/session` with that Cookie header, each result the status and the session's `error` and email.
 * It sends `{ ready: true }` once its connections are open, and closes them on `{ close: true }`.
 */
import { createClient } from "redis";
import { HostedDbAdapter, HostedDbClient, hostedDbRateLimitStore } from "../../../hosted-db-adapter/src/index.js";
import { Auth } from "../../src/index.js";
import { redisRateLimitStore } from "../../src/rate-limit/redis.js";
import type { RateLimitStore } from "../../src/rate-limit/store.js";
import type { AuthConfig } from "../../src/types/config.js";

/** A message from the test. */
export type InstanceCommand = { id: number; cookie: string; parallel: number } | { close: true };

/** One session check as the test sees it. */
export interface SessionCheck {
  status: number;
  error?: string;
  email?: string;
}

function setting(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`refresh-instance: ${name} is not set`);
  return value;
}

const origin = "https://app.example.com";
const client = new HostedDbClient({ databaseURL: setting("DATABASE_URL"), branch: setting("BRANCH") });
const redis = process.env.LEASE_STORE === "redis" ? await createClient({ url: setting("REDIS_URL") }).connect() : undefined;

function leaseStore(): RateLimitStore | undefined {
  if (process.env.LEASE_STORE === "postgres") return hostedDbRateLimitStore(client);
  if (redis) return redisRateLimitStore({ client: redis, prefix: setting("REDIS_PREFIX") });
  return undefined;
}

const store = leaseStore();
const errors: string[] = [];
const config: AuthConfig = {
  secret: setting("AUTH_SECRET"),
  trustHost: true,
  adapter: HostedDbAdapter(client),
  session: { strategy: "database" },
  providers: [
    {
      id: "op",
      name: "Test OP",
      type: "oidc",
      issuer: setting("ISSUER"),
      clientId: "app",
      clientSecret: "app-secret",
      refreshAccessToken: true,
    },
  ],
  logger: { error: (error) => void errors.push(`${error.name}: ${error.message}`), warn: () => {}, debug: () => {} },
  ...(store ? { rateLimit: { store } } : {}),
};

async function check(cookie: string): Promise<SessionCheck> {
  const response = await Auth(new Request(`${origin}/auth/session`, { headers: { cookie } }), config);
  const body = (await response.json()) as { error?: string; user?: { email?: string } } | null;
  return { status: response.status, error: body?.error, email: body?.user?.email };
}

process.on("message", async (message: InstanceCommand) => {
  if ("close" in message) {
    await client.close();
    await redis?.quit();
    process.disconnect();
    return;
  }
  const results = await Promise.all(Array.from({ length: message.parallel }, () => check(message.cookie)));
  process.send?.({ id: message.id, results, errors: errors.splice(0) });
});

process.send?.({ ready: true });
