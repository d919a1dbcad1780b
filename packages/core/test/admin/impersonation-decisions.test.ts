/**
 * Starting and stopping an impersonation, in process on the in-memory adapter (fast enough per mutant:
 * mutation group `admin-impersonation`): who may start one and for whom, the session it starts (its actor,
 * its lifetime, its record), the admin's session kept aside and bound to it, and what stopping gives back.
 * Over real HTTP and across processes: impersonation.test.ts, impersonation-instances.test.ts.
 */
import { afterEach, describe, expect, test, vi } from "vitest";
import { impersonationNames } from "../../src/features/admin/impersonation.js";
import { decode, encode } from "../../src/jwt.js";
import { instanceFor } from "../../src/kernel/auth.js";
import Credentials from "../../src/providers/credentials.js";
import Password from "../../src/providers/password.js";
import type { AdminConfig } from "../../src/types/admin.js";
import type { AuthConfig, SessionStrategy } from "../../src/types/config.js";
import type { InternalOptions } from "../../src/types/internal.js";
import type { AuditEvent } from "../../src/types/telemetry.js";
import { authClient } from "../helpers/auth-client.js";
import { memoryAdapter, withVerificationTokens } from "../helpers/memory-adapter.js";
import { memoryAdmin } from "../helpers/memory-admin.js";

const ORIGIN = "http://localhost:3000";
const secret = "impersonation-decisions-secret-0123456789";

afterEach(() => void vi.useRealTimers());

const USERS = [
  { id: "admin", email: "admin@example.com", name: "Ada Admin", role: "admin" },
  { id: "admin-2", email: "admin2@example.com", name: null, role: "admin" },
  { id: "user", email: "user@example.com", name: "Uma User" },
  { id: "banned", email: "banned@example.com", name: null },
];

function app(strategy: SessionStrategy, admin: AdminConfig = { roles: ["admin"] }, overrides: Partial<AuthConfig> = {}) {
  const memory = memoryAdapter({ sessionRecords: true });
  for (const user of USERS) memory.users.set(user.id, { emailVerified: null, ...user } as never);
  // The admin feature's ban store, with a ban on "banned" that lasts until lifted.
  const bans = memoryAdmin(memory.users);
  bans.bans.set("banned", { userId: "banned", reason: null, bannedBy: "admin", createdAt: new Date(), expiresAt: null });
  const audit: AuditEvent[] = [];
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter: { ...memory.adapter, ...bans.methods },
    session: { strategy },
    providers: [
      Credentials({
        credentials: { email: {} },
        authorize: ({ email }) => USERS.find((user) => user.email === email) ?? null,
      }),
    ],
    admin,
    audit: { store: { write: (event) => void audit.push(event) } },
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    ...overrides,
  };
  // The instance `Auth()` serves the browsers with: one cache of session verdicts for both.
  const auth = instanceFor(config);
  const browser = () => authClient(config, ORIGIN);
  async function signedIn(email: string) {
    const b = browser();
    await b.send("/auth/callback/credentials", { form: { csrfToken: await b.csrf(), email } });
    return b;
  }
  const requestOf = (b: ReturnType<typeof browser>) => new Request(`${ORIGIN}/page`, { headers: { cookie: b.jar.header() } });
  /** POSTs `form` with the CSRF token: `[status, body]`. */
  async function post(b: ReturnType<typeof browser>, path: string, form: Record<string, string> = {}) {
    const response = await b.send(path, { form: { csrfToken: await b.csrf(), ...form } });
    const text = await response.text();
    return [response.status, text ? JSON.parse(text) : null, response.headers.get("location")] as const;
  }
  return { auth, memory, audit, browser, signedIn, requestOf, post };
}

for (const strategy of ["jwt", "database"] as const) {
  describe(`impersonation decisions, ${strategy} sessions`, () => {
    test("an admin starts one for a user: the session is the user's with the admin as actor, for one hour", async () => {
      const a = app(strategy);
      const admin = await a.signedIn("admin@example.com");
      // The clock stands still: the lifetime is exact, however slow the machine.
      vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
      const before = Math.floor(Date.now() / 1000);
      const started = await a.auth.api.impersonateUser(a.requestOf(admin), { userId: "user" });
      expect(started.userId).toBe("user");
      expect(Math.floor(Date.parse(started.expires) / 1000) - before).toBe(3600);
      // The answer's cookies: the user's session and the kept-aside one.
      const names = started.cookies.map((cookie) => cookie.name);
      expect(names).toContain("authlib.impersonator-session");
      expect(names).toContain("authlib.session-token");
      const [status, body] = await a.post(admin, "/auth/admin/impersonate", { userId: "user" });
      expect([status, body.userId]).toEqual([200, "user"]);
      const session = await admin.session();
      expect(session?.user?.email).toBe("user@example.com");
      expect(session?.act?.sub).toBe("admin");
      expect(session?.act?.exp).toBe(before + 3600);
      expect(session?.impersonator).toEqual({ id: "admin", name: "Ada Admin", email: "admin@example.com" });
      // The record names the admin; the user's listing shows who.
      const user = await a.signedIn("user@example.com");
      const listed = await a.auth.api.listSessions(a.requestOf(user));
      // Two impersonations were started (in process, then over HTTP): both are listed, with who.
      expect(listed.filter((s) => s.impersonatedBy).map((s) => s.impersonatedBy)).toEqual([
        { id: "admin", name: "Ada Admin" },
        { id: "admin", name: "Ada Admin" },
      ]);
      expect(listed.every((s) => s.provider === null || !s.provider.startsWith("authlib:"))).toBe(true);
      await vi.waitFor(() =>
        expect(a.audit.find((row) => row.type === "impersonationStarted")).toMatchObject({ userId: "user", impersonatorId: "admin" }),
      );
    });

    test("maxAge shortens it, and it never outlives a normal session", async () => {
      const short = app(strategy, { roles: ["admin"], impersonation: { maxAge: 90 } });
      const admin = await short.signedIn("admin@example.com");
      vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
      const now = Math.floor(Date.now() / 1000);
      const { expires } = await short.auth.api.impersonateUser(short.requestOf(admin), { userId: "user" });
      expect(Math.floor(Date.parse(expires) / 1000) - now).toBe(90);
      const capped = app(strategy, { roles: ["admin"], impersonation: { maxAge: 7200 } }, { session: { strategy, maxAge: 600 } });
      const other = await capped.signedIn("admin@example.com");
      const ended = await capped.auth.api.impersonateUser(capped.requestOf(other), { userId: "user" });
      expect(Math.floor(Date.parse(ended.expires) / 1000) - now).toBe(600);
      // Over: no session, the admin's id no longer named.
      await other.send("/auth/admin/impersonate", { form: { csrfToken: await other.csrf(), userId: "user" } });
      vi.setSystemTime(Date.now() + 599_000);
      expect((await other.session())?.act?.sub).toBe("admin");
      vi.setSystemTime(Date.now() + 2_000);
      expect(await other.session()).toBeNull();
    });

    test("refusals: not an admin, themselves, unknown, another admin, banned, off, from an impersonation", async () => {
      const a = app(strategy);
      const admin = await a.signedIn("admin@example.com");
      const user = await a.signedIn("user@example.com");
      const request = a.requestOf(admin);
      await expect(a.auth.api.impersonateUser(a.requestOf(user), { userId: "admin" })).rejects.toMatchObject({ type: "AccessDenied" });
      await expect(a.auth.api.impersonateUser(new Request(`${ORIGIN}/page`), { userId: "user" })).rejects.toMatchObject({
        type: "SessionRequired",
      });
      for (const [userId, reason] of [
        ["admin", "self"],
        ["nobody", "unknownUser"],
        ["admin-2", "admin"],
        ["banned", "banned"],
      ] as const)
        await expect(a.auth.api.impersonateUser(request, { userId }), reason).rejects.toMatchObject({
          type: "ImpersonationForbidden",
          reason,
          status: 403,
        });
      const [status, body] = await a.post(admin, "/auth/admin/impersonate", { userId: "admin-2" });
      expect([status, body]).toEqual([403, { error: "ImpersonationForbidden" }]);
      // Nothing started.
      expect((await admin.session())?.user?.email).toBe("admin@example.com");
      expect(a.audit.some((row) => row.type === "impersonationStarted")).toBe(false);

      const allowed = app(strategy, { roles: ["admin"], impersonation: { allowAdmins: true } });
      const first = await allowed.signedIn("admin@example.com");
      await expect(allowed.auth.api.impersonateUser(allowed.requestOf(first), { userId: "admin-2" })).resolves.toMatchObject({
        userId: "admin-2",
      });
      // From the impersonated session (even as an admin): no further impersonation.
      await first.send("/auth/admin/impersonate", { form: { csrfToken: await first.csrf(), userId: "admin-2" } });
      await expect(allowed.auth.api.impersonateUser(allowed.requestOf(first), { userId: "user" })).rejects.toMatchObject({
        reason: "impersonating",
      });

      const off = app(strategy, { roles: ["admin"], impersonation: false });
      const offAdmin = await off.signedIn("admin@example.com");
      await expect(off.auth.api.impersonateUser(off.requestOf(offAdmin), { userId: "user" })).rejects.toMatchObject({ reason: "off" });
    });

    test("stop gives back the admin's session kept aside for this impersonation, and only it", async () => {
      const a = app(strategy);
      const admin = await a.signedIn("admin@example.com");
      const adminCookies = new Map(admin.jar.cookies);
      await a.post(admin, "/auth/admin/impersonate", { userId: "user" });
      expect(await a.post(admin, "/auth/admin/stop-impersonating")).toEqual([200, { restored: true }, null]);
      expect((await admin.session())?.user?.email).toBe("admin@example.com");
      expect((await admin.session())?.act).toBeUndefined();
      expect(admin.jar.cookies.has("authlib.impersonator-session")).toBe(false);
      await vi.waitFor(() =>
        expect(a.audit.find((row) => row.type === "impersonationStopped")).toMatchObject({
          userId: "user",
          impersonatorId: "admin",
          detail: "restored",
        }),
      );

      // A form that names where to go: redirected there.
      await a.post(admin, "/auth/admin/impersonate", { userId: "user" });
      const [status, , location] = await a.post(admin, "/auth/admin/stop-impersonating", { callbackUrl: `${ORIGIN}/dashboard` });
      expect([status, location]).toEqual([302, `${ORIGIN}/dashboard`]);
      expect((await admin.session())?.user?.email).toBe("admin@example.com");

      // The kept cookie of one impersonation gives nothing back to another one's session.
      await a.post(admin, "/auth/admin/impersonate", { userId: "user" });
      const firstKept = admin.jar.cookies.get("authlib.impersonator-session");
      const second = await a.signedIn("admin2@example.com");
      await a.post(second, "/auth/admin/impersonate", { userId: "user" });
      if (firstKept) second.jar.cookies.set("authlib.impersonator-session", firstKept);
      expect(await a.post(second, "/auth/admin/stop-impersonating")).toEqual([200, { restored: false }, null]);
      expect(await second.session()).toBeNull();
      // A tampered kept cookie gives nothing back either.
      const third = await a.signedIn("admin2@example.com");
      await a.post(third, "/auth/admin/impersonate", { userId: "user" });
      const kept = third.jar.cookies.get("authlib.impersonator-session");
      if (kept) third.jar.cookies.set("authlib.impersonator-session", { ...kept, value: `${kept.value.slice(0, -4)}AAAA` });
      expect(await a.post(third, "/auth/admin/stop-impersonating")).toEqual([200, { restored: false }, null]);
      // Stopping needs an impersonation, and a session.
      const plain = await a.signedIn("user@example.com");
      expect(await a.post(plain, "/auth/admin/stop-impersonating")).toEqual([403, { error: "ImpersonationForbidden" }, null]);
      expect((await a.post(a.browser(), "/auth/admin/stop-impersonating"))[0]).toBe(401);
      expect(adminCookies.size).toBeGreaterThan(0);
    });

    test("answers JSON that is never cached; keeps the admin's session aside for the impersonation's lifetime and gives it back with each cookie's own options", async () => {
      // The app's own options for the session cookie (SameSite=Strict), the assurance cookie keeping the defaults.
      const cookies = { sessionToken: { options: { sameSite: "strict" } } } as AuthConfig["cookies"];
      const a = app(strategy, { roles: ["admin"] }, { session: { strategy, maxAge: 7200 }, cookies });
      const admin = await a.signedIn("admin@example.com");
      const sessionCookie = (name: string) => name === "authlib.session-token" || name === "authlib.session-assurance";
      const own = Object.fromEntries(
        [...admin.jar.cookies].filter(([name]) => sessionCookie(name)).map(([name, cookie]) => [name, cookie.value]),
      );
      // A whole second, standing still: lifetimes and expiry dates are exact.
      vi.useFakeTimers({ toFake: ["Date"], now: Math.ceil(Date.now() / 1000) * 1000 });
      const now = Date.now();
      const started = await admin.send("/auth/admin/impersonate", { form: { csrfToken: await admin.csrf(), userId: "user" } });
      expect([started.status, started.headers.get("content-type"), started.headers.get("cache-control")]).toEqual([
        200,
        "application/json",
        "private, no-cache, no-store",
      ]);
      const kept = started.setCookies.find((cookie) => cookie.name === "authlib.impersonator-session");
      expect(kept?.attributes).toMatchObject({ maxAge: 3600, httponly: true, samesite: "Lax", path: "/" });

      const stopped = await admin.send("/auth/admin/stop-impersonating", { form: { csrfToken: await admin.csrf() } });
      expect([stopped.status, stopped.headers.get("content-type"), stopped.headers.get("cache-control")]).toEqual([
        200,
        "application/json",
        "private, no-cache, no-store",
      ]);
      expect(await stopped.json()).toEqual({ restored: true });
      // The admin's own cookies come back as they were, each with its own options and a whole session's lifetime.
      const back = stopped.setCookies.filter((cookie) => cookie.value !== "" && sessionCookie(cookie.name));
      expect(Object.fromEntries(back.map((cookie) => [cookie.name, cookie.value]))).toEqual(own);
      for (const cookie of back) {
        const sameSite = cookie.name === "authlib.session-token" ? "Strict" : "Lax";
        expect([cookie.name, cookie.attributes]).toEqual([
          cookie.name,
          { httponly: true, samesite: sameSite, path: "/", expires: new Date(now + 7200 * 1000) },
        ]);
      }
      expect(back.map((cookie) => cookie.name)).toContain("authlib.session-token");
      if (strategy === "database") expect(back.map((cookie) => cookie.name)).toContain("authlib.session-assurance");
    });

    test("the impersonated session's one sign-in method is the admin's act, at one assurance level, from the moment it starts", async () => {
      const a = app(strategy);
      const admin = await a.signedIn("admin@example.com");
      vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
      const now = Math.floor(Date.now() / 1000);
      await a.post(admin, "/auth/admin/impersonate", { userId: "user" });
      // The JWT's claims, or a database session's sealed ones: where each strategy keeps them.
      const name = strategy === "jwt" ? "authlib.session-token" : "authlib.session-assurance";
      const claims = await decode<Record<string, unknown>>({ token: admin.jar.get(name) as string, secret, salt: name });
      expect(claims).toMatchObject({ authTime: now, amr: ["impersonation"], aal: 1, act: { sub: "admin", exp: now + 3600 } });
    });

    test.runIf(strategy === "database")(
      "an impersonated database session lives only with its sealed actor, and only for its lifetime",
      async () => {
        const a = app(strategy);
        const admin = await a.signedIn("admin@example.com");
        vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
        await a.post(admin, "/auth/admin/impersonate", { userId: "user" });
        expect((await admin.session())?.user?.email).toBe("user@example.com");
        // The token alone (its sealed claims dropped): no session, though its row is live.
        const tokenOnly = a.browser();
        tokenOnly.jar.apply(
          new Response(null, { headers: [["set-cookie", `authlib.session-token=${admin.jar.get("authlib.session-token")}; Path=/`]] }),
        );
        expect(await tokenOnly.session()).toBeNull();
        expect((await a.auth.api.getSession(a.requestOf(tokenOnly))).session).toBeNull();
        // Past the impersonation's hour: no session, though the row and the sealed cookie are still there.
        vi.setSystemTime(Date.now() + 3601 * 1000);
        expect((await a.auth.api.getSession(a.requestOf(admin))).session).toBeNull();
      },
    );

    test("a refused start or stop is audited as the user of the session refused", async () => {
      const a = app(strategy);
      const admin = await a.signedIn("admin@example.com");
      await a.post(admin, "/auth/admin/impersonate", { userId: "user" });
      expect((await a.post(admin, "/auth/admin/impersonate", { userId: "banned" }))[0]).toBe(403);
      const other = await a.signedIn("admin2@example.com");
      expect((await a.post(other, "/auth/admin/stop-impersonating"))[0]).toBe(403);
      await vi.waitFor(() =>
        expect(a.audit.filter((row) => row.outcome === "failure").map((row) => [row.type, row.userId, row.detail])).toEqual([
          ["adminRefused", "user", "ImpersonationForbidden"],
          ["adminRefused", "admin-2", "ImpersonationForbidden"],
        ]),
      );
    });

    test("each refusal says why and what to do", async () => {
      const a = app(strategy);
      const admin = await a.signedIn("admin@example.com");
      const said = (promise: Promise<unknown>) =>
        promise.then(
          () => "started",
          (error: { type: string; reason?: string; message: string }) => [error.type, error.reason, error.message],
        );
      const start = (userId: string, request = a.requestOf(admin)) => said(a.auth.api.impersonateUser(request, { userId }));
      expect(await start("user", new Request(`${ORIGIN}/page`))).toEqual([
        "SessionRequired",
        undefined,
        "Sign in first: the request has no session.",
      ]);
      expect(await start("admin")).toEqual(["ImpersonationForbidden", "self", "An admin cannot impersonate themselves."]);
      expect(await start("nobody")).toEqual(["ImpersonationForbidden", "unknownUser", "No user has this id."]);
      expect(await start("admin-2")).toEqual([
        "ImpersonationForbidden",
        "admin",
        "An admin cannot impersonate another admin (`admin.impersonation.allowAdmins` is off).",
      ]);
      expect(await start("banned")).toEqual(["ImpersonationForbidden", "banned", "A banned user cannot be impersonated."]);
      const stop = (request: Request) => said(a.auth.api.stopImpersonating(request));
      expect(await stop(new Request(`${ORIGIN}/page`))).toEqual([
        "SessionRequired",
        undefined,
        "Sign in first: the request has no session.",
      ]);
      expect(await stop(a.requestOf(admin))).toEqual([
        "ImpersonationForbidden",
        "notImpersonating",
        "This session is not an impersonation: there is nothing to stop.",
      ]);
      await a.post(admin, "/auth/admin/impersonate", { userId: "user" });
      expect(await start("banned")).toEqual([
        "ImpersonationForbidden",
        "impersonating",
        "An impersonated session cannot start another impersonation: stop this one first.",
      ]);
      const off = app(strategy, { roles: ["admin"], impersonation: false });
      const offAdmin = await off.signedIn("admin@example.com");
      expect(await said(off.auth.api.impersonateUser(off.requestOf(offAdmin), { userId: "user" }))).toEqual([
        "ImpersonationForbidden",
        "off",
        "Impersonation is turned off (`admin.impersonation: false`).",
      ]);
    });

    test("a browser's form that names where to go is redirected there; auth.api answers data whatever it is given", async () => {
      const a = app(strategy);
      const admin = await a.signedIn("admin@example.com");
      const [status, , location] = await a.post(admin, "/auth/admin/impersonate", { userId: "user", callbackUrl: `${ORIGIN}/dashboard` });
      expect([status, location]).toEqual([302, `${ORIGIN}/dashboard`]);
      expect((await admin.session())?.act?.sub).toBe("admin");
      const other = await a.signedIn("admin@example.com");
      const input = { userId: "user", callbackUrl: `${ORIGIN}/dashboard` } as { userId: string };
      expect(await a.auth.api.impersonateUser(a.requestOf(other), input)).toMatchObject({ userId: "user" });
    });

    test("never ends one of the user's own sessions (the per-user limit)", async () => {
      const a = app(strategy, { roles: ["admin"] }, { session: { strategy, maxPerUser: 1 } });
      const user = await a.signedIn("user@example.com");
      const admin = await a.signedIn("admin@example.com");
      await a.post(admin, "/auth/admin/impersonate", { userId: "user" });
      expect((await user.session())?.user?.email).toBe("user@example.com");
      expect((await user.session())?.act).toBeUndefined();
      // The user's own next sign-in still keeps to the limit.
      await a.signedIn("user@example.com");
      expect(await user.session()).toBeNull();
    });

    test("a kept cookie sealed with the secret but not of this impersonation, or of no shape, gives nothing back", async () => {
      const a = app(strategy);
      const admin = await a.signedIn("admin@example.com");
      const own = new Map(admin.jar.cookies);
      const name = "authlib.impersonator-session";
      const sealed = (token: Record<string, unknown>) => encode({ token, secret, salt: name, maxAge: 600 });
      /** A new impersonation from the admin's own session, its kept cookie replaced by `kept(act)`'s. */
      async function stopWith(kept: (act: { sub: string; exp: number }, cookies: Record<string, string>) => Record<string, unknown>) {
        const browser = a.browser();
        for (const [key, cookie] of own) browser.jar.cookies.set(key, cookie);
        const cookies = Object.fromEntries([...own].map(([key, cookie]) => [key, cookie.value]));
        await a.post(browser, "/auth/admin/impersonate", { userId: "user" });
        const act = (await browser.session())?.act as { sub: string; exp: number };
        browser.jar.cookies.set(name, { name, value: await sealed(kept(act, cookies)) } as never);
        return [await a.post(browser, "/auth/admin/stop-impersonating"), (await browser.session())?.user?.email ?? null];
      }
      const right = (act: { exp: number }, cookies: Record<string, string>) => ({ admin: "admin", user: "user", until: act.exp, cookies });
      const attempts: Array<[string, (act: { exp: number }, cookies: Record<string, string>) => Record<string, unknown>]> = [
        ["another admin", (act, cookies) => ({ ...right(act, cookies), admin: "admin-2" })],
        ["another user", (act, cookies) => ({ ...right(act, cookies), user: "banned" })],
        ["another impersonation", (act, cookies) => ({ ...right(act, cookies), until: act.exp + 1 })],
        ["no admin", (act, cookies) => ({ ...right(act, cookies), admin: 1 })],
        ["no user", (act, cookies) => ({ ...right(act, cookies), user: null })],
        ["no end", (act, cookies) => ({ ...right(act, cookies), until: String(act.exp) })],
        ["no cookies", (act, cookies) => ({ ...right(act, cookies), cookies: null })],
        ["cookies of no shape", (act, cookies) => ({ ...right(act, cookies), cookies: "x" })],
      ];
      for (const [what, kept] of attempts) expect([what, await stopWith(kept)]).toEqual([what, [[200, { restored: false }, null], null]]);
      // The right one, sealed the same way, gives the admin's session back.
      expect(await stopWith(right)).toEqual([[200, { restored: true }, null], "admin@example.com"]);
    });

    test("the banner names each by name, else email, else id", async () => {
      const a = app(strategy, { roles: ["admin"], impersonation: { allowAdmins: true } });
      const second = await a.signedIn("admin2@example.com");
      await a.post(second, "/auth/admin/impersonate", { userId: "admin" });
      const page = await (await second.send("/auth/signin")).text();
      // The user acted as has a name; the admin acting has only an email.
      expect(page).toContain("You are acting as <strong>Ada Admin</strong> (signed in as admin <strong>admin2@example.com</strong>).");
    });

    test("a sign-in in the impersonating browser ends the impersonation first", async () => {
      const a = app(strategy);
      const admin = await a.signedIn("admin@example.com");
      await a.post(admin, "/auth/admin/impersonate", { userId: "user" });
      const user = await a.signedIn("user@example.com");
      expect((await a.auth.api.listSessions(a.requestOf(user))).some((s) => s.impersonatedBy)).toBe(true);
      // A sign-in from the impersonated browser, as another user: the impersonation and the kept cookie end.
      await admin.send("/auth/callback/credentials", { form: { csrfToken: await admin.csrf(), email: "admin2@example.com" } });
      expect((await admin.session())?.user?.email).toBe("admin2@example.com");
      expect((await admin.session())?.act).toBeUndefined();
      expect(admin.jar.cookies.has("authlib.impersonator-session")).toBe(false);
      expect((await a.auth.api.listSessions(a.requestOf(user))).some((s) => s.impersonatedBy)).toBe(false);
      await vi.waitFor(() =>
        expect(a.audit.find((row) => row.type === "signOut" && row.userId === "user")).toMatchObject({ impersonatorId: "admin" }),
      );
      // A browser without the kept cookie signs in as always, its session untouched by others' impersonations.
      expect((await user.session())?.user?.email).toBe("user@example.com");
    });

    test("the admin's session ended meanwhile: stop signs the browser out", async () => {
      const a = app(strategy);
      const admin = await a.signedIn("admin@example.com");
      await a.post(admin, "/auth/admin/impersonate", { userId: "user" });
      await a.auth.api.revokeUserSessions({ userId: "admin" });
      expect(await a.post(admin, "/auth/admin/stop-impersonating")).toEqual([200, { restored: false }, null]);
      expect(await admin.session()).toBeNull();
      await vi.waitFor(() => expect(a.audit.find((row) => row.type === "impersonationStopped")).toMatchObject({ detail: "signedOut" }));
    });

    test("the session's requests name the admin in the audit trail; a banner marks the built-in pages", async () => {
      const a = app(strategy);
      const admin = await a.signedIn("admin@example.com");
      await a.post(admin, "/auth/admin/impersonate", { userId: "user" });
      const page = await (await admin.send("/auth/signin")).text();
      expect(page).toContain('<body class="impersonated"><section class="impersonation"');
      expect(page).toContain("You are acting as <strong>Uma User</strong> (signed in as admin <strong>Ada Admin</strong>).");
      expect(page).toContain(`action="${ORIGIN}/auth/admin/stop-impersonating"`);
      const own = await a.signedIn("user@example.com");
      expect(await (await own.send("/auth/signin")).text()).not.toContain('<section class="impersonation"');
      await a.post(admin, "/auth/signout");
      await vi.waitFor(() =>
        expect(a.audit.find((row) => row.type === "signOut" && row.userId === "user")).toMatchObject({ impersonatorId: "admin" }),
      );
      for (const row of a.audit.filter((r) => r.type === "signIn")) expect(row.impersonatorId).toBeNull();
    });
  });
}

describe("the impersonated JWT session's start", () => {
  test("is a sign-in of an existing user to the jwt callback, never a sign-up", async () => {
    const seen: unknown[] = [];
    const a = app(
      "jwt",
      { roles: ["admin"] },
      {
        callbacks: {
          jwt: ({ token, trigger, isNewUser }) => {
            if (trigger === "signIn" || trigger === "signUp") seen.push([token.email, trigger, isNewUser]);
            return token;
          },
        },
      },
    );
    const admin = await a.signedIn("admin@example.com");
    await a.post(admin, "/auth/admin/impersonate", { userId: "user" });
    expect(seen.at(-1)).toEqual(["user@example.com", "signIn", false]);
  });
});

describe("stopping an impersonation whose session cookie is chunked", () => {
  test("gives back the admin's plain session cookie, the impersonated session's chunks left out of the check", async () => {
    const a = app("jwt");
    // A name long enough that the user's JWT is split into chunks (authlib.session-token.0, .1, …).
    a.memory.users.set("long", { id: "long", email: "long@example.com", name: "L".repeat(6000), emailVerified: null } as never);
    const admin = await a.signedIn("admin@example.com");
    expect(admin.jar.cookies.has("authlib.session-token")).toBe(true);
    await a.post(admin, "/auth/admin/impersonate", { userId: "long" });
    expect(admin.jar.cookies.has("authlib.session-token.1")).toBe(true);
    expect((await admin.session())?.user?.email).toBe("long@example.com");
    expect(await a.post(admin, "/auth/admin/stop-impersonating")).toEqual([200, { restored: true }, null]);
    expect((await admin.session())?.user?.email).toBe("admin@example.com");
    expect([...admin.jar.cookies.keys()].filter((name) => name.startsWith("authlib.session-token"))).toEqual(["authlib.session-token"]);
  });
});

describe("the banner's names", () => {
  test("are the ids when the store no longer knows the user or the admin", async () => {
    const options = { adapter: { getUser: async () => null } } as unknown as InternalOptions;
    expect(await impersonationNames(options, "user-id", "admin-id")).toEqual({ user: "user-id", admin: "admin-id" });
    const noAdapter = {} as InternalOptions;
    expect(await impersonationNames(noAdapter, "user-id", "admin-id")).toEqual({ user: "user-id", admin: "admin-id" });
  });
});

describe("the built-in forms refuse an impersonated session, and say why", () => {
  test("each owner-present form goes back to its page with ImpersonationForbidden, shown in the page's language", async () => {
    const memory = memoryAdapter({ sessionRecords: true });
    for (const user of USERS) memory.users.set(user.id, { emailVerified: null, ...user } as never);
    const config: AuthConfig = {
      secret,
      trustHost: true,
      adapter: { ...withVerificationTokens(memory.adapter), ...memoryAdmin(memory.users).methods },
      session: { strategy: "database" },
      providers: [
        Credentials({ credentials: { email: {} }, authorize: ({ email }) => USERS.find((user) => user.email === email) ?? null }),
        Password({ sendMail: () => {} }),
      ],
      admin: { roles: ["admin"] },
      twoFactor: {},
      logger: { error: () => {}, warn: () => {}, debug: () => {} },
    };
    instanceFor(config);
    const browser = authClient(config, ORIGIN);
    await browser.send("/auth/callback/credentials", { form: { csrfToken: await browser.csrf(), email: "admin@example.com" } });
    await browser.send("/auth/admin/impersonate", { form: { csrfToken: await browser.csrf(), userId: "user" } });
    const fields = { email: "taken@example.com", provider: "github", providerAccountId: "1", password: "a long password 12345", id: "x" };
    const answers: Array<[string, string | null]> = [];
    for (const path of [
      "account/email",
      "account/delete",
      "account/unlink",
      "account/two-factor-enroll",
      "account/passkey-remove",
      "password/change",
    ]) {
      const response = await browser.send(`/auth/${path}`, { form: { csrfToken: await browser.csrf(), ...fields } });
      answers.push([path, response.headers.get("location")]);
    }
    expect(answers).toEqual([
      ["account/email", `${ORIGIN}/auth/account?error=ImpersonationForbidden`],
      ["account/delete", `${ORIGIN}/auth/account?error=ImpersonationForbidden&form=delete`],
      ["account/unlink", `${ORIGIN}/auth/account?error=ImpersonationForbidden`],
      ["account/two-factor-enroll", `${ORIGIN}/auth/account?error=ImpersonationForbidden&form=two-factor`],
      ["account/passkey-remove", `${ORIGIN}/auth/account?error=ImpersonationForbidden`],
      ["password/change", `${ORIGIN}/auth/error?error=ImpersonationForbidden`],
    ]);
    expect((await memory.adapter.getUser?.("user"))?.email).toBe("user@example.com");
    const account = await (await browser.send("/auth/account?error=ImpersonationForbidden")).text();
    expect(account).toContain("An admin acting as this user cannot change how they sign in");
    const error = await browser.send("/auth/error?error=ImpersonationForbidden", { headers: { "accept-language": "fr" } });
    expect(error.status).toBe(403);
    expect(await error.text()).toContain("Un administrateur agissant en tant que cet utilisateur");
  });
});
