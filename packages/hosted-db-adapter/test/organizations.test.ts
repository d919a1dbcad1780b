/**
 * The organization methods of `HostedDbAdapter` (migration 7): core's organization store conformance suite
 * (the standard the in-memory methods are held to as well) on one in-memory PGlite and, when a server
 * answers, on PostgreSQL; then what only the database shows: the constraints and indexes of the tables, and
 * a stored row that breaks the contract is reported rather than handed on.
 */
import { randomUUID } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runOrganizationStoreSuite } from "../../core/test/helpers/organization-store-suite.js";
import { type BaseClientOptions, HostedDbAdapter, HostedDbClient } from "../src/index.js";
import { dropBranch, postgresAnswers, randomBranch, testDatabaseURL } from "./helpers.js";

function runOnDatabase(name: string, connection: () => BaseClientOptions): void {
  let client: HostedDbClient;
  const adapter = () => HostedDbAdapter(client);
  runOrganizationStoreSuite({
    name: `HostedDbAdapter organizations on ${name}`,
    setup: async () => {
      client = new HostedDbClient({ ...connection(), branch: randomBranch("orgs") });
      await client.migrate();
    },
    store: adapter,
    newUser: async () => (await adapter().createUser({ id: randomUUID(), email: `${randomUUID()}@example.com`, emailVerified: null })).id,
    deleteUser: async (id) => {
      await adapter().deleteUser(id);
    },
    teardown: async () => {
      await dropBranch(client, client.branch);
      await client.close();
    },
  });

  describe(`the organization tables on ${name}`, () => {
    let db: HostedDbClient;
    beforeAll(async () => {
      db = new HostedDbClient({ ...connection(), branch: randomBranch("orgs_tables") });
      await db.migrate();
    });
    afterAll(async () => {
      await dropBranch(db, db.branch);
      await db.close();
    });

    it("have their constraints and indexes", async () => {
      const { rows: constraints } = await db.query<{ conname: string }>(
        `SELECT conname FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
         WHERE n.nspname = $1 AND conrelid::regclass::text LIKE '%authlib_%' AND contype IN ('u', 'f') ORDER BY conname`,
        [db.branch],
      );
      expect(constraints.map((row) => row.conname)).toEqual(
        expect.arrayContaining([
          "authlib_organizations_slug_key",
          "authlib_members_organization_id_user_id_key",
          "authlib_members_organization_id_fkey",
          "authlib_members_user_id_fkey",
          "authlib_invitations_organization_id_fkey",
          "authlib_domains_organization_id_fkey",
        ]),
      );
      const { rows: indexes } = await db.query<{ indexname: string }>("SELECT indexname FROM pg_indexes WHERE schemaname = $1", [
        db.branch,
      ]);
      expect(indexes.map((row) => row.indexname)).toEqual(
        expect.arrayContaining(["authlib_members_user_id_idx", "authlib_invitations_organization_id_idx", "authlib_domains_name_idx"]),
      );
    });

    it("refuse a membership of a user who is not stored, and a domain join or status outside the contract", async () => {
      const adapter = HostedDbAdapter(db);
      const acme = await adapter.createOrganization({ name: "Acme", slug: "acme", policy: {}, domainJoin: "off", createdAt: new Date() });
      await expect(
        adapter.createMember({ organizationId: acme.id, userId: randomUUID(), role: "owner", createdAt: new Date() }),
      ).rejects.toThrow();
      await expect(
        db.query(`UPDATE "${db.branch}"."authlib_organizations" SET "domain_join" = 'always' WHERE "id" = $1`, [acme.id]),
      ).rejects.toThrow();
      expect(await adapter.getOrganization(acme.id)).toMatchObject({ domainJoin: "off" });
    });

    it("keep the policy as jsonb that SQL can query", async () => {
      const adapter = HostedDbAdapter(db);
      const policy = { requireSecondFactor: true, allowedSignInMethods: ["passkey" as const] };
      const org = await adapter.createOrganization({ name: "Strict", slug: "strict", policy, domainJoin: "auto", createdAt: new Date() });
      const { rows } = await db.query<{ methods: unknown }>(
        `SELECT "policy" -> 'allowedSignInMethods' AS methods FROM "${db.branch}"."authlib_organizations" WHERE "id" = $1`,
        [org.id],
      );
      expect(rows).toEqual([{ methods: ["passkey"] }]);
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
const available = await postgresAnswers(databaseURL, "the PostgreSQL organization tests");
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
