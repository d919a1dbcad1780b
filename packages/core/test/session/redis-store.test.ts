/**
 * `redisSessionStore` against the real Redis on 127.0.0.1 (`AUTHLIB_TEST_REDIS_URL`): the registry
 * contract; keys that expire with their records, under a hash tag no user id can break out of; what is
 * under a key that is not a record is skipped; two stores on one Redis share the records; and session
 * control through two `createAuth` instances sharing the store, with eventual and strict revocation.
 * Skipped, saying why, when no Redis answers. Every key is under a prefix of this run, deleted at the end.
 */
import { randomUUID } from "node:crypto";
import { createClient, type RedisClientType } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuth } from "../../src/kernel/instance.js";
import Credentials from "../../src/providers/credentials.js";
import { redisSessionStore } from "../../src/session/redis.js";
import type { AuthConfig } from "../../src/types/config.js";
import type { SessionRegistry } from "../../src/types/session-registry.js";
import { redisAnswers, redisURL } from "../helpers/redis.js";
import { sessionRecord, sessionRegistryContract } from "../helpers/session-registry-conformance.js";

const redisAvailable = await redisAnswers("the Redis session store tests");
const prefix = `authlib-test-session-${randomUUID()}:`;
const clients: RedisClientType[] = [];

async function connectedClient(): Promise<RedisClientType> {
  const client: RedisClientType = createClient({ url: redisURL });
  client.on("error", () => {});
  await client.connect();
  clients.push(client);
  return client;
}

let redis: RedisClientType;

beforeAll(async () => {
  if (redisAvailable) redis = await connectedClient();
});

afterAll(async () => {
  if (!redisAvailable) return;
  const leftover: string[] = [];
  for await (const keys of redis.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) leftover.push(...keys);
  if (leftover.length > 0) await redis.del(leftover);
  for (const client of clients) client.destroy();
});

/** The hash tag Redis Cluster hashes `key` by (the text between the first `{` and the next `}`), or the whole key. */
function hashTag(key: string): string {
  const open = key.indexOf("{");
  const close = open === -1 ? -1 : key.indexOf("}", open + 1);
  return close > open + 1 ? key.slice(open + 1, close) : key;
}

const base64url = (text: string) => Buffer.from(text, "utf8").toString("base64url");

describe.skipIf(!redisAvailable)("redisSessionStore keeps the registry contract", () => {
  sessionRegistryContract(() => redisSessionStore({ client: redis, prefix }));
});

describe.skipIf(!redisAvailable)("redisSessionStore's keys", () => {
  it("expire with the records: each record at its own expires, the user's set at the latest (and follow a touch)", async () => {
    const store = redisSessionStore({ client: redis, prefix });
    const userId = `ttl-${randomUUID()}`;
    const soon = sessionRecord(userId, 600);
    const later = sessionRecord(userId, 7200);
    await store.create(soon);
    await store.create(later);
    const user = `${prefix}{${base64url(userId)}}`;
    /** The key's PTTL is what is left until `expires` (Redis's clock and ours may differ by a few ms). */
    const expiresAt = async (key: string, expires: Date) => {
      const left = expires.getTime() - Date.now();
      const ttl = await redis.pTTL(key);
      expect(ttl).toBeGreaterThan(left - 5000);
      expect(ttl).toBeLessThanOrEqual(left + 50);
    };
    await expiresAt(`${user}:s:${soon.id}`, soon.expires);
    await expiresAt(`${user}:s:${later.id}`, later.expires);
    await expiresAt(`${user}:u`, later.expires);
    expect(await redis.zScore(`${user}:u`, soon.id)).toBe(soon.expires.getTime());

    const extended = new Date(Date.now() + 86_400_000);
    await store.touch(userId, soon.id, new Date(), extended);
    await expiresAt(`${user}:s:${soon.id}`, extended);
    await expiresAt(`${user}:u`, extended);
    expect(await redis.zScore(`${user}:u`, soon.id)).toBe(extended.getTime());
  });

  it("keep a user id with `}{` and `:` inside one tag of its own: it works and never meets another user's keys", async () => {
    const store = redisSessionStore({ client: redis, prefix });
    const run = randomUUID();
    const plain = `ada-${run}`;
    // Crafted to name the plain user's tag if the id were put in the key as it is.
    const crafted = `x}{${plain}}:s:{${plain}`;
    const mine = sessionRecord(crafted);
    const theirs = sessionRecord(plain);
    await store.create(mine);
    await store.create(theirs);
    expect(await store.get(crafted, mine.id)).toEqual(mine);
    expect(await store.listByUser(crafted)).toEqual([mine]);
    expect(await store.get(crafted, theirs.id)).toBeNull();

    const keys: string[] = [];
    for await (const found of redis.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) keys.push(...found);
    const ofCrafted = keys.filter((key) => key.includes(base64url(crafted)));
    expect(ofCrafted.sort()).toEqual([`${prefix}{${base64url(crafted)}}:s:${mine.id}`, `${prefix}{${base64url(crafted)}}:u`].sort());
    expect(new Set(ofCrafted.map(hashTag))).toEqual(new Set([base64url(crafted)]));

    expect((await store.delete(crafted)).map((r) => r.id)).toEqual([mine.id]);
    expect(await store.listByUser(plain)).toEqual([theirs]);
  });

  it("give the empty user id a tag of its own too (never `{}`, which Redis Cluster would not take as a tag)", async () => {
    const emptyPrefix = `${prefix}empty-${randomUUID()}:`;
    const store = redisSessionStore({ client: redis, prefix: emptyPrefix });
    const record = sessionRecord("");
    await store.create(record);
    expect(await store.listByUser("")).toEqual([record]);
    expect(await redis.exists([`${emptyPrefix}{-}:s:${record.id}`, `${emptyPrefix}{-}:u`])).toBe(2);
    expect(await store.delete("", [record.id])).toEqual([record]);
  });

  it("use the default prefix when none is given", async () => {
    const store = redisSessionStore({ client: redis });
    const userId = `default-prefix-${randomUUID()}`;
    const record = sessionRecord(userId);
    await store.create(record);
    try {
      expect(await redis.exists(`authlib:session:{${base64url(userId)}}:s:${record.id}`)).toBe(1);
    } finally {
      await store.delete(userId);
    }
    expect(await redis.exists(`authlib:session:{${base64url(userId)}}:u`)).toBe(0);
  });
});

describe.skipIf(!redisAvailable)("redisSessionStore with what it did not write", () => {
  it("skips a value that is not a record (another type, a hash of something else, another user's), never crashing", async () => {
    const store = redisSessionStore({ client: redis, prefix });
    const userId = `foreign-${randomUUID()}`;
    const user = `${prefix}{${base64url(userId)}}`;
    const good = sessionRecord(userId);
    await store.create(good);
    const later = String(Date.now() + 3_600_000);
    await redis.set(`${user}:s:a-string`, "not a record");
    await redis.hSet(`${user}:s:a-hash`, { count: "7" });
    await redis.hSet(`${user}:s:bad-date`, { id: "bad-date", userId, createdAt: "yesterday", lastSeenAt: "1", expires: later });
    await redis.hSet(`${user}:s:someone-else`, { id: "someone-else", userId: "mallory", createdAt: "1", lastSeenAt: "1", expires: later });
    await redis.lPush(`${user}:s:a-list`, "x");
    const ids = ["a-string", "a-hash", "bad-date", "someone-else", "a-list", "gone"];
    await redis.zAdd(
      `${user}:u`,
      ids.map((value) => ({ score: Number(later), value })),
    );

    for (const id of ids) expect(await store.get(userId, id)).toBeNull();
    expect(await store.listByUser(userId)).toEqual([good]);
    // The listing dropped the ids whose key is gone or holds no hash; the hashes stay listed in the set.
    expect((await redis.zRange(`${user}:u`, 0, -1)).sort()).toEqual([good.id, "a-hash", "bad-date", "someone-else"].sort());
    await store.touch(userId, "a-string", new Date(), new Date(Date.now() + 60_000));
    expect(await redis.get(`${user}:s:a-string`)).toBe("not a record");
    expect(await store.delete(userId, ["a-string", "a-list"])).toEqual([]);
    expect(await redis.exists([`${user}:s:a-string`, `${user}:s:a-list`])).toBe(2);
    expect((await store.delete(userId)).map((r) => r.id)).toEqual([good.id]);
    expect(await store.listByUser(userId)).toEqual([]);
  });

  it("refuses an invalid date before writing anything", async () => {
    const store = redisSessionStore({ client: redis, prefix });
    const userId = `invalid-${randomUUID()}`;
    await expect(store.create(sessionRecord(userId, 60, { expires: new Date(Number.NaN) }))).rejects.toThrow(
      new RangeError("expires must be a valid Date, got Invalid Date"),
    );
    await expect(store.create(sessionRecord(userId, 60, { createdAt: new Date(Number.NaN) }))).rejects.toThrow(RangeError);
    expect(await redis.exists(`${prefix}{${base64url(userId)}}:u`)).toBe(0);
  });
});

describe.skipIf(!redisAvailable)("two redisSessionStores (two clients) on one Redis", () => {
  it("see each other's records: created on one, deleted on the other, gone from the first's listing", async () => {
    const [one, two] = [
      redisSessionStore({ client: await connectedClient(), prefix }),
      redisSessionStore({ client: await connectedClient(), prefix }),
    ];
    const userId = `shared-${randomUUID()}`;
    const [first, second] = [sessionRecord(userId), sessionRecord(userId)];
    await one.create(first);
    await one.create(second);
    expect((await two.listByUser(userId)).map((r) => r.id).sort()).toEqual([first.id, second.id].sort());
    expect((await two.delete(userId, [first.id])).map((r) => r.id)).toEqual([first.id]);
    expect(await one.listByUser(userId)).toEqual([second]);
    expect(await one.get(userId, first.id)).toBeNull();
  });
});

describe.skipIf(!redisAvailable)("session control with redisSessionStore, across two instances", () => {
  const ORIGIN = "http://localhost:3000";
  const secret = "redis-session-store-secret-0123456789abcdef";

  /** A configuration of one app instance: JWT sessions registered in `store`, credentials sign-in of `userId`. */
  function config(store: SessionRegistry, userId: string, session: Partial<NonNullable<AuthConfig["session"]>> = {}): AuthConfig {
    return {
      secret,
      url: ORIGIN,
      providers: [
        Credentials({
          credentials: { username: {}, password: {} },
          authorize: ({ password }) => (password === "pw" ? { id: userId, name: "Ada", email: "ada@example.com" } : null),
        }),
      ],
      session: { store, ...session },
      logger: { error: () => {}, warn: () => {} },
    } as AuthConfig;
  }

  async function signIn(auth: ReturnType<typeof createAuth>): Promise<string> {
    const { cookies } = await auth.api.signIn({ url: ORIGIN, headers: {} }, { providerId: "credentials", username: "ada", password: "pw" });
    return cookies.map((c) => `${c.name}=${c.value}`).join("; ");
  }

  async function sessionOf(auth: ReturnType<typeof createAuth>, cookie: string) {
    return (await auth.api.getSession({ url: ORIGIN, headers: { cookie } })).session;
  }

  /** Two instances on one store (each with its own client), the user signed in twice on the first. */
  async function fleet(second: Partial<NonNullable<AuthConfig["session"]>>) {
    const userId = `fleet-${randomUUID()}`;
    const one = createAuth(config(redisSessionStore({ client: await connectedClient(), prefix }), userId));
    const two = createAuth(config(redisSessionStore({ client: await connectedClient(), prefix }), userId, second));
    const a = await signIn(one);
    const b = await signIn(one);
    return { one, two, a, b };
  }

  it("lists both sign-ins; revokeOtherSessions ends the other at once on the instance that revoked it", async () => {
    const { one, two, a, b } = await fleet({});
    const listed = await one.api.listSessions({ url: ORIGIN, headers: { cookie: a } });
    expect(listed).toHaveLength(2);
    expect(listed.filter((s) => s.current)).toHaveLength(1);
    expect(listed.every((s) => s.provider === "credentials")).toBe(true);
    // The second instance lists the same records: they are in Redis.
    expect((await two.api.listSessions({ url: ORIGIN, headers: { cookie: b } })).map((s) => s.id).sort()).toEqual(
      listed.map((s) => s.id).sort(),
    );

    expect((await one.api.revokeOtherSessions({ url: ORIGIN, headers: { cookie: a } })).revoked).toBe(1);
    expect(await sessionOf(one, b)).toBeNull();
    expect((await sessionOf(one, a))?.user?.name).toBe("Ada");
    const left = await one.api.listSessions({ url: ORIGIN, headers: { cookie: a } });
    expect(left.map((s) => s.id)).toEqual(listed.filter((s) => s.current).map((s) => s.id));
  });

  it('with revocation "eventual", an instance that read the session before keeps it until revalidateAfter, then refuses it', async () => {
    const { one, two, a, b } = await fleet({ revocation: "eventual", revalidateAfter: 1 });
    expect((await sessionOf(two, b))?.user?.name).toBe("Ada");
    const readAt = Date.now();
    expect((await one.api.revokeOtherSessions({ url: ORIGIN, headers: { cookie: a } })).revoked).toBe(1);
    expect(await sessionOf(one, b)).toBeNull();
    // The second instance trusts its read for up to a second.
    expect((await sessionOf(two, b))?.user?.name).toBe("Ada");
    let refusedAt: number | undefined;
    while (refusedAt === undefined && Date.now() - readAt < 5000) {
      if ((await sessionOf(two, b)) === null) refusedAt = Date.now();
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(refusedAt).toBeDefined();
    expect((refusedAt as number) - readAt).toBeGreaterThanOrEqual(1000);
    expect((await sessionOf(two, a))?.user?.name).toBe("Ada");
  });

  it('with revocation "strict", the other instance refuses the revoked session on its next check', async () => {
    const { one, two, a, b } = await fleet({ revocation: "strict" });
    expect((await sessionOf(two, b))?.user?.name).toBe("Ada");
    expect((await one.api.revokeOtherSessions({ url: ORIGIN, headers: { cookie: a } })).revoked).toBe(1);
    expect(await sessionOf(two, b)).toBeNull();
    expect((await sessionOf(two, a))?.user?.name).toBe("Ada");
  });
});
