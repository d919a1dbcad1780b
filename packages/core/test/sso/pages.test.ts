/**
 * The organization page's SSO section: shown to a member whose role grants `sso:manage` (not to a plain
 * member), listing the connections with what the customer's IT admin registers at their identity provider
 * (an OIDC connection's redirect URI, a SAML connection's service provider entity id, ACS URL and
 * certificate) and never a secret; its forms add an OIDC connection, or a SAML one from the metadata that
 * SimpleSAMLphp and samlp serve, pasted; each connection has a delete button; they come back with a notice,
 * or with the refusal's message. Its SCIM part: the base URL, a token made and shown once (`no-store`,
 * never in a URL) that works against `/scim/v2/Users` until revoked, and a copied session older than the
 * owner-present bound refused on the page in words. In Debian's Chromium, axe finds no WCAG 2.1 A/AA
 * violation on the page before and after each form.
 */
import { readFileSync } from "node:fs";
import type { Browser as Chromium } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createAuth } from "../../src/kernel/instance.js";
import { axeViolations, launchChromium, openWatchedTab } from "../helpers/chromium.js";
import { startTxtServer, type TxtServer } from "../helpers/dns-server.js";
import { type NodeServer, startNodeServer } from "../helpers/node-server.js";
import type { TestSamlIdp } from "../helpers/saml-fixture.js";
import { startSamlpIdp } from "../helpers/samlp-idp.js";
import { startSimpleSamlPhp } from "../helpers/simplesamlphp.js";
import { type Browser, ORIGIN, post, ssoApp } from "./helpers.js";

const SP = { entityId: "https://app.example.test/auth/sso-metadata/any", acsUrl: `${ORIGIN}/auth/sso-acs/any` };
const USER = { username: "ada", password: "a long password 1234", attributes: { email: ["ada@acme.test"] } };
const OKTA_METADATA = readFileSync(new URL("./saml/fixtures/okta-idp-metadata.xml", import.meta.url), "utf8");
const SCIM_TOKEN = /scim_[0-9A-Za-z]{54}/g;
const THIRTY_MINUTES = 30 * 60 * 1000;

let dns: TxtServer;
let simpleSamlPhp: TestSamlIdp;
let samlp: TestSamlIdp;
beforeAll(async () => {
  const started = await Promise.allSettled([
    startTxtServer().then((server) => {
      dns = server;
    }),
    startSimpleSamlPhp({ sp: SP, users: [USER] }).then((idp) => {
      simpleSamlPhp = idp;
    }),
    startSamlpIdp({ sp: SP, user: USER }).then((idp) => {
      samlp = idp;
    }),
  ]);
  for (const result of started) if (result.status === "rejected") throw result.reason;
}, 60_000);
afterAll(async () => {
  await Promise.allSettled([dns?.close(), simpleSamlPhp?.stop(), samlp?.stop()]);
});
afterEach(() => void vi.useRealTimers());

/** The organization page of `organizationId` as `browser` sees it, with `query`. */
async function pageText(browser: Browser, organizationId: string, query = ""): Promise<string> {
  return (await browser.send(`/auth/organization?organizationId=${organizationId}${query}`)).text();
}

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
    expect(refused.headers.get("location")).toBe(
      `${ORIGIN}/auth/organization?organizationId=${organizationId}&error=InvalidSsoConnection&section=sso`,
    );
    const refusedPage = await (await owner.send(refused.headers.get("location") as string)).text();
    expect(refusedPage).toContain("This connection could not be saved");
    // Said once, in the section: the page's general alert does not repeat it.
    expect(refusedPage).not.toContain("That did not work. Please try again.");
    expect(refusedPage.match(/role="alert"/g)).toHaveLength(1);
    // The page's own refusal of the same type (no `section=sso`) is the page's to say, not the section's.
    const ownRefusal = await (await owner.send(`/auth/organization?organizationId=${organizationId}&error=OrganizationForbidden`)).text();
    expect(ownRefusal).toContain("Your role does not allow this.");
    expect(ownRefusal).not.toContain("Your role does not allow this here");

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

describe("the section's SAML form and delete buttons", () => {
  it("an owner adds SAML connections from SimpleSAMLphp's and samlp's metadata, pasted; each is listed with its SP values", async () => {
    const app = ssoApp(dns);
    const owner = await app.signedUp("owner@owner.test");
    const organizationId = await app.organizationWithDomain(owner, "acme", undefined);
    const empty = await pageText(owner, organizationId);
    expect(empty).toContain('<textarea id="org-sso-saml-metadata" name="metadataXml"');
    expect(empty).toContain('<input id="org-sso-saml-metadata-url" name="metadataUrl" type="url"');
    expect(empty).toContain(
      '<select id="org-sso-saml-role" name="defaultRole"><option value="owner">Owner</option><option value="admin">Administrator</option><option value="member" selected>Member</option></select>',
    );

    for (const [name, idp, role] of [
      ["SimpleSAMLphp", simpleSamlPhp, "admin"],
      ["samlp", samlp, "member"],
    ] as const) {
      const added = await post(owner, `/auth/sso/form-create-saml?organizationId=${organizationId}`, {
        name,
        metadataXml: idp.metadataXml,
        defaultRole: role,
        ssoRequired: "on",
      });
      expect(added.headers.get("location")).toBe(`${ORIGIN}/auth/organization?organizationId=${organizationId}&done=ssoConnectionCreated`);
      const connection = [...app.sso.connections.values()].find((made) => made.name === name);
      expect(connection).toMatchObject({
        organizationId,
        protocol: "saml",
        defaultRole: role,
        ssoRequired: true,
        saml: { idpEntityId: idp.entityId, idpSsoUrl: idp.ssoUrl },
      });
      const page = await pageText(owner, organizationId, "&done=ssoConnectionCreated");
      expect(page).toContain("The SSO connection was added.");
      expect(page).toContain(`<code>${idp.entityId}</code>`);
      expect(page).toContain(`value="${ORIGIN}/auth/sso-metadata/${connection?.id}"`);
      expect(page).toContain(`value="${ORIGIN}/auth/sso-acs/${connection?.id}"`);
      expect(page).toContain(String(connection?.saml?.spCertificate).split("\n")[1]);
      expect(page).not.toContain(connection?.saml?.spPrivateKey as string);
    }
    expect(app.audit.filter((row) => row.type === "ssoConnectionCreated")).toHaveLength(2);
  }, 60_000);

  it("a bad metadata document is named on the page (InvalidIdpMetadata, InvalidSsoConnection); nothing is made", async () => {
    const app = ssoApp(dns);
    const owner = await app.signedUp("owner@owner.test");
    const organizationId = await app.organizationWithDomain(owner, "acme", undefined);
    const cases = [
      ["<html><body>not metadata</body></html>", "InvalidIdpMetadata"],
      [OKTA_METADATA.replace(/<md:KeyDescriptor[\s\S]*<\/md:KeyDescriptor>/, ""), "InvalidIdpMetadata"],
      [OKTA_METADATA.replaceAll("https://corp.okta.example/", "http://corp.okta.example/"), "InvalidSsoConnection"],
    ] as const;
    for (const [metadataXml, type] of cases) {
      const refused = await post(owner, `/auth/sso/form-create-saml?organizationId=${organizationId}`, {
        name: "Okta",
        metadataXml,
        defaultRole: "member",
      });
      const back = `${ORIGIN}/auth/organization?organizationId=${organizationId}&error=${type}&section=sso`;
      expect(refused.headers.get("location")).toBe(back);
      const page = await (await owner.send(back)).text();
      expect(page).toContain(`<code>${type}</code>`);
      if (type === "InvalidIdpMetadata") expect(page).toContain("The identity provider's metadata could not be read");
    }
    // A role the connection may not give: an admin's form cannot make owners.
    const admin = await app.signedUp("admin@acme.test");
    await app.orgs.methods.createMember({ organizationId, userId: admin.userId, role: "admin", createdAt: new Date() });
    const adminPage = await pageText(admin, organizationId);
    expect(adminPage).toContain('<option value="admin">Administrator</option>');
    expect(adminPage).not.toContain('<option value="owner">');
    const owners = await post(admin, `/auth/sso/form-create-saml?organizationId=${organizationId}`, {
      name: "Okta",
      metadataXml: OKTA_METADATA,
      defaultRole: "owner",
    });
    expect(owners.headers.get("location")).toContain("error=InvalidSsoConnection");
    expect(app.sso.connections.size).toBe(0);
  });

  it("the delete button deletes the connection; a plain member's forged delete is refused on the page", async () => {
    const app = ssoApp(dns);
    const owner = await app.signedUp("owner@owner.test");
    const organizationId = await app.organizationWithDomain(owner, "acme", undefined);
    await post(owner, `/auth/sso/form-create-saml?organizationId=${organizationId}`, {
      name: "Okta",
      metadataXml: OKTA_METADATA,
      defaultRole: "member",
    });
    const [made] = await app.auth.api.listSsoConnections(app.as(owner), { organizationId });
    if (!made) throw new Error("the SAML form made no connection");
    const page = await pageText(owner, organizationId);
    expect(page).toContain(`<input type="hidden" name="connectionId" value="${made.id}"/>`);
    expect(page).toContain('aria-label="Delete: Okta"');

    const member = await app.signedUp("member@acme.test");
    await app.orgs.methods.createMember({ organizationId, userId: member.userId, role: "member", createdAt: new Date() });
    const forged = await post(member, `/auth/sso/form-delete?organizationId=${organizationId}`, { connectionId: made.id });
    expect(forged.headers.get("location")).toContain("error=OrganizationForbidden");
    // Without the CSRF token nothing is deleted either.
    const crossSite = await owner.send(`/auth/sso/form-delete?organizationId=${organizationId}`, { form: { connectionId: made.id } });
    expect(crossSite.headers.get("location")).toContain("error=MissingCSRF");
    expect(app.sso.connections.size).toBe(1);

    const deleted = await post(owner, `/auth/sso/form-delete?organizationId=${organizationId}`, { connectionId: made.id });
    expect(deleted.headers.get("location")).toBe(`${ORIGIN}/auth/organization?organizationId=${organizationId}&done=ssoConnectionDeleted`);
    expect(app.sso.connections.size).toBe(0);
    const after = await pageText(owner, organizationId, "&done=ssoConnectionDeleted");
    expect(after).toContain("The SSO connection was deleted.");
    expect(after).toContain("This organization has no SSO connection yet.");
    const again = await post(owner, `/auth/sso/form-delete?organizationId=${organizationId}`, { connectionId: made.id });
    expect(again.headers.get("location")).toContain("error=SsoConnectionNotFound");
  });
});

/** A GET of `/scim/v2/Users` with `token`, as the identity provider sends it: its status. */
async function scimUsersStatus(app: ReturnType<typeof ssoApp>, token: string): Promise<number> {
  const response = await app.auth.handler(
    new Request(`${ORIGIN}/auth/scim/v2/Users`, { headers: { authorization: `Bearer ${token}`, accept: "application/scim+json" } }),
  );
  await response.body?.cancel();
  return response.status;
}

describe("the section's SCIM tokens", () => {
  it("shows the base URL; a token made with the form is shown once (no-store, not in a URL), works against /scim/v2/Users, revoke stops it", async () => {
    const app = ssoApp(dns);
    const owner = await app.signedUp("owner@owner.test");
    const organizationId = await app.organizationWithDomain(owner, "acme", undefined);
    const empty = await pageText(owner, organizationId);
    expect(empty).toContain(`<input id="org-scim-base-url" type="text" readonly value="${ORIGIN}/auth/scim/v2"`);
    expect(empty).toContain("This organization has no SCIM token.");

    const created = await post(owner, `/auth/scim-tokens/form-create?organizationId=${organizationId}`, {});
    expect(created.status).toBe(200);
    expect(created.headers.get("location")).toBeNull();
    expect(created.headers.get("cache-control")).toContain("no-store");
    const shown = await created.text();
    const tokens = shown.match(SCIM_TOKEN) ?? [];
    expect(new Set(tokens).size).toBe(1);
    const token = tokens[0] as string;
    expect(shown).toContain("Copy it into your identity provider now: it is shown only once.");
    expect(await scimUsersStatus(app, token)).toBe(200);

    // The next visit lists the token by its start, who made it and when it was last used; never the token.
    const listed = await pageText(owner, organizationId);
    expect(listed).not.toContain(token);
    expect(listed).toContain(`<code>${token.slice(0, 9)}…</code>`);
    expect(listed).toMatch(/Created [^<]* by owner@owner\.test, last used /);
    const [record] = [...app.scim.tokens.values()];

    const revoked = await post(owner, `/auth/scim-tokens/form-revoke?organizationId=${organizationId}`, { tokenId: record?.id as string });
    expect(revoked.headers.get("location")).toBe(`${ORIGIN}/auth/organization?organizationId=${organizationId}&done=scimTokenRevoked`);
    expect(await pageText(owner, organizationId, "&done=scimTokenRevoked")).toContain(
      "The SCIM token was revoked: the identity provider can no longer use it.",
    );
    expect(await scimUsersStatus(app, token)).toBe(401);
    const twice = await post(owner, `/auth/scim-tokens/form-revoke?organizationId=${organizationId}`, { tokenId: record?.id as string });
    expect(twice.headers.get("location")).toContain("error=ScimTokenNotFound");
    // Without the CSRF token nothing is made.
    const crossSite = await owner.send(`/auth/scim-tokens/form-create?organizationId=${organizationId}`, { method: "POST", form: {} });
    expect(crossSite.headers.get("location")).toContain("error=MissingCSRF");
    expect(app.scim.tokens.size).toBe(1);
  });

  it("a copied session older than the owner-present bound is refused on create and revoke, in the page's words; a member is refused", async () => {
    const app = ssoApp(dns);
    const owner = await app.signedUp("owner@owner.test");
    const organizationId = await app.organizationWithDomain(owner, "acme", undefined);
    const existing = await app.auth.api.createScimToken(app.as(owner), { organizationId });
    const copied = app.browser();
    for (const [name, cookie] of owner.jar.cookies) copied.jar.cookies.set(name, cookie);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + THIRTY_MINUTES });

    const back = `${ORIGIN}/auth/organization?organizationId=${organizationId}&error=RecentSignInRequired&section=sso`;
    const create = await post(copied, `/auth/scim-tokens/form-create?organizationId=${organizationId}`, {});
    expect(create.headers.get("location")).toBe(back);
    const revoke = await post(copied, `/auth/scim-tokens/form-revoke?organizationId=${organizationId}`, { tokenId: existing.scimToken.id });
    expect(revoke.headers.get("location")).toBe(back);
    const page = await (await copied.send(back)).text();
    expect(page).toContain("Creating or revoking a SCIM token needs a recent sign-in: sign in again, then try once more.");
    expect(page).toContain(">Sign in again</a>");
    expect(page).not.toMatch(SCIM_TOKEN);
    expect(app.scim.tokens.size).toBe(1);
    expect(app.scim.tokens.get(existing.scimToken.id)?.revokedAt).toBeNull();
    vi.useRealTimers();

    const member = await app.signedUp("member@acme.test");
    await app.orgs.methods.createMember({ organizationId, userId: member.userId, role: "member", createdAt: new Date() });
    const byMember = await post(member, `/auth/scim-tokens/form-create?organizationId=${organizationId}`, {});
    expect(byMember.headers.get("location")).toContain("error=OrganizationForbidden");
    expect(app.scim.tokens.size).toBe(1);
  });

  it("speaks the request's language", async () => {
    const app = ssoApp(dns);
    const owner = await app.signedUp("owner@owner.test");
    const organizationId = await app.organizationWithDomain(owner, "acme", undefined);
    const texts: Record<string, string> = {
      de: "SCIM-Bereitstellung",
      es: "Aprovisionamiento SCIM",
      fr: "Provisionnement SCIM",
      ja: "SCIM プロビジョニング",
      pt: "Provisionamento SCIM",
      zh: "SCIM 预配",
    };
    for (const [language, title] of Object.entries(texts)) {
      const page = await owner.send(`/auth/organization?organizationId=${organizationId}`, { headers: { "accept-language": language } });
      expect(await page.text(), language).toContain(`<h3 id="org-scim-heading">${title}</h3>`);
    }
  });
});

describe("in Chromium", () => {
  let chromium: Chromium;
  let server: NodeServer;
  let app: ReturnType<typeof ssoApp>;
  beforeAll(async () => {
    let handle: (request: Request) => Promise<Response> = async () => new Response(null, { status: 503 });
    server = await startNodeServer((request) => handle(request), { host: "127.0.0.1" });
    app = ssoApp(dns);
    // A second instance of the same app (its stores), answering on the server's origin (`trustHost`).
    const auth = createAuth(app.config);
    handle = (request) => auth.handler(request);
    chromium = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await Promise.allSettled([chromium?.close(), server?.close()]);
  });

  it("the section is accessible (axe): on arrival, after a SAML connection is added, a token made and revoked", async () => {
    const owner = await app.signedUp("owner@owner.test");
    const organizationId = await app.organizationWithDomain(owner, "acme", undefined);
    const { context, page, problems } = await openWatchedTab(chromium, true);
    await context.addCookies(
      [...owner.jar.cookies.values()].map((cookie) => ({ name: cookie.name, value: cookie.value, url: server.origin })),
    );
    await page.goto(`${server.origin}/auth/organization?organizationId=${organizationId}`);
    await expect.poll(() => page.locator("#org-sso-heading").textContent()).toBe("Single sign-on");
    expect(await axeViolations(page)).toEqual([]);

    await page.fill("#org-sso-saml-name", "samlp");
    await page.fill("#org-sso-saml-metadata", samlp.metadataXml);
    await page.click('form[action*="/sso/form-create-saml"] button[type="submit"]');
    await expect.poll(() => page.url()).toContain("done=ssoConnectionCreated");
    expect(await page.locator('input[id$="-acs"]').inputValue()).toMatch(/\/auth\/sso-acs\//);
    expect(await axeViolations(page)).toEqual([]);

    await page.click('form[action*="/scim-tokens/form-create"] button[type="submit"]');
    await expect.poll(() => page.locator("#org-scim-token-new").inputValue()).toMatch(/^scim_[0-9A-Za-z]{54}$/);
    expect(await axeViolations(page)).toEqual([]);

    await page.click('form[action*="/scim-tokens/form-revoke"] button[type="submit"]');
    await expect.poll(() => page.url()).toContain("done=scimTokenRevoked");
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);
});
