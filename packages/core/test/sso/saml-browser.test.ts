/**
 * SAML connections end to end in Chromium, through identity providers we did not write: SimpleSAMLphp
 * (Debian's package under `php -S` on loopback) for customer A and the npm `samlp` IdP for customer B, each
 * the connection of its organization, whose domain is proven through a DNS server on 127.0.0.1. On the
 * built-in sign-in page an address of A's proven domain continues to A's IdP, signs in there, comes back
 * through the assertion consumer (its page posts the response on, same-site) signed in as a member of A
 * with the role its groups map to; the same for B. Then what must fail closed in a real browser: the same
 * response posted again (replay), a response brought to another browser (login CSRF), and an IdP-initiated
 * response while the connection does not allow one.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { samlEndpoints } from "../../src/features/sso/saml-flow.js";
import { createAuth } from "../../src/kernel/instance.js";
import { launchChromium, openWatchedTab, pageSession } from "../helpers/chromium.js";
import { startTxtServer, type TxtServer } from "../helpers/dns-server.js";
import { type NodeServer, startNodeServer } from "../helpers/node-server.js";
import { signInWithChromium } from "../helpers/saml-browser.js";
import { createSigningIdentity, type TestSamlIdp } from "../helpers/saml-fixture.js";
import { startSamlpIdp } from "../helpers/samlp-idp.js";
import { startSimpleSamlPhp } from "../helpers/simplesamlphp.js";
import { ssoApp } from "./helpers.js";

const homePage = () =>
  new Response('<!doctype html><html lang="en"><meta charset="utf-8"><title>Home</title><h1>Home</h1></html>', {
    headers: { "content-type": "text/html; charset=utf-8" },
  });

let browser: Browser;
let dns: TxtServer;
let server: NodeServer;
let app: ReturnType<typeof ssoApp>;
const idps: TestSamlIdp[] = [];

interface Customer {
  organizationId: string;
  connectionId: string;
  idp: TestSamlIdp;
  email: string;
  username: string;
  password: string;
  role: string;
}
const customers: Customer[] = [];

/** A SAML connection of `organizationId`, first with a placeholder IdP (its id is in the SP's URLs the IdP needs). */
async function samlConnection(owner: Parameters<typeof app.as>[0], organizationId: string, name: string) {
  const placeholder = await createSigningIdentity("placeholder");
  return app.auth.api.createSsoConnection(app.as(owner), {
    organizationId,
    protocol: "saml",
    name,
    groupRoles: { Engineering: "admin" },
    saml: { idpEntityId: "urn:placeholder", idpSsoUrl: "http://127.0.0.1:9/sso", idpCertificates: [placeholder.certificatePem] },
  });
}

beforeAll(async () => {
  [browser, dns] = await Promise.all([launchChromium(), startTxtServer()]);
  app = ssoApp(dns);
  const auth = createAuth(app.config);
  server = await startNodeServer((request, { remoteAddress }) => auth.handler(request, { clientAddress: remoteAddress }), {
    fallback: homePage,
  });
  const owner = await app.signedUp("owner@owner.test");
  const acme = await app.organizationWithDomain(owner, "acme", "acme.test");
  const globex = await app.organizationWithDomain(owner, "globex", "globex.test");
  const origin = { authUrl: `${server.origin}/auth` };

  const a = await samlConnection(owner, acme, "Acme SimpleSAMLphp");
  const spA = samlEndpoints(origin, a.id);
  const ssp = await startSimpleSamlPhp({
    sp: { ...spA, certificatePem: a.saml?.spCertificate },
    users: [
      {
        username: "ada",
        password: "ada-password",
        attributes: { email: ["ada@acme.test"], name: ["Ada Lovelace"], groups: ["Engineering", "Everyone"] },
      },
    ],
  });
  idps.push(ssp);
  await app.auth.api.updateSsoConnection(app.as(owner), {
    connectionId: a.id,
    saml: { idpEntityId: ssp.entityId, idpSsoUrl: ssp.ssoUrl, idpCertificates: [ssp.certificatePem] },
  });
  customers.push({
    organizationId: acme,
    connectionId: a.id,
    idp: ssp,
    email: "ada@acme.test",
    username: "ada",
    password: "ada-password",
    role: "admin",
  });

  const b = await samlConnection(owner, globex, "Globex samlp");
  const samlp = await startSamlpIdp({
    sp: samlEndpoints(origin, b.id),
    user: { username: "hank", password: "hank-password", attributes: { email: ["hank@globex.test"], name: ["Hank"], groups: ["Sales"] } },
  });
  idps.push(samlp);
  // B's admin pastes the IdP's metadata document instead of its three fields.
  await app.auth.api.updateSsoConnection(app.as(owner), { connectionId: b.id, saml: { metadataXml: samlp.metadataXml } });
  customers.push({
    organizationId: globex,
    connectionId: b.id,
    idp: samlp,
    email: "hank@globex.test",
    username: "hank",
    password: "hank-password",
    role: "member",
  });
}, 120_000);
afterAll(async () => {
  await Promise.all([browser?.close(), dns?.close(), server?.close(), ...idps.map((idp) => idp.stop())]);
});

describe("SAML sign-in in Chromium through independent identity providers", () => {
  it("each customer's address: the page's address step, its IdP, back signed in as a member of its organization with the mapped role", async () => {
    for (const customer of customers) {
      const { context, page, problems } = await openWatchedTab(browser, true);
      await page.goto(`${server.origin}/auth/signin`);
      await page.getByLabel("Work email").fill(customer.email);
      await Promise.all([
        page.waitForURL(new RegExp(`^${customer.idp.url}`)),
        page.getByRole("button", { name: "Continue with SSO" }).click(),
      ]);
      const form = page.locator("form:has(input[name=password])");
      await form.locator("input[name=username]").fill(customer.username);
      await form.locator("input[name=password]").fill(customer.password);
      await Promise.all([page.waitForURL(`${server.origin}/`, { timeout: 20_000 }), form.locator("[type=submit]").first().click()]);
      expect(await pageSession(page)).toMatchObject({
        user: { email: customer.email },
        sso: { organizationId: customer.organizationId, connectionId: customer.connectionId },
        activeOrganizationId: customer.organizationId,
        activeOrganizationRole: customer.role,
      });
      expect(problems).toEqual([]);
      await context.close();
    }
    const rows = app.audit.filter((row) => row.type === "ssoSignIn");
    expect(rows.map((row) => row.detail)).toEqual(customers.map((c) => `organization=${c.organizationId} connection=${c.connectionId}`));
  }, 120_000);

  it("a response is accepted once: posted again to the continue route, it is refused (replayed)", async () => {
    const [customer] = customers as [Customer];
    const { context, page } = await openWatchedTab(browser);
    // Start in this browser (its request cookie), then capture the IdP's post instead of letting it through.
    await page.goto(`${server.origin}/auth/signin`);
    const csrf = await page.evaluate(async () => (await (await fetch("/auth/csrf")).json()).csrfToken as string);
    const start = await context.request.post(`${server.origin}/auth/sso-signin/${customer.connectionId}`, {
      form: { csrfToken: csrf, callbackUrl: `${server.origin}/` },
      maxRedirects: 0,
    });
    const idpUrl = start.headers().location as string;
    expect(idpUrl.startsWith(customer.idp.ssoUrl)).toBe(true);
    const posted = await signInWithChromium(browser, {
      startUrl: idpUrl,
      acsUrl: `${server.origin}/auth/sso-acs/${customer.connectionId}`,
      username: customer.username,
      password: customer.password,
    });
    const continueUrl = `${server.origin}/auth/sso-acs-continue/${customer.connectionId}`;
    const form = { SAMLResponse: posted.samlResponse, RelayState: posted.relayState ?? "" };
    // Whoever captured the response and this browser's cookies (request and CSRF) replays both elsewhere.
    const captured = await context.cookies();
    const first = await context.request.post(continueUrl, { form, maxRedirects: 0 });
    expect(first.status()).toBe(302);
    expect(first.headers().location).toBe(`${server.origin}/`);
    const copy = await browser.newContext();
    await copy.addCookies(captured);
    const again = await copy.request.post(continueUrl, { form, maxRedirects: 0 });
    expect(again.headers().location).toContain("error=SsoSignInFailed");
    expect(app.audit.some((row) => row.type === "ssoSignInFailed" && row.detail?.endsWith("reason=saml.replayed"))).toBe(true);
    await Promise.all([context.close(), copy.close()]);
  }, 120_000);

  it("a response brought to another browser (which started no request) is refused: no login CSRF", async () => {
    const [customer] = customers as [Customer];
    const attacker = await openWatchedTab(browser);
    await attacker.page.goto(`${server.origin}/auth/signin`);
    const csrf = await attacker.page.evaluate(async () => (await (await fetch("/auth/csrf")).json()).csrfToken as string);
    const start = await attacker.context.request.post(`${server.origin}/auth/sso-signin/${customer.connectionId}`, {
      form: { csrfToken: csrf, callbackUrl: `${server.origin}/` },
      maxRedirects: 0,
    });
    const posted = await signInWithChromium(browser, {
      startUrl: start.headers().location as string,
      acsUrl: `${server.origin}/auth/sso-acs/${customer.connectionId}`,
      username: customer.username,
      password: customer.password,
    });
    // The victim's browser: the attacker's page makes it post the attacker's response.
    const victim = await openWatchedTab(browser);
    await victim.page.goto(`${server.origin}/`);
    const refused = await victim.context.request.post(`${server.origin}/auth/sso-acs-continue/${customer.connectionId}`, {
      form: { SAMLResponse: posted.samlResponse, RelayState: posted.relayState ?? "" },
      maxRedirects: 0,
    });
    expect(refused.headers().location).toContain("error=SsoSignInFailed");
    expect(await pageSession(victim.page)).toBeNull();
    expect(app.audit.some((row) => row.type === "ssoSignInFailed" && row.detail?.endsWith("reason=saml.inResponseTo"))).toBe(true);
    await Promise.all([attacker.context.close(), victim.context.close()]);
  }, 120_000);

  it("an IdP-initiated response is refused while the connection does not allow one", async () => {
    const customer = customers[1] as Customer;
    const { context, page } = await openWatchedTab(browser);
    await page.goto(`${server.origin}/`);
    const posted = await signInWithChromium(browser, {
      startUrl: customer.idp.idpInitiatedUrl,
      acsUrl: `${server.origin}/auth/sso-acs/${customer.connectionId}`,
      username: customer.username,
      password: customer.password,
    });
    const refused = await context.request.post(`${server.origin}/auth/sso-acs-continue/${customer.connectionId}`, {
      form: { SAMLResponse: posted.samlResponse },
      maxRedirects: 0,
    });
    expect(refused.headers().location).toContain("error=SsoSignInFailed");
    expect(await pageSession(page)).toBeNull();
    await context.close();
  }, 120_000);

  it("serves each connection's SP metadata: its entity id, ACS URL and signing certificate", async () => {
    const [customer] = customers as [Customer];
    const response = await fetch(`${server.origin}/auth/sso-metadata/${customer.connectionId}`);
    expect(response.headers.get("content-type")).toContain("application/samlmetadata+xml");
    const xml = await response.text();
    const sp = samlEndpoints({ authUrl: `${server.origin}/auth` }, customer.connectionId);
    expect(xml).toContain(`entityID="${sp.entityId}"`);
    expect(xml).toContain(`Location="${sp.acsUrl}"`);
    expect(xml).toContain("<ds:X509Certificate>");
  });
});
