/**
 * Impersonation across two instances in two real processes (`impersonation-process.ts`) on one PostgreSQL
 * database, with JWT and database sessions: an admin starts it on A; B sees the impersonated session (its
 * actor, who acts), refuses it an owner-present operation, shows it in the user's device list, and stops it,
 * giving the admin's session back; the trail (in the database) has both ids on the rows A and B wrote.
 * Skipped, saying why, when PostgreSQL does not answer.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { HostedDbAdapter, HostedDbClient, hostedDbAuditStore } from "../../../hosted-db-adapter/src/index.js";
import { dropBranch, postgresAnswers, randomBranch, testDatabaseURL } from "../../../hosted-db-adapter/test/helpers.js";
import { httpClient } from "../helpers/auth-client.js";
import { type ForkedInstance, forkInstance } from "../helpers/forked-instance.js";

const url = testDatabaseURL();
const postgres = await postgresAnswers(url, "impersonation across processes");

type Client = ReturnType<typeof httpClient>;

/** A browser on `origin` holding `from`'s cookies (one browser, seen by another instance). */
function sameBrowserOn(origin: string, from: Client): Client {
  const browser = httpClient(origin);
  for (const [name, cookie] of from.jar.cookies) browser.jar.cookies.set(name, cookie);
  return browser;
}

async function signIn(origin: string, email: string): Promise<Client> {
  const browser = httpClient(origin);
  const csrfToken = await browser.csrf();
  await browser.send("/auth/callback/credentials", { form: { csrfToken, email, password: "x", callbackUrl: "/" } });
  if ((await browser.session())?.user?.email !== email) throw new Error(`${email} is not signed in`);
  return browser;
}

async function postJson(browser: Client, path: string, form: Record<string, string> = {}) {
  const response = await browser.send(path, { form: { csrfToken: await browser.csrf(), ...form } });
  return [response.status, await response.json()] as const;
}

for (const strategy of ["jwt", "database"] as const) {
  describe.skipIf(!postgres)(`impersonation on two instances in two processes, one PostgreSQL database, ${strategy} sessions`, () => {
    let database: HostedDbClient;
    let a: ForkedInstance<object, { origin: string }>;
    let b: ForkedInstance<object, { origin: string }>;
    let originA: string;
    let originB: string;
    let adminId: string;
    let userId: string;

    beforeAll(async () => {
      database = new HostedDbClient({ databaseURL: url, branch: randomBranch("impersonation") });
      await database.migrate();
      const adapter = HostedDbAdapter(database);
      adminId = (await adapter.createUser({ id: randomUUID(), email: "admin@example.com", emailVerified: new Date(), name: "Ada Admin" }))
        .id;
      userId = (await adapter.createUser({ id: randomUUID(), email: "user@example.com", emailVerified: new Date() })).id;
      const env = {
        DATABASE_URL: url,
        BRANCH: database.branch,
        STRATEGY: strategy,
        AUTH_SECRET: "impersonation-instances-secret-0123456789",
      };
      const script = new URL("./impersonation-process.ts", import.meta.url);
      [a, b] = await Promise.all([
        forkInstance<object, { origin: string }>(script, env),
        forkInstance<object, { origin: string }>(script, env),
      ]);
      [originA, originB] = [(await a.ask({})).origin, (await b.ask({})).origin];
    }, 60_000);

    afterAll(async () => {
      await Promise.all([a?.close(), b?.close()]);
      if (database) {
        await dropBranch(database, database.branch);
        await database.close();
      }
    });

    it("starts on A, is used and refused on B, stops on B; the trail names both", async () => {
      const onA = await signIn(originA, "admin@example.com");
      const user = await signIn(originB, "user@example.com");
      const [status, started] = await postJson(onA, "/auth/admin/impersonate", { userId });
      expect([status, started.userId]).toEqual([200, userId]);

      // The same browser, its next request answered by B.
      const onB = sameBrowserOn(originB, onA);
      const session = await onB.session();
      expect(session?.user?.email).toBe("user@example.com");
      expect(session?.act?.sub).toBe(adminId);
      expect(session?.impersonator).toEqual({ id: adminId, name: "Ada Admin", email: "admin@example.com" });
      expect(await postJson(onB, "/auth/sessions/revoke", { all: "others" })).toEqual([403, { error: "ImpersonationForbidden" }]);
      expect(await postJson(onB, "/auth/admin/impersonate", { userId })).toEqual([403, { error: "ImpersonationForbidden" }]);
      // The user, on B, sees who acts as them.
      const listed = await user.send("/auth/sessions");
      const { sessions } = (await listed.json()) as { sessions: Array<{ impersonatedBy?: { id: string; name: string | null } }> };
      expect(sessions.filter((s) => s.impersonatedBy).map((s) => s.impersonatedBy)).toEqual([{ id: adminId, name: "Ada Admin" }]);

      // Stopped on B: the admin's own session, seen by A as well.
      expect(await postJson(onB, "/auth/admin/stop-impersonating")).toEqual([200, { restored: true }]);
      expect((await onB.session())?.user?.email).toBe("admin@example.com");
      expect((await sameBrowserOn(originA, onB).session())?.act).toBeUndefined();
      expect((await sameBrowserOn(originA, onB).session())?.user?.email).toBe("admin@example.com");

      // The trail, in the database: A's start and B's stop, each with both ids.
      const trail = hostedDbAuditStore(database);
      await vi.waitFor(
        async () => {
          const rows = await trail.list({ types: ["impersonationStarted", "impersonationStopped"] });
          expect(rows.map((row) => [row.type, row.userId, row.impersonatorId]).sort()).toEqual([
            ["impersonationStarted", userId, adminId],
            ["impersonationStopped", userId, adminId],
          ]);
        },
        { timeout: 5_000 },
      );
      const own = await trail.list({ userId: adminId, types: ["signIn"] });
      expect(own.map((row) => row.impersonatorId)).toEqual([null]);
    }, 60_000);
  });
}
