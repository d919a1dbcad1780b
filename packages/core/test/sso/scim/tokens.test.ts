/**
 * An organization's SCIM tokens: made, listed and revoked by a member whose role grants `sso:manage` (owner
 * and admin by default, not member), over HTTP (CSRF-checked) and `auth.api`; the token shown once, stored
 * only as its keyed hash; creating and revoking are owner-present (a session 30 minutes old is refused);
 * another organization's token is not found; every change is an audit row that names the token's id only;
 * a session short of the organization's sign-in policy is refused each operation (`OrganizationPolicy`).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { parseKey } from "../../../src/crypto/key-format.js";
import { defaultRoles } from "../../../src/features/organizations/public.js";
import { type Browser, scimApp } from "./helpers.js";

afterEach(() => void vi.useRealTimers());

const THIRTY_MINUTES = 30 * 60 * 1000;

async function organization() {
  const app = scimApp();
  const ada = await app.signedUp("ada@example.com");
  const bob = await app.signedUp("bob@example.com");
  const carl = await app.signedUp("carl@example.com");
  const eve = await app.signedUp("eve@example.com");
  const a = await app.organization(ada, "org-a");
  const e = await app.organization(eve, "org-e");
  await app.store.createMember?.({ organizationId: a, userId: bob.userId, role: "admin", createdAt: new Date() });
  await app.store.createMember?.({ organizationId: a, userId: carl.userId, role: "member", createdAt: new Date() });
  return { app, ada, bob, carl, eve, a, e };
}

/** A POST of `form` to `<basePath>/scim-tokens/<path>` with the browser's CSRF token: status and JSON body. */
async function postJson(browser: Browser, path: string, form: Record<string, string>) {
  const csrfToken = await browser.csrf();
  const response = await browser.send(`/auth/scim-tokens/${path}`, { form: { csrfToken, ...form } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("sso:manage", () => {
  it("is granted to owners and admins by default, not to members", () => {
    expect(defaultRoles.can({ role: "owner" }, "sso:manage")).toBe(true);
    expect(defaultRoles.can({ role: "admin" }, "sso:manage")).toBe(true);
    expect(defaultRoles.can({ role: "member" }, "sso:manage")).toBe(false);
  });
});

describe("SCIM tokens", () => {
  it("an admin makes one over HTTP: shown once, stored as its hash, listed without it; a member and a stranger are refused", async () => {
    const { app, bob, carl, eve, a } = await organization();
    const made = await postJson(bob, "create", { organizationId: a });
    expect(made.status).toBe(200);
    const token = made.body.token as string;
    const parts = parseKey("scim", token);
    expect(parts).toBeDefined();
    expect(made.body.scimToken).toMatchObject({
      id: parts?.id,
      organizationId: a,
      start: `scim_${parts?.id.slice(0, 4)}`,
      createdBy: bob.userId,
    });
    const stored = app.scim.tokens.get(parts?.id as string);
    expect(stored?.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(parts?.secret as string);

    const listed = await app.auth.api.listScimTokens(app.as(bob), { organizationId: a });
    expect(listed).toEqual([made.body.scimToken].map((t) => ({ ...(t as object), createdAt: expect.any(Date) })));
    expect(JSON.stringify(listed)).not.toContain(token);

    expect(await postJson(carl, "create", { organizationId: a })).toEqual({ status: 403, body: { error: "OrganizationForbidden" } });
    expect(await postJson(eve, "create", { organizationId: a })).toEqual({ status: 404, body: { error: "OrganizationNotFound" } });
    await expect(app.auth.api.listScimTokens(app.as(carl), { organizationId: a })).rejects.toMatchObject({ type: "OrganizationForbidden" });
    expect(app.scim.tokens.size).toBe(1);
    expect(app.audit.filter((row) => row.type === "scimTokenCreated").map((row) => row.detail)).toEqual([
      `organization=${a} token=${parts?.id}`,
    ]);
  });

  it("a POST without the CSRF token makes nothing", async () => {
    const { app, bob, a } = await organization();
    const response = await bob.send("/auth/scim-tokens/create", { form: { organizationId: a } });
    expect(response.status).toBe(403);
    expect(app.scim.tokens.size).toBe(0);
  });

  it("revoking: the organization's own token only; another organization's id is not found; revoked twice is not found", async () => {
    const { app, ada, eve, a, e } = await organization();
    const ours = await app.auth.api.createScimToken(app.as(ada), { organizationId: a });
    const theirs = await app.auth.api.createScimToken(app.as(eve), { organizationId: e });
    await expect(app.auth.api.revokeScimToken(app.as(ada), { organizationId: a, tokenId: theirs.scimToken.id })).rejects.toMatchObject({
      type: "ScimTokenNotFound",
    });
    expect(app.scim.tokens.get(theirs.scimToken.id)?.revokedAt).toBeNull();
    await app.auth.api.revokeScimToken(app.as(ada), { organizationId: a, tokenId: ours.scimToken.id });
    expect(app.scim.tokens.get(ours.scimToken.id)?.revokedAt).toBeInstanceOf(Date);
    expect(await app.auth.api.listScimTokens(app.as(ada), { organizationId: a })).toEqual([]);
    await expect(app.auth.api.revokeScimToken(app.as(ada), { organizationId: a, tokenId: ours.scimToken.id })).rejects.toMatchObject({
      type: "ScimTokenNotFound",
    });
    await expect(app.auth.api.revokeScimToken(app.as(ada), { organizationId: a, tokenId: "not an id" })).rejects.toMatchObject({
      type: "ScimInvalidRequest",
    });
    expect(app.audit.filter((row) => row.type === "scimTokenRevoked").map((row) => row.detail)).toEqual([
      `organization=${a} token=${ours.scimToken.id}`,
    ]);
  });

  it("at most 10 live tokens per organization", async () => {
    const { app, ada, a } = await organization();
    for (let i = 0; i < 10; i++) await app.auth.api.createScimToken(app.as(ada), { organizationId: a });
    await expect(app.auth.api.createScimToken(app.as(ada), { organizationId: a })).rejects.toMatchObject({ type: "OrganizationForbidden" });
  });
});

describe("owner present", () => {
  it("a session 30 minutes old cannot create or revoke a token (RecentSignInRequired, nothing changed); it can list them", async () => {
    const { app, ada, a } = await organization();
    const existing = await app.auth.api.createScimToken(app.as(ada), { organizationId: a });
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + THIRTY_MINUTES });
    await expect(app.auth.api.createScimToken(app.as(ada), { organizationId: a })).rejects.toMatchObject({ type: "RecentSignInRequired" });
    await expect(app.auth.api.revokeScimToken(app.as(ada), { organizationId: a, tokenId: existing.scimToken.id })).rejects.toMatchObject({
      type: "RecentSignInRequired",
    });
    expect(app.scim.tokens.size).toBe(1);
    expect(app.scim.tokens.get(existing.scimToken.id)?.revokedAt).toBeNull();
    expect(await app.auth.api.listScimTokens(app.as(ada), { organizationId: a })).toHaveLength(1);
  });
});

describe("the organization's sign-in policy", () => {
  it("a session short of it (no second factor) may not create, list or revoke a token (OrganizationPolicy), nothing changed", async () => {
    const { app, ada, bob, a } = await organization();
    const existing = await app.auth.api.createScimToken(app.as(ada), { organizationId: a });
    await app.auth.api.updateOrganization(app.as(ada), { organizationId: a, policy: { requireSecondFactor: true } });
    for (const browser of [ada, bob]) {
      const policy = { type: "OrganizationPolicy", missing: ["secondFactor"] };
      await expect(app.auth.api.createScimToken(app.as(browser), { organizationId: a })).rejects.toMatchObject(policy);
      await expect(app.auth.api.listScimTokens(app.as(browser), { organizationId: a })).rejects.toMatchObject(policy);
      await expect(
        app.auth.api.revokeScimToken(app.as(browser), { organizationId: a, tokenId: existing.scimToken.id }),
      ).rejects.toMatchObject(policy);
    }
    // Over HTTP the same: 403 with the step-up, and the token still works.
    expect(await postJson(bob, "create", { organizationId: a })).toMatchObject({ status: 403, body: { error: "OrganizationPolicy" } });
    expect(app.scim.tokens.size).toBe(1);
    expect(app.scim.tokens.get(existing.scimToken.id)?.revokedAt).toBeNull();
  });

  it("a session older than the organization's sessionMaxAge may not list the tokens", async () => {
    const { app, ada, a } = await organization();
    await app.auth.api.updateOrganization(app.as(ada), { organizationId: a, policy: { sessionMaxAge: 60 } });
    expect(await app.auth.api.listScimTokens(app.as(ada), { organizationId: a })).toEqual([]);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 2 * 60 * 1000 });
    await expect(app.auth.api.listScimTokens(app.as(ada), { organizationId: a })).rejects.toMatchObject({
      type: "OrganizationPolicy",
      missing: ["recentSignIn"],
    });
  });

  it("a member whose role does not grant sso:manage may not list or revoke a token either (OrganizationForbidden)", async () => {
    const { app, ada, carl, a } = await organization();
    const existing = await app.auth.api.createScimToken(app.as(ada), { organizationId: a });
    const forbidden = { type: "OrganizationForbidden", permission: "sso:manage" };
    await expect(app.auth.api.listScimTokens(app.as(carl), { organizationId: a })).rejects.toMatchObject(forbidden);
    await expect(app.auth.api.revokeScimToken(app.as(carl), { organizationId: a, tokenId: existing.scimToken.id })).rejects.toMatchObject(
      forbidden,
    );
    expect(app.scim.tokens.get(existing.scimToken.id)?.revokedAt).toBeNull();
  });
});
