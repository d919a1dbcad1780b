/**
 * Enterprise SSO's methods of `HostedDbAdapter` (migration 12): core's conformance suite (the standard the
 * in-memory methods meet too) on PGlite and, when a server answers, on PostgreSQL; then what only the
 * database shows: the tables' keys and foreign keys (a connection goes with its organization, an identity
 * with its connection and its user), and the whole feature over the database: no connection's secret is in
 * any column of any table of the branch in clear.
 */
import { randomUUID } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTxtServer, type TxtServer } from "../../core/test/helpers/dns-server.js";
import { newSsoConnection, runSsoStoreSuite } from "../../core/test/helpers/sso-store-suite.js";
import { oidcInput, ssoApp } from "../../core/test/sso/helpers.js";
import { type BaseClientOptions, HostedDbAdapter, HostedDbClient } from "../src/index.js";
import { dropBranch, postgresAnswers, randomBranch, testDatabaseURL } from "./helpers.js";

async function newUser(adapter: ReturnType<typeof HostedDbAdapter>): Promise<string> {
  return (await adapter.createUser({ id: randomUUID(), email: `${randomUUID()}@example.com`, emailVerified: null })).id;
}

async function newOrganization(adapter: ReturnType<typeof HostedDbAdapter>): Promise<string> {
  const slug = `org-${randomUUID().slice(0, 8)}`;
  return (await adapter.createOrganization({ name: slug, slug, policy: {}, domainJoin: "off", createdAt: new Date() })).id;
}

let dns: TxtServer;
beforeAll(async () => {
  dns = await startTxtServer();
});
afterAll(async () => {
  await dns?.close();
});

function runOnDatabase(name: string, connection: () => BaseClientOptions): void {
  let client: HostedDbClient;
  const adapter = () => HostedDbAdapter(client);
  runSsoStoreSuite({
    name: `HostedDbAdapter SSO on ${name}`,
    setup: async () => {
      client = new HostedDbClient({ ...connection(), branch: randomBranch("sso") });
      await client.migrate();
    },
    store: adapter,
    newUser: () => newUser(adapter()),
    newOrganization: () => newOrganization(adapter()),
    deleteUser: async (id) => {
      await adapter().deleteUser(id);
    },
    teardown: async () => {
      await dropBranch(client, client.branch);
      await client.close();
    },
  });

  describe(`the SSO tables on ${name}`, () => {
    let db: HostedDbClient;
    beforeAll(async () => {
      db = new HostedDbClient({ ...connection(), branch: randomBranch("sso_tables") });
      await db.migrate();
    });
    afterAll(async () => {
      await dropBranch(db, db.branch);
      await db.close();
    });

    it("have their keys and foreign keys: a connection goes with its organization, an identity with its connection and its user", async () => {
      const { rows } = await db.query<{ conname: string; definition: string }>(
        `SELECT conname, pg_get_constraintdef(c.oid) AS definition FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
         WHERE n.nspname = $1 AND conrelid::regclass::text LIKE '%authlib_sso_%' AND contype IN ('p', 'f') ORDER BY conname`,
        [db.branch],
      );
      expect(rows.map((row) => row.conname)).toEqual([
        "authlib_sso_connections_organization_id_fkey",
        "authlib_sso_connections_pkey",
        "authlib_sso_identities_connection_id_fkey",
        "authlib_sso_identities_pkey",
        "authlib_sso_identities_user_id_fkey",
      ]);
      for (const row of rows.filter((row) => row.conname.endsWith("_fkey"))) expect(row.definition).toContain("ON DELETE CASCADE");
      const adapter = HostedDbAdapter(db);
      const organizationId = await newOrganization(adapter);
      const made = newSsoConnection(organizationId);
      await adapter.createSsoConnection(made);
      await adapter.deleteOrganization(organizationId);
      expect(await adapter.getSsoConnection(made.id)).toBeNull();
    });

    it("an SSO sign-in over the database: the identity row, the membership; the next sign-in finds the same user", async () => {
      const app = ssoApp(dns, { session: { strategy: "database" } }, HostedDbAdapter(db));
      const owner = await app.signedUp(`owner-${randomUUID()}@owner.test`);
      const domain = `d${randomUUID().slice(0, 8)}.test`;
      const organizationId = await app.organizationWithDomain(owner, `acme-${randomUUID().slice(0, 8)}`, domain);
      const connection = await app.auth.api.createSsoConnection(app.as(owner), oidcInput(organizationId));
      const first = app.browser();
      await app.ssoSignInWith(first, connection.id, { subject: "00u-ada", email: `ada@${domain}` });
      expect(await first.session()).toMatchObject({ user: { email: `ada@${domain}` }, activeOrganizationId: organizationId });
      const identity = await HostedDbAdapter(db).getSsoIdentity(connection.id, "00u-ada");
      expect(await HostedDbAdapter(db).getMember(organizationId, identity?.userId as string)).toMatchObject({ role: "member" });
      const again = app.browser();
      await app.ssoSignInWith(again, connection.id, { subject: "00u-ada", email: `ada@${domain}` });
      expect((await HostedDbAdapter(db).getSsoIdentity(connection.id, "00u-ada"))?.userId).toBe(identity?.userId);
      expect((await again.session())?.sso).toEqual({ organizationId, connectionId: connection.id });
    }, 120_000);

    it("the feature over the database: no connection's client secret is in any column of any table in clear", async () => {
      const app = ssoApp(dns, {}, HostedDbAdapter(db));
      const owner = await app.signedUp(`owner-${randomUUID()}@owner.test`);
      const { organization } = await app.auth.api.createOrganization(app.as(owner), {
        name: "Acme",
        slug: `acme-${randomUUID().slice(0, 8)}`,
      });
      const made = await app.auth.api.createSsoConnection(app.as(owner), oidcInput(organization.id));
      await app.auth.api.updateSsoConnection(app.as(owner), { connectionId: made.id, oidc: { clientSecret: "the-rotated-secret-123456" } });
      const { rows: tables } = await db.query<{ table_name: string }>(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = $1",
        [db.branch],
      );
      let dump = "";
      for (const { table_name } of tables) dump += JSON.stringify((await db.query(`SELECT * FROM "${db.branch}"."${table_name}"`)).rows);
      expect(dump).toContain(made.id);
      expect(dump).not.toContain("client-secret-value-1234567890");
      expect(dump).not.toContain("the-rotated-secret-123456");
    }, 120_000);
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
const available = await postgresAnswers(databaseURL, "the PostgreSQL SSO tests");
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
