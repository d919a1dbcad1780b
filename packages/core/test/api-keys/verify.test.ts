/**
 * Verification decision by decision, fast (no sign-up: key records are written straight into the memory
 * store with the feature's own hash): where the key is read from (Bearer, case, spaces, the app's header,
 * neither), each refusal and its message, the scopes asked, organization keys against the creator's role,
 * the per-key limit, `lastUsedAt` once a minute, the cache bound, the hash under every secret of the list,
 * the start-up check's edges. The test files of the `api-keys` mutation group (scripts/mutation/groups.mjs).
 */
import { createHmac } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { boundOf, cachedKey, forgetKey, forgetKeysOf, keyMemoryOf, rememberKey } from "../../src/features/api-keys/cache.js";
import { formatKey, newKey, parseKey } from "../../src/features/api-keys/key-format.js";
import { hashKey, keyMatches } from "../../src/features/api-keys/key-hash.js";
import { presentedKey, roleGrants } from "../../src/features/api-keys/verify.js";
import { createAuth } from "../../src/kernel/instance.js";
import { memorySessionStore } from "../../src/session/memory-store.js";
import type { ApiKeyRecord } from "../../src/types/api-keys.js";
import type { AuthConfig } from "../../src/types/config.js";
import type { InstanceState } from "../../src/types/internal.js";
import { apiKeysApp, secret } from "./helpers.js";

afterEach(() => void vi.useRealTimers());

type App = ReturnType<typeof apiKeysApp>;

/** A key of user `userId` written straight into the store; its key and record. */
async function stored(app: App, over: Partial<ApiKeyRecord> = {}, secrets: readonly string[] = [secret]) {
  const made = newKey("acme");
  const record: ApiKeyRecord = {
    id: made.id,
    hash: await hashKey(secrets, made),
    userId: "user-1",
    organizationId: null,
    name: "k",
    start: `acme_${made.id.slice(0, 4)}`,
    scopes: ["projects:read"],
    createdAt: new Date(),
    expiresAt: null,
    lastUsedAt: null,
    revokedAt: null,
    ...over,
  };
  app.keys.keys.set(record.id, record);
  return { key: made.key, record };
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => "verified",
    (error: { type?: string; message?: string }) => `${error.type}: ${error.message}`,
  );

describe("where the key is read from", () => {
  it("Bearer (any case, spaces around), else the app's header; nothing else", () => {
    const headers = (init: Record<string, string>) => new Headers(init);
    expect(presentedKey(headers({ authorization: "Bearer abc" }), undefined)).toBe("abc");
    expect(presentedKey(headers({ authorization: "bearer   abc  " }), undefined)).toBe("abc");
    expect(presentedKey(headers({ authorization: "Basic abc" }), undefined)).toBeUndefined();
    expect(presentedKey(headers({ authorization: "Bearer a b" }), undefined)).toBeUndefined();
    expect(presentedKey(headers({ authorization: "Bearer" }), undefined)).toBeUndefined();
    expect(presentedKey(headers({ "x-api-key": "abc" }), undefined)).toBeUndefined();
    expect(presentedKey(headers({ "x-api-key": " abc " }), "x-api-key")).toBe("abc");
    expect(presentedKey(headers({ "x-api-key": "  " }), "x-api-key")).toBeUndefined();
    expect(presentedKey(headers({ authorization: "Bearer first", "x-api-key": "second" }), "x-api-key")).toBe("first");
    expect(presentedKey(headers({ authorization: "Basic x", "x-api-key": "second" }), "x-api-key")).toBe("second");
    expect(presentedKey(headers({}), "x-api-key")).toBeUndefined();
    // The scheme opens the header: a Bearer token inside another scheme's value is not read.
    expect(presentedKey(headers({ authorization: "Token Bearer abc" }), undefined)).toBeUndefined();
  });

  it("says how to send a key when none is sent, naming the app's header when it has one", async () => {
    const app = apiKeysApp();
    expect(await refusal(app.auth.api.verifyApiKey(new Request("http://localhost:3000/x")))).toBe(
      "InvalidApiKey: No API key: send it as `Authorization: Bearer <key>` or in `x-api-key`.",
    );
    const plain = apiKeysApp({ apiKeys: { prefix: "acme" } });
    expect(await refusal(plain.auth.api.verifyApiKey(new Request("http://localhost:3000/x")))).toBe(
      "InvalidApiKey: No API key: send it as `Authorization: Bearer <key>`.",
    );
  });
});

describe("each decision", () => {
  it("verifies a live key, with its answer; refuses wrong, unknown, revoked, expired, each with its message", async () => {
    const app = apiKeysApp();
    const live = await stored(app, { scopes: ["projects:read", "projects:write"], expiresAt: new Date(Date.now() + 60_000) });
    expect(await app.auth.api.verifyApiKey(app.bearing(live.key), { scopes: ["projects:write", "projects:read"] })).toEqual({
      keyId: live.record.id,
      userId: "user-1",
      organizationId: null,
      scopes: ["projects:read", "projects:write"],
    });
    const parts = parseKey("acme", live.key) as { id: string; secret: string };
    const wrong = formatKey("acme", { id: parts.id, secret: `${parts.secret.slice(0, -1)}${parts.secret.endsWith("A") ? "B" : "A"}` });
    expect(await refusal(app.auth.api.verifyApiKey(app.bearing(wrong)))).toBe("InvalidApiKey: The API key is unknown or wrong.");
    expect(await refusal(app.auth.api.verifyApiKey(app.bearing(newKey("acme").key)))).toBe(
      "InvalidApiKey: The API key is unknown or wrong.",
    );
    expect(await refusal(app.auth.api.verifyApiKey(app.bearing("acme_x")))).toBe(
      "InvalidApiKey: The API key is not one of this app's keys (its format or checksum is wrong).",
    );
    const revoked = await stored(app, { revokedAt: new Date() });
    expect(await refusal(app.auth.api.verifyApiKey(app.bearing(revoked.key)))).toBe(
      "InvalidApiKey: The API key was revoked (or replaced by a rotation).",
    );
    const expired = await stored(app, { expiresAt: new Date(Date.now() - 1) });
    expect(await refusal(app.auth.api.verifyApiKey(app.bearing(expired.key)))).toBe("InvalidApiKey: The API key has expired.");
    // Expiry is exact: at its instant the key is refused, a millisecond before it works.
    const edge = await stored(app, { expiresAt: new Date(Date.now() + 10_000) });
    vi.useFakeTimers({ toFake: ["Date"], now: (edge.record.expiresAt as Date).getTime() - 1 });
    expect(await refusal(app.auth.api.verifyApiKey(app.bearing(edge.key)))).toBe("verified");
    vi.setSystemTime(edge.record.expiresAt as Date);
    expect(await refusal(app.auth.api.verifyApiKey(app.bearing(edge.key)))).toBe("InvalidApiKey: The API key has expired.");
  });

  it("refuses missing scopes naming them (403), accepts no scopes asked and the empty list", async () => {
    const app = apiKeysApp();
    const { key } = await stored(app, { scopes: ["projects:read"] });
    await expect(app.auth.api.verifyApiKey(app.bearing(key), { scopes: ["projects:write"] })).rejects.toMatchObject({
      type: "ApiKeyScopeExceeded",
      status: 403,
      message: "The API key does not carry the scope projects:write.",
      scopes: ["projects:write"],
    });
    await expect(app.auth.api.verifyApiKey(app.bearing(key), { scopes: ["a:b", "c:d", "projects:read"] })).rejects.toMatchObject({
      message: "The API key does not carry the scopes a:b, c:d.",
      scopes: ["a:b", "c:d", "projects:read"],
    });
    expect((await app.auth.api.verifyApiKey(app.bearing(key), { scopes: [] })).keyId).toBeDefined();
    expect((await app.auth.api.verifyApiKey(app.bearing(key))).keyId).toBeDefined();
    // Over HTTP: a 403 with the type; a verified key's answer is never cached.
    const http = await app.browser().send("/auth/api-keys/verify?scopes=projects:write", { headers: { authorization: `Bearer ${key}` } });
    expect([http.status, await http.json()]).toEqual([403, { error: "ApiKeyScopeExceeded" }]);
    const verified = await app
      .browser()
      .send("/auth/api-keys/verify?scopes=projects:read", { headers: { authorization: `Bearer ${key}` } });
    expect([verified.status, verified.headers.get("cache-control")]).toEqual([200, "no-store"]);
  });

  it("an organization key: its creator's role must grant every scope; no member, no organization, organizations off: refused", async () => {
    const app = apiKeysApp();
    const organization = await app.orgs.methods.createOrganization({
      name: "A",
      slug: "org-a",
      policy: {},
      domainJoin: "off",
      createdAt: new Date(),
    } as never);
    await app.orgs.methods.createMember({
      organizationId: organization.id,
      userId: "user-1",
      role: "admin",
      createdAt: new Date(),
    } as never);
    const inviter = await stored(app, { organizationId: organization.id, scopes: ["member:invite"] });
    const deleter = await stored(app, { organizationId: organization.id, scopes: ["organization:delete"] });
    const bare = await stored(app, { organizationId: organization.id, scopes: [] });
    const elsewhere = await stored(app, { organizationId: "no-such-organization", scopes: [] });
    expect((await app.auth.api.verifyApiKey(app.bearing(inviter.key))).organizationId).toBe(organization.id);
    // Its use is audited with the key's id and its organization (never the key).
    await vi.waitFor(() =>
      expect(app.audit.find((row) => row.type === "apiKeyUsed")?.detail).toBe(`key=${inviter.record.id} organization=${organization.id}`),
    );
    expect((await app.auth.api.verifyApiKey(app.bearing(bare.key))).scopes).toEqual([]);
    const stopped =
      "InvalidApiKey: The organization key's creator is no longer a member, or no longer has every permission the key carries.";
    expect(await refusal(app.auth.api.verifyApiKey(app.bearing(deleter.key)))).toBe(stopped);
    expect(await refusal(app.auth.api.verifyApiKey(app.bearing(elsewhere.key)))).toBe(stopped);
    // Organizations off: no role to ask, so no organization key works (a user key still does).
    const off = createAuth({ ...app.config, organizations: undefined });
    expect(await refusal(off.api.verifyApiKey(app.bearing(inviter.key)))).toBe(stopped);
    const user = await stored(app);
    expect(await refusal(off.api.verifyApiKey(app.bearing(user.key)))).toBe("verified");
    // The app's own roles are the ones checked.
    const { defineRoles } = await import("../../src/features/organizations/public.js");
    const roles = defineRoles({ admin: ["invoice:approve"] });
    const own = createAuth({ ...app.config, organizations: { roles } });
    const approver = await stored(app, { organizationId: organization.id, scopes: ["invoice:approve"] });
    expect(await refusal(own.api.verifyApiKey(app.bearing(approver.key)))).toBe("verified");
    expect(await refusal(app.auth.api.verifyApiKey(app.bearing(approver.key)))).toBe(stopped);
  });

  it("a revoked organization key, or a user's key, is refused or verified without asking for anyone's role", async () => {
    const base = apiKeysApp();
    let asked = 0;
    const getMember = base.store.getMember as NonNullable<typeof base.store.getMember>;
    const adapter = { ...base.store, getMember: (...args: Parameters<typeof getMember>) => (asked++, getMember(...args)) };
    const auth = createAuth({ ...base.config, adapter });
    const revoked = await stored(base, { organizationId: "org-1", scopes: [], revokedAt: new Date() });
    expect(await refusal(auth.api.verifyApiKey(base.bearing(revoked.key)))).toBe(
      "InvalidApiKey: The API key was revoked (or replaced by a rotation).",
    );
    const own = await stored(base);
    expect(await refusal(auth.api.verifyApiKey(base.bearing(own.key)))).toBe("verified");
    expect(asked).toBe(0);
    // A live organization key does ask (and is refused here: its creator is no member of org-1).
    const live = await stored(base, { organizationId: "org-1", scopes: [] });
    await refusal(auth.api.verifyApiKey(base.bearing(live.key)));
    expect(asked).toBe(1);
  });

  it("verifies a key hashed under an older secret of the list; the hash is the id and secret under the derived key", async () => {
    const app = apiKeysApp({ secret: ["the-new-secret-0123456789abcdef!!!!!!", secret] });
    const old = await stored(app, {}, [secret]);
    expect(await refusal(app.auth.api.verifyApiKey(app.bearing(old.key)))).toBe("verified");
    const parts = parseKey("acme", old.key) as { id: string; secret: string };
    expect(await keyMatches([secret], parts, old.record.hash)).toBe(true);
    expect(await keyMatches(["another-secret-0123456789abcdef!!!!!!"], parts, old.record.hash)).toBe(false);
    expect(await keyMatches([secret], parts, undefined)).toBe(false);
    // Another first character (a random secret may start with "x" already).
    const wrong = `${parts.secret.startsWith("x") ? "y" : "x"}${parts.secret.slice(1)}`;
    expect(await keyMatches([secret], { id: parts.id, secret: wrong }, old.record.hash)).toBe(false);
    expect(old.record.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(await hashKey([secret, "x"], parts)).toBe(old.record.hash);
    expect(await hashKey(["x", secret], parts)).not.toBe(old.record.hash);
  });
});

describe("what an organization role grants", () => {
  it("no role (not a member, or not read) grants nothing, not even an empty list of scopes", () => {
    const options = { config: {} } as Parameters<typeof roleGrants>[0];
    expect(roleGrants(options, null, [])).toBe(false);
    expect(roleGrants(options, undefined, [])).toBe(false);
    expect(roleGrants(options, "member", [])).toBe(true);
    expect(roleGrants(options, "owner", ["organization:delete"])).toBe(true);
    expect(roleGrants(options, "member", ["organization:delete"])).toBe(false);
  });
});

describe("the stored hash", () => {
  it("is HMAC-SHA256 of `<id>.<secret>` under HMAC-SHA256(auth secret, the label), in hex", async () => {
    // The label is a module constant: the module is loaded afresh, so the label stated is the one in use.
    vi.resetModules();
    const { hashKey, keyMatches } = await import("../../src/features/api-keys/key-hash.js");
    const made = newKey("acme");
    const derived = createHmac("sha256", secret).update("authlib.api-key.hash-key.v1").digest("hex");
    const expected = createHmac("sha256", derived).update(`${made.id}.${made.secret}`).digest("hex");
    expect(await hashKey([secret], made)).toBe(expected);
    // A key hashed under the first secret of a list still verifies when a later secret does not match.
    expect(await keyMatches([secret, "another-secret-0123456789abcdef!!!!!!"], made, expected)).toBe(true);
  });
});

describe("the cache's memory", () => {
  const record = (id: string, userId = "user-1") => ({ id, userId }) as ApiKeyRecord;

  it("trusts reads only for JWT sessions with eventual revocation, for revalidateAfter seconds", () => {
    expect(boundOf({ strategy: "jwt", revocation: "eventual", revalidateAfter: 60 })).toBe(60_000);
    expect(boundOf({ strategy: "jwt", revocation: "strict", revalidateAfter: 60 })).toBe(0);
    expect(boundOf({ strategy: "database", revocation: "eventual", revalidateAfter: 60 })).toBe(0);
  });

  it("keeps nothing when reads are not trusted, and forgets a key, or every key of one user, on this instance", () => {
    const state: InstanceState = {};
    rememberKey(state, { record: record("a"), readAt: Date.now() }, 0);
    expect(keyMemoryOf(state).reads.size).toBe(0);
    rememberKey(state, { record: record("a"), readAt: Date.now() }, 1000);
    rememberKey(state, { record: record("b"), readAt: Date.now() }, 1000);
    rememberKey(state, { record: record("c", "user-2"), readAt: Date.now() }, 1000);
    expect(cachedKey(state, "a", 1000)?.record.id).toBe("a");
    expect(cachedKey(state, "a", 0)).toBeUndefined();
    forgetKey(state, "a");
    expect(cachedKey(state, "a", 1000)).toBeUndefined();
    expect(cachedKey(state, "b", 1000)?.record.id).toBe("b");
    forgetKeysOf(state, "user-1");
    expect([...keyMemoryOf(state).reads.keys()]).toEqual(["c"]);
    // An instance that never read a key has nothing to forget.
    const fresh: InstanceState = {};
    forgetKey(fresh, "a");
    forgetKeysOf(fresh, "user-1");
    expect(fresh.apiKeys).toBeUndefined();
  });

  it("holds at most 10,000 reads, the oldest read going first (a read again is the newest)", () => {
    const state: InstanceState = {};
    const now = Date.now();
    for (let i = 0; i < 10_000; i++) rememberKey(state, { record: record(`k${i}`), readAt: now }, 60_000);
    // k0 is read again: now the newest; k1 is the oldest.
    rememberKey(state, { record: record("k0"), readAt: now }, 60_000);
    expect(keyMemoryOf(state).reads.size).toBe(10_000);
    rememberKey(state, { record: record("new"), readAt: now }, 60_000);
    const reads = keyMemoryOf(state).reads;
    expect(reads.size).toBe(10_000);
    expect([reads.has("k0"), reads.has("k1"), reads.has("k2"), reads.has("new")]).toEqual([true, false, true, true]);
  });
});

describe("use", () => {
  it("counts each verification of a key against its own limit, refusal with Retry-After", async () => {
    const app = apiKeysApp({ rateLimit: { apiKeys: { perKeyMax: 2, windowSeconds: 30 } } });
    const a = await stored(app);
    const b = await stored(app);
    await app.auth.api.verifyApiKey(app.bearing(a.key));
    await app.auth.api.verifyApiKey(app.bearing(a.key));
    await expect(app.auth.api.verifyApiKey(app.bearing(a.key))).rejects.toMatchObject({
      type: "RateLimited",
      message: "Too many requests with this API key; try again later.",
    });
    await app.auth.api.verifyApiKey(app.bearing(b.key));
    const off = apiKeysApp({ rateLimit: { apiKeys: false } });
    const c = await stored(off);
    for (let i = 0; i < 5; i++) await off.auth.api.verifyApiKey(off.bearing(c.key));
    const none = apiKeysApp({ rateLimit: false });
    const d = await stored(none);
    for (let i = 0; i < 5; i++) await none.auth.api.verifyApiKey(none.bearing(d.key));
  });

  it("writes lastUsedAt when the last use is a minute old, not before (on this instance and from the store's value)", async () => {
    const app = apiKeysApp();
    const start = Date.now();
    vi.useFakeTimers({ toFake: ["Date"], now: start });
    const recent = await stored(app, { lastUsedAt: new Date(start - 59_999) });
    await app.auth.api.verifyApiKey(app.bearing(recent.key));
    expect(app.keys.calls.filter((c) => c === "touchApiKey")).toHaveLength(0);
    const old = await stored(app, { lastUsedAt: new Date(start - 60_000) });
    await app.auth.api.verifyApiKey(app.bearing(old.key));
    expect(app.keys.keys.get(old.record.id)?.lastUsedAt?.getTime()).toBe(start);
    vi.setSystemTime(start + 59_999);
    await app.auth.api.verifyApiKey(app.bearing(old.key));
    expect(app.keys.calls.filter((c) => c === "touchApiKey")).toHaveLength(1);
    vi.setSystemTime(start + 60_000);
    await app.auth.api.verifyApiKey(app.bearing(old.key));
    expect(app.keys.calls.filter((c) => c === "touchApiKey")).toHaveLength(2);
    await vi.waitFor(() => expect(app.audit.filter((row) => row.type === "apiKeyUsed")).toHaveLength(2));
    expect(app.audit.find((row) => row.type === "apiKeyUsed")).toMatchObject({ userId: "user-1", detail: `key=${old.record.id}` });
  });

  it("asks the store to write lastUsedAt at most once a minute per key from this instance, whatever other keys it used", async () => {
    const app = apiKeysApp({ session: { strategy: "jwt", store: memorySessionStore(), revalidateAfter: 300 } });
    const a = await stored(app);
    const b = await stored(app);
    const touches = () => app.keys.calls.filter((c) => c === "touchApiKey").length;
    await app.auth.api.verifyApiKey(app.bearing(a.key));
    await app.auth.api.verifyApiKey(app.bearing(b.key));
    expect(touches()).toBe(2);
    // A's read is trusted from this instance's memory (lastUsedAt as read: none), so only its own note holds it back.
    for (let i = 0; i < 3; i++) await app.auth.api.verifyApiKey(app.bearing(a.key));
    await app.auth.api.verifyApiKey(app.bearing(b.key));
    expect(touches()).toBe(2);
    expect(app.keys.calls.filter((c) => c === "getApiKey")).toHaveLength(2);
  });

  it("the cache: JWT sessions with eventual revocation read a key once per revalidateAfter; strict and database sessions every time", async () => {
    const session = (extra: Partial<NonNullable<AuthConfig["session"]>>) => ({
      session: { strategy: "jwt" as const, store: memorySessionStore(), ...extra },
    });
    const reads = (app: App) => app.keys.calls.filter((c) => c === "getApiKey").length;
    const eventual = apiKeysApp(session({ revalidateAfter: 10 }));
    const { key, record } = await stored(eventual);
    const start = Date.now();
    vi.useFakeTimers({ toFake: ["Date"], now: start });
    for (let i = 0; i < 3; i++) await eventual.auth.api.verifyApiKey(eventual.bearing(key));
    expect(reads(eventual)).toBe(1);
    // Revoked in the store behind this instance's back: trusted until the bound, refused from it on.
    eventual.keys.keys.set(record.id, { ...record, revokedAt: new Date() });
    vi.setSystemTime(start + 9_999);
    expect(await refusal(eventual.auth.api.verifyApiKey(eventual.bearing(key)))).toBe("verified");
    vi.setSystemTime(start + 10_000);
    expect(await refusal(eventual.auth.api.verifyApiKey(eventual.bearing(key)))).toContain("revoked");
    expect(reads(eventual)).toBe(2);
    // An unknown id is never remembered.
    const unknown = newKey("acme").key;
    for (let i = 0; i < 2; i++) await refusal(eventual.auth.api.verifyApiKey(eventual.bearing(unknown)));
    expect(reads(eventual)).toBe(4);
    vi.useRealTimers();
    for (const app of [apiKeysApp(session({ revocation: "strict" })), apiKeysApp({ session: { strategy: "database" } })]) {
      const live = await stored(app);
      for (let i = 0; i < 3; i++) await app.auth.api.verifyApiKey(app.bearing(live.key));
      expect(reads(app)).toBe(3);
    }
  });
});

describe("the start-up check's edges", () => {
  it("accepts the bounds and refuses just past them", () => {
    const app = apiKeysApp();
    const ok = (apiKeys: object) => expect(() => createAuth({ ...app.config, apiKeys } as never), JSON.stringify(apiKeys)).not.toThrow();
    const bad = (apiKeys: object) =>
      expect(() => createAuth({ ...app.config, apiKeys } as never), JSON.stringify(apiKeys)).toThrow(/apiKeys/);
    ok({ prefix: "ab" });
    ok({ prefix: "a234567890123456" });
    bad({ prefix: "a2345678901234567" });
    bad({ prefix: "1abc" });
    ok({ prefix: "acme", maxPerUser: 1 });
    ok({ prefix: "acme", maxPerUser: 10_000 });
    bad({ prefix: "acme", maxPerUser: 10_001 });
    ok({ prefix: "acme", maxExpiresIn: 60, defaultExpiresIn: 60 });
    bad({ prefix: "acme", maxExpiresIn: 59 });
    ok({ prefix: "acme", maxExpiresIn: 10 * 365 * 86_400 });
    bad({ prefix: "acme", maxExpiresIn: 10 * 365 * 86_400 + 1 });
    bad({ prefix: "acme", defaultExpiresIn: 59 });
    bad({ prefix: "acme", maxExpiresIn: "1" });
    ok({ prefix: "acme", header: "X-Api-Key" });
    bad({ prefix: "acme", header: "proxy-authorization" });
    bad({ prefix: "acme", header: "" });
    ok({ prefix: "acme", scopes: { "a:b/c.d_e-f": { description: "x" } } });
    bad({ prefix: "acme", scopes: { ":a": { description: "x" } } });
    bad({ prefix: "acme", scopes: { a: { description: "" } } });
    bad({ prefix: "acme", scopes: null });
    bad({ prefix: "acme", organizationPermission: 3 });
    ok({ prefix: "acme", organizationPermission: "member:invite" });
    expect(() => createAuth({ ...app.config, apiKeys: null } as never)).toThrow(/apiKeys must be an object/);
  });

  it("refuses each bad value with its own message; no apiKeys option, no error", async () => {
    // The check's patterns and reserved names are module constants: the module is loaded here, afresh, so
    // the values this test states are the ones it runs with (docs/testing.md, module-level values).
    vi.resetModules();
    const { apiKeysConfigError } = await import("../../src/features/api-keys/config-check.js");
    const message = (apiKeys: unknown) => {
      const error = apiKeysConfigError({ apiKeys } as AuthConfig);
      return error ? `${error.type}: ${error.message}` : "accepted";
    };
    expect(apiKeysConfigError({} as AuthConfig)).toBeUndefined();
    expect(message({ prefix: "ab" })).toBe("accepted");
    expect(message({ prefix: "a234567890123456" })).toBe("accepted");
    const prefix = 'AuthError: apiKeys.prefix must be 2 to 16 lower-case letters and digits, starting with a letter (e.g. "acme").';
    for (const bad of ["a", "Acme", "ac_me", "ac-me", "acmE", "1abc", "a2345678901234567", 3, undefined])
      expect(message({ prefix: bad }), String(bad)).toBe(prefix);
    expect(message("acme")).toBe('AuthError: apiKeys must be an object: `apiKeys: { prefix: "acme" }`.');
    const scopes = (value: unknown) => message({ prefix: "acme", scopes: value });
    expect(scopes("read")).toBe("AuthError: apiKeys.scopes must be an object of scopes.");
    expect(scopes({ [`a${"b".repeat(63)}`]: { description: "x" } })).toBe("accepted");
    for (const name of [`a${"b".repeat(64)}`, "a b", "a,b", "-a", "a!"])
      expect(scopes({ [name]: { description: "x" } }), name).toBe(
        `AuthError: apiKeys.scopes: "${name}" is not a scope name (letters, digits and : . _ / -, no space).`,
      );
    for (const scope of [{}, null, { description: 3 }])
      expect(scopes({ "a:b": scope }), JSON.stringify(scope)).toBe('AuthError: apiKeys.scopes: "a:b" needs a description.');
    const header =
      "AuthError: apiKeys.header must be a header name of the app's own (e.g. \"x-api-key\"), not Authorization, Cookie or a proxy's header.";
    expect(message({ prefix: "acme", header: "X-Api-Key" })).toBe("accepted");
    for (const name of [
      "authorization",
      "Authorization",
      "cookie",
      "host",
      "forwarded",
      "x-forwarded-for",
      "Proxy-Authorization",
      "x api",
      "x:y",
      3,
    ])
      expect(message({ prefix: "acme", header: name }), String(name)).toBe(header);
    const perUser = "AuthError: apiKeys.maxPerUser must be a whole number from 1 to 10000.";
    for (const value of [0, 1.5, "5"]) expect(message({ prefix: "acme", maxPerUser: value }), String(value)).toBe(perUser);
    expect(message({ prefix: "acme", maxExpiresIn: 59.5 })).toBe(
      "AuthError: apiKeys.maxExpiresIn must be seconds from 60 to 10 years (whole), or null.",
    );
    expect(message({ prefix: "acme", maxExpiresIn: null, defaultExpiresIn: 10 * 365 * 86_400 + 1 })).toBe(
      "AuthError: apiKeys.defaultExpiresIn must be seconds from 60 to 10 years (whole), or null.",
    );
    const longer = "AuthError: apiKeys.defaultExpiresIn must not be longer than apiKeys.maxExpiresIn (nor null while maxExpiresIn is set).";
    expect(message({ prefix: "acme", maxExpiresIn: 60, defaultExpiresIn: 61 })).toBe(longer);
    expect(message({ prefix: "acme", defaultExpiresIn: null })).toBe(longer);
    expect(message({ prefix: "acme", maxExpiresIn: null, defaultExpiresIn: null })).toBe("accepted");
    expect(message({ prefix: "acme", maxExpiresIn: null })).toBe("accepted");
    expect(message({ prefix: "acme", organizationPermission: "" })).toBe(
      'AuthError: apiKeys.organizationPermission must be a permission name (e.g. "organization:update").',
    );
  });
});
