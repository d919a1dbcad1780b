/**
 * Issue 46's line: "a session satisfying A's SSO-only policy is refused by B". An SSO sign-in counts as
 * the `sso` method only in the organization whose connection it came through (`assurance.sso`), checked on
 * every request in that organization, on both session strategies and both ways round; a password session
 * meets neither organization's SSO-only policy.
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

describe.each(["jwt", "database"] as const)("SSO-only policies of two organizations (%s sessions)", (strategy) => {
  /** Organizations A and B, each with a connection and an SSO-only policy. */
  async function setUp() {
    const app = ssoApp(dns, { session: { strategy } });
    const owner = await app.signedUp("owner@owner.test");
    const a = await app.organizationWithDomain(owner, "acme", "acme.test");
    const b = await app.organizationWithDomain(owner, "globex", "globex.test");
    const connectionA = await app.auth.api.createSsoConnection(app.as(owner), oidcInput(a, "https://idp.acme.test"));
    const connectionB = await app.auth.api.createSsoConnection(app.as(owner), oidcInput(b, "https://idp.globex.test"));
    for (const organizationId of [a, b])
      await app.auth.api.updateOrganization(app.as(owner), { organizationId, policy: { allowedSignInMethods: ["sso"] } });
    return { app, owner, a, b, connectionA, connectionB };
  }

  /** A browser signed in through `connectionId`, its user also made a member of `alsoIn`. */
  async function signedInThrough(app: Awaited<ReturnType<typeof setUp>>["app"], connectionId: string, subject: string, alsoIn: string) {
    const browser = app.browser();
    await app.ssoSignInWith(browser, connectionId, { subject, email: `${subject}@nowhere.test` });
    const userId = (await app.sso.methods.getSsoIdentity(connectionId, subject))?.userId as string;
    await app.orgs.methods.createMember({ organizationId: alsoIn, userId, role: "member", createdAt: new Date() });
    return browser;
  }

  it("a session signed in through A's connection acts in A and is refused by B (OrganizationPolicy, signInMethod)", async () => {
    const { app, a, b, connectionA } = await setUp();
    const browser = await signedInThrough(app, connectionA.id, "ada", b);
    expect(await app.auth.api.hasPermission(app.as(browser), { organizationId: a, permission: "organization:read" })).toBe(true);
    await expect(app.auth.api.hasPermission(app.as(browser), { organizationId: b, permission: "organization:read" })).rejects.toMatchObject(
      {
        type: "OrganizationPolicy",
        missing: ["signInMethod"],
      },
    );
    await expect(app.auth.api.setActiveOrganization(app.as(browser), { organizationId: b })).rejects.toMatchObject({
      type: "OrganizationPolicy",
    });
  });

  it("and the other way round: through B's connection, B lets it act and A refuses it", async () => {
    const { app, a, b, connectionB } = await setUp();
    const browser = await signedInThrough(app, connectionB.id, "grace", a);
    expect(await app.auth.api.hasPermission(app.as(browser), { organizationId: b, permission: "organization:read" })).toBe(true);
    await expect(app.auth.api.hasPermission(app.as(browser), { organizationId: a, permission: "organization:read" })).rejects.toMatchObject(
      {
        type: "OrganizationPolicy",
        missing: ["signInMethod"],
      },
    );
  });

  it("a password session meets neither organization's SSO-only policy", async () => {
    const { app, owner, a, b } = await setUp();
    for (const organizationId of [a, b])
      await expect(app.auth.api.hasPermission(app.as(owner), { organizationId, permission: "organization:read" })).rejects.toMatchObject({
        type: "OrganizationPolicy",
      });
  });
});
