/**
 * Bans: the banned user's open browser session ends on its next request (two browsers over real HTTP, both
 * session strategies), every sign-in is refused with `UserBanned` and the app's message (password here;
 * the other methods in `ban-methods.test.ts`), an expired ban lets them back, `unbanUser` too. An admin
 * cannot ban themselves nor another admin. Bad input is a named 400, never a 500.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createAuth } from "../../src/kernel/instance.js";
import { adminApp, ORIGIN, PASSWORD, post, serve } from "./helpers.js";

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

describe.each(["jwt", "database"] as const)("a ban with %s sessions", (strategy) => {
  it("ends the user's open sessions in two browsers on their next request, and refuses their sign-in", async () => {
    const app = adminApp({ admin: { roles: ["admin"], banMessage: "Suspended: write to support@example.com." } }, strategy);
    const { server, browser } = await serve(app.config);
    servers.push(server);
    const signUp = async (email: string) => {
      const b = browser();
      await post(b as never, "/auth/password/sign-up", { email, password: PASSWORD });
      const token = app.linkTo(email, "/auth/password/verify").searchParams.get("token") as string;
      await post(b as never, "/auth/password/verify", { token });
      await post(b as never, "/auth/callback/password", { email, password: PASSWORD, callbackUrl: "/" });
      return b;
    };
    // Links are mailed with the configured origin; the server answers them on its own.
    const laptop = await signUp("mallory@example.com");
    const phone = browser();
    await post(phone as never, "/auth/callback/password", { email: "mallory@example.com", password: PASSWORD, callbackUrl: "/" });
    const admin = await signUp("admin@example.com");
    const mallory = await app.store.getUserByEmail?.("mallory@example.com");
    const adminUser = await app.store.getUserByEmail?.("admin@example.com");
    app.memory.users.set(adminUser?.id as string, { ...adminUser, role: "admin" } as never);
    expect((await laptop.session())?.user?.email).toBe("mallory@example.com");
    expect((await phone.session())?.user?.email).toBe("mallory@example.com");

    const ban = await admin.send("/auth/admin/ban-user", {
      form: { csrfToken: await admin.csrf(), userId: mallory?.id as string, reason: "spam" },
    });
    expect(ban.status).toBe(200);
    expect(await ban.json()).toMatchObject({ userId: mallory?.id, reason: "spam", expiresAt: null, bannedBy: adminUser?.id });

    // Both open sessions are gone on their next request.
    expect(await laptop.session()).toBeNull();
    expect(await phone.session()).toBeNull();
    // Signing in again is refused, with the app's message on the sign-in page.
    const again = await post(laptop as never, "/auth/callback/password", {
      email: "mallory@example.com",
      password: PASSWORD,
      callbackUrl: "/",
    });
    const location = again.headers.get("location") ?? "";
    expect(location).toContain("error=UserBanned");
    expect(await laptop.session()).toBeNull();
    const page = await (await laptop.send(new URL(location, server.origin).pathname + new URL(location, server.origin).search)).text();
    expect(page).toContain("Suspended: write to support@example.com.");
    // The admin is still signed in; lifting the ban lets the user back in.
    const unban = await admin.send("/auth/admin/unban-user", { form: { csrfToken: await admin.csrf(), userId: mallory?.id as string } });
    expect(unban.status).toBe(200);
    await post(laptop as never, "/auth/callback/password", { email: "mallory@example.com", password: PASSWORD, callbackUrl: "/" });
    expect((await laptop.session())?.user?.email).toBe("mallory@example.com");
  });
});

describe("ban rules", () => {
  it("an expired ban no longer counts; the built-in message is localized", async () => {
    const app = adminApp();
    const admin = await app.signedUpAdmin("admin@example.com");
    const user = await app.signedUp("user@example.com");
    const { api } = createAuth(app.config);
    const as = { headers: { cookie: admin.jar.header() }, url: ORIGIN };
    // Banned through this browser's instance (`Auth()`); `api` is another instance, which would see the ban within the bound.
    const banned = await post(admin, "/auth/admin/ban-user", { userId: user.userId, expiresIn: "3600" });
    const ban = (await banned.json()) as { expiresAt: string | null };
    expect(new Date(ban.expiresAt as string).getTime()).toBeGreaterThan(Date.now() + 3590_000);
    expect(await user.session()).toBeNull();
    const refused = await post(user, "/auth/callback/password", { email: "user@example.com", password: PASSWORD, callbackUrl: "/" });
    const location = new URL(refused.headers.get("location") ?? "", ORIGIN);
    expect(location.searchParams.get("error")).toBe("UserBanned");
    const german = await (await user.send(`${location.pathname}${location.search}`, { headers: { "accept-language": "de" } })).text();
    expect(german).toContain("Dieses Konto ist gesperrt.");
    expect((await api.listUsers(as, { banned: true })).users.map((u) => u.id)).toEqual([user.userId]);
    // The ban's end passes (moved into the past in the store): sign-in works again, and the list says so.
    const stored = app.admin.bans.get(user.userId);
    app.admin.bans.set(user.userId, { ...(stored as never), expiresAt: new Date(Date.now() - 1000) });
    expect((await api.listUsers(as, { banned: true })).users).toEqual([]);
    expect((await api.getUser(as, { userId: user.userId })).user.ban).toBeNull();
    await post(user, "/auth/callback/password", { email: "user@example.com", password: PASSWORD, callbackUrl: "/" });
    expect((await user.session())?.user?.email).toBe("user@example.com");
    expect(app.admin.prune()).toBe(1);
  });

  it("an admin cannot ban, delete or set the password of themselves or another admin; bad input is a named 400", async () => {
    const app = adminApp();
    const admin = await app.signedUpAdmin("admin@example.com");
    const peer = await app.signedUpAdmin("peer@example.com");
    const { api } = createAuth(app.config);
    const as = { headers: { cookie: admin.jar.header() }, url: ORIGIN };
    for (const target of [admin.userId, peer.userId]) {
      await expect(api.banUser(as, { userId: target })).rejects.toMatchObject({ type: "AccessDenied" });
      await expect(api.deleteUser(as, { userId: target })).rejects.toMatchObject({ type: "AccessDenied" });
      await expect(api.setUserPassword(as, { userId: target, password: "another long password 99" })).rejects.toMatchObject({
        type: "AccessDenied",
      });
    }
    expect(app.admin.bans.size).toBe(0);
    expect((await peer.session())?.user?.email).toBe("peer@example.com");
    const csrfToken = await admin.csrf();
    const bad: Array<[string, Record<string, string>, number, string]> = [
      ["ban-user", { userId: peer.userId, expiresIn: "-5" }, 400, "InvalidUser"],
      ["ban-user", { userId: peer.userId, expiresIn: "forever" }, 400, "InvalidUser"],
      ["ban-user", { userId: "x".repeat(500) }, 400, "InvalidUser"],
      ["ban-user", { userId: "no-such-user" }, 404, "UserNotFound"],
      ["create-user", { email: "not an address" }, 400, "InvalidUser"],
      ["create-user", { email: "peer@example.com" }, 409, "UserExists"],
      ["create-user", { email: "short@example.com", password: "short" }, 400, "InvalidUser"],
      ["update-user", { userId: peer.userId, role: "Not A Role!" }, 400, "InvalidUser"],
      ["update-user", { userId: peer.userId, name: "two\nlines" }, 400, "InvalidUser"],
    ];
    for (const [path, form, status, error] of bad) {
      const response = await admin.send(`/auth/admin/${path}`, { form: { csrfToken, ...form } });
      expect({ path, status: response.status, error: ((await response.json()) as { error: string }).error }).toEqual({
        path,
        status,
        error,
      });
    }
    for (const query of ["cursor=zz", "cursor=ff", "limit=0", "limit=1000", "banned=maybe"]) {
      const response = await admin.send(`/auth/admin/list-users?${query}`);
      expect({ query, status: response.status, error: ((await response.json()) as { error: string }).error }).toEqual({
        query,
        status: 400,
        error: "InvalidUser",
      });
    }
    // A POST without the CSRF token changes nothing.
    const forged = await admin.send("/auth/admin/ban-user", { form: { userId: app.memory.users.keys().next().value as string } });
    expect(forged.status).toBe(403);
    expect(app.admin.bans.size).toBe(0);
  });
});
