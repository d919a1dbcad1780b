/**
 * Admin access over every admin operation: a signed-out caller gets `SessionRequired`, a signed-in user who
 * is not an admin `AccessDenied`, from every route and every `auth.api` method, iterated over the feature's
 * own declarations (a new operation without an entry here fails the test). An admin demoted in the store
 * loses access on their next call; a session in which an admin acts as someone else (`act`) reaches none.
 */
import { describe, expect, it, vi } from "vitest";
import { requireAdmin } from "../../src/features/admin/access.js";
import { adminOperations } from "../../src/features/admin/feature.js";
import { onDemandFeatures } from "../../src/kernel/features.js";
import { createAuth } from "../../src/kernel/instance.js";
import type { InternalOptions, RequestInternal } from "../../src/types/internal.js";
import type { AuditEvent } from "../../src/types/telemetry.js";
import { adminApp, type Browser, ORIGIN } from "./helpers.js";

/** A valid input of each JSON operation, for `userId` the target. */
function inputOf(name: string, userId: string): Record<string, string> | undefined {
  const inputs: Record<string, Record<string, string>> = {
    listUsers: {},
    getUser: { userId },
    createUser: { email: "new-user@example.com" },
    updateUser: { userId, name: "Renamed" },
    setUserPassword: { userId, password: "another long password 5678" },
    banUser: { userId, reason: "spam" },
    unbanUser: { userId },
    deleteUser: { userId },
    adminRevokeUserSessions: { userId },
    impersonateUser: { userId },
  };
  return inputs[name];
}

const json = adminOperations.filter((operation) => operation.presentation === "json");

/** Calls the operation over its route as `b`: its status and `error`. */
async function callRoute(b: Browser, operation: (typeof json)[number], input: Record<string, string>) {
  const path = `/auth/${operation.path}`;
  const response =
    operation.method === "GET"
      ? await b.send(`${path}?${new URLSearchParams(input)}`)
      : await b.send(path, { form: { csrfToken: await b.csrf(), ...input } });
  return { status: response.status, error: ((await response.json()) as { error?: string }).error };
}

describe("admin access", () => {
  it("every admin route refuses a signed-out caller (401 SessionRequired) and a non-admin (403 AccessDenied); an admin gets through", async () => {
    const app = adminApp();
    const victim = await app.signedUp("victim@example.com");
    const user = await app.signedUp("user@example.com");
    const admin = await app.signedUpAdmin("admin@example.com");
    const signedOut = app.browser();
    expect(json.length).toBeGreaterThanOrEqual(9);
    for (const operation of json) {
      const input = inputOf(operation.name, victim.userId);
      expect(input, `no test input for ${operation.name}: add one`).toBeDefined();
      expect(await callRoute(signedOut, operation, input ?? {}), operation.name).toEqual({ status: 401, error: "SessionRequired" });
      expect(await callRoute(user, operation, input ?? {}), operation.name).toEqual({ status: 403, error: "AccessDenied" });
    }
    // Nothing changed for the victim, who is still signed in.
    expect(app.memory.users.get(victim.userId)?.name ?? null).toBeNull();
    expect(app.admin.bans.size).toBe(0);
    expect((await victim.session())?.user?.email).toBe("victim@example.com");
    // The admin reaches a read and a change.
    const listed = await callRoute(admin, json.find((o) => o.name === "listUsers") as (typeof json)[number], {});
    expect(listed.status).toBe(200);
  });

  it("every admin method of auth.api refuses a signed-out caller and a non-admin", async () => {
    const app = adminApp();
    const victim = await app.signedUp("victim@example.com");
    const user = await app.signedUp("user@example.com");
    const { api } = createAuth(app.config);
    const names = onDemandFeatures.find((feature) => feature.option === "admin")?.api ?? [];
    // Every admin operation, and starting an impersonation (an admin's too); stopping one is the
    // impersonated session's (impersonation tests), refused here as there is none to stop.
    expect([...names].sort()).toEqual([...json.map((operation) => operation.name), "impersonateUser", "stopImpersonating"].sort());
    const cookie = user.jar.header();
    const stop = (api as unknown as Record<string, (request: unknown, input: unknown) => Promise<unknown>>).stopImpersonating;
    await expect(stop?.({ headers: { cookie }, url: ORIGIN }, {})).rejects.toMatchObject({ type: "ImpersonationForbidden" });
    for (const name of names.filter((each) => each !== "stopImpersonating")) {
      const method = (api as unknown as Record<string, (request: unknown, input: unknown) => Promise<unknown>>)[name];
      const input = inputOf(name, victim.userId);
      await expect(method?.({ headers: {}, url: ORIGIN }, input), name).rejects.toMatchObject({ type: "SessionRequired" });
      await expect(method?.({ headers: { cookie }, url: ORIGIN }, input), name).rejects.toMatchObject({ type: "AccessDenied" });
    }
    expect((await victim.session())?.user?.email).toBe("victim@example.com");
  });

  it("an admin demoted in the store loses access on the next call, without signing out", async () => {
    const app = adminApp();
    const admin = await app.signedUpAdmin("admin@example.com");
    const { api } = createAuth(app.config);
    const request = { headers: { cookie: admin.jar.header() }, url: ORIGIN };
    expect((await api.listUsers(request)).users.length).toBe(1);
    app.memory.users.set(admin.userId, { ...app.memory.users.get(admin.userId), role: "member" } as never);
    await expect(api.listUsers(request)).rejects.toMatchObject({ type: "AccessDenied" });
  });

  it("isAdmin decides with roles; a session with an act claim (an admin acting as someone) is refused", async () => {
    const app = adminApp({ admin: { isAdmin: (user) => user.email === "boss@example.com" } });
    const boss = await app.signedUp("boss@example.com");
    const { api } = createAuth(app.config);
    expect((await api.listUsers({ headers: { cookie: boss.jar.header() }, url: ORIGIN })).users.length).toBe(1);
    const impersonated = {
      config: app.config,
      adapter: app.store,
      sessionStrategy: {
        currentAssurance: async () => ({ userId: boss.userId, assurance: { amr: ["pwd"], aal: 1, act: { sub: "someone" } } }),
      },
    } as unknown as InternalOptions;
    await expect(requireAdmin(impersonated, {} as RequestInternal)).rejects.toMatchObject({ type: "AccessDenied" });
    const plain = {
      ...impersonated,
      sessionStrategy: { currentAssurance: async () => ({ userId: boss.userId, assurance: { amr: ["pwd"], aal: 1 } }) },
    };
    await expect(requireAdmin(plain as unknown as InternalOptions, {} as RequestInternal)).resolves.toMatchObject({ userId: boss.userId });
  });

  it("a ban ends after its whole seconds or lasts until lifted, its audit row says until when; unbanning answers the user", async () => {
    const audit: AuditEvent[] = [];
    const app = adminApp({ audit: { store: { write: (event) => void audit.push(event) } } });
    const admin = await app.signedUpAdmin("admin@example.com");
    app.memory.users.set("target", { id: "target", email: "target@example.com", emailVerified: null } as never);
    const { api } = createAuth(app.config);
    const request = { headers: { cookie: admin.jar.header() }, url: ORIGIN };
    // A whole second, standing still: the end is exact.
    const now = Math.ceil(Date.now() / 1000) * 1000;
    vi.useFakeTimers({ toFake: ["Date"], now });
    try {
      expect(await api.banUser(request, { userId: "target", reason: "spam", expiresIn: 90.7 })).toEqual({
        userId: "target",
        reason: "spam",
        bannedBy: admin.userId,
        createdAt: new Date(now),
        expiresAt: new Date(now + 90_000),
      });
      expect(await api.banUser(request, { userId: "target" })).toMatchObject({ reason: null, expiresAt: null });
      // auth.api.unbanUser answers nothing; the route answers the user it lifted the ban of.
      const lifted = await admin.send("/auth/admin/unban-user", { form: { csrfToken: await admin.csrf(), userId: "target" } });
      expect([lifted.status, await lifted.json()]).toEqual([200, { userId: "target" }]);
    } finally {
      vi.useRealTimers();
    }
    expect(app.admin.bans.size).toBe(0);
    await vi.waitFor(() =>
      expect(audit.filter((row) => row.type === "adminUserBanned" || row.type === "adminUserUnbanned")).toHaveLength(3),
    );
    expect(audit.filter((row) => row.type === "adminUserBanned").map((row) => row.detail)).toEqual([
      `target=target until=${new Date(now + 90_000).toISOString()}`,
      "target=target until=lifted",
    ]);
    expect(audit.find((row) => row.type === "adminUserUnbanned")).toMatchObject({ userId: admin.userId, detail: "target=target" });
  });
});
