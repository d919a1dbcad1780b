/**
 * Organization keys: made and listed by members whose role grants `apiKeys.organizationPermission`
 * (`organization:update` by default), their scopes organization permissions no wider than the creator's
 * role; verified with the creator's role re-checked, so the key stops when the creator leaves, is removed
 * or loses a permission it carries: at once with database sessions, within `session.revalidateAfter` with
 * JWT sessions and eventual revocation (fake Date past the bound).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { memorySessionStore } from "../../src/session/memory-store.js";
import type { AuthConfig } from "../../src/types/config.js";
import { apiKeysApp, type Browser, orgJson, postJson } from "./helpers.js";

afterEach(() => void vi.useRealTimers());

type App = ReturnType<typeof apiKeysApp>;

async function join(app: App, inviter: Browser, invitee: Browser, organizationId: string, email: string, role: string) {
  await orgJson(inviter, "invite", { organizationId, email, role });
  const link = app.linkTo(email, "/auth/organization/invitation");
  const accepted = await orgJson(invitee, "accept", {
    invitationId: link.searchParams.get("id") as string,
    token: link.searchParams.get("token") as string,
  });
  expect(accepted.status).toBe(200);
}

/** Ada owns A; Bob is an admin of A, Carl a member; Eve is in no organization. */
async function organization(overrides: Partial<AuthConfig> = {}) {
  const app = apiKeysApp(overrides);
  const ada = await app.signedUp("ada@example.com");
  const bob = await app.signedUp("bob@example.com");
  const carl = await app.signedUp("carl@example.com");
  const eve = await app.signedUp("eve@example.com");
  const a = (await orgJson(ada, "create", { name: "A", slug: "org-a" })).body.organization.id as string;
  await join(app, ada, bob, a, "bob@example.com", "admin");
  await join(app, ada, carl, a, "carl@example.com", "member");
  return { app, ada, bob, carl, eve, a };
}

describe("organization keys", () => {
  it("need the permission; carry only permissions the creator's role grants; are listed to managers only", async () => {
    const { app, bob, carl, eve, a } = await organization();
    const made = await postJson(bob, "create", { name: "invites bot", organizationId: a, scopes: "member:invite organization:read" });
    expect(made.status).toBe(200);
    expect(made.body.apiKey).toMatchObject({ organizationId: a, scopes: ["member:invite", "organization:read"] });
    expect(await app.auth.api.verifyApiKey(app.bearing(made.body.key), { scopes: ["member:invite"] })).toEqual({
      keyId: made.body.apiKey.id,
      userId: bob.userId,
      organizationId: a,
      scopes: ["member:invite", "organization:read"],
    });
    // An admin cannot give a key what only the owner may; an app scope of user keys is no permission.
    expect(await postJson(bob, "create", { name: "x", organizationId: a, scopes: "organization:delete" })).toEqual({
      status: 400,
      body: { error: "InvalidApiKeyRequest" },
    });
    expect((await postJson(bob, "create", { name: "x", organizationId: a, scopes: "projects:read" })).status).toBe(400);
    // A member without the permission, a stranger: refused; nothing made.
    expect(await postJson(carl, "create", { name: "x", organizationId: a })).toEqual({
      status: 403,
      body: { error: "OrganizationForbidden" },
    });
    expect(await postJson(eve, "create", { name: "x", organizationId: a })).toEqual({
      status: 404,
      body: { error: "OrganizationNotFound" },
    });
    const list = async (browser: Browser) => {
      const response = await browser.send(`/auth/api-keys/list?organizationId=${a}`);
      return [response.status, await response.json()];
    };
    expect((await list(bob))[0]).toBe(200);
    expect(((await list(bob))[1] as { apiKeys: unknown[] }).apiKeys).toHaveLength(1);
    expect(await list(carl)).toEqual([403, { error: "OrganizationForbidden" }]);
    expect(await list(eve)).toEqual([404, { error: "OrganizationNotFound" }]);
    // Bob's own list holds user keys only.
    expect(await app.auth.api.listApiKeys(app.as(bob))).toEqual([]);
    // Revoking: a stranger cannot (no such key for him), a member without the permission is told so.
    expect(await postJson(eve, "revoke", { keyId: made.body.apiKey.id })).toEqual({ status: 404, body: { error: "ApiKeyNotFound" } });
    expect(await postJson(carl, "revoke", { keyId: made.body.apiKey.id })).toEqual({
      status: 403,
      body: { error: "OrganizationForbidden" },
    });
    expect(app.keys.keys.get(made.body.apiKey.id)?.revokedAt).toBeNull();
  }, 120_000);

  it("database sessions: the key stops at once when its creator loses a permission it carries, or leaves", async () => {
    const { app, ada, bob, a } = await organization();
    const inviter = await app.auth.api.createApiKey(app.as(bob), { name: "i", organizationId: a, scopes: ["member:invite"] });
    const reader = await app.auth.api.createApiKey(app.as(bob), { name: "r", organizationId: a, scopes: ["organization:read"] });
    await app.auth.api.verifyApiKey(app.bearing(inviter.key));
    // Demoted to member: member:invite is gone, organization:read stays.
    expect((await orgJson(ada, "member-role", { organizationId: a, userId: bob.userId, role: "member" })).status).toBe(200);
    await expect(app.auth.api.verifyApiKey(app.bearing(inviter.key))).rejects.toMatchObject({ type: "InvalidApiKey" });
    expect((await app.auth.api.verifyApiKey(app.bearing(reader.key))).organizationId).toBe(a);
    // He leaves: nothing of his works in A.
    expect((await orgJson(bob, "leave", { organizationId: a })).status).toBe(200);
    await expect(app.auth.api.verifyApiKey(app.bearing(reader.key))).rejects.toMatchObject({ type: "InvalidApiKey" });
  }, 120_000);

  it("JWT sessions, eventual revocation: the key stops within revalidateAfter when the creator is removed", async () => {
    const { app, ada, bob, a } = await organization({ session: { strategy: "jwt", store: memorySessionStore(), revalidateAfter: 30 } });
    const key = await app.auth.api.createApiKey(app.as(bob), { name: "i", organizationId: a, scopes: ["member:invite"] });
    const start = Date.now();
    vi.useFakeTimers({ toFake: ["Date"], now: start });
    await app.auth.api.verifyApiKey(app.bearing(key.key));
    expect((await orgJson(ada, "member-remove", { organizationId: a, userId: bob.userId })).status).toBe(200);
    // Past the bound (30 s), this instance's last read of the key and role is stale: the key is refused.
    vi.setSystemTime(start + 30_001);
    await expect(app.auth.api.verifyApiKey(app.bearing(key.key))).rejects.toMatchObject({ type: "InvalidApiKey" });
    vi.setSystemTime(start + 31_000);
    await expect(app.auth.api.verifyApiKey(app.bearing(key.key))).rejects.toMatchObject({ type: "InvalidApiKey" });
  }, 120_000);

  it("JWT sessions, eventual revocation: a revoke on this instance stops the key at once (the cache forgets it)", async () => {
    const { app, bob, a } = await organization({ session: { strategy: "jwt", store: memorySessionStore(), revalidateAfter: 60 } });
    const key = await app.auth.api.createApiKey(app.as(bob), { name: "i", organizationId: a, scopes: ["member:invite"] });
    await app.auth.api.verifyApiKey(app.bearing(key.key));
    const reads = () => app.keys.calls.filter((name) => name === "getApiKey").length;
    const before = reads();
    await app.auth.api.verifyApiKey(app.bearing(key.key));
    await app.auth.api.verifyApiKey(app.bearing(key.key));
    // Within the bound: no store read at all.
    expect(reads()).toBe(before);
    await app.auth.api.revokeApiKey(app.as(bob), { keyId: key.apiKey.id });
    await expect(app.auth.api.verifyApiKey(app.bearing(key.key))).rejects.toMatchObject({ type: "InvalidApiKey" });
  }, 120_000);
});
