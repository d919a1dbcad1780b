/**
 * Bounded state in the hosted database, run on every driver: a verification token is written only when
 * no live one has the same key (how authlib claims a used passkey challenge once), every token write
 * sweeps a bounded number of expired tokens, and `pruneExpiredRows` (what `authlib db prune` runs)
 * deletes every expired row and nothing live.
 */
import { afterAll, describe, expect, it } from "vitest";
import {
  type BaseClientOptions,
  HostedDbAdapter,
  HostedDbClient,
  hostedDbSessionStore,
  pruneExpiredRows,
  RATE_LIMIT_TABLE,
  SESSION_RECORDS_TABLE,
} from "../src/index.js";
import { SWEEP_PER_WRITE } from "../src/verification-tokens.js";
import { dropBranch, randomBranch } from "./helpers.js";

/** Inputs of `runExpirySuite`. */
export interface ExpirySuiteOptions {
  name: string;
  /** Options that point a client at the shared database (`{ pglite }` or `{ pool }`), read when a test runs. */
  connection: () => BaseClientOptions;
}

const HOUR = 60 * 60 * 1000;
const USED_CHALLENGE = "authlib:webauthn-used-challenge";

export function runExpirySuite(options: ExpirySuiteOptions): void {
  describe(options.name, () => {
    const clients: HostedDbClient[] = [];

    async function migratedClient(): Promise<HostedDbClient> {
      const client = new HostedDbClient({ ...options.connection(), branch: randomBranch("expiry") });
      clients.push(client);
      await client.migrate();
      return client;
    }

    afterAll(async () => {
      for (const client of clients) {
        await dropBranch(client, client.branch);
        await client.close();
      }
    });

    /** Inserts `count` tokens of `identifier` that expired an hour ago, bypassing the adapter (which would sweep them). */
    async function insertExpiredTokens(client: HostedDbClient, identifier: string, count: number): Promise<void> {
      await client.query(
        `INSERT INTO ${client.db.authlib_verificationTokens.sqlName} ("identifier", "token", "expires")
         SELECT $1, md5($1 || i::text), now() - interval '1 hour' FROM generate_series(1, $2::int) AS i`,
        [identifier, count],
      );
    }

    async function tokenCounts(client: HostedDbClient): Promise<{ expired: number; live: number }> {
      const { rows } = await client.query<{ expired: number; live: number }>(
        `SELECT count(*) FILTER (WHERE "expires" <= now())::int AS expired, count(*) FILTER (WHERE "expires" > now())::int AS live
         FROM ${client.db.authlib_verificationTokens.sqlName}`,
      );
      return { expired: Number(rows[0]?.expired), live: Number(rows[0]?.live) };
    }

    describe("createVerificationToken", () => {
      it("writes nothing and returns null while a live token has the same identifier and token; replaces an expired one", async () => {
        const client = await migratedClient();
        const adapter = HostedDbAdapter(client);
        const first = { identifier: USED_CHALLENGE, token: "a".repeat(64), expires: new Date(Date.now() + HOUR) };
        expect(await adapter.createVerificationToken(first)).toEqual(first);
        const again = { ...first, expires: new Date(Date.now() + 2 * HOUR) };
        expect(await adapter.createVerificationToken(again)).toBeNull();
        expect(await client.db.authlib_verificationTokens.filter({ identifier: USED_CHALLENGE })).toEqual([
          expect.objectContaining({ token: first.token, expires: first.expires }),
        ]);
        // The same token under another identifier is another key.
        expect(await adapter.createVerificationToken({ ...first, identifier: "ada@example.com" })).not.toBeNull();

        const stale = { identifier: USED_CHALLENGE, token: "b".repeat(64), expires: new Date(Date.now() - HOUR) };
        await adapter.createVerificationToken(stale);
        const renewed = { ...stale, expires: new Date(Date.now() + HOUR) };
        expect(await adapter.createVerificationToken(renewed)).toEqual(renewed);
        expect(await adapter.useVerificationToken(renewed)).toEqual(renewed);
      });

      it("of 8 concurrent writes of the same token, exactly one is written", async () => {
        const client = await migratedClient();
        const adapter = HostedDbAdapter(client);
        const token = { identifier: USED_CHALLENGE, token: "c".repeat(64), expires: new Date(Date.now() + HOUR) };
        const results = await Promise.all(Array.from({ length: 8 }, () => adapter.createVerificationToken(token)));
        expect(results.filter((result) => result !== null)).toEqual([token]);
        expect(await client.db.authlib_verificationTokens.filter({ identifier: USED_CHALLENGE })).toHaveLength(1);
      });

      it(`each write deletes up to ${SWEEP_PER_WRITE} expired tokens (sign-in links and used challenges), never a live one`, async () => {
        const client = await migratedClient();
        const adapter = HostedDbAdapter(client);
        await insertExpiredTokens(client, "ada@example.com", 25);
        await insertExpiredTokens(client, USED_CHALLENGE, 15);
        const live = { identifier: "bob@example.com", token: "d".repeat(64), expires: new Date(Date.now() + HOUR) };
        expect(await adapter.createVerificationToken(live)).toEqual(live);
        expect(await tokenCounts(client)).toEqual({ expired: 40 - SWEEP_PER_WRITE, live: 1 });

        for (let i = 0; i < 2; i++) {
          await adapter.createVerificationToken({
            identifier: USED_CHALLENGE,
            token: `${i}`.repeat(64),
            expires: new Date(Date.now() + HOUR),
          });
        }
        expect(await tokenCounts(client)).toEqual({ expired: 0, live: 3 });
        expect(await adapter.useVerificationToken(live)).toEqual(live);
      });

      it("finds expired tokens through the expires index (migration 3)", async () => {
        const client = await migratedClient();
        const { rows } = await client.query<{ indexdef: string }>(
          "SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND indexname = 'authlib_verificationTokens_expires_idx'",
          [client.branch],
        );
        expect(rows.map((row) => row.indexdef)).toEqual([expect.stringMatching(/USING btree \("?expires"?\)$/)]);
      });
    });

    describe("pruneExpiredRows", () => {
      it("deletes expired tokens, expired sessions (with their join rows), expired JWT session records and ended rate-limit windows, in batches; nothing live", async () => {
        const client = await migratedClient();
        const adapter = HostedDbAdapter(client);
        await insertExpiredTokens(client, "ada@example.com", 12);
        await insertExpiredTokens(client, USED_CHALLENGE, 13);
        const live = { identifier: "ada@example.com", token: "e".repeat(64), expires: new Date(Date.now() + HOUR) };
        await client.db.authlib_verificationTokens.create(live);

        const user = await adapter.createUser({ id: "", email: "ada@example.com", emailVerified: null });
        for (let i = 0; i < 3; i++) {
          await adapter.createSession({ sessionToken: `old-${i}`, userId: user.id, expires: new Date(Date.now() - HOUR) });
        }
        await adapter.createSession({ sessionToken: "current", userId: user.id, expires: new Date(Date.now() + HOUR) });

        // JWT sessions' records, of a user who is not in authlib_users (a credentials user).
        const records = hostedDbSessionStore(client);
        const record = (id: string, expires: Date) => ({
          id,
          userId: "credentials-user",
          createdAt: new Date(Date.now() - 2 * HOUR),
          lastSeenAt: new Date(Date.now() - HOUR),
          expires,
          userAgent: null,
          clientAddress: null,
          provider: "credentials",
        });
        for (let i = 0; i < 9; i++) await records.create(record(`ended-${i}`, new Date(Date.now() - HOUR)));
        await records.create(record("live-record", new Date(Date.now() + HOUR)));

        const windows = `"${client.branch}"."${RATE_LIMIT_TABLE}"`;
        await client.query(
          `INSERT INTO ${windows} ("key", "count", "reset_at") VALUES
           ('ended-1', 3, now() - interval '1 minute'), ('ended-2', 1, now() - interval '1 hour'), ('running', 2, now() + interval '1 minute')`,
        );

        expect(await pruneExpiredRows(client, { batchSize: 7 })).toEqual({
          verificationTokens: 25,
          sessions: 3,
          sessionRecords: 9,
          rateLimitWindows: 2,
          oauthAuthorizationCodes: 0,
          oauthDeviceCodes: 0,
          oauthGrants: 0,
          oauthSigningKeys: 0,
          apiKeys: 0,
          userBans: 0,
        });
        expect(await tokenCounts(client)).toEqual({ expired: 0, live: 1 });
        expect((await client.db.authlib_sessions.filter()).map((s) => s.sessionToken)).toEqual(["current"]);
        expect(await client.db.authlib_users_sessions.filter()).toHaveLength(1);
        expect((await client.query<{ key: string }>(`SELECT "key" FROM ${windows}`)).rows).toEqual([{ key: "running" }]);
        expect(await adapter.getSessionAndUser("current")).not.toBeNull();
        const left = await client.query<{ id: string }>(`SELECT "id" FROM "${client.branch}"."${SESSION_RECORDS_TABLE}"`);
        expect(left.rows).toEqual([{ id: "live-record" }]);
        expect(await records.get("credentials-user", "live-record")).not.toBeNull();

        expect(await pruneExpiredRows(client)).toEqual({
          verificationTokens: 0,
          sessions: 0,
          sessionRecords: 0,
          rateLimitWindows: 0,
          oauthAuthorizationCodes: 0,
          oauthDeviceCodes: 0,
          oauthGrants: 0,
          oauthSigningKeys: 0,
          apiKeys: 0,
          userBans: 0,
        });
      });

      it("refuses a batch size that is not a whole number >= 1", async () => {
        const client = await migratedClient();
        for (const batchSize of [0, 2.5, Number.NaN]) await expect(pruneExpiredRows(client, { batchSize })).rejects.toThrow(RangeError);
      });
    });
  });
}
