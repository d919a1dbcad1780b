/**
 * Deprovisioning: `active: false` (PATCH or PUT) or DELETE ends the user's membership and, through
 * `suspendUser(…, "deprovisioned")`, every session and API key of theirs: their signed-in browser is refused
 * on its next request, on database and JWT sessions, on this instance and on another one (at once with strict
 * revocation, past `revalidateAfter` with eventual). Reactivating brings the membership back with the role the
 * groups give. `isDeprovisioned` says what the directory decided. The organization's owner is not the
 * directory's to deprovision.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { isDeprovisioned } from "../../../src/features/sso/scim/public.js";
import { memorySessionStore } from "../../../src/session/memory-store.js";
import type { AuthConfig } from "../../../src/types/config.js";
import { expectScimError, type Json, scimApp } from "./helpers.js";

afterEach(() => void vi.useRealTimers());

const USER = "urn:ietf:params:scim:schemas:core:2.0:User";
const GROUP = "urn:ietf:params:scim:schemas:core:2.0:Group";
const PATCH = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
const deactivate = { schemas: [PATCH], Operations: [{ op: "Replace", path: "active", value: "False" }] };
const reactivate = { schemas: [PATCH], Operations: [{ op: "replace", value: { active: true } }] };

/** Ada owns Acme (acme.example proven); Bob signed up with bob@acme.example, is signed in, and is provisioned (linked). */
async function provisioned(overrides: Partial<AuthConfig> = {}) {
  const app = scimApp({ apiKeys: { prefix: "acme" }, ...overrides });
  const ada = await app.signedUp("ada@acme.example");
  const bob = await app.signedUp("bob@acme.example");
  const organizationId = await app.organization(ada, "acme", ["acme.example"]);
  const scim = app.client(await app.token(ada, organizationId));
  const admins = (await scim("POST", "/Groups", { schemas: [GROUP], displayName: "Admin" })).body as Json;
  const created = await scim("POST", "/Users", {
    schemas: [USER],
    userName: "bob@acme.example",
    emails: [{ value: "bob@acme.example", primary: true }],
  });
  expect(created.status).toBe(201);
  // Linked: the account Bob signed up with, by its address on the proven domain.
  expect(app.scim.users.get(created.body.id)?.userId).toBe(bob.userId);
  await scim("PATCH", `/Groups/${admins.id}`, {
    schemas: [PATCH],
    Operations: [{ op: "add", path: "members", value: [{ value: created.body.id }] }],
  });
  expect(await app.store.getMember?.(organizationId, bob.userId)).toMatchObject({ role: "admin" });
  return { app, ada, bob, organizationId, scim, scimUserId: created.body.id as string };
}

const options = (app: ReturnType<typeof scimApp>) => ({ adapter: app.store });

describe("deactivating a user", () => {
  it("database sessions: the membership ends, the browser is signed out on its next request, the API key stops; reactivation restores the role", async () => {
    const { app, bob, organizationId, scim, scimUserId } = await provisioned();
    const key = await app.auth.api.createApiKey(app.as(bob), { name: "ci" });
    expect(
      await app.auth.api.verifyApiKey(new Request("http://localhost:3000/x", { headers: { authorization: `Bearer ${key.key}` } })),
    ).toMatchObject({
      userId: bob.userId,
    });
    expect(await isDeprovisioned(options(app), organizationId, bob.userId)).toBe(false);

    const answer = await scim("PATCH", `/Users/${scimUserId}`, deactivate);
    expect(answer.status).toBe(200);
    expect(answer.body.active).toBe(false);
    expect(await app.store.getMember?.(organizationId, bob.userId)).toBeNull();
    expect(await bob.session()).toBeNull();
    expect((await app.auth.api.getSession(app.as(bob))).session).toBeNull();
    await expect(
      app.auth.api.verifyApiKey(new Request("http://localhost:3000/x", { headers: { authorization: `Bearer ${key.key}` } })),
    ).rejects.toMatchObject({ type: "InvalidApiKey" });
    expect(await isDeprovisioned(options(app), organizationId, bob.userId)).toBe(true);
    expect(app.audit.filter((row) => row.type === "scimUserDeprovisioned").map((row) => row.userId)).toEqual([bob.userId]);

    const back = await scim("PATCH", `/Users/${scimUserId}`, reactivate);
    expect(back.body.active).toBe(true);
    expect(await app.store.getMember?.(organizationId, bob.userId)).toMatchObject({ role: "admin" });
    expect(await isDeprovisioned(options(app), organizationId, bob.userId)).toBe(false);
    expect(app.audit.some((row) => row.type === "scimUserReactivated" && row.userId === bob.userId)).toBe(true);
  });

  it("PUT with active false deprovisions as PATCH does", async () => {
    const { app, bob, organizationId, scim, scimUserId } = await provisioned();
    const current = (await scim("GET", `/Users/${scimUserId}`)).body as Json;
    expect((await scim("PUT", `/Users/${scimUserId}`, { ...current, active: false })).body.active).toBe(false);
    expect(await bob.session()).toBeNull();
    expect(await app.store.getMember?.(organizationId, bob.userId)).toBeNull();
  });

  it("JWT sessions, strict revocation: the browser is refused on its next request on another instance too", async () => {
    const store = memorySessionStore();
    const { app, bob, scim, scimUserId } = await provisioned({ session: { strategy: "jwt", store, revocation: "strict" } });
    const other = app.secondInstance();
    expect((await other.api.getSession(app.as(bob))).session?.user?.email).toBe("bob@acme.example");
    expect((await scim("PATCH", `/Users/${scimUserId}`, deactivate)).status).toBe(200);
    expect((await other.api.getSession(app.as(bob))).session).toBeNull();
    expect(await bob.session()).toBeNull();
  });

  it("JWT sessions, eventual revocation: refused at once here, and on another instance past revalidateAfter", async () => {
    const store = memorySessionStore();
    const { app, bob, scim, scimUserId } = await provisioned({ session: { strategy: "jwt", store, revalidateAfter: 30 } });
    const other = app.secondInstance();
    const start = Date.now();
    vi.useFakeTimers({ toFake: ["Date"], now: start });
    expect((await other.api.getSession(app.as(bob))).session).not.toBeNull();
    expect((await scim("PATCH", `/Users/${scimUserId}`, deactivate)).status).toBe(200);
    expect((await app.auth.api.getSession(app.as(bob))).session).toBeNull();
    vi.setSystemTime(start + 30_001);
    expect((await other.api.getSession(app.as(bob))).session).toBeNull();
  }, 60_000);
});

describe("deleting a user", () => {
  it("deprovisions them, takes them out of their groups, and isDeprovisioned stays true until they are provisioned again", async () => {
    const { app, bob, organizationId, scim, scimUserId } = await provisioned();
    expect((await scim("DELETE", `/Users/${scimUserId}`)).status).toBe(204);
    expect(await bob.session()).toBeNull();
    expect(await app.store.getMember?.(organizationId, bob.userId)).toBeNull();
    expect(await isDeprovisioned(options(app), organizationId, bob.userId)).toBe(true);
    expect((await scim("GET", "/Groups")).body.Resources[0].members).toEqual([]);
    expect(app.audit.some((row) => row.type === "scimUserDeleted" && row.userId === bob.userId)).toBe(true);

    const again = await scim("POST", "/Users", { schemas: [USER], userName: "bob@acme.example" });
    expect(again.status).toBe(201);
    expect(app.scim.users.get(again.body.id)?.userId).toBe(bob.userId);
    expect(await isDeprovisioned(options(app), organizationId, bob.userId)).toBe(false);
    expect(await app.store.getMember?.(organizationId, bob.userId)).toMatchObject({ role: "member" });
  });

  it("a user the directory never had is not deprovisioned", async () => {
    const { app, ada, organizationId } = await provisioned();
    expect(await isDeprovisioned(options(app), organizationId, ada.userId)).toBe(false);
    expect(await isDeprovisioned(options(app), "another-organization", ada.userId)).toBe(false);
  });
});

describe("the organization's owner", () => {
  it("is not deprovisioned by the directory (403), keeps their role whatever their groups, and stays signed in", async () => {
    const { app, ada, organizationId, scim } = await provisioned();
    const owner = (await scim("POST", "/Users", { schemas: [USER], userName: "ada@acme.example" })).body as Json;
    expect(await app.store.getMember?.(organizationId, ada.userId)).toMatchObject({ role: "owner" });
    const refused = await scim("PATCH", `/Users/${owner.id}`, deactivate);
    expectScimError(refused, 403);
    expect((await scim("GET", `/Users/${owner.id}`)).body.active).toBe(true);
    expectScimError(await scim("DELETE", `/Users/${owner.id}`), 403);
    expect(await ada.session()).not.toBeNull();
    expect(await app.store.getMember?.(organizationId, ada.userId)).toMatchObject({ role: "owner" });
  });

  it("sent inactive on creation, is refused and nothing is stored", async () => {
    const { app, ada, organizationId, scim } = await provisioned();
    const entries = app.scim.users.size;
    expectScimError(await scim("POST", "/Users", { schemas: [USER], userName: "ada@acme.example", active: false }), 403);
    expect(app.scim.users.size).toBe(entries);
    expect(await ada.session()).not.toBeNull();
    expect(await app.store.getMember?.(organizationId, ada.userId)).toMatchObject({ role: "owner" });
  });
});
