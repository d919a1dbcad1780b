/**
 * `hostedDbAuditStore` under real flows through `Auth()` (credentials sign-in refused, rate-limited,
 * accepted; session reads; sign-out): the rows it stores, on PGlite and on a real PostgreSQL server,
 * each in a random branch dropped at the end; then the rows of the OIDC and email flows (a real OpenID
 * Provider and SMTP server, `core/test/helpers/sensitive-flows.ts`), and of the passkey and second-factor
 * flows (`core/test/helpers/second-factor-flows.ts`). Session reads leave no row. The PostgreSQL part is
 * skipped, saying why, when no server answers.
 */

import type { AuditEvent, AuditStore } from "@authlib/core";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "../../core/src/password.js";
import Credentials from "../../core/src/providers/credentials.js";
import { memoryRateLimitStore } from "../../core/src/rate-limit/store.js";
import type { AuthConfig } from "../../core/src/types/config.js";
import { authClient } from "../../core/test/helpers/auth-client.js";
import { closeSharedPglite } from "../../core/test/helpers/database.js";
import { runSecondFactorFlows, secondFactorAuditRows } from "../../core/test/helpers/second-factor-flows.js";
import {
  FLOW_AUDIT_ROWS,
  type FlowServices,
  runFlows as runSensitiveFlows,
  startFlowServices,
} from "../../core/test/helpers/sensitive-flows.js";
import { AUDIT_EVENTS_TABLE, type BaseClientOptions, HostedDbClient, hostedDbAuditStore } from "../src/index.js";
import { dropBranch, postgresAnswers, randomBranch, testDatabaseURL } from "./helpers.js";

const EMAIL = "grace.hopper@example.com";
const PASSWORD = "a long and correct password";
const hash = hashPassword(PASSWORD);

/** `store`, and a way to wait until `count` writes have settled (no clock involved). */
function counted(store: AuditStore) {
  const settled: Array<Promise<unknown>> = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  return {
    store: {
      write(event: AuditEvent) {
        const written = Promise.resolve(store.write(event));
        settled.push(written.catch(() => undefined));
        for (const waiter of waiters.filter((w) => settled.length >= w.count)) void Promise.all(settled).then(waiter.resolve);
        return written;
      },
    },
    written(count: number): Promise<void> {
      return new Promise((resolve) => {
        if (settled.length >= count) void Promise.all(settled).then(() => resolve());
        else waiters.push({ count, resolve });
      });
    },
  };
}

/**
 * `store`, each write started after the previous one settled: two rows of one request (a passkey's
 * `linkAccount` and `signIn`) can share their millisecond, and the list orders those by insertion.
 */
function inOrder(store: AuditStore): AuditStore {
  let last: Promise<unknown> = Promise.resolve();
  return {
    write(event) {
      const written = last.then(() => store.write(event));
      last = written.catch(() => undefined);
      return written;
    },
  };
}

function runFlows(name: string, connection: () => BaseClientOptions): void {
  describe(name, () => {
    let client: HostedDbClient;
    beforeAll(async () => {
      client = new HostedDbClient({ ...connection(), branch: randomBranch("audit") });
      await client.migrate();
    });
    afterAll(async () => {
      await dropBranch(client, client.branch);
      await client.close();
    });

    it("stores each flow's row, and none for session reads", async () => {
      const trail = counted(hostedDbAuditStore(client));
      const config: AuthConfig = {
        secret: "audit-store-test-secret-0123456789abcdef",
        trustHost: true,
        providers: [
          Credentials({
            credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
            async authorize({ email, password }) {
              return email === EMAIL && (await verifyPassword(String(password), await hash)) ? { id: "user-7", email: EMAIL } : null;
            },
          }),
        ],
        rateLimit: { store: memoryRateLimitStore(), credentials: { freeFailures: 1 } },
        audit: { store: trail.store },
        logger: { error: () => {}, warn: () => {} },
      };
      const browser = authClient(config, "http://localhost:3000", "2001:db8:abcd:12::1");
      const userAgent = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) Gecko/20100101 Firefox/131.0";
      const signIn = async (email: string, password: string) =>
        browser.send("/auth/callback/credentials", {
          form: { csrfToken: await browser.csrf(), email, password, callbackUrl: "/" },
          headers: { "user-agent": userAgent },
        });

      await signIn("other@example.com", "nope");
      await signIn("other@example.com", "nope again");
      await signIn(EMAIL, PASSWORD);
      expect(browser.jar.get("authlib.session-token")).toBeTruthy();
      expect((await browser.session())?.user?.email).toBe(EMAIL);
      expect((await browser.session())?.user?.email).toBe(EMAIL);
      await browser.send("/auth/signout", { form: { csrfToken: await browser.csrf() }, headers: { "user-agent": userAgent } });
      await trail.written(4);

      const rows = (await hostedDbAuditStore(client).list()).reverse();
      expect(rows.map((row) => [row.type, row.outcome, row.userId, row.provider, row.detail])).toEqual([
        ["signInFailed", "failure", null, "credentials", "CredentialsSignin"],
        ["rateLimited", "failure", null, "credentials", "RateLimited"],
        ["signIn", "success", "user-7", "credentials", null],
        ["signOut", "success", "user-7", null, null],
      ]);
      for (const row of rows) expect(row).toMatchObject({ clientAddressPrefix: "2001:db8:abcd::/48", userAgentLabel: "Firefox on macOS" });
      expect((await hostedDbAuditStore(client).list({ userId: "user-7", types: ["signIn"] })).length).toBe(1);

      // Nothing personal in any column: the table holds no email and no full address.
      const { rows: raw } = await client.query<Record<string, unknown>>(`SELECT * FROM "${client.branch}"."${AUDIT_EVENTS_TABLE}"`);
      const text = JSON.stringify(raw);
      expect(text).not.toContain("example.com");
      expect(text).not.toContain("2001:db8:abcd:12::1");
      expect(text).not.toContain("Mozilla");
    });

    it("stores the rows of the OIDC and email flows too (a real OpenID Provider, a real SMTP server)", async () => {
      const trail = counted(hostedDbAuditStore(client));
      await runSensitiveFlows(services, { audit: { store: trail.store }, logger: { error: () => {}, warn: () => {}, debug: () => {} } });
      // The last flow's write settles after its answer: read until every row is there.
      const stored = async () => (await hostedDbAuditStore(client).list()).map((row) => [row.type, row.outcome, row.provider, row.detail]);
      await expect.poll(stored).toEqual(expect.arrayContaining(FLOW_AUDIT_ROWS.map((row) => [...row])));
      const { rows: raw } = await client.query<Record<string, unknown>>(`SELECT * FROM "${client.branch}"."${AUDIT_EVENTS_TABLE}"`);
      expect(JSON.stringify(raw)).not.toContain("example.com");
    });

    it("stores the rows of the passkey and second-factor flows, with their client, and none of their secrets", async () => {
      const before = (await hostedDbAuditStore(client).list({ limit: 1000 })).length;
      const { handled, passkeyUserId } = await runSecondFactorFlows(
        "audit-store-second-factor-secret-0123456789",
        { audit: { store: inOrder(hostedDbAuditStore(client)) } },
        { address: "2001:db8:abcd:12::1", userAgent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) Gecko/20100101 Firefox/131.0" },
      );
      const expected = secondFactorAuditRows(passkeyUserId).map((row) => [...row]);
      // The last flow's write settles after its answer: read until every row is there.
      const added = async () => {
        const rows = await hostedDbAuditStore(client).list({ limit: 1000 });
        return rows.slice(0, rows.length - before).reverse();
      };
      await expect
        .poll(async () => (await added()).map((row) => [row.type, row.outcome, row.userId, row.provider, row.detail]))
        .toEqual(expected);
      for (const row of await added())
        expect(row).toMatchObject({ clientAddressPrefix: "2001:db8:abcd::/48", userAgentLabel: "Firefox on macOS" });

      const { rows: raw } = await client.query<Record<string, unknown>>(`SELECT * FROM "${client.branch}"."${AUDIT_EVENTS_TABLE}"`);
      const text = JSON.stringify(raw);
      expect(handled.length).toBeGreaterThan(20);
      for (const value of handled) {
        // A code of digits is looked for as a whole number (not inside a longer one, such as a timestamp).
        const found = /^\d+$/.test(value) ? new RegExp(`(?<!\\d)${value}(?!\\d)`).test(text) : text.includes(value);
        expect(found, value).toBe(false);
      }
      expect(text).not.toContain("2001:db8:abcd:12::1");
      expect(text).not.toContain("Mozilla");
    });
  });
}

let services: FlowServices;
beforeAll(async () => {
  services = await startFlowServices();
}, 120_000);
afterAll(async () => {
  await services?.close();
  await closeSharedPglite();
});

describe("on PGlite", () => {
  let pglite: PGlite;
  beforeAll(async () => {
    pglite = await PGlite.create();
  });
  afterAll(async () => {
    await pglite.close();
  });
  runFlows("hostedDbAuditStore", () => ({ pglite }));
});

const databaseURL = testDatabaseURL();
const postgresAvailable = await postgresAnswers(databaseURL, "the PostgreSQL audit store tests");

describe.skipIf(!postgresAvailable)(`on PostgreSQL at ${new URL(databaseURL).host}`, () => {
  let pool: pg.Pool;
  beforeAll(() => {
    pool = new pg.Pool({ connectionString: databaseURL, max: 4 });
  });
  afterAll(async () => {
    await pool.end();
  });
  runFlows("hostedDbAuditStore", () => ({ pool }));
});
