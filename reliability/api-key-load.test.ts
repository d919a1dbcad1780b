/**
 * Load test of API keys (issue 48): 50 users on the hosted-db adapter over a PostgreSQL database of its own
 * each make a key through `auth.api.createApiKey` (a real session, owner present); 10 keys are revoked; then
 * 10,000 verifications (`auth.api.verifyApiKey`, 100 in flight) run with database sessions (so every
 * verification reads the store: the bound is 0) and the per-key rate limit counted in Redis. Every answer
 * must be the expected one: the live keys verified as their owner, the revoked ones refused with
 * `InvalidApiKey`, no other error. Throughput is recorded in test-artifacts/reliability.json, not asserted.
 */
import { randomUUID } from "node:crypto";
import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuth } from "../packages/core/src/kernel/instance.js";
import Credentials from "../packages/core/src/providers/credentials.js";
import { redisRateLimitStore } from "../packages/core/src/rate-limit/redis.js";
import type { AuthConfig } from "../packages/core/src/types/config.js";
import { authClient } from "../packages/core/test/helpers/auth-client.js";
import { redisAnswers, redisURL } from "../packages/core/test/helpers/redis.js";
import { HostedDbAdapter, HostedDbClient } from "../packages/hosted-db-adapter/src/index.js";
import { postgresAnswers } from "../packages/hosted-db-adapter/test/helpers.js";
import { recordFigures } from "./helpers/figures.js";
import { runBounded, timed } from "./helpers/measure.js";
import { createScratchDatabase, type ScratchDatabase, SHARED_SERVER_URL } from "./helpers/scratch-database.js";

const USERS = 50;
const REVOKED = 10;
const VERIFICATIONS = Number(process.env.LOAD_VERIFICATIONS ?? 10_000);
const IN_FLIGHT = 100;
const ORIGIN = "http://localhost:3000";
const PREFIX = `authlib-apikey-load-${randomUUID()}:`;

const available = (await postgresAnswers(SHARED_SERVER_URL, "the API key load test")) && (await redisAnswers("the API key load test"));

let database: ScratchDatabase;
let client: HostedDbClient;
let redis: ReturnType<typeof createClient>;
let auth: ReturnType<typeof createAuth>;
let config: AuthConfig;
const keys: Array<{ key: string; userId: string; revoked: boolean }> = [];

beforeAll(async () => {
  if (!available) return;
  database = await createScratchDatabase();
  client = new HostedDbClient({ databaseURL: database.url, branch: "main" });
  await client.migrate();
  redis = createClient({ url: redisURL });
  await redis.connect();
  config = {
    secret: "api-key-load-secret-0123456789abcdefghij",
    trustHost: true,
    adapter: HostedDbAdapter(client),
    session: { strategy: "database" },
    providers: [
      Credentials({
        credentials: { username: {} },
        authorize: ({ username }) => ({ id: String(username), email: `${String(username)}@example.com` }),
      }),
    ],
    apiKeys: { prefix: "load", scopes: { "projects:read": { description: "Read projects" } } },
    rateLimit: { store: redisRateLimitStore({ client: redis, prefix: PREFIX }), apiKeys: { perKeyMax: 10_000, windowSeconds: 60 } },
    logger: { error: (error) => console.error(error), warn: () => {}, debug: () => {} },
  };
  auth = createAuth(config);
});

afterAll(async () => {
  if (redis) {
    for await (const batch of redis.scanIterator({ MATCH: `${PREFIX}*`, COUNT: 500 }))
      if ((batch as string[]).length > 0) await redis.del(batch as string[]);
    redis.destroy();
  }
  await client?.close();
  await database?.drop();
});

/** What `verifyApiKey` answers for key `index` (mod the keys): ok, refused, or an error. */
async function verifyAt(index: number): Promise<string> {
  const { key, userId, revoked } = keys[index % USERS] as (typeof keys)[number];
  const request = new Request(`${ORIGIN}/api/projects`, { headers: { authorization: `Bearer ${key}` } });
  try {
    const verified = await auth.api.verifyApiKey(request, { scopes: ["projects:read"] });
    return verified.userId === userId && !revoked ? "ok" : "wrong";
  } catch (error) {
    const type = (error as { type?: string }).type;
    return type === "InvalidApiKey" && revoked ? "refused" : `error: ${type ?? (error as Error).message}`;
  }
}

describe.skipIf(!available)(`${VERIFICATIONS} API key verifications on PostgreSQL with Redis rate limits`, () => {
  it(`${USERS} keys (${REVOKED} revoked), ${VERIFICATIONS} verifications: every answer as expected, 0 errors`, async () => {
    const store = HostedDbAdapter(client);
    for (let i = 0; i < USERS; i++) {
      const userId = `load-user-${i}`;
      await store.createUser({ id: userId, email: `${userId}@example.com`, emailVerified: new Date() });
      const browser = authClient(config, ORIGIN);
      await browser.send("/auth/callback/credentials", {
        form: { csrfToken: await browser.csrf(), username: userId, callbackUrl: "/" },
      });
      const request = new Request(`${ORIGIN}/app`, { headers: { cookie: browser.jar.header() } });
      const made = await auth.api.createApiKey(request, { name: `key ${i}`, scopes: ["projects:read"] });
      const revoked = i < REVOKED;
      if (revoked) await auth.api.revokeApiKey(request, { keyId: made.apiKey.id });
      keys.push({ key: made.key, userId, revoked });
    }
    const indexes = Array.from({ length: VERIFICATIONS }, (_, i) => i);
    const { result, wallMillis } = await timed(() => runBounded(indexes, IN_FLIGHT, (index) => verifyAt(index)));
    const answers = new Map<string, number>();
    for (const answer of result) answers.set(answer, (answers.get(answer) ?? 0) + 1);
    const refused = (VERIFICATIONS / USERS) * REVOKED;
    expect(Object.fromEntries(answers)).toEqual({ ok: VERIFICATIONS - refused, refused });
    // The per-key counts reached Redis: one window per live key that was verified.
    let counted = 0;
    for await (const batch of redis.scanIterator({ MATCH: `${PREFIX}*`, COUNT: 500 })) counted += (batch as string[]).length;
    expect(counted).toBeGreaterThanOrEqual(USERS - REVOKED);
    recordFigures("apiKeyVerification", {
      keys: USERS,
      verifications: VERIFICATIONS,
      inFlight: IN_FLIGHT,
      verificationsPerSecond: Math.round(VERIFICATIONS / (wallMillis / 1000)),
      errors: [...answers.entries()].filter(([answer]) => answer.startsWith("error") || answer === "wrong").length,
    });
  });
});
