/**
 * API keys over HTTP and `auth.api`: a key is shown once and never again (lists carry its start only);
 * verification answers who it acts for, from `Authorization: Bearer` or the app's header; an unknown key
 * and a known id with a wrong secret get the same refusal; revoked, rotated-out, expired and
 * scope-exceeding keys are refused; a user's scopes must be the app's; `lastUsedAt` and the `apiKeyUsed`
 * row are written at most once a minute; the per-key rate limit; a suspended user's keys and a deleted
 * user's keys stop; the key is in no stored record, log line, audit row or mail.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { createAuth } from "../../src/kernel/instance.js";
import { apiKeysApp, ORIGIN, post, postJson, secret } from "./helpers.js";

afterEach(() => void vi.useRealTimers());

const KEY = /^acme_[0-9A-Za-z]{54}$/;

describe("creating, listing and verifying", () => {
  it("shows the key once; the list has its start, never the key or hash; verify answers its owner and scopes", async () => {
    const app = apiKeysApp();
    const ada = await app.signedUp("ada@example.com");
    const created = await postJson(ada, "create", { name: "CI deploy", scopes: "projects:read projects:write", expiresIn: "3600" });
    expect(created.status).toBe(200);
    const { key, apiKey } = created.body as { key: string; apiKey: Record<string, unknown> };
    expect(key).toMatch(KEY);
    expect(apiKey).toMatchObject({
      name: "CI deploy",
      scopes: ["projects:read", "projects:write"],
      organizationId: null,
      lastUsedAt: null,
    });
    expect(apiKey.start).toBe(key.slice(0, 9));
    expect(Date.parse(apiKey.expiresAt as string) - Date.parse(apiKey.createdAt as string)).toBe(3_600_000);

    const listed = await ada.send("/auth/api-keys/list");
    expect(listed.headers.get("cache-control")).toBe("no-store");
    const list = (await listed.json()) as { apiKeys: Array<Record<string, unknown>> };
    expect(list.apiKeys.map((k) => k.id)).toEqual([apiKey.id]);
    expect(JSON.stringify(list)).not.toContain(key.slice(21, 53));
    expect(Object.keys(list.apiKeys[0] as object).sort()).toEqual(
      ["createdAt", "expiresAt", "id", "lastUsedAt", "name", "organizationId", "scopes", "start"].sort(),
    );

    const verified = await app.auth.api.verifyApiKey(app.bearing(key), { scopes: ["projects:read"] });
    expect(verified).toEqual({ keyId: apiKey.id, userId: ada.userId, organizationId: null, scopes: ["projects:read", "projects:write"] });
    expect(await app.auth.api.verifyApiKey(app.bearing(key, "x-api-key"))).toEqual(verified);
    // Over HTTP too: GET api-keys/verify with the key as the bearer token.
    const http = await app.browser().send("/auth/api-keys/verify?scopes=projects:write", { headers: { authorization: `Bearer ${key}` } });
    expect([http.status, await http.json()]).toEqual([200, verified]);
    // The owner was told.
    expect(app.mails.filter((m) => m.to === "ada@example.com" && /API key was created/.test(m.text))).toHaveLength(1);
  }, 60_000);

  it("an unknown id and a known id with a wrong secret get the same refusal; another app's secret does not verify", async () => {
    const app = apiKeysApp();
    const ada = await app.signedUp("ada@example.com");
    const { key } = await app.auth.api.createApiKey(app.as(ada), { name: "k" });
    const { formatKey, parseKey } = await import("../../src/features/api-keys/key-format.js");
    const parts = parseKey("acme", key) as { id: string; secret: string };
    const wrongSecret = formatKey("acme", { id: parts.id, secret: parts.secret.replace(/^./, (c) => (c === "A" ? "B" : "A")) });
    const unknownId = formatKey("acme", { id: parts.id.replace(/^./, (c) => (c === "A" ? "B" : "A")), secret: parts.secret });
    const answers = [];
    for (const candidate of [wrongSecret, unknownId]) {
      const error = await app.auth.api.verifyApiKey(app.bearing(candidate)).catch((e: unknown) => e);
      answers.push([(error as { type: string }).type, (error as Error).message]);
    }
    expect(answers[0]).toEqual(["InvalidApiKey", "The API key is unknown or wrong."]);
    expect(answers[1]).toEqual(answers[0]);
    // The same store under another secret: the keyed hash does not match.
    const other = createAuth({ ...app.config, secret: "another-secret-0123456789abcdef!!!!!" });
    await expect(other.api.verifyApiKey(app.bearing(key))).rejects.toMatchObject({ type: "InvalidApiKey" });
    // A rotated secret list keeps old keys working.
    const rotated = createAuth({ ...app.config, secret: ["a-brand-new-secret-0123456789abcdef!!", secret] });
    expect((await rotated.api.verifyApiKey(app.bearing(key))).userId).toBe(ada.userId);
  }, 60_000);

  it("refuses scopes the key lacks (403), scopes the app does not declare, too long a life, too many keys", async () => {
    const app = apiKeysApp({
      apiKeys: { prefix: "acme", scopes: { "projects:read": { description: "r" } }, maxPerUser: 2, maxExpiresIn: 3600 },
    });
    const ada = await app.signedUp("ada@example.com");
    const { key } = await app.auth.api.createApiKey(app.as(ada), { name: "reader", scopes: ["projects:read"] });
    await expect(app.auth.api.verifyApiKey(app.bearing(key), { scopes: ["projects:read", "projects:write"] })).rejects.toMatchObject({
      type: "ApiKeyScopeExceeded",
      status: 403,
      scopes: ["projects:read", "projects:write"],
    });
    expect(await postJson(ada, "create", { name: "x", scopes: "projects:write" })).toEqual({
      status: 400,
      body: { error: "InvalidApiKeyRequest" },
    });
    expect(await postJson(ada, "create", { name: "x", expiresIn: "3601" })).toEqual({
      status: 400,
      body: { error: "InvalidApiKeyRequest" },
    });
    expect(await postJson(ada, "create", { name: "" })).toEqual({ status: 400, body: { error: "InvalidApiKeyRequest" } });
    expect(await postJson(ada, "create", { name: "x", expiresIn: "59" })).toEqual({ status: 400, body: { error: "InvalidApiKeyRequest" } });
    expect((await postJson(ada, "create", { name: "second" })).status).toBe(200);
    expect(await postJson(ada, "create", { name: "third" })).toEqual({ status: 400, body: { error: "InvalidApiKeyRequest" } });
    // The default lifetime is capped by maxExpiresIn.
    const [first] = await app.auth.api.listApiKeys(app.as(ada));
    if (!first?.expiresAt) throw new Error("the first key has no expiry");
    expect(first.expiresAt.getTime() - first.createdAt.getTime()).toBe(3_600_000);
  }, 60_000);

  it("needs a session, and a CSRF token over HTTP", async () => {
    const app = apiKeysApp();
    const stranger = app.browser();
    expect((await postJson(stranger, "create", { name: "x" })).body).toEqual({ error: "SessionRequired" });
    const ada = await app.signedUp("ada@example.com");
    const noToken = await ada.send("/auth/api-keys/create", { form: { name: "x" } });
    expect([noToken.status, await noToken.json()]).toEqual([403, { error: "MissingCSRF" }]);
    expect(app.keys.keys.size).toBe(0);
  }, 60_000);
});

describe("keys that stop", () => {
  it("a revoked key, a rotated-out key and an expired key are refused; rotation's new key works", async () => {
    const app = apiKeysApp();
    const ada = await app.signedUp("ada@example.com");
    const bob = await app.signedUp("bob@example.com");
    const revoked = await app.auth.api.createApiKey(app.as(ada), { name: "r" });
    const rotated = await app.auth.api.createApiKey(app.as(ada), { name: "o", scopes: ["projects:read"] });
    const expiring = await app.auth.api.createApiKey(app.as(ada), { name: "e", expiresIn: 120 });
    for (const { key } of [revoked, rotated, expiring]) await app.auth.api.verifyApiKey(app.bearing(key));

    // Bob cannot revoke or rotate Ada's key: not his (the same answer as no key).
    expect(await postJson(bob, "revoke", { keyId: revoked.apiKey.id })).toEqual({ status: 404, body: { error: "ApiKeyNotFound" } });
    expect(await postJson(bob, "rotate", { keyId: revoked.apiKey.id })).toEqual({ status: 404, body: { error: "ApiKeyNotFound" } });
    expect(await postJson(ada, "revoke", { keyId: "not-an-id" })).toEqual({ status: 400, body: { error: "InvalidApiKeyRequest" } });

    expect(await postJson(ada, "revoke", { keyId: revoked.apiKey.id })).toEqual({ status: 200, body: { revoked: true } });
    await expect(app.auth.api.verifyApiKey(app.bearing(revoked.key))).rejects.toMatchObject({ type: "InvalidApiKey" });
    expect(await postJson(ada, "revoke", { keyId: revoked.apiKey.id })).toEqual({ status: 404, body: { error: "ApiKeyNotFound" } });

    const replacement = await postJson(ada, "rotate", { keyId: rotated.apiKey.id });
    expect(replacement.status).toBe(200);
    expect(replacement.body.key).toMatch(KEY);
    expect(replacement.body.apiKey).toMatchObject({ name: "o", scopes: ["projects:read"] });
    await expect(app.auth.api.verifyApiKey(app.bearing(rotated.key))).rejects.toMatchObject({ type: "InvalidApiKey" });
    expect((await app.auth.api.verifyApiKey(app.bearing(replacement.body.key))).keyId).toBe(replacement.body.apiKey.id);

    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 121_000 });
    await expect(app.auth.api.verifyApiKey(app.bearing(expiring.key))).rejects.toMatchObject({
      type: "InvalidApiKey",
      message: "The API key has expired.",
    });
    // The list holds only the live ones.
    expect((await app.auth.api.listApiKeys(app.as(ada))).map((k) => k.name)).toEqual(["o"]);
    expect(app.audit.filter((row) => row.type.startsWith("apiKey")).map((row) => row.type)).toEqual(
      expect.arrayContaining(["apiKeyCreated", "apiKeyRevoked", "apiKeyRotated", "apiKeyUsed"]),
    );
  }, 60_000);

  it("a rotation checks the scopes as a new key's: a scope the app dropped refuses it, and the old key stays", async () => {
    const app = apiKeysApp();
    const ada = await app.signedUp("ada@example.com");
    const made = await app.auth.api.createApiKey(app.as(ada), { name: "w", scopes: ["projects:write"] });
    const narrower = createAuth({ ...app.config, apiKeys: { prefix: "acme", scopes: { "projects:read": { description: "r" } } } });
    await expect(narrower.api.rotateApiKey(app.as(ada), { keyId: made.apiKey.id })).rejects.toMatchObject({ type: "InvalidApiKeyRequest" });
    expect(app.keys.keys.get(made.apiKey.id)?.revokedAt).toBeNull();
    expect(app.keys.keys.size).toBe(1);
  }, 60_000);

  it("a suspended user's keys all stop (userSuspended), and a deleted user's keys go", async () => {
    const app = apiKeysApp();
    const ada = await app.signedUp("ada@example.com");
    const bob = await app.signedUp("bob@example.com");
    const adas = [await app.auth.api.createApiKey(app.as(ada), { name: "1" }), await app.auth.api.createApiKey(app.as(ada), { name: "2" })];
    const bobs = await app.auth.api.createApiKey(app.as(bob), { name: "b" });
    for (const { key } of adas) await app.auth.api.verifyApiKey(app.bearing(key));
    const suspended = await post(app.browser(), "/auth/test-suspend", { userId: ada.userId });
    expect(suspended.status).toBe(200);
    for (const { key } of adas) await expect(app.auth.api.verifyApiKey(app.bearing(key))).rejects.toMatchObject({ type: "InvalidApiKey" });
    expect((await app.auth.api.verifyApiKey(app.bearing(bobs.key))).userId).toBe(bob.userId);
    expect(app.audit.filter((row) => row.type === "apiKeyRevoked" && row.detail?.includes("reason=suspended"))).toHaveLength(2);

    await app.store.deleteUser?.(bob.userId);
    await expect(app.auth.api.verifyApiKey(app.bearing(bobs.key))).rejects.toMatchObject({ type: "InvalidApiKey" });
    expect(app.keys.keys.has(bobs.apiKey.id)).toBe(false);
  }, 60_000);
});

describe("use", () => {
  it("writes lastUsedAt and the apiKeyUsed row at most once a minute per key", async () => {
    const app = apiKeysApp();
    const ada = await app.signedUp("ada@example.com");
    const { key, apiKey } = await app.auth.api.createApiKey(app.as(ada), { name: "k" });
    const start = Date.now();
    vi.useFakeTimers({ toFake: ["Date"], now: start });
    for (let i = 0; i < 5; i++) await app.auth.api.verifyApiKey(app.bearing(key));
    const used = () => app.audit.filter((row) => row.type === "apiKeyUsed");
    await vi.waitFor(() => expect(used()).toHaveLength(1));
    expect(app.keys.keys.get(apiKey.id)?.lastUsedAt?.getTime()).toBe(start);
    expect(app.keys.calls.filter((name) => name === "touchApiKey")).toHaveLength(1);
    vi.setSystemTime(start + 59_000);
    await app.auth.api.verifyApiKey(app.bearing(key));
    vi.setSystemTime(start + 60_500);
    await app.auth.api.verifyApiKey(app.bearing(key));
    await app.auth.api.verifyApiKey(app.bearing(key));
    await vi.waitFor(() => expect(used()).toHaveLength(2));
    expect(app.keys.keys.get(apiKey.id)?.lastUsedAt?.getTime()).toBe(start + 60_500);
    expect(app.keys.calls.filter((name) => name === "touchApiKey")).toHaveLength(2);
    expect(used()[0]).toMatchObject({ userId: ada.userId, detail: `key=${apiKey.id}` });
    expect((await app.auth.api.listApiKeys(app.as(ada)))[0]?.lastUsedAt?.getTime()).toBe(start + 60_500);
  }, 60_000);

  it("limits verifications per key (rateLimit.apiKeys), each key on its own", async () => {
    const app = apiKeysApp({ rateLimit: { apiKeys: { perKeyMax: 3, windowSeconds: 60 } } });
    const ada = await app.signedUp("ada@example.com");
    const one = await app.auth.api.createApiKey(app.as(ada), { name: "1" });
    const two = await app.auth.api.createApiKey(app.as(ada), { name: "2" });
    for (let i = 0; i < 3; i++) await app.auth.api.verifyApiKey(app.bearing(one.key));
    await expect(app.auth.api.verifyApiKey(app.bearing(one.key))).rejects.toMatchObject({ type: "RateLimited" });
    expect((await app.auth.api.verifyApiKey(app.bearing(two.key))).keyId).toBe(two.apiKey.id);
    // Over HTTP (another instance of the same configuration, its own memory store): the same limit.
    const statuses = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await app.browser().send("/auth/api-keys/verify", { headers: { authorization: `Bearer ${two.key}` } })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  }, 60_000);

  it("the key is in no stored record, log line, audit row or mail", async () => {
    const app = apiKeysApp();
    const ada = await app.signedUp("ada@example.com");
    const keys: string[] = [];
    keys.push((await postJson(ada, "create", { name: "http" })).body.key);
    const made = await app.auth.api.createApiKey(app.as(ada), { name: "api" });
    keys.push(made.key);
    keys.push((await app.auth.api.rotateApiKey(app.as(ada), { keyId: made.apiKey.id })).key);
    for (const key of keys) {
      await app.auth.api.verifyApiKey(app.bearing(key)).catch(() => undefined);
      await app.auth.api.verifyApiKey(app.bearing(key), { scopes: ["projects:write"] }).catch(() => undefined);
      await app.auth.api.verifyApiKey(app.bearing(`${key.slice(0, -1)}x`)).catch(() => undefined);
    }
    await vi.waitFor(() => expect(app.audit.some((row) => row.type === "apiKeyUsed")).toBe(true));
    const stored = JSON.stringify([...app.keys.keys.values()]);
    const texts = [stored, app.logs.join("\n"), JSON.stringify(app.audit), JSON.stringify(app.mails)];
    expect(app.logs.length).toBeGreaterThan(0);
    for (const key of keys) {
      const secretPart = key.slice(21, 53);
      for (const text of texts) {
        expect(text).not.toContain(key);
        expect(text).not.toContain(secretPart);
      }
    }
    expect(ORIGIN).toBeTruthy();
  }, 60_000);
});

describe("the start-up check", () => {
  it("refuses bad values with a typed AuthError naming the option", () => {
    const app = apiKeysApp();
    const bad: Array<Record<string, unknown>> = [
      { prefix: "" },
      { prefix: "Acme" },
      { prefix: "ac_me" },
      { prefix: "a" },
      { prefix: "acme", scopes: { "has space": { description: "x" } } },
      { prefix: "acme", scopes: { ok: {} } },
      { prefix: "acme", header: "authorization" },
      { prefix: "acme", header: "Cookie" },
      { prefix: "acme", header: "bad header" },
      { prefix: "acme", maxPerUser: 0 },
      { prefix: "acme", maxPerUser: 1.5 },
      { prefix: "acme", maxExpiresIn: 10 },
      { prefix: "acme", defaultExpiresIn: 7200, maxExpiresIn: 3600 },
      { prefix: "acme", defaultExpiresIn: null },
      { prefix: "acme", organizationPermission: "" },
    ];
    for (const apiKeys of bad) {
      expect(() => createAuth({ ...app.config, apiKeys } as never), JSON.stringify(apiKeys)).toThrow(/apiKeys/);
    }
    expect(() => createAuth({ ...app.config, apiKeys: { prefix: "acme", defaultExpiresIn: null, maxExpiresIn: null } })).not.toThrow();
    expect(() => createAuth({ ...app.config, apiKeys: { prefix: "acme", maxExpiresIn: 3600 } })).not.toThrow();
    // Without the adapter methods: MissingAdapterMethods names the feature.
    const { createApiKey: _, ...withoutKeys } = app.store;
    expect(() => createAuth({ ...app.config, adapter: withoutKeys })).toThrow(/API keys/);
  });
});
