/**
 * Impersonation over real HTTP, with JWT and database sessions (docs/admin.md, "Impersonation"): an admin
 * acts as a user (the session carries `act`, `getSession` shows who), every owner-present operation and
 * every admin operation refuses the session, the user's device list shows it, it ends after its lifetime,
 * `stopImpersonating` gives the admin's own session back (or signs out when it ended), and every row of
 * the trail names both.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { httpClient } from "../helpers/auth-client.js";
import { type Browser, impersonationApp, requestOf } from "./impersonation-app.js";

const TIMEOUT = 120_000;

afterEach(() => void vi.useRealTimers());

for (const strategy of ["jwt", "database"] as const) {
  describe(`impersonation, ${strategy} sessions`, () => {
    /** The app, an admin and a user signed in in their own browsers. */
    async function setUp(admin: Parameters<typeof impersonationApp>[1] = {}) {
      const app = await impersonationApp(strategy, admin);
      const adminBrowser = await app.signedUp("admin@example.com");
      const user = await app.signedUp("user@example.com");
      return { app, admin: adminBrowser, user };
    }

    it(
      "starts a session for the user with the admin as its actor, shown by getSession and the device list; stop gives the admin's session back",
      async () => {
        const { app, admin, user } = await setUp();
        try {
          const [status, body] = await app.impersonate(admin, user.userId);
          expect(status).toBe(200);
          expect(body.userId).toBe(user.userId);
          const ends = Date.parse(body.expires);
          // One hour by default.
          expect(ends - Date.now()).toBeGreaterThan(59 * 60 * 1000);
          expect(ends - Date.now()).toBeLessThanOrEqual(60 * 60 * 1000);

          const acting = await admin.session();
          expect(acting?.user?.email).toBe("user@example.com");
          expect(acting?.act).toEqual({ sub: admin.userId, exp: Math.floor(ends / 1000) });
          expect(acting?.impersonator).toEqual({ id: admin.userId, name: null, email: "admin@example.com" });
          expect(Date.parse(acting?.expires)).toBeLessThanOrEqual(ends);
          // The kept-aside cookie holds no readable token.
          const kept = admin.jar.cookies.get("authlib.impersonator-session");
          expect(kept?.value).toMatch(/^[\w-]+\.[\w-]*\.[\w-]+\.[\w-]+\.[\w-]+$/);
          expect(kept?.value).not.toContain(admin.userId);

          // The user sees it in their device list: who, and when.
          const listed = await app.auth.api.listSessions(requestOf(app, user));
          const marked = listed.filter((session) => session.impersonatedBy);
          expect(marked).toHaveLength(1);
          expect(marked[0]).toMatchObject({ impersonatedBy: { id: admin.userId, name: null }, provider: null, current: false });
          expect(Date.parse(marked[0]?.createdAt as string)).toBeLessThanOrEqual(Date.now());

          // The session works as the user's for everything else.
          const [grantsStatus] = await app.postJson(admin, "/auth/sessions/revoke", { all: "others" });
          expect(grantsStatus).toBe(403);

          const [stopStatus, stopped] = await app.stop(admin);
          expect([stopStatus, stopped]).toEqual([200, { restored: true }]);
          const back = await admin.session();
          expect(back?.user?.email).toBe("admin@example.com");
          expect(back?.act).toBeUndefined();
          expect(back?.impersonator).toBeUndefined();
          expect(admin.jar.cookies.has("authlib.impersonator-session")).toBe(false);
          // The impersonated session is gone from the user's list.
          expect((await app.auth.api.listSessions(requestOf(app, user))).some((s) => s.impersonatedBy)).toBe(false);
          // The admin is an admin again: they may impersonate.
          expect((await app.impersonate(admin, user.userId))[0]).toBe(200);

          // The trail: started and stopped, each with both ids; the sign-out of the impersonated session too.
          await vi.waitFor(() => expect(app.audit.some((row) => row.type === "impersonationStopped")).toBe(true));
          const started = app.audit.find((row) => row.type === "impersonationStarted");
          expect(started).toMatchObject({ userId: user.userId, impersonatorId: admin.userId, outcome: "success" });
          expect(app.audit.find((row) => row.type === "impersonationStopped")).toMatchObject({
            userId: user.userId,
            impersonatorId: admin.userId,
            detail: "restored",
          });
          expect(app.audit.find((row) => row.type === "signOut" && row.userId === user.userId)).toMatchObject({
            impersonatorId: admin.userId,
          });
          // The admin's and the user's own sign-ins name nobody else.
          for (const row of app.audit.filter((r) => r.type === "signIn")) expect(row.impersonatorId).toBeNull();
        } finally {
          await app.close();
        }
      },
      TIMEOUT,
    );

    it(
      "refuses every owner-present operation and every admin operation from the impersonated session, nothing changed",
      async () => {
        const { app, admin, user } = await setUp();
        try {
          await app.impersonate(admin, user.userId);
          const forbidden = (operation: string) => [403, { error: "ImpersonationForbidden" }, operation];
          const tagged = async (operation: string, answer: Promise<readonly [number, unknown]>) => [...(await answer), operation];

          // Over HTTP: the JSON routes answer the refusal.
          expect(await tagged("revokeSessions", app.postJson(admin, "/auth/sessions/revoke", { all: "others" }))).toEqual(
            forbidden("revokeSessions"),
          );
          expect(
            await tagged("unlinkAccount", app.postJson(admin, "/auth/accounts/unlink", { provider: "github", providerAccountId: "x" })),
          ).toEqual(forbidden("unlinkAccount"));
          expect(await tagged("enrollTotp", app.postJson(admin, "/auth/two-factor/enroll"))).toEqual(forbidden("enrollTotp"));
          expect(await tagged("disableTotp", app.postJson(admin, "/auth/two-factor/disable", { code: "123456" }))).toEqual(
            forbidden("disableTotp"),
          );
          // The password's and the account's forms: to the error page, never changed.
          const change = await app.postJson(admin, "/auth/password/change", { password: "a new long password 1234" }).catch(() => null);
          expect(change?.[0] ?? 302).not.toBe(200);

          // In process: the typed refusal with the operation it names.
          const request = requestOf(app, admin);
          for (const [operation, call] of [
            ["changeEmail", () => app.auth.api.changeEmail(request, { email: "taken-over@example.com" })],
            ["deleteAccount", () => app.auth.api.deleteAccount(request)],
            ["changePassword", () => app.auth.api.changePassword(request, { password: "a new long password 1234" } as never)],
            ["revokeApplication", () => app.auth.api.revokeGrant(request, { grantId: "0".repeat(32) } as never)],
            ["enrollTotp", () => app.auth.api.enrollTotp(request)],
            ["regenerateRecoveryCodes", () => app.auth.api.regenerateRecoveryCodes(request, { code: "123456" } as never)],
          ] as const) {
            await expect(call(), operation).rejects.toMatchObject({ type: "ImpersonationForbidden", reason: "ownerPresent", operation });
          }
          // The user's address and account are as they were.
          expect((await app.store.getUser?.(user.userId))?.email).toBe("user@example.com");

          // No admin operation, and no further impersonation, from the session.
          const other = await app.signedUp("other@example.com");
          expect(await app.impersonate(admin, other.userId)).toEqual([403, { error: "ImpersonationForbidden" }]);
          await expect(app.auth.api.impersonateUser(request, { userId: other.userId })).rejects.toMatchObject({
            type: "ImpersonationForbidden",
            reason: "impersonating",
          });
          // Signing out of this device is allowed: it is not an owner-present change.
          const [own] = await app.auth.api.listSessions(request);
          expect(own?.current).toBe(true);
        } finally {
          await app.close();
        }
      },
      TIMEOUT,
    );

    it(
      "refuses to start for a non-admin, the admin themselves, an unknown user, another admin, a banned user, or when turned off",
      async () => {
        const { app, admin, user } = await setUp();
        try {
          const second = await app.signedUp("second-admin@example.com");
          const refused = { error: "ImpersonationForbidden" };
          // A non-admin: AccessDenied (its HTTP status is the admin feature's to give).
          expect((await app.impersonate(user, admin.userId))[0]).not.toBe(200);
          await expect(app.auth.api.impersonateUser(requestOf(app, user), { userId: admin.userId })).rejects.toMatchObject({
            type: "AccessDenied",
          });
          expect(await app.impersonate(admin, admin.userId)).toEqual([403, refused]);
          expect(await app.impersonate(admin, "no-such-user")).toEqual([403, refused]);
          expect(await app.impersonate(admin, second.userId)).toEqual([403, refused]);
          // Signed out: no session.
          const stranger = httpClient(app.origin);
          expect((await app.impersonate(stranger, user.userId))[0]).toBe(401);
          // The reasons, typed, in process.
          const request = requestOf(app, admin);
          for (const [userId, reason] of [
            [admin.userId, "self"],
            ["no-such-user", "unknownUser"],
            [second.userId, "admin"],
          ] as const)
            await expect(app.auth.api.impersonateUser(request, { userId })).rejects.toMatchObject({
              type: "ImpersonationForbidden",
              reason,
            });
          // A banned user (the admin feature's ban store).
          const banned = await app.signedUp("banned@example.com");
          const ban = { userId: banned.userId, reason: null, bannedBy: null, createdAt: new Date() };
          await app.store.saveUserBan?.({ ...ban, expiresAt: null });
          await expect(app.auth.api.impersonateUser(request, { userId: banned.userId })).rejects.toMatchObject({ reason: "banned" });
          // A ban that ended is no ban.
          await app.store.saveUserBan?.({ ...ban, expiresAt: new Date(Date.now() - 1000) });
          await expect(app.auth.api.impersonateUser(request, { userId: banned.userId })).resolves.toMatchObject({ userId: banned.userId });
          // A cross-site POST is refused before anything.
          const forged = await admin.send("/auth/admin/impersonate", { form: { userId: user.userId } });
          expect([forged.status, await forged.json()]).toEqual([403, { error: "MissingCSRF" }]);
          // Nothing was started for the refused ones.
          expect((await admin.session())?.user?.email).toBe("admin@example.com");
        } finally {
          await app.close();
        }
        const off = await impersonationApp(strategy, { impersonation: false });
        try {
          const admin = await off.signedUp("admin@example.com");
          const user = await off.signedUp("user@example.com");
          expect(await off.impersonate(admin, user.userId)).toEqual([403, { error: "ImpersonationForbidden" }]);
          await expect(off.auth.api.impersonateUser(requestOf(off, admin), { userId: user.userId })).rejects.toMatchObject({
            reason: "off",
          });
        } finally {
          await off.close();
        }
      },
      TIMEOUT,
    );

    it(
      "lets an admin act as another admin only with allowAdmins, and that session reaches no admin operation",
      async () => {
        const { app, admin } = await setUp({ impersonation: { allowAdmins: true } });
        try {
          const second = await app.signedUp("second-admin@example.com");
          const user = await app.signedUp("third@example.com");
          expect((await app.impersonate(admin, second.userId))[0]).toBe(200);
          // Acting as an admin gives no admin's tools.
          expect(await app.impersonate(admin, user.userId)).toEqual([403, { error: "ImpersonationForbidden" }]);
        } finally {
          await app.close();
        }
      },
      TIMEOUT,
    );

    it(
      "ends after its lifetime (maxAge, never longer than a session), and the Stop then finds no session",
      async () => {
        const { app, admin, user } = await setUp({ impersonation: { maxAge: 120 } });
        try {
          const [, body] = await app.impersonate(admin, user.userId);
          expect(Date.parse(body.expires) - Date.now()).toBeLessThanOrEqual(120_000);
          expect((await admin.session())?.act?.sub).toBe(admin.userId);
          vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 100_000 });
          expect((await admin.session())?.user?.email).toBe("user@example.com");
          vi.setSystemTime(Date.now() + 21_000);
          expect(await admin.session()).toBeNull();
          expect((await app.stop(admin))[0]).toBe(401);
        } finally {
          await app.close();
        }
      },
      TIMEOUT,
    );

    it(
      "signs the browser out on stop when the admin's own session ended meanwhile",
      async () => {
        const { app, admin, user } = await setUp();
        try {
          await app.impersonate(admin, user.userId);
          await app.auth.api.revokeUserSessions({ userId: admin.userId });
          expect(await app.stop(admin)).toEqual([200, { restored: false }]);
          expect(await admin.session()).toBeNull();
          // A stop from a session that is no impersonation is refused.
          expect(await app.stop(user)).toEqual([403, { error: "ImpersonationForbidden" }]);
        } finally {
          await app.close();
        }
      },
      TIMEOUT,
    );

    it(
      "keeps the actor whatever the browser does: a dropped or moved cookie never turns it into the user's own session",
      async () => {
        const { app, admin, user } = await setUp();
        try {
          await app.impersonate(admin, user.userId);
          if (strategy === "database") {
            // The sealed claims are the session's actor: without them there is no session.
            const copy = copyWithout(app, admin, "authlib.session-assurance");
            expect(await copy.session()).toBeNull();
          }
          // A session update from the client cannot drop or replace the actor.
          const csrfToken = await admin.csrf();
          const updated = await admin.send("/auth/session", { json: { csrfToken, data: { act: null, impersonator: null } } });
          expect(updated.status).toBe(200);
          const after = await admin.session();
          expect(after?.act?.sub).toBe(admin.userId);
          expect(after?.impersonator?.id).toBe(admin.userId);
          // The kept-aside cookie of another impersonation gives nothing back: it is bound to this one.
          const [stopStatus, stopped] = await app.stop(admin);
          expect([stopStatus, stopped]).toEqual([200, { restored: true }]);
        } finally {
          await app.close();
        }
      },
      TIMEOUT,
    );
  });
}

/** A new browser with `browser`'s cookies but `name`. */
function copyWithout(app: { origin: string }, browser: Browser, name: string): Browser {
  const copy = httpClient(app.origin);
  for (const [key, cookie] of browser.jar.cookies) if (key !== name) copy.jar.cookies.set(key, cookie);
  return copy;
}
