/**
 * The conformance suite of API keys' adapter methods (`ApiKeyAdapterMethods`), as vitest tests: one
 * standard for every store, run on the in-memory methods (test/api-keys/store.test.ts) and on the
 * hosted-db adapter on PGlite and PostgreSQL (packages/hosted-db-adapter/test/api-keys.test.ts).
 *
 * The rules: every field round-trips (lists, `null`s, dates to the millisecond); a taken id throws; "not
 * found" is `null`; lists are oldest first and split user from organization; a revoked key keeps its first
 * `revokedAt`; revoking a user's keys leaves others' alone; `touchApiKey` writes only when the last write is
 * older than its interval, so of 20 concurrent touches exactly one writes; deleting a user deletes their
 * keys. Every test makes its own rows with fresh ids, so the tests may share one store.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiKeyAdapterMethods, ApiKeyRecord } from "../../src/types/api-keys.js";

type Awaitable<T> = T | PromiseLike<T>;
type Store = Required<ApiKeyAdapterMethods>;

/** Inputs of {@link runApiKeyStoreSuite}. */
export interface ApiKeyStoreSuiteOptions {
  name: string;
  store: () => Store;
  /** A second store on the same data through another connection: the concurrent touches alternate. */
  rival?: () => Store;
  /** A user the store can hold rows of: its id. */
  newUser: () => Awaitable<string>;
  /** An organization the store can hold keys of (a database checks no foreign key on it, but may): its id. */
  newOrganization?: (ownerId: string) => Awaitable<string>;
  /** Deletes a user through the adapter; when given, the suite checks that their keys go with them. */
  deleteUser?: (id: string) => Awaitable<void>;
  setup?: () => Awaitable<void>;
  teardown?: () => Awaitable<void>;
}

const ms = (date: Date | null) => (date === null ? null : date.getTime());
const keyId = () => randomUUID().replaceAll("-", "").slice(0, 16);

/** A record of `userId` with fresh ids, fields overridden by `over`. */
export function newApiKeyRecord(userId: string, over: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  const id = keyId();
  return {
    id,
    hash: randomUUID().replaceAll("-", "").repeat(2),
    userId,
    organizationId: null,
    name: "CI deploy ✓",
    start: `acme_${id.slice(0, 4)}`,
    scopes: ["projects:read", "projects:write"],
    createdAt: new Date(Date.now() - 1000 + Math.floor(Math.random() * 1000) / 1000),
    expiresAt: new Date(Date.now() + 86_400_123),
    lastUsedAt: null,
    revokedAt: null,
    ...over,
  };
}

function sameRecord(got: ApiKeyRecord | null | undefined, want: ApiKeyRecord) {
  expect(got).not.toBeNull();
  const { createdAt, expiresAt, lastUsedAt, revokedAt, ...rest } = got as ApiKeyRecord;
  const { createdAt: c, expiresAt: e, lastUsedAt: l, revokedAt: r, ...wantRest } = want;
  expect(rest).toEqual(wantRest);
  expect([createdAt.getTime(), ms(expiresAt), ms(lastUsedAt), ms(revokedAt)]).toEqual([c.getTime(), ms(e), ms(l), ms(r)]);
}

/** Runs the suite. */
export function runApiKeyStoreSuite(options: ApiKeyStoreSuiteOptions): void {
  describe(options.name, () => {
    beforeAll(async () => void (await options.setup?.()), 60_000);
    afterAll(async () => void (await options.teardown?.()), 60_000);
    const store = () => options.store();
    const orgOf = async (userId: string) => (options.newOrganization ? options.newOrganization(userId) : `org-${randomUUID()}`);

    it("round-trips every field, nulls and dates included; an unknown id is null", async () => {
      const userId = await options.newUser();
      const full = newApiKeyRecord(userId, { lastUsedAt: new Date(Date.now() - 5_000), scopes: [] });
      const bare = newApiKeyRecord(userId, { expiresAt: null, organizationId: await orgOf(userId), scopes: ["member:invite"] });
      sameRecord(await store().createApiKey(full), full);
      await store().createApiKey(bare);
      sameRecord(await store().getApiKey(full.id), full);
      sameRecord(await store().getApiKey(bare.id), bare);
      expect(await store().getApiKey(keyId())).toBeNull();
    });

    it("refuses a second key with a taken id", async () => {
      const userId = await options.newUser();
      const key = newApiKeyRecord(userId);
      await store().createApiKey(key);
      await expect(Promise.resolve().then(() => store().createApiKey({ ...key, hash: "f".repeat(64) }))).rejects.toThrow();
      expect((await store().getApiKey(key.id))?.hash).toBe(key.hash);
    });

    it("lists a user's keys and an organization's, oldest first", async () => {
      const ada = await options.newUser();
      const bob = await options.newUser();
      const org = await orgOf(ada);
      const t = Date.now() - 10_000;
      const first = newApiKeyRecord(ada, { createdAt: new Date(t) });
      const orgKey = newApiKeyRecord(ada, { createdAt: new Date(t + 1000), organizationId: org });
      const second = newApiKeyRecord(ada, { createdAt: new Date(t + 2000) });
      const bobs = newApiKeyRecord(bob, { createdAt: new Date(t + 3000), organizationId: org });
      for (const key of [second, bobs, orgKey, first]) await store().createApiKey(key);
      expect((await store().listApiKeysByUser(ada)).map((key) => key.id)).toEqual([first.id, orgKey.id, second.id]);
      expect((await store().listApiKeysByOrganization(org)).map((key) => key.id)).toEqual([orgKey.id, bobs.id]);
      expect(await store().listApiKeysByUser(`nobody-${randomUUID()}`)).toEqual([]);
    });

    it("revokes one key, keeping its first revokedAt; revokes every key of one user only", async () => {
      const ada = await options.newUser();
      const bob = await options.newUser();
      const a1 = newApiKeyRecord(ada);
      const a2 = newApiKeyRecord(ada, { organizationId: await orgOf(ada) });
      const b1 = newApiKeyRecord(bob);
      for (const key of [a1, a2, b1]) await store().createApiKey(key);
      const first = new Date(Date.now() - 60_000);
      await store().revokeApiKey(a1.id, first);
      await store().revokeApiKey(a1.id, new Date());
      expect(ms((await store().getApiKey(a1.id))?.revokedAt ?? null)).toBe(first.getTime());
      const all = new Date();
      await store().revokeApiKeysByUser(ada, all);
      expect(ms((await store().getApiKey(a1.id))?.revokedAt ?? null)).toBe(first.getTime());
      expect(ms((await store().getApiKey(a2.id))?.revokedAt ?? null)).toBe(all.getTime());
      expect((await store().getApiKey(b1.id))?.revokedAt).toBeNull();
      await store().revokeApiKey(keyId(), new Date());
    });

    it("touches lastUsedAt only past the interval; of 20 concurrent touches exactly one writes", async () => {
      const userId = await options.newUser();
      const key = newApiKeyRecord(userId);
      await store().createApiKey(key);
      const now = Date.now();
      const racer = (i: number) => (options.rival && i % 2 === 1 ? options.rival() : store());
      const wins = await Promise.all(Array.from({ length: 20 }, (_, i) => racer(i).touchApiKey(key.id, new Date(now), 60_000)));
      expect(wins.filter(Boolean)).toHaveLength(1);
      expect(ms((await store().getApiKey(key.id))?.lastUsedAt ?? null)).toBe(now);
      expect(await store().touchApiKey(key.id, new Date(now + 59_000), 60_000)).toBe(false);
      expect(await store().touchApiKey(key.id, new Date(now + 60_000), 60_000)).toBe(true);
      expect(ms((await store().getApiKey(key.id))?.lastUsedAt ?? null)).toBe(now + 60_000);
      expect(await store().touchApiKey(keyId(), new Date(), 60_000)).toBe(false);
    });

    it.runIf(options.deleteUser !== undefined)("deletes a user's keys with the user", async () => {
      const userId = await options.newUser();
      const other = await options.newUser();
      const mine = newApiKeyRecord(userId);
      const theirs = newApiKeyRecord(other);
      await store().createApiKey(mine);
      await store().createApiKey(theirs);
      await options.deleteUser?.(userId);
      expect(await store().getApiKey(mine.id)).toBeNull();
      expect(await store().listApiKeysByUser(userId)).toEqual([]);
      expect((await store().getApiKey(theirs.id))?.id).toBe(theirs.id);
    });
  });
}
