/**
 * Enterprise SSO in Chromium, against two real OpenID Providers standing for two customers and a DNS
 * server on 127.0.0.1 for their domain proofs: on the built-in sign-in page an address of customer A's
 * proven domain continues to A's identity provider and comes back signed in, a member of A with its mapped
 * role; the same for B; the page passes axe; an address of an unproven domain stays on authlib's page.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuth } from "../../src/kernel/instance.js";
import { axeViolations, launchChromium, openWatchedTab, pageSession } from "../helpers/chromium.js";
import { startTxtServer, type TxtServer } from "../helpers/dns-server.js";
import { type NodeServer, startNodeServer } from "../helpers/node-server.js";
import { DEFAULT_USERS, startTestOP, type TestOP } from "../helpers/oidc-provider.js";
import { oidcInput, ssoApp } from "./helpers.js";

const CLAIMS = {
  openid: ["sub"],
  email: ["email", "email_verified"],
  profile: ["name", "given_name", "family_name", "preferred_username", "nickname", "picture", "locale", "groups"],
};

const homePage = () =>
  new Response('<!doctype html><html lang="en"><meta charset="utf-8"><title>Home</title><h1>Home</h1></html>', {
    headers: { "content-type": "text/html; charset=utf-8" },
  });

let browser: Browser;
let dns: TxtServer;
const ops: TestOP[] = [];
let server: NodeServer;
let app: ReturnType<typeof ssoApp>;
beforeAll(async () => {
  [browser, dns] = await Promise.all([launchChromium(), startTxtServer()]);
  app = ssoApp(dns);
  const auth = createAuth(app.config);
  server = await startNodeServer((request, { remoteAddress }) => auth.handler(request, { clientAddress: remoteAddress }), {
    fallback: homePage,
  });
}, 60_000);
afterAll(async () => {
  await Promise.all([browser?.close(), dns?.close(), server?.close(), ...ops.map((op) => op.close())]);
});

describe("SSO sign-in in Chromium", () => {
  it("each customer's address: the page's address step, its identity provider, back signed in as a member with the mapped role", async () => {
    const owner = await app.signedUp("owner@owner.test");
    const customers = [
      { slug: "acme", domain: "acme.test", user: "ada", email: "ada@acme.test", groups: ["Engineering"], role: "admin" },
      { slug: "globex", domain: "globex.test", user: "hank", email: "hank@globex.test", groups: ["Sales"], role: "member" },
    ];
    const made: Array<(typeof customers)[number] & { organizationId: string }> = [];
    for (const customer of customers) {
      const organizationId = await app.organizationWithDomain(owner, customer.slug, customer.domain);
      const secret = `${customer.slug}-browser-client-secret-0123456789`;
      const connection = await app.auth.api.createSsoConnection(
        app.as(owner),
        oidcInput(organizationId, "http://127.0.0.1:9", {
          oidc: { issuer: "http://127.0.0.1:9", clientId: `${customer.slug}-app`, clientSecret: secret },
          groupRoles: { Engineering: "admin" },
        }),
      );
      const op = await startTestOP({
        clients: [
          {
            client_id: `${customer.slug}-app`,
            client_secret: secret,
            redirect_uris: [`${server.origin}/auth/sso-callback/${connection.id}`],
          },
        ],
        users: { [customer.user]: { ...DEFAULT_USERS.alice, email: customer.email, name: customer.user, groups: customer.groups } },
        configuration: { claims: CLAIMS },
      });
      ops.push(op);
      await app.auth.api.updateSsoConnection(app.as(owner), { connectionId: connection.id, oidc: { issuer: op.issuer } });
      made.push({ ...customer, organizationId });
    }

    for (const customer of made) {
      const { context, page, problems } = await openWatchedTab(browser, true);
      await page.goto(`${server.origin}/auth/signin`);
      expect(await axeViolations(page), "axe on the sign-in page").toEqual([]);
      await page.getByLabel("Work email").fill(customer.email);
      await Promise.all([page.waitForURL(/\/interaction\//), page.getByRole("button", { name: "Continue with SSO" }).click()]);
      await page.getByLabel("Account").fill(customer.user);
      await Promise.all([page.waitForURL(`${server.origin}/`), page.getByRole("button", { name: "Sign in" }).click()]);
      expect(await pageSession(page)).toMatchObject({
        user: { email: customer.email },
        activeOrganizationId: customer.organizationId,
        activeOrganizationRole: customer.role,
      });
      expect(problems).toEqual([]);
      await context.close();
    }
  }, 120_000);

  it("an address of a domain no organization has proven stays on authlib's sign-in page, prefilled", async () => {
    const { context, page } = await openWatchedTab(browser);
    await page.goto(`${server.origin}/auth/signin`);
    await page.getByLabel("Work email").fill("someone@elsewhere.test");
    await Promise.all([page.waitForURL(/\/auth\/signin\?/), page.getByRole("button", { name: "Continue with SSO" }).click()]);
    expect(new URL(page.url()).searchParams.get("email")).toBe("someone@elsewhere.test");
    expect(await pageSession(page)).toBeNull();
    await context.close();
  }, 60_000);
});
