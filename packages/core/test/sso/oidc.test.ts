/**
 * OIDC connections end to end, against two real OpenID Providers (`oidc-provider` on 127.0.0.1) standing
 * for two customers, each with its own connection (issuer discovery, client id, the client secret
 * decrypted from the store, PKCE + state + nonce bound to the browser): an address of customer A's proven
 * domain is discovered, goes to A's identity provider, comes back signed in as a member of A with the
 * mapped role; the same for B; the callback refuses an answer brought to another browser or to another
 * connection.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTxtServer, type TxtServer } from "../helpers/dns-server.js";
import { DEFAULT_USERS, startTestOP, type TestOP } from "../helpers/oidc-provider.js";
import { ORIGIN, oidcInput, post, ssoApp, ssoJson } from "./helpers.js";

/** The OP's claims by scope, with `groups` in `profile` (as Okta's groups claim can be configured). */
const CLAIMS = {
  openid: ["sub"],
  email: ["email", "email_verified"],
  profile: ["name", "given_name", "family_name", "preferred_username", "nickname", "picture", "locale", "groups"],
};

let dns: TxtServer;
beforeAll(async () => {
  dns = await startTxtServer();
});
afterAll(async () => {
  await dns?.close();
});

describe("OIDC connections of two customers", () => {
  const ops: TestOP[] = [];
  afterAll(async () => {
    await Promise.all(ops.map((op) => op.close()));
  });

  /** The app, organizations A and B with their proven domains, and one OP and connection each. */
  async function setUp() {
    const app = ssoApp(dns);
    const owner = await app.signedUp("owner@owner.test");
    const customers = [
      { slug: "acme", domain: "acme.test", user: "ada", email: "ada@acme.test", groups: ["Engineering"] },
      { slug: "globex", domain: "globex.test", user: "hank", email: "hank@globex.test", groups: ["Sales"] },
    ];
    const made = [];
    for (const customer of customers) {
      const organizationId = await app.organizationWithDomain(owner, customer.slug, customer.domain);
      const secret = `${customer.slug}-client-secret-0123456789abcdef`;
      // The connection first (its id is in the callback URL the OP registers), then its OP's issuer.
      const connection = await app.auth.api.createSsoConnection(
        app.as(owner),
        oidcInput(organizationId, "http://127.0.0.1:9", {
          oidc: { issuer: "http://127.0.0.1:9", clientId: `${customer.slug}-app`, clientSecret: secret },
          groupRoles: { Engineering: "admin" },
        }),
      );
      const op = await startTestOP({
        clients: [
          { client_id: `${customer.slug}-app`, client_secret: secret, redirect_uris: [`${ORIGIN}/auth/sso-callback/${connection.id}`] },
        ],
        users: {
          [customer.user]: {
            ...DEFAULT_USERS.alice,
            email: customer.email,
            email_verified: false,
            name: customer.user,
            groups: customer.groups,
          },
        },
        configuration: { claims: CLAIMS },
      });
      ops.push(op);
      await app.auth.api.updateSsoConnection(app.as(owner), { connectionId: connection.id, oidc: { issuer: op.issuer } });
      made.push({ ...customer, organizationId, connection, op });
    }
    return { app, owner, customers: made };
  }

  it("each customer's address: discovered, its identity provider, back signed in as a member of its organization with the mapped role", async () => {
    const { app, customers } = await setUp();
    for (const [customer, role] of [
      [customers[0], "admin"],
      [customers[1], "member"],
    ] as const) {
      const browser = app.browser();
      const found = await ssoJson(browser, "discover", { email: customer?.email.toUpperCase() });
      expect(found).toEqual({
        status: 200,
        body: { sso: true, connectionId: customer?.connection.id, signInUrl: `${ORIGIN}/auth/sso-signin/${customer?.connection.id}` },
      });
      const start = await post(browser, new URL(found.body.signInUrl).pathname, { callbackUrl: `${ORIGIN}/dashboard` });
      const location = new URL(start.headers.get("location") as string);
      expect(location.origin).toBe(customer?.op.issuer);
      expect(location.searchParams.get("code_challenge_method")).toBe("S256");
      expect(location.searchParams.get("nonce")).toBeTruthy();
      const back = await customer?.op.authorize(location.href, { user: customer.user });
      const done = await browser.send(`${back?.pathname}${back?.search}`);
      expect(done.headers.get("location")).toBe(`${ORIGIN}/dashboard`);
      expect(await browser.session()).toMatchObject({
        user: { email: customer?.email },
        sso: { organizationId: customer?.organizationId, connectionId: customer?.connection.id },
        activeOrganizationId: customer?.organizationId,
        activeOrganizationRole: role,
      });
    }
    // Each identity is its issuer's subject at its connection.
    expect(await app.sso.methods.getSsoIdentity(customers[0]?.connection.id as string, "ada")).not.toBeNull();
    expect(await app.sso.methods.getSsoIdentity(customers[1]?.connection.id as string, "hank")).not.toBeNull();
  }, 60_000);

  it("the sign-in page's address step: an address of A's proven domain goes to A's identity provider and comes back signed in", async () => {
    const { app, customers } = await setUp();
    const [a] = customers;
    const browser = app.browser();
    const page = await (await browser.send("/auth/signin")).text();
    expect(page).toContain('<form action="http://localhost:3000/auth/sso/start" method="post" aria-label="Continue with SSO">');
    expect(page).toContain('<label for="email-step">Work email</label>');
    expect(page).toContain('aria-describedby="email-step-hint"');
    const start = await post(browser, "/auth/sso/start", { email: "Ada@Acme.test", callbackUrl: `${ORIGIN}/home` });
    const back = (await a?.op.authorize(start.headers.get("location") as string, { user: "ada" })) as URL;
    const done = await browser.send(`${back.pathname}${back.search}`);
    expect(done.headers.get("location")).toBe(`${ORIGIN}/home`);
    expect((await browser.session())?.activeOrganizationId).toBe(a?.organizationId);
  }, 60_000);

  it("any other address comes back to the sign-in page, prefilled for its other ways in", async () => {
    const { app } = await setUp();
    const browser = app.browser();
    const start = await post(browser, "/auth/sso/start", { email: "someone@elsewhere.test", callbackUrl: `${ORIGIN}/home` });
    const location = new URL(start.headers.get("location") as string);
    expect(`${location.origin}${location.pathname}`).toBe(`${ORIGIN}/auth/signin`);
    expect(location.searchParams.get("email")).toBe("someone@elsewhere.test");
    const page = await (await browser.send(`${location.pathname}${location.search}`)).text();
    expect(page).toContain('value="someone@elsewhere.test"');
    expect(app.sso.identities.size).toBe(0);
  }, 60_000);

  it("the address step speaks the request's language", async () => {
    const { app } = await setUp();
    const page = await (await app.browser().send("/auth/signin", { headers: { "accept-language": "de" } })).text();
    expect(page).toContain("Mit SSO fortfahren");
    expect(page).toContain("Geschäftliche E-Mail-Adresse");
  }, 60_000);

  it("an answer of A's identity provider brought to B's callback, or to another browser, signs nobody in", async () => {
    const { app, customers } = await setUp();
    const [a, b] = customers;
    const browser = app.browser();
    const start = await post(browser, `/auth/sso-signin/${a?.connection.id}`, { callbackUrl: "/" });
    const back = (await a?.op.authorize(start.headers.get("location") as string, { user: "ada" })) as URL;
    const atB = await browser.send(`/auth/sso-callback/${b?.connection.id}${back.search}`);
    expect(atB.headers.get("location")).toMatch(/error=/);
    expect(await browser.session()).toBeNull();
    const thief = app.browser();
    const stolen = await thief.send(`${back.pathname}${back.search}`);
    expect(stolen.headers.get("location")).toMatch(/error=/);
    expect(await thief.session()).toBeNull();
    expect(app.sso.identities.size).toBe(0);
  }, 60_000);

  it("a connection that does not exist is refused with SsoSignInFailed, at the start and at the callback", async () => {
    const { app } = await setUp();
    const browser = app.browser();
    const missing = await post(browser, "/auth/sso-signin/no-such-connection", { callbackUrl: "/" });
    expect(missing.headers.get("location")).toContain("error=SsoSignInFailed");
    const callback = await browser.send("/auth/sso-callback/no-such-connection?code=x&state=y");
    expect(callback.headers.get("location")).toContain("error=SsoSignInFailed");
  }, 60_000);
});
