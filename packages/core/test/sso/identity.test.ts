/**
 * Who an SSO sign-in is (`features/sso/identity.ts`), on both session strategies: a first sign-in makes
 * the user and their membership (the default role, or the one their group maps to); the next one finds
 * them; the same subject at another connection is another identity; the address is proven only on a
 * domain the connection's organization has proven, so an unproven one neither links to an account of that
 * address nor is stored; the session carries `amr: ["sso"]` and its connection, and acts in the
 * organization from its start.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTxtServer, type TxtServer } from "../helpers/dns-server.js";
import { oidcInput, ssoApp } from "./helpers.js";

let dns: TxtServer;
beforeAll(async () => {
  dns = await startTxtServer();
});
afterAll(async () => {
  await dns?.close();
});

describe.each(["jwt", "database"] as const)("an SSO sign-in (%s sessions)", (strategy) => {
  /** An app with organization A (acme.test proven) and its OIDC connection. */
  async function setUp(connectionOver: Record<string, unknown> = {}) {
    const app = ssoApp(dns, { session: { strategy } });
    const owner = await app.signedUp("owner@owner.test");
    const organizationId = await app.organizationWithDomain(owner, "acme", "acme.test");
    const connection = await app.auth.api.createSsoConnection(app.as(owner), oidcInput(organizationId, undefined, connectionOver));
    return { app, owner, organizationId, connection };
  }

  it("a first sign-in makes the user (the address proven on the proven domain) and a member with the default role, signed in with amr sso", async () => {
    const { app, organizationId, connection } = await setUp();
    const ada = app.browser();
    const response = await app.ssoSignInWith(ada, connection.id, { subject: "00u-ada", email: "Ada@ACME.test", name: "Ada" });
    expect(response.status).toBe(302);
    const session = await ada.session();
    expect(session).toMatchObject({
      user: { email: "ada@acme.test", name: "Ada" },
      sso: { organizationId, connectionId: connection.id },
      activeOrganizationId: organizationId,
      activeOrganizationRole: "member",
    });
    const user = await app.store.getUserByEmail?.("ada@acme.test");
    expect(user?.emailVerified).toBeInstanceOf(Date);
    expect(await app.orgs.methods.getMember(organizationId, user?.id as string)).toMatchObject({ role: "member" });
    expect(app.sso.identities.size).toBe(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(app.audit.find((row) => row.type === "ssoSignIn")).toMatchObject({
      userId: user?.id,
      detail: `organization=${organizationId} connection=${connection.id}`,
    });
  });

  it("a user the organization's directory (SCIM) deprovisioned is refused, though the identity provider still vouches for them", async () => {
    const { app, organizationId, connection } = await setUp();
    await app.ssoSignInWith(app.browser(), connection.id, { subject: "00u-ada", email: "ada@acme.test" });
    const user = await app.store.getUserByEmail?.("ada@acme.test");
    const now = new Date();
    await app.scim.methods.createScimUser({
      id: "scim-ada",
      organizationId,
      userId: user?.id as string,
      externalId: null,
      userName: "ada@acme.test",
      active: false,
      resource: {},
      version: 1,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
    });
    const again = app.browser();
    const refused = await app.ssoSignInWith(again, connection.id, { subject: "00u-ada", email: "ada@acme.test" });
    expect(refused.headers.get("location")).toContain("error=SsoSignInFailed");
    expect(await again.session()).toBeNull();
    await new Promise((resolve) => setImmediate(resolve));
    expect(app.audit.some((row) => row.type === "ssoSignInFailed" && row.detail?.endsWith("reason=deprovisioned"))).toBe(true);
  });

  it("the role is the one the user's first mapped group gives", async () => {
    const { app, organizationId, connection } = await setUp({ groupRoles: { Engineering: "admin" } });
    const grace = app.browser();
    await app.ssoSignInWith(grace, connection.id, { subject: "00u-grace", email: "grace@acme.test", groups: ["Everyone", "Engineering"] });
    expect(await grace.session()).toMatchObject({ activeOrganizationId: organizationId, activeOrganizationRole: "admin" });
  });

  it("the next sign-in of the same subject is the same user, whatever address it carries now", async () => {
    const { app, connection } = await setUp();
    const first = app.browser();
    await app.ssoSignInWith(first, connection.id, { subject: "00u-ada", email: "ada@acme.test" });
    const again = app.browser();
    await app.ssoSignInWith(again, connection.id, { subject: "00u-ada", email: "ada.lovelace@acme.test" });
    expect((await again.session())?.user?.email).toBe("ada@acme.test");
    expect(app.memory.users.size).toBe(2); // the owner and Ada
  });

  it("the same subject at another organization's connection is another identity, and another user", async () => {
    const { app, owner, connection } = await setUp();
    const otherOrganization = await app.organizationWithDomain(owner, "globex", "globex.test");
    const other = await app.auth.api.createSsoConnection(app.as(owner), oidcInput(otherOrganization, "https://idp.example.com"));
    const atA = app.browser();
    await app.ssoSignInWith(atA, connection.id, { subject: "shared-subject" });
    const atB = app.browser();
    await app.ssoSignInWith(atB, other.id, { subject: "shared-subject" });
    const [a, b] = [await atA.session(), await atB.session()];
    const userOf = async (connectionId: string) => (await app.sso.methods.getSsoIdentity(connectionId, "shared-subject"))?.userId;
    expect(await userOf(connection.id)).not.toBe(await userOf(other.id));
    expect(a?.activeOrganizationId).not.toBe(b?.activeOrganizationId);
    expect(await app.orgs.methods.getMember(otherOrganization, (await userOf(connection.id)) as string)).toBeNull();
  });

  it("a proven address of an existing user, on the organization's proven domain, signs in that user and makes them a member", async () => {
    const { app, organizationId, connection } = await setUp();
    const existing = await app.signedUp("linus@acme.test");
    const viaSso = app.browser();
    await app.ssoSignInWith(viaSso, connection.id, { subject: "00u-linus", email: "linus@acme.test" });
    expect(await app.sso.methods.getSsoIdentity(connection.id, "00u-linus")).toMatchObject({ userId: existing.userId });
    expect(await app.orgs.methods.getMember(organizationId, existing.userId)).toMatchObject({ role: "member" });
  });

  it("an address on a domain the organization has not proven is not stored and links to no account of that address", async () => {
    const { app, organizationId, connection, owner } = await setUp();
    const victim = await app.signedUp("victim@elsewhere.test");
    // Claimed by the organization, but never proven.
    await app.auth.api.addDomain(app.as(owner), { organizationId, domain: "claimed.test" });
    for (const email of ["victim@elsewhere.test", "someone@claimed.test"]) {
      const attacker = app.browser();
      await app.ssoSignInWith(attacker, connection.id, { subject: `subject-${email}`, email, name: "Mallory" });
      const identity = await app.sso.methods.getSsoIdentity(connection.id, `subject-${email}`);
      expect(identity?.userId).not.toBe(victim.userId);
      const user = await app.store.getUser?.(identity?.userId as string);
      expect(user).toMatchObject({ email: null, emailVerified: null, name: "Mallory" });
      expect((await attacker.session())?.user?.email ?? null).toBeNull();
    }
    expect(await app.store.getUserByEmail?.("victim@elsewhere.test")).toMatchObject({ id: victim.userId });
    expect(await app.orgs.methods.getMember(organizationId, victim.userId)).toBeNull();
  });

  it("a domain proven by another organization proves nothing for this organization's connection", async () => {
    const { app, owner, connection } = await setUp();
    await app.organizationWithDomain(owner, "globex", "globex.test");
    const globexUser = await app.signedUp("ceo@globex.test");
    const attacker = app.browser();
    await app.ssoSignInWith(attacker, connection.id, { subject: "mallory", email: "ceo@globex.test" });
    const identity = await app.sso.methods.getSsoIdentity(connection.id, "mallory");
    expect(identity?.userId).not.toBe(globexUser.userId);
    expect(await app.store.getUser?.(identity?.userId as string)).toMatchObject({ email: null });
  });

  it("an answer without a usable subject is refused (SsoSignInFailed) and audited with its reason, nothing stored", async () => {
    const { app, connection } = await setUp();
    const browser = app.browser();
    const response = await app.ssoSignInWith(browser, connection.id, { subject: "", email: "ada@acme.test" });
    expect(response.headers.get("location")).toContain("error=SsoSignInFailed");
    expect(await browser.session()).toBeNull();
    expect(app.sso.identities.size).toBe(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(app.audit.find((row) => row.type === "ssoSignInFailed")).toMatchObject({
      outcome: "failure",
      detail: `organization=${connection.organizationId} connection=${connection.id} reason=noSubject`,
    });
  });
});
