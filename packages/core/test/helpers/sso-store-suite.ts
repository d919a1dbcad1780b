/**
 * The conformance suite of enterprise SSO's adapter methods (`SsoAdapterMethods`), as vitest tests: one
 * standard for every store, run on the in-memory methods (test/sso/store.test.ts) and on the hosted-db
 * adapter on PGlite and PostgreSQL (packages/hosted-db-adapter/test/sso.test.ts).
 *
 * The rules: every field of a connection round-trips (absent parts stay absent, dates to the millisecond);
 * a taken id throws; "not found" is `null`; an organization's connections are listed oldest first and no
 * other's; an update replaces the changeable fields; one identity per connection and subject (a second
 * throws, the first stays), the same subject at another connection is another identity; deleting a
 * connection deletes its identities; deleting a user (when the suite can) deletes theirs. Every test makes
 * its own rows with fresh ids, so the tests may share one store.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SsoAdapterMethods, SsoConnection } from "../../src/types/sso.js";

type Awaitable<T> = T | PromiseLike<T>;
type Store = Required<SsoAdapterMethods>;

/** Inputs of {@link runSsoStoreSuite}. */
export interface SsoStoreSuiteOptions {
  name: string;
  store: () => Store;
  /** A user the store can hold identities of: its id. */
  newUser: () => Awaitable<string>;
  /** An organization the store can hold connections of (a database checks the foreign key): its id. */
  newOrganization: () => Awaitable<string>;
  /** Deletes a user through the adapter; when given, the suite checks that their identities go with them. */
  deleteUser?: (id: string) => Awaitable<void>;
  setup?: () => Awaitable<void>;
  teardown?: () => Awaitable<void>;
}

/** A connection of `organizationId` with fresh ids, fields overridden by `over`. */
export function newSsoConnection(organizationId: string, over: Partial<SsoConnection> = {}): SsoConnection {
  const created = new Date(Date.now() - 5_000 + Math.floor(Math.random() * 1000));
  return {
    id: randomUUID(),
    organizationId,
    protocol: "oidc",
    name: "Okta ✓",
    defaultRole: "member",
    attributeMapping: { email: "email", groups: "groups" },
    ssoRequired: false,
    oidc: { issuer: "https://idp.example.com/oauth2", clientId: "client", clientSecret: "eyJhbGciOiJkaXIi.sealed" },
    createdAt: created,
    updatedAt: created,
    ...over,
  };
}

/** The SAML part of a connection, as core stores it (the key already encrypted). */
const samlPart = {
  idpEntityId: "https://adfs.example.com/adfs/services/trust",
  idpSsoUrl: "https://adfs.example.com/adfs/ls",
  idpCertificates: ["MIIC-old", "MIIC-new"],
  signatureOn: "both" as const,
  allowIdpInitiated: false,
  spPrivateKey: "eyJhbGciOiJkaXIi.sealed-key",
  spCertificate: "-----BEGIN CERTIFICATE-----\nMIIC\n-----END CERTIFICATE-----\n",
};

/** Runs the suite. */
export function runSsoStoreSuite(options: SsoStoreSuiteOptions): void {
  describe(options.name, () => {
    beforeAll(async () => void (await options.setup?.()), 60_000);
    afterAll(async () => void (await options.teardown?.()), 60_000);
    const store = () => options.store();

    it("round-trips every field of OIDC and SAML connections (absent parts stay absent); an unknown id is null", async () => {
      const organizationId = await options.newOrganization();
      const oidc = newSsoConnection(organizationId);
      const saml = newSsoConnection(organizationId, {
        protocol: "saml",
        oidc: undefined,
        saml: samlPart,
        groupRoles: { Engineering: "admin", "Sales & Co": "member" },
        ssoRequired: true,
      });
      delete saml.oidc;
      expect(await store().createSsoConnection(oidc)).toEqual(oidc);
      expect(await store().createSsoConnection(saml)).toEqual(saml);
      const [gotOidc, gotSaml] = [await store().getSsoConnection(oidc.id), await store().getSsoConnection(saml.id)];
      expect(gotOidc).toEqual(oidc);
      expect(gotSaml).toEqual(saml);
      expect(gotOidc && "saml" in gotOidc).toBe(false);
      expect(gotOidc && "groupRoles" in gotOidc).toBe(false);
      expect(await store().getSsoConnection(randomUUID())).toBeNull();
    });

    it("refuses a second connection with a taken id", async () => {
      const organizationId = await options.newOrganization();
      const connection = newSsoConnection(organizationId);
      await store().createSsoConnection(connection);
      await expect(Promise.resolve().then(() => store().createSsoConnection({ ...connection, name: "Other" }))).rejects.toThrow();
      expect((await store().getSsoConnection(connection.id))?.name).toBe(connection.name);
    });

    it("lists one organization's connections, oldest first", async () => {
      const [acme, globex] = [await options.newOrganization(), await options.newOrganization()];
      const t = Date.now() - 10_000;
      const second = newSsoConnection(acme, { createdAt: new Date(t + 1000) });
      const first = newSsoConnection(acme, { createdAt: new Date(t) });
      const other = newSsoConnection(globex);
      for (const connection of [second, other, first]) await store().createSsoConnection(connection);
      expect((await store().listSsoConnections(acme)).map((connection) => connection.id)).toEqual([first.id, second.id]);
      expect(await store().listSsoConnections(`org-${randomUUID()}`)).toEqual([]);
    });

    it("an update replaces the changeable fields and answers the connection as stored", async () => {
      const organizationId = await options.newOrganization();
      const connection = newSsoConnection(organizationId, { groupRoles: { Staff: "admin" } });
      await store().createSsoConnection(connection);
      const changed: SsoConnection = {
        ...connection,
        name: "Okta (EU)",
        defaultRole: "admin",
        attributeMapping: { email: "mail" },
        ssoRequired: true,
        oidc: { issuer: "https://eu.idp.example.com", clientId: "client-2", clientSecret: "eyJ.other" },
        updatedAt: new Date(connection.updatedAt.getTime() + 60_000),
      };
      delete changed.groupRoles;
      expect(await store().updateSsoConnection(changed)).toEqual(changed);
      expect(await store().getSsoConnection(connection.id)).toEqual(changed);
    });

    it("keeps one identity per connection and subject; the same subject at another connection is another identity", async () => {
      const organizationId = await options.newOrganization();
      const [a, b] = [newSsoConnection(organizationId), newSsoConnection(organizationId)];
      for (const connection of [a, b]) await store().createSsoConnection(connection);
      const [ada, bob] = [await options.newUser(), await options.newUser()];
      const identity = { connectionId: a.id, subject: "00u-ADA ✓", userId: ada, createdAt: new Date(Date.now() - 1234) };
      expect(await store().createSsoIdentity(identity)).toEqual(identity);
      await expect(Promise.resolve().then(() => store().createSsoIdentity({ ...identity, userId: bob }))).rejects.toThrow();
      expect(await store().getSsoIdentity(a.id, "00u-ADA ✓")).toEqual(identity);
      // Subjects are compared exactly: another case is another subject.
      expect(await store().getSsoIdentity(a.id, "00u-ada ✓")).toBeNull();
      expect(await store().getSsoIdentity(b.id, "00u-ADA ✓")).toBeNull();
      const atB = { connectionId: b.id, subject: "00u-ADA ✓", userId: bob, createdAt: new Date() };
      await store().createSsoIdentity(atB);
      expect((await store().getSsoIdentity(b.id, "00u-ADA ✓"))?.userId).toBe(bob);
      expect((await store().getSsoIdentity(a.id, "00u-ADA ✓"))?.userId).toBe(ada);
    });

    it("deleting a connection deletes its identities and nothing else", async () => {
      const organizationId = await options.newOrganization();
      const [gone, kept] = [newSsoConnection(organizationId), newSsoConnection(organizationId)];
      for (const connection of [gone, kept]) await store().createSsoConnection(connection);
      const userId = await options.newUser();
      await store().createSsoIdentity({ connectionId: gone.id, subject: "s", userId, createdAt: new Date() });
      await store().createSsoIdentity({ connectionId: kept.id, subject: "s", userId, createdAt: new Date() });
      await store().deleteSsoConnection(gone.id);
      expect(await store().getSsoConnection(gone.id)).toBeNull();
      expect(await store().getSsoIdentity(gone.id, "s")).toBeNull();
      expect(await store().getSsoIdentity(kept.id, "s")).not.toBeNull();
      await store().deleteSsoConnection(randomUUID());
    });

    it.skipIf(!options.deleteUser)("deleting a user deletes their identities", async () => {
      const organizationId = await options.newOrganization();
      const connection = newSsoConnection(organizationId);
      await store().createSsoConnection(connection);
      const userId = await options.newUser();
      await store().createSsoIdentity({ connectionId: connection.id, subject: "leaver", userId, createdAt: new Date() });
      await options.deleteUser?.(userId);
      expect(await store().getSsoIdentity(connection.id, "leaver")).toBeNull();
      expect(await store().getSsoConnection(connection.id)).not.toBeNull();
    });
  });
}
