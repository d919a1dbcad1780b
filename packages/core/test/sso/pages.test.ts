/**
 * The organization page's SSO section: shown to a member whose role grants `sso:manage` (not to a plain
 * member), listing the connections with what the customer's IT admin registers at their identity provider
 * (an OIDC connection's redirect URI, a SAML connection's service provider certificate) and never a secret;
 * its form adds an OIDC connection and comes back with a notice, or with the refusal's message.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTxtServer, type TxtServer } from "../helpers/dns-server.js";
import { ORIGIN, post, ssoApp } from "./helpers.js";

let dns: TxtServer;
beforeAll(async () => {
  dns = await startTxtServer();
});
afterAll(async () => {
  await dns?.close();
});

const CERTIFICATE = `-----BEGIN CERTIFICATE-----\n${"MIIC".padEnd(400, "A")}\n-----END CERTIFICATE-----`;

describe("the organization page's SSO section", () => {
  it("an owner adds an OIDC connection with the page's form; the section lists it with its redirect URI and no secret", async () => {
    const app = ssoApp(dns);
    const owner = await app.signedUp("owner@owner.test");
    const organizationId = await app.organizationWithDomain(owner, "acme", undefined);
    const pageUrl = `/auth/organization?organizationId=${organizationId}`;
    expect(await (await owner.send(pageUrl)).text()).toContain("This organization has no SSO connection yet.");

    const added = await post(owner, `/auth/sso/form-create?organizationId=${organizationId}`, {
      name: "Okta",
      issuer: "https://acme.okta.test",
      clientId: "okta-client",
      clientSecret: "okta-secret-0123456789",
      ssoRequired: "on",
    });
    expect(added.headers.get("location")).toBe(`${ORIGIN}${pageUrl}&done=ssoConnectionCreated`);
    const [connection] = [...app.sso.connections.values()];
    expect(connection).toMatchObject({ organizationId, name: "Okta", ssoRequired: true, oidc: { issuer: "https://acme.okta.test" } });
    const page = await (await owner.send(`${pageUrl}&done=ssoConnectionCreated`)).text();
    expect(page).toContain('<h2 id="org-sso-heading">Single sign-on</h2>');
    expect(page).toContain("The SSO connection was added.");
    expect(page).toContain(`value="${ORIGIN}/auth/sso-callback/${connection?.id}"`);
    expect(page).not.toContain("okta-secret-0123456789");
    expect(page).not.toContain(connection?.oidc?.clientSecret as string);
  });

  it("shows a SAML connection's service provider entity id, ACS URL and certificate, never its key", async () => {
    const app = ssoApp(dns);
    const owner = await app.signedUp("owner@owner.test");
    const organizationId = await app.organizationWithDomain(owner, "acme", undefined);
    const made = await app.auth.api.createSsoConnection(app.as(owner), {
      organizationId,
      protocol: "saml",
      name: "ADFS",
      saml: { idpEntityId: "https://adfs.acme.test/trust", idpSsoUrl: "https://adfs.acme.test/ls", idpCertificates: [CERTIFICATE] },
    });
    const page = await (await owner.send(`/auth/organization?organizationId=${organizationId}`)).text();
    expect(page).toContain(String(made.saml?.spCertificate).split("\n")[1] as string);
    expect(page).toContain(`<label for="sso-connection-${made.id}-entity">Service provider entity ID (and metadata URL)</label>`);
    expect(page).toContain(`value="http://localhost:3000/auth/sso-metadata/${made.id}"`);
    expect(page).toContain(`value="http://localhost:3000/auth/sso-acs/${made.id}"`);
    expect(page).not.toContain("PRIVATE KEY");
    expect(page).not.toContain(app.sso.connections.get(made.id)?.saml?.spPrivateKey as string);
  });

  it("a bad field comes back to the page with the section's message; a plain member sees no section and cannot add one", async () => {
    const app = ssoApp(dns);
    const owner = await app.signedUp("owner@owner.test");
    const organizationId = await app.organizationWithDomain(owner, "acme", undefined);
    const refused = await post(owner, `/auth/sso/form-create?organizationId=${organizationId}`, {
      name: "Okta",
      issuer: "http://acme.okta.test",
      clientId: "okta-client",
      clientSecret: "okta-secret-0123456789",
    });
    expect(refused.headers.get("location")).toBe(`${ORIGIN}/auth/organization?organizationId=${organizationId}&error=InvalidSsoConnection`);
    expect(await (await owner.send(refused.headers.get("location") as string)).text()).toContain("This connection could not be saved");

    const member = await app.signedUp("member@acme.test");
    await app.orgs.methods.createMember({ organizationId, userId: member.userId, role: "member", createdAt: new Date() });
    expect(await (await member.send(`/auth/organization?organizationId=${organizationId}`)).text()).not.toContain("org-sso-heading");
    const byMember = await post(member, `/auth/sso/form-create?organizationId=${organizationId}`, {
      name: "Mine",
      issuer: "https://evil.test",
      clientId: "x",
      clientSecret: "y",
    });
    expect(byMember.headers.get("location")).toContain("error=OrganizationForbidden");
    expect(app.sso.connections.size).toBe(0);
  });
});
