/**
 * One app instance in its own process, for tests of what instances share: a node:http server of the built
 * core (`dist/`, run `npm run build` first) with a credentials provider whose only account is
 * `OWNER_EMAIL` / `OWNER_PASSWORD`, and its rate-limit store on the shared server `STORE` names:
 * `redis` (`REDIS_URL`, keys under `REDIS_PREFIX`) or `postgres` (`DATABASE_URL`, branch `BRANCH`).
 * Lockout after `LOCKOUT` failures, no delays. Prints its port on stdout once it listens.
 */
import { createServer } from "node:http";
import { toNodeHandler } from "../../dist/node.js";
import Credentials from "../../dist/providers/credentials.js";

const env = process.env;

async function sharedStore() {
  if (env.STORE === "redis") {
    const { createClient } = await import("redis");
    const { redisRateLimitStore } = await import("../../dist/rate-limit/redis.js");
    const client = createClient({ url: env.REDIS_URL });
    await client.connect();
    return redisRateLimitStore({ client, prefix: env.REDIS_PREFIX });
  }
  if (env.STORE === "postgres") {
    const { HostedDbClient, hostedDbRateLimitStore } = await import("@authlib/hosted-db-adapter");
    return hostedDbRateLimitStore(new HostedDbClient({ databaseURL: env.DATABASE_URL, branch: env.BRANCH }));
  }
  throw new Error(`STORE must be redis or postgres, not ${env.STORE}`);
}

const lockout = Number(env.LOCKOUT);
const config = {
  secret: env.SECRET,
  trustHost: true,
  providers: [
    Credentials({
      credentials: { email: { type: "email" }, password: { type: "password" } },
      authorize: ({ email, password }) =>
        email === env.OWNER_EMAIL && password === env.OWNER_PASSWORD ? { id: env.OWNER_EMAIL, email: env.OWNER_EMAIL } : null,
    }),
  ],
  rateLimit: { store: await sharedStore(), credentials: { freeFailures: lockout, lockoutFailures: lockout } },
  logger: { error: () => {}, warn: () => {}, debug: () => {} },
};

const server = createServer(toNodeHandler(config, { env: false }));
server.listen(0, "127.0.0.1", () => process.stdout.write(`${server.address().port}\n`));
