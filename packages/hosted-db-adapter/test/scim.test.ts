/**
 * SCIM provisioning's methods of `HostedDbAdapter` (migration 13): core's conformance suite (the standard the
 * in-memory methods meet too) on PGlite and, when a server answers, on PostgreSQL; then what only the
 * database shows: an organization's deletion takes its tokens and directory with it, a user's deletion
 * their entries, and the whole feature over the database keeps the token in no column of the branch.
 */
import { randomUUID } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newScimGroup, newScimToken, newScimUser, runScimStoreSuite } from "../../core/test/helpers/scim-store-suite.js";
import { type BaseClientOptions, HostedDbAdapter, HostedDbClient } from "../src/index.js";
import { dropBranch, postgresAnswers, randomBranch, testDatabaseURL } from "./helpers.js";

type Adapter = ReturnType<typeof HostedDbAdapter>;

async function newUser(adapter: Adapter): Promise<string> {
  return (await adapter.createUser({ id: randomUUID(), email: `${randomUUID()}@example.com`, emailVerified: null })).id;
}

async function newOrganization(adapter: Adapter): Promise<string> {
  const slug = `o-${randomUUID().slice(0, 8)}`;
  return (await adapter.createOrganization({ name: slug, slug, policy: {}, domainJoin: "off", createdAt: new Date() })).id;
}

function runOnDatabase(name: string, connection: () => BaseClientOptions): void {
  let client: HostedDbClient;
  const adapter = () => HostedDbAdapter(client);
  runScimStoreSuite({
    name: `HostedDbAdapter SCIM directory on ${name}`,
    setup: async () => {
      client = new HostedDbClient({ ...connection(), branch: randomBranch("scim") });
      await client.migrate();
    },
    store: adapter,
    newUser: () => newUser(adapter()),
    newOrganization: () => newOrganization(adapter()),
    teardown: async () => {
      await dropBranch(client, client.branch);
      await client.close();
    },
  });

  describe(`the SCIM tables on ${name}`, () => {
    let db: HostedDbClient;
    beforeAll(async () => {
      db = new HostedDbClient({ ...connection(), branch: randomBranch("scim_tables") });
      await db.migrate();
    });
    afterAll(async () => {
      await dropBranch(db, db.branch);
      await db.close();
    });

    it("an organization's deletion deletes its tokens, users, groups and members; a user's deletion their entries", async () => {
      const store = HostedDbAdapter(db);
      const org = await newOrganization(store);
      const kept = await newOrganization(store);
      const userId = await newUser(store);
      const token = newScimToken(org);
      const user = newScimUser(org, userId);
      const group = newScimGroup(org);
      await store.createScimToken(token);
      await store.createScimUser(user);
      await store.createScimGroup(group);
      await store.setScimGroupMembers(org, group.id, [user.id]);
      const keptUser = newScimUser(kept, userId);
      await store.createScimUser(keptUser);
      await store.deleteOrganization(org);
      expect(await store.getScimToken(token.id)).toBeNull();
      expect(await store.getScimUser(org, user.id)).toBeNull();
      expect(await store.getScimGroup(org, group.id)).toBeNull();
      const { rows } = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM "${db.branch}"."authlib_scim_group_members" WHERE "organization_id" = $1`,
        [org],
      );
      expect(rows[0]?.n).toBe(0);
      expect(await store.getScimUser(kept, keptUser.id)).not.toBeNull();
      await store.deleteUser(userId);
      expect(await store.getScimUser(kept, keptUser.id)).toBeNull();
    });

    it("has the unique indexes that keep a live userName and a group's name one per organization", async () => {
      const { rows } = await db.query<{ indexname: string; indexdef: string }>(
        `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = $1 AND tablename IN ('authlib_scim_users', 'authlib_scim_groups') ORDER BY indexname`,
        [db.branch],
      );
      const unique = rows.filter((row) => row.indexdef.startsWith("CREATE UNIQUE INDEX") && !row.indexname.endsWith("_pkey"));
      expect(unique.map((row) => row.indexname)).toEqual(["authlib_scim_groups_display_name_idx", "authlib_scim_users_user_name_idx"]);
      expect(unique.find((row) => row.indexname === "authlib_scim_users_user_name_idx")?.indexdef).toContain("WHERE (deleted_at IS NULL)");
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
const available = await postgresAnswers(databaseURL, "the PostgreSQL SCIM tests");
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
