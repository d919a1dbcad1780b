/**
 * The admin methods of `HostedDbAdapter` (migration 10): core's admin store suite on one in-memory PGlite
 * and, when a server answers, on PostgreSQL; then what only the database shows: the ban goes with its user
 * (foreign key), `role` round-trips, and prune deletes the bans past their end.
 */
import { randomUUID } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdminStoreSuite } from "../../core/test/helpers/admin-store-suite.js";
import { type BaseClientOptions, HostedDbAdapter, HostedDbClient, pruneExpiredRows } from "../src/index.js";
import { dropBranch, postgresAnswers, randomBranch, testDatabaseURL } from "./helpers.js";

function runOnDatabase(name: string, connection: () => BaseClientOptions): void {
  const clients: HostedDbClient[] = [];
  afterAll(async () => {
    for (const client of clients.splice(0)) {
      await dropBranch(client, client.branch);
      await client.close();
    }
  });
  async function fresh(): Promise<HostedDbClient> {
    const client = new HostedDbClient({ ...connection(), branch: randomBranch("admin") });
    await client.migrate();
    clients.push(client);
    return client;
  }
  runAdminStoreSuite({ name: `HostedDbAdapter admin methods on ${name}`, store: async () => HostedDbAdapter(await fresh()) });

  describe(`the admin tables on ${name}`, () => {
    it("keep a user's role, delete a ban with its user, and prune ended bans", async () => {
      const client = await fresh();
      const adapter = HostedDbAdapter(client);
      const user = await adapter.createUser({ id: randomUUID(), email: "ops@example.com", emailVerified: null, role: "admin" } as never);
      expect(await adapter.getUser(user.id)).toMatchObject({ id: user.id, role: "admin" });
      await adapter.updateUser({ id: user.id, role: null } as never);
      expect(await adapter.getUser(user.id)).not.toHaveProperty("role");
      const other = await adapter.createUser({ id: randomUUID(), email: "other@example.com", emailVerified: null });
      expect(await adapter.getUser(other.id)).toEqual({
        id: other.id,
        email: "other@example.com",
        emailVerified: null,
        name: null,
        image: null,
      });
      await adapter.saveUserBan({
        userId: user.id,
        reason: null,
        bannedBy: null,
        createdAt: new Date(),
        expiresAt: new Date(Date.now() - 60_000),
      });
      await adapter.saveUserBan({ userId: other.id, reason: "x", bannedBy: user.id, createdAt: new Date(), expiresAt: null });
      expect((await pruneExpiredRows(client)).userBans).toBe(1);
      expect(await adapter.getUserBan(user.id)).toBeNull();
      await adapter.deleteUser(other.id);
      const { rows } = await client.query(`SELECT 1 FROM "${client.branch}"."authlib_user_bans"`);
      expect(rows).toEqual([]);
    });
  });
}

let pglite: PGlite;
beforeAll(async () => {
  pglite = await PGlite.create();
});
afterAll(async () => {
  await pglite?.close();
});
runOnDatabase("PGlite (in memory)", () => ({ pglite }));

const databaseURL = testDatabaseURL();
const available = await postgresAnswers(databaseURL, "the PostgreSQL admin tests");
describe.skipIf(!available)(`PostgreSQL at ${new URL(databaseURL).host}`, () => {
  let pool: pg.Pool;
  beforeAll(() => {
    pool = new pg.Pool({ connectionString: databaseURL, max: 4 });
  });
  afterAll(async () => {
    await pool?.end();
  });
  runOnDatabase("PostgreSQL", () => ({ pool }));
});
