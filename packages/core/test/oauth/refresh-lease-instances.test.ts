/**
 * Issue 26's acceptance for the refresh lease: TWO authlib instances in two real processes
 * (helpers/refresh-instance.ts), the same database-session user on the same PostgreSQL database, and a
 * real OpenID Provider (oidc-provider) that rotates refresh tokens and counts every use of each one.
 * Both instances check the session at the same moment, 20 rounds in a row, while the access token is
 * always due (it lives 30 s, refreshed a minute before expiry): the provider must see each refresh token
 * once, and no check may end in `RefreshTokenError`. oidc-provider treats a second use of a rotated
 * refresh token as theft and revokes the grant, so a double spend would also end every later refresh.
 *
 * Run with the lease in PostgreSQL (`hostedDbRateLimitStore`) and in Redis (`redisRateLimitStore`). Without
 * the lease (before issue 26) the same rounds spend refresh tokens twice. Skipped, saying why, when
 * PostgreSQL or Redis does not answer.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HostedDbAdapter, HostedDbClient } from "../../../hosted-db-adapter/src/index.js";
import { dropBranch, postgresAnswers, randomBranch, testDatabaseURL } from "../../../hosted-db-adapter/test/helpers.js";
import type { AuthConfig } from "../../src/types/config.js";
import { authClient } from "../helpers/auth-client.js";
import { forkInstance } from "../helpers/forked-instance.js";
import { opProvider, startTestOP, type TestOP } from "../helpers/oidc-provider.js";
import { redisAnswers, redisURL } from "../helpers/redis.js";
import type { SessionCheck } from "../helpers/refresh-instance.js";

const secret = "refresh-lease-instances-secret-0123456789";
const origin = "https://app.example.com";
const ROUNDS = 20;
/** Concurrent session checks each instance makes per round. */
const PARALLEL = 2;

const postgres = await postgresAnswers(testDatabaseURL(), "the refresh lease tests across instances");
const redis = await redisAnswers("the refresh lease across processes on Redis");

/** A child process running one instance (helpers/refresh-instance.ts). */
interface Instance {
  check(cookie: string, parallel: number): Promise<{ results: SessionCheck[]; errors: string[] }>;
  close(): Promise<void>;
}

async function startInstance(env: Record<string, string>): Promise<Instance> {
  type Reply = { results?: SessionCheck[]; errors?: string[] };
  const forked = await forkInstance<{ cookie: string; parallel: number }, Reply>(
    new URL("../helpers/refresh-instance.ts", import.meta.url),
    { AUTH_SECRET: secret, ...env },
  );
  return {
    async check(cookie, parallel) {
      const reply = await forked.ask({ cookie, parallel });
      return { results: reply.results ?? [], errors: reply.errors ?? [] };
    },
    close: () => forked.close(),
  };
}

/** Every use of a refresh token at the OP's token endpoint, successful or not, in order. */
function countRefreshTokenUses(op: TestOP): { uses: string[]; failures: string[] } {
  const seen = { uses: [] as string[], failures: [] as string[] };
  type GrantContext = { oidc?: { params?: { grant_type?: string; refresh_token?: string } } };
  const emitter = op.provider as unknown as { on(event: string, listener: (ctx: GrantContext, error?: Error) => void): void };
  const record = (ctx: GrantContext, error?: Error) => {
    const params = ctx.oidc?.params;
    if (params?.grant_type !== "refresh_token" || !params.refresh_token) return;
    seen.uses.push(params.refresh_token);
    if (error) seen.failures.push(error.message);
  };
  emitter.on("grant.success", (ctx) => record(ctx));
  emitter.on("grant.error", (ctx, error) => record(ctx, error ?? new Error("grant error")));
  return seen;
}

for (const leaseStore of ["postgres", "redis"] as const) {
  const available = postgres && (leaseStore === "postgres" || redis);
  describe.skipIf(!available)(`two instances in two processes, the lease in ${leaseStore === "postgres" ? "PostgreSQL" : "Redis"}`, () => {
    const branch = randomBranch("refresh_lease");
    let op: TestOP;
    let db: HostedDbClient;
    let instances: Instance[] = [];

    beforeAll(async () => {
      op = await startTestOP({
        clients: [{ client_id: "app", client_secret: "app-secret", redirect_uris: [`${origin}/auth/callback/op`] }],
        // Every access token is due at once (authlib refreshes a minute before expiry).
        configuration: {
          ttl: { AccessToken: 30, AuthorizationCode: 60, IdToken: 3600, RefreshToken: 86400, Interaction: 600, Session: 3600, Grant: 3600 },
        },
      });
      db = new HostedDbClient({ databaseURL: testDatabaseURL(), branch });
      await db.migrate();
      const env = {
        ISSUER: op.issuer,
        DATABASE_URL: testDatabaseURL(),
        BRANCH: branch,
        LEASE_STORE: leaseStore,
        REDIS_URL: redisURL,
        REDIS_PREFIX: `authlib-refresh-lease-${randomUUID()}:`,
      };
      instances = await Promise.all([startInstance(env), startInstance(env)]);
    }, 120_000);

    afterAll(async () => {
      await Promise.all(instances.map((instance) => instance.close()));
      if (db) {
        await dropBranch(db, branch);
        await db.close();
      }
      await op?.close();
    });

    it(`two instances refreshing one session ${ROUNDS} times concurrently: the provider sees each refresh token once`, async () => {
      // Sign in through the OP in this process, on the same database: a database session and an account
      // row holding the provider's tokens.
      const config: AuthConfig = {
        secret,
        trustHost: true,
        adapter: HostedDbAdapter(db),
        session: { strategy: "database" },
        providers: [opProvider(op, { refreshAccessToken: true })],
      };
      const browser = authClient(config, origin);
      const csrfToken = await browser.csrf();
      const start = await browser.send("/auth/signin/op", { form: { csrfToken } });
      const callback = await op.authorize(start.headers.get("location") as string);
      await browser.send(callback.pathname + callback.search);
      const sessionToken = browser.jar.get("__Host-authlib.session-token") as string;
      expect(sessionToken).toBeTruthy();
      const cookie = `__Host-authlib.session-token=${sessionToken}`;
      const account = async () => (await db.db.authlib_accounts.findFirst({ provider: "op", providerAccountId: "alice" })) ?? undefined;
      const firstRefreshToken = (await account())?.refresh_token;
      expect(firstRefreshToken).toBeTruthy();

      const seen = countRefreshTokenUses(op);
      const checks: SessionCheck[] = [];
      const logged: string[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const replies = await Promise.all(instances.map((instance) => instance.check(cookie, PARALLEL)));
        for (const reply of replies) {
          checks.push(...reply.results);
          logged.push(...reply.errors);
        }
      }

      expect(checks).toHaveLength(ROUNDS * PARALLEL * instances.length);
      expect(checks.every((check) => check.status === 200 && check.email === "alice@example.com")).toBe(true);
      expect(checks.filter((check) => check.error !== undefined)).toEqual([]);
      expect(logged).toEqual([]);
      expect(seen.failures).toEqual([]);
      // Each round refreshed (the token is always due), and no refresh token was spent twice.
      expect(seen.uses.length).toBeGreaterThanOrEqual(ROUNDS);
      expect(new Set(seen.uses).size).toBe(seen.uses.length);
      expect(seen.uses[0]).toBe(firstRefreshToken);
      // The row holds the newest tokens: the one refresh token the provider has not seen yet.
      const last = (await account())?.refresh_token;
      expect(last).toBeTruthy();
      expect(seen.uses).not.toContain(last);
    }, 120_000);
  });
}
