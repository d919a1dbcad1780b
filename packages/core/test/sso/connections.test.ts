/**
 * Connections as data: who may manage them (`sso:manage`: owner, admin; a member is refused, a stranger
 * learns nothing), what they may give (no role above their own), the inputs refused by name, the secrets
 * encrypted at rest and never answered, every change audited, and the start-up refusal of `sso` without
 * `organizations`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSecret } from "../../src/features/sso/secrets.js";
import { createAuth } from "../../src/kernel/instance.js";
import { startTxtServer, type TxtServer } from "../helpers/dns-server.js";
import { certificateBody, createSigningIdentity } from "../helpers/saml-fixture.js";
import { oidcInput, secret, ssoApp, ssoJson } from "./helpers.js";

let dns: TxtServer;
beforeAll(async () => {
  dns = await startTxtServer();
});
afterAll(async () => {
  await dns?.close();
});

/** A PEM certificate body long enough to pass as one (its validation is the SAML core's, at sign-in). */
const CERTIFICATE = `-----BEGIN CERTIFICATE-----\n${"MIIC".padEnd(400, "A")}\n-----END CERTIFICATE-----`;

describe("managing connections", () => {
  it("an owner creates an OIDC connection; the list shows it without the client secret, which is stored only encrypted", async () => {
    const app = ssoApp(dns);
    const owner = await app.signedUp("owner@acme.test");
    const organizationId = await app.organizationWithDomain(owner, "acme", "acme.test");
    const created = await ssoJson(owner, "create", oidcInput(organizationId, "https://idp.acme.test/oauth2"));
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      organizationId,
      protocol: "oidc",
      name: "Okta",
      defaultRole: "member",
      ssoRequired: false,
      oidc: { issuer: "https://idp.acme.test/oauth2", clientId: "authlib-client" },
    });
    expect(JSON.stringify(created.body)).not.toContain("clientSecret");
    const listed = await app.auth.api.listSsoConnections(app.as(owner), { organizationId });
    expect(listed.map((connection) => connection.id)).toEqual([created.body.id]);
    expect(JSON.stringify(listed)).not.toContain("client-secret-value");

    const stored = app.sso.connections.get(created.body.id);
    expect(stored?.oidc?.clientSecret).not.toContain("client-secret-value");
    expect(await openSecret([secret], created.body.id, "oidc.clientSecret", stored?.oidc?.clientSecret as string)).toBe(
      "client-secret-value-1234567890",
    );
  });

  it("an encrypted secret opens only for its own connection and field, and only with the instance's secret", async () => {
    const app = ssoApp(dns);
    const owner = await app.signedUp("owner@acme.test");
    const organizationId = await app.organizationWithDomain(owner, "acme", undefined);
    const created = await app.auth.api.createSsoConnection(app.as(owner), oidcInput(organizationId));
    const sealed = app.sso.connections.get(created.id)?.oidc?.clientSecret as string;
    await expect(openSecret([secret], "another-connection", "oidc.clientSecret", sealed)).rejects.toThrow(/could not be decrypted/);
    await expect(openSecret([secret], created.id, "saml.spPrivateKey", sealed)).rejects.toThrow(/could not be decrypted/);
    await expect(openSecret(["another-secret-0123456789abcdef-0123456789"], created.id, "oidc.clientSecret", sealed)).rejects.toThrow(
      /could not be decrypted/,
    );
    // A rotated instance secret (the new one first) still opens what the old one sealed.
    expect(await openSecret(["a-newer-secret-0123456789abcdef-01234567", secret], created.id, "oidc.clientSecret", sealed)).toBe(
      "client-secret-value-1234567890",
    );
  });

  it("a SAML connection gets its own service provider certificate; its private key is stored encrypted and never answered", async () => {
    const app = ssoApp(dns);
    const owner = await app.signedUp("owner@acme.test");
    const organizationId = await app.organizationWithDomain(owner, "acme", undefined);
    const created = await app.auth.api.createSsoConnection(app.as(owner), {
      organizationId,
      protocol: "saml",
      name: "ADFS",
      saml: {
        idpEntityId: "https://adfs.acme.test/adfs/services/trust",
        idpSsoUrl: "https://adfs.acme.test/adfs/ls",
        idpCertificates: [CERTIFICATE],
      },
    });
    expect(created.saml).toMatchObject({ signatureOn: "assertion", allowIdpInitiated: false });
    expect(created.saml?.spCertificate).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(JSON.stringify(created)).not.toContain("PRIVATE KEY");
    expect(JSON.stringify(created)).not.toContain("spPrivateKey");
    const stored = app.sso.connections.get(created.id)?.saml?.spPrivateKey as string;
    expect(stored).not.toContain("PRIVATE KEY");
    expect(await openSecret([secret], created.id, "saml.spPrivateKey", stored)).toMatch(/^-----BEGIN PRIVATE KEY-----/);
  });

  it("a SAML connection made from the IdP's pasted metadata takes its entity id, SSO URL and every signing certificate", async () => {
    const app = ssoApp(dns);
    const owner = await app.signedUp("owner@acme.test");
    const organizationId = await app.organizationWithDomain(owner, "acme", undefined);
    const body = certificateBody((await createSigningIdentity("idp.acme.test")).certificatePem);
    const metadataXml = [
      '<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://idp.acme.test/saml">',
      '<md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">',
      '<md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data>',
      `<ds:X509Certificate>${body}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`,
      '<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.acme.test/sso"/>',
      "</md:IDPSSODescriptor></md:EntityDescriptor>",
    ].join("");
    const created = await app.auth.api.createSsoConnection(app.as(owner), {
      organizationId,
      protocol: "saml",
      name: "Okta",
      saml: { metadataXml },
    });
    expect(created.saml).toMatchObject({ idpEntityId: "https://idp.acme.test/saml", idpSsoUrl: "https://idp.acme.test/sso" });
    expect(created.saml?.idpCertificates.map((pem) => pem.replace(/-----(BEGIN|END) CERTIFICATE-----|\s+/g, ""))).toEqual([body]);
  });

  it("an admin may manage connections; a member is refused by permission, a stranger learns nothing", async () => {
    const app = ssoApp(dns);
    const owner = await app.signedUp("owner@acme.test");
    const organizationId = await app.organizationWithDomain(owner, "acme", undefined);
    const admin = await app.signedUp("admin@acme.test");
    const member = await app.signedUp("member@acme.test");
    const stranger = await app.signedUp("eve@evil.test");
    await app.orgs.methods.createMember({ organizationId, userId: admin.userId, role: "admin", createdAt: new Date() });
    await app.orgs.methods.createMember({ organizationId, userId: member.userId, role: "member", createdAt: new Date() });

    const made = await ssoJson(admin, "create", oidcInput(organizationId));
    expect(made.status).toBe(200);
    expect(await ssoJson(member, "create", oidcInput(organizationId))).toMatchObject({
      status: 403,
      body: { error: "OrganizationForbidden" },
    });
    expect(await ssoJson(member, "delete", { connectionId: made.body.id })).toMatchObject({
      status: 403,
      body: { error: "OrganizationForbidden" },
    });
    expect(await ssoJson(stranger, "create", oidcInput(organizationId))).toMatchObject({
      status: 404,
      body: { error: "OrganizationNotFound" },
    });
    // Another organization's connection is answered as one that does not exist.
    expect(await ssoJson(stranger, "update", { connectionId: made.body.id, name: "Mine" })).toEqual({
      status: 404,
      body: { error: "SsoConnectionNotFound" },
    });
    expect(await ssoJson(stranger, "delete", { connectionId: made.body.id })).toEqual({
      status: 404,
      body: { error: "SsoConnectionNotFound" },
    });
    expect(await ssoJson(stranger, "delete", { connectionId: "no-such-connection" })).toEqual({
      status: 404,
      body: { error: "SsoConnectionNotFound" },
    });
    expect(app.sso.connections.get(made.body.id)?.name).toBe("Okta");
  });

  it("an admin cannot make a connection that signs its users in above the admin's own role; an owner can", async () => {
    const app = ssoApp(dns);
    const owner = await app.signedUp("owner@acme.test");
    const organizationId = await app.organizationWithDomain(owner, "acme", undefined);
    const admin = await app.signedUp("admin@acme.test");
    await app.orgs.methods.createMember({ organizationId, userId: admin.userId, role: "admin", createdAt: new Date() });
    expect(await ssoJson(admin, "create", oidcInput(organizationId, undefined, { defaultRole: "owner" }))).toMatchObject({
      status: 400,
      body: { error: "InvalidSsoConnection" },
    });
    expect(await ssoJson(admin, "create", oidcInput(organizationId, undefined, { groupRoles: { Founders: "owner" } }))).toMatchObject({
      status: 400,
      body: { error: "InvalidSsoConnection" },
    });
    expect(await ssoJson(admin, "create", oidcInput(organizationId, undefined, { defaultRole: "wizard" }))).toMatchObject({
      status: 400,
      body: { error: "InvalidSsoConnection" },
    });
    const byOwner = await ssoJson(
      owner,
      "create",
      oidcInput(organizationId, undefined, { groupRoles: { Founders: "owner", Staff: "admin" } }),
    );
    expect(byOwner.status).toBe(200);
    expect(byOwner.body.groupRoles).toEqual({ Founders: "owner", Staff: "admin" });
    // Nor can the admin change it to give more than their own role.
    expect(await ssoJson(admin, "update", { connectionId: byOwner.body.id, defaultRole: "owner" })).toMatchObject({
      status: 400,
      body: { error: "InvalidSsoConnection" },
    });
  });

  it("refuses each bad input by name", async () => {
    const app = ssoApp(dns);
    const owner = await app.signedUp("owner@acme.test");
    const organizationId = await app.organizationWithDomain(owner, "acme", undefined);
    const refused = async (input: Record<string, unknown>) => {
      const answer = await ssoJson(owner, "create", input);
      expect(answer, JSON.stringify(input)).toMatchObject({ status: 400, body: { error: "InvalidSsoConnection" } });
    };
    await refused(oidcInput(organizationId, "http://idp.acme.test"));
    await refused(oidcInput(organizationId, "https://user:pw@idp.acme.test"));
    await refused(oidcInput(organizationId, "https://idp.acme.test/?tenant=1"));
    await refused(oidcInput(organizationId, "not a url"));
    await refused({ ...oidcInput(organizationId), oidc: { issuer: "https://idp.acme.test", clientId: "x" } });
    await refused({ ...oidcInput(organizationId), protocol: "ldap" });
    await refused({ ...oidcInput(organizationId), name: "  " });
    await refused({ ...oidcInput(organizationId), attributeMapping: { email: "mail", phone: "tel" } });
    await refused({ ...oidcInput(organizationId), attributeMapping: { email: "mail address" } });
    await refused({ ...oidcInput(organizationId), saml: { idpEntityId: "x" } });
    await refused({
      organizationId,
      protocol: "saml",
      name: "x",
      saml: { idpEntityId: "x", idpSsoUrl: "https://a.test/sso", idpCertificates: [] },
    });
    await refused({
      organizationId,
      protocol: "saml",
      name: "x",
      saml: { idpEntityId: "x", idpSsoUrl: "ftp://a.test", idpCertificates: [CERTIFICATE] },
    });
    await refused({
      organizationId,
      protocol: "saml",
      name: "x",
      saml: { idpEntityId: "x", idpSsoUrl: "https://a.test", idpCertificates: ["not pem"] },
    });
    // The IdP's metadata stands for its three fields, not beside them.
    await refused({
      organizationId,
      protocol: "saml",
      name: "x",
      saml: { metadataXml: "<md:EntityDescriptor/>", idpEntityId: "x" },
    });
    // Metadata that describes no usable IdP is named for what it is.
    const noIdp = await ssoJson(owner, "create", { organizationId, protocol: "saml", name: "x", saml: { metadataXml: "<not-metadata/>" } });
    expect(noIdp).toMatchObject({ status: 400, body: { error: "InvalidIdpMetadata" } });
    // Plain http is accepted on a loopback host (tests, local development).
    expect((await ssoJson(owner, "create", oidcInput(organizationId, "http://127.0.0.1:4000"))).status).toBe(200);
    expect(app.sso.connections.size).toBe(1);
  });

  it("changes and deletes a connection; a new client secret is encrypted; every change is audited with who and which organization", async () => {
    const app = ssoApp(dns);
    const owner = await app.signedUp("owner@acme.test");
    const organizationId = await app.organizationWithDomain(owner, "acme", undefined);
    const created = await app.auth.api.createSsoConnection(app.as(owner), oidcInput(organizationId));
    const changed = await app.auth.api.updateSsoConnection(app.as(owner), {
      connectionId: created.id,
      name: "Okta (new tenant)",
      ssoRequired: true,
      oidc: { clientSecret: "a-rotated-secret-0987654321" },
    });
    expect(changed).toMatchObject({ name: "Okta (new tenant)", ssoRequired: true, oidc: { issuer: "https://idp.example.com" } });
    const sealed = app.sso.connections.get(created.id)?.oidc?.clientSecret as string;
    expect(await openSecret([secret], created.id, "oidc.clientSecret", sealed)).toBe("a-rotated-secret-0987654321");
    await app.auth.api.deleteSsoConnection(app.as(owner), { connectionId: created.id });
    expect(app.sso.connections.size).toBe(0);
    await expect(app.auth.api.deleteSsoConnection(app.as(owner), { connectionId: created.id })).rejects.toMatchObject({
      type: "SsoConnectionNotFound",
    });
    await new Promise((resolve) => setImmediate(resolve));
    const rows = app.audit.filter((row) => row.type.startsWith("ssoConnection"));
    expect(rows.map((row) => row.type)).toEqual([
      "ssoConnectionCreated",
      "ssoConnectionUpdated",
      "ssoConnectionDeleted",
      "ssoConnectionRefused",
    ]);
    for (const row of rows.slice(0, 3)) {
      expect(row.userId).toBe(owner.userId);
      expect(row.detail).toContain(`organization=${organizationId}`);
      expect(row.detail).toContain(`connection=${created.id}`);
    }
    expect(JSON.stringify(app.audit)).not.toContain("a-rotated-secret");
  });

  it("a JSON change without the CSRF token is refused", async () => {
    const app = ssoApp(dns);
    const owner = await app.signedUp("owner@acme.test");
    const organizationId = await app.organizationWithDomain(owner, "acme", undefined);
    const response = await owner.send("/auth/sso/create", { json: oidcInput(organizationId) });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: "MissingCSRF" });
    expect(app.sso.connections.size).toBe(0);
  });
});

describe("the sso option", () => {
  it("is refused at createAuth without organizations (InvalidSsoConfig), and with a clock skew out of range", async () => {
    const app = ssoApp(dns);
    const { organizations: _off, ...withoutOrganizations } = app.config;
    expect(() => createAuth({ ...withoutOrganizations, sso: {} })).toThrow(expect.objectContaining({ type: "InvalidSsoConfig" }));
    expect(() => createAuth({ ...app.config, sso: { clockSkew: 301 } })).toThrow(expect.objectContaining({ type: "InvalidSsoConfig" }));
  });

  it("names the missing adapter methods of an adapter without the SSO ones", async () => {
    const app = ssoApp(dns);
    const { getSsoIdentity: _gone, ...adapter } = app.store;
    expect(() => createAuth({ ...app.config, adapter })).toThrow(expect.objectContaining({ type: "MissingAdapterMethods" }));
  });
});
