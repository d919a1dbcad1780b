/**
 * The admin's operations on users through `auth.api` and the routes: a paginated list stable under inserts,
 * search and filter; a user's details with what other features hold (organizations); create (unproven
 * address unless vouched for, a password by the Password provider's rules), change (a new address is
 * unproven and the old one is told), set a password (sessions end, the owner is mailed), end sessions,
 * delete (sessions end, the user and their rows go). Every change is an audit row naming the admin and
 * the user, and none holds a secret.
 */
import { describe, expect, it } from "vitest";
import { createAuth } from "../../src/kernel/instance.js";
import type { AuditEvent } from "../../src/types/telemetry.js";
import { memoryOrganizations } from "../helpers/memory-organizations.js";
import { adminApp, ORIGIN, post, signIn } from "./helpers.js";

/** Lets the audit trail's writes (they run after the answer) land. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 50));

describe("admin operations on users", () => {
  it("pages through every user once while users are added, searches and filters", async () => {
    const app = adminApp();
    const admin = await app.signedUpAdmin("admin@example.com");
    for (let i = 0; i < 9; i++)
      await app.store.createUser?.({ id: crypto.randomUUID(), email: `user${i}@example.com`, emailVerified: null, name: `User ${i}` });
    const { api } = createAuth(app.config);
    const as = { headers: { cookie: admin.jar.header() }, url: ORIGIN };
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await api.listUsers(as, { limit: 4, ...(cursor ? { cursor } : {}) });
      expect(page.users.length).toBeLessThanOrEqual(4);
      seen.push(...page.users.map((user) => user.id));
      await app.store.createUser?.({ id: crypto.randomUUID(), email: `late-${seen.length}@example.com`, emailVerified: null });
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBeGreaterThanOrEqual(10);
    expect((await api.listUsers(as, { search: "USER 3" })).users.map((user) => user.email)).toEqual(["user3@example.com"]);
    expect((await api.listUsers(as, { search: "admin@" })).users.map((user) => user.role)).toEqual(["admin"]);
    expect((await api.listUsers(as, { banned: true })).users).toEqual([]);
  });

  it("creates, changes, reads and deletes users, with audit rows naming the admin and the user", async () => {
    const audit: AuditEvent[] = [];
    // Strict revocation: `api` is another instance than the browser's (`Auth()`), and must be seen at once.
    const app = adminApp({
      audit: { store: { write: (event) => void audit.push(event) } },
      session: { strategy: "jwt", revocation: "strict" },
    });
    const admin = await app.signedUpAdmin("admin@example.com");
    const { api } = createAuth(app.config);
    const as = { headers: { cookie: admin.jar.header() }, url: ORIGIN };

    const created = await api.createUser(as, { email: " New.User@Example.com ", name: "New User", password: "a brand new password 42" });
    expect(created).toMatchObject({ email: "new.user@example.com", name: "New User", emailVerified: null, role: null, ban: null });
    const vouched = await api.createUser(as, { email: "vouched@example.com", emailVerified: true, role: "support" });
    expect(vouched.emailVerified).toBeInstanceOf(Date);
    expect(vouched.role).toBe("support");
    await expect(api.createUser(as, { email: "NEW.user@example.com" })).rejects.toMatchObject({ type: "UserExists" });

    // The vouched user signs in with the password an admin sets; then an admin changes their address.
    await api.setUserPassword(as, { userId: vouched.id, password: "set by an admin 1234" });
    const browser = app.browser();
    await signIn(browser, "vouched@example.com", "set by an admin 1234");
    expect((await browser.session())?.user?.email).toBe("vouched@example.com");
    const changed = await api.updateUser(as, { userId: vouched.id, email: "moved@example.com", name: "Moved" });
    expect(changed).toMatchObject({ email: "moved@example.com", emailVerified: null, name: "Moved" });
    // The old address is told; the new one is unproven until its owner proves it.
    const notice = app.mails.filter((mail) => mail.to === "vouched@example.com").at(-1);
    expect(notice?.text).toContain("An administrator changed the email address of your account");
    await expect(api.updateUser(as, { userId: vouched.id, email: "admin@example.com" })).rejects.toMatchObject({ type: "UserExists" });

    const details = await api.getUser(as, { userId: vouched.id });
    expect(details.user.email).toBe("moved@example.com");
    expect(details.accounts).toEqual([{ provider: "password", type: "credentials", providerAccountId: vouched.id }]);
    expect(details.sessions?.length).toBe(1);
    expect(JSON.stringify(details)).not.toMatch(/scrypt\$/);

    await api.adminRevokeUserSessions(as, { userId: vouched.id });
    expect(await browser.session()).toBeNull();
    expect((await api.getUser(as, { userId: vouched.id })).sessions).toEqual([]);

    await api.deleteUser(as, { userId: vouched.id });
    expect(app.memory.users.has(vouched.id)).toBe(false);
    await expect(api.getUser(as, { userId: vouched.id })).rejects.toMatchObject({ type: "UserNotFound" });

    await settled();
    const rows = audit.filter((event) => event.type.startsWith("admin"));
    const of = (type: string) => rows.filter((event) => event.type === type);
    expect(of("adminUserCreated").map((event) => [event.userId, event.detail])).toEqual([
      [admin.userId, `target=${created.id} password=set`],
      [admin.userId, `target=${vouched.id}`],
    ]);
    expect(of("adminPasswordSet").map((event) => event.detail)).toEqual([`target=${vouched.id}`]);
    expect(of("adminUserUpdated").map((event) => event.detail)).toEqual([`target=${vouched.id} fields=name,email`]);
    expect(of("adminSessionsRevoked").map((event) => event.detail)).toEqual([`target=${vouched.id}`]);
    expect(of("adminUserDeleted").map((event) => event.detail)).toEqual([`target=${vouched.id}`]);
    // No password, hash or address in any row.
    expect(JSON.stringify(audit)).not.toMatch(/a brand new password|set by an admin|scrypt\$|@example\.com/);
  });

  it("getUser has the parts other features add (organizations), and the route answers JSON dates", async () => {
    const orgs = memoryOrganizations();
    const app = adminApp({ organizations: {} });
    Object.assign(app.config.adapter as object, orgs.methods);
    const admin = await app.signedUpAdmin("admin@example.com");
    const member = await app.signedUp("member@example.com");
    const created = await post(member, "/auth/organization/create", { name: "Acme", slug: "acme" });
    expect(created.status).toBe(200);
    const response = await admin.send(`/auth/admin/get-user?userId=${member.userId}`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { features: { organizations: Array<{ organization: { slug: string }; role: string }> } };
    expect(body.features.organizations.map((entry) => [entry.organization.slug, entry.role])).toEqual([["acme", "owner"]]);
  });
});
