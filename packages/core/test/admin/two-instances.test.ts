/**
 * Two apps in two real processes (`server-process.ts`) on one PostgreSQL database (the hosted-db adapter),
 * for each session strategy: an admin bans a user on A; the user's browser session on B ends (database
 * sessions: on its next request; JWT sessions: once B's trust of its last registry read, `revalidateAfter`,
 * has run out), and B refuses their sign-in at once (the ban is read from the store). Unbanned on A, they
 * sign in on B again. Skipped, saying why, when PostgreSQL does not answer.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HostedDbAdapter, HostedDbClient } from "../../../hosted-db-adapter/src/index.js";
import { dropBranch, postgresAnswers, randomBranch, testDatabaseURL } from "../../../hosted-db-adapter/test/helpers.js";
import { httpClient } from "../helpers/auth-client.js";
import { type ForkedInstance, forkInstance } from "../helpers/forked-instance.js";

const url = testDatabaseURL();
const postgres = await postgresAnswers(url, "the admin feature across processes");
/** How long (seconds) instance B trusts its last registry read of a JWT session. */
const BOUND = 1;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!postgres).each(["jwt", "database"] as const)(
  "a ban across two processes on one PostgreSQL database (%s sessions)",
  (strategy) => {
    let database: HostedDbClient;
    let a: ForkedInstance<object, { origin: string }>;
    let b: ForkedInstance<object, { origin: string }>;
    let originA: string;
    let originB: string;
    let victimId: string;

    beforeAll(async () => {
      database = new HostedDbClient({ databaseURL: url, branch: randomBranch(`admin_two_${strategy}`) });
      await database.migrate();
      const adapter = HostedDbAdapter(database);
      await adapter.createUser({ id: randomUUID(), email: "admin@example.com", emailVerified: new Date(), role: "admin" } as never);
      victimId = (await adapter.createUser({ id: randomUUID(), email: "victim@example.com", emailVerified: new Date() })).id;
      const env = {
        DATABASE_URL: url,
        BRANCH: database.branch,
        STRATEGY: strategy,
        BOUND: String(BOUND),
        AUTH_SECRET: "admin-two-instances-secret-0123456789ab",
      };
      const script = new URL("./server-process.ts", import.meta.url);
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

    async function signedIn(origin: string, username: string) {
      const browser = httpClient(origin);
      const csrfToken = await browser.csrf();
      const response = await browser.send("/auth/callback/credentials", { form: { csrfToken, username, callbackUrl: "/" } });
      return { browser, response };
    }

    it("the ban made on A ends the user's session on B within the bound and refuses their sign-in on B", async () => {
      const { browser: admin } = await signedIn(originA, "admin@example.com");
      const { browser: victim } = await signedIn(originB, "victim@example.com");
      const other = (await signedIn(originB, "victim@example.com")).browser;
      expect((await victim.session())?.user?.email).toBe("victim@example.com");
      expect((await other.session())?.user?.email).toBe("victim@example.com");

      const ban = await admin.send("/auth/admin/ban-user", { form: { csrfToken: await admin.csrf(), userId: victimId } });
      expect(ban.status).toBe(200);
      // B trusts its last read of a JWT session for at most `revalidateAfter` seconds; a database session is read every time.
      if (strategy === "jwt") await sleep(BOUND * 1000 + 500);
      expect(await victim.session()).toBeNull();
      expect(await other.session()).toBeNull();
      const { browser: again, response } = await signedIn(originB, "victim@example.com");
      expect(response.headers.get("location")).toContain("error=UserBanned");
      expect(await again.session()).toBeNull();

      const unban = await admin.send("/auth/admin/unban-user", { form: { csrfToken: await admin.csrf(), userId: victimId } });
      expect(unban.status).toBe(200);
      const { browser: back } = await signedIn(originB, "victim@example.com");
      expect((await back.session())?.user?.email).toBe("victim@example.com");
    }, 60_000);
  },
);
