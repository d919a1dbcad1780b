/**
 * The "API keys" section of the built-in account page: the user's keys (name, start, scopes, dates) with a
 * revoke form each, a create form whose answer shows the new key once (no-store, a copy hint) and never
 * again, refusals back on the page with their message, CSRF proven, texts in the request's language; and in
 * Debian's Chromium over real HTTP, axe-core finds no WCAG 2.1 A/AA violation on the page, after a create
 * and after a revoke.
 */
import type { Browser as Chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, launchChromium, openWatchedTab } from "../helpers/chromium.js";
import { type NodeServer, startNodeServer } from "../helpers/node-server.js";
import { apiKeysApp, type Browser, ORIGIN, orgJson, post } from "./helpers.js";

const KEY = /acme_[0-9A-Za-z]{54}/g;

describe("the account page's API keys section", () => {
  it("lists, creates (the key shown once), revokes, and answers refusals on the page", async () => {
    const app = apiKeysApp();
    const ada = await app.signedUp("ada@example.com");
    const empty = await (await ada.send("/auth/account")).text();
    expect(empty).toContain('<h2 id="api-keys">API keys</h2>');
    expect(empty).toContain("You have no API keys.");
    expect(empty).toContain(`action="${ORIGIN}/auth/api-keys/form-create"`);

    const created = await post(ada, "/auth/api-keys/form-create", { name: "Laptop <script>", scopes: "projects:read" });
    expect(created.status).toBe(200);
    expect(created.headers.get("cache-control")).toContain("no-store");
    const shown = await created.text();
    const keys = shown.match(KEY) ?? [];
    expect(new Set(keys).size).toBe(1);
    expect(shown).toContain("Copy it now and keep it somewhere safe: it is shown only once.");
    expect(shown).toContain("Laptop &lt;script");
    expect(shown).not.toContain("Laptop <script>");
    const key = keys[0] as string;
    expect((await app.auth.api.verifyApiKey(app.bearing(key))).scopes).toEqual(["projects:read"]);

    // The next visit lists the key by its start, never the key itself.
    const again = await (await ada.send("/auth/account")).text();
    expect(again).not.toContain(key);
    expect(again).toContain(`${key.slice(0, 9)}…`);
    const [record] = [...app.keys.keys.values()];

    // Refusals come back on the page with the section's message.
    const badScope = await post(ada, "/auth/api-keys/form-create", { name: "x", scopes: "admin:all" });
    expect(badScope.headers.get("location")).toBe(`${ORIGIN}/auth/account?error=InvalidApiKeyRequest`);
    const unknown = await post(ada, "/auth/api-keys/form-revoke", { keyId: "AAAAAAAAAAAAAAAA" });
    expect(unknown.headers.get("location")).toBe(`${ORIGIN}/auth/account?error=ApiKeyNotFound`);
    const notFoundPage = await (await ada.send("/auth/account?error=ApiKeyNotFound")).text();
    expect(notFoundPage).toContain("This API key does not exist or was revoked already.");
    // Without the CSRF token nothing is made or revoked.
    const forged = await ada.send("/auth/api-keys/form-create", { form: { name: "forged" } });
    expect(forged.status).not.toBe(200);
    expect(app.keys.keys.size).toBe(1);

    const revoked = await post(ada, "/auth/api-keys/form-revoke", { keyId: record?.id as string });
    expect(revoked.headers.get("location")).toBe(`${ORIGIN}/auth/account?done=apiKeyRevoked`);
    const after = await (await ada.send("/auth/account?done=apiKeyRevoked")).text();
    expect(after).toContain("The API key was revoked.");
    expect(after).toContain("You have no API keys.");
    await expect(app.auth.api.verifyApiKey(app.bearing(key))).rejects.toMatchObject({ type: "InvalidApiKey" });
  }, 120_000);

  it("speaks the request's language", async () => {
    const app = apiKeysApp();
    const ada = await app.signedUp("ada@example.com");
    const texts: Record<string, string> = {
      de: "API-Schlüssel",
      es: "Claves de API",
      fr: "Clés d’API",
      ja: "API キー",
      pt: "Chaves de API",
      zh: "API 密钥",
    };
    for (const [language, title] of Object.entries(texts)) {
      const page = await (await ada.send("/auth/account", { headers: { "accept-language": language } })).text();
      expect(page, language).toContain(`<h2 id="api-keys">${title}</h2>`);
    }
  }, 120_000);
});

/** Ada owns an organization with Carl as a member. */
async function organizationOf(app: ReturnType<typeof apiKeysApp>) {
  const ada = await app.signedUp("ada@example.com");
  const carl = await app.signedUp("carl@example.com");
  const id = (await orgJson(ada, "create", { name: "Acme Inc", slug: "acme-inc" })).body.organization.id as string;
  await orgJson(ada, "invite", { organizationId: id, email: "carl@example.com", role: "member" });
  const link = app.linkTo("carl@example.com", "/auth/organization/invitation");
  await orgJson(carl, "accept", { invitationId: link.searchParams.get("id") as string, token: link.searchParams.get("token") as string });
  return { ada, carl, id };
}

describe("the organization page's API keys section", () => {
  it("managers see the organization's keys, create one (shown once) and revoke it; a member does not see the section", async () => {
    const app = apiKeysApp();
    const { ada, carl, id } = await organizationOf(app);
    const pageOf = async (browser: Browser, query = "") => (await browser.send(`/auth/organization?organizationId=${id}${query}`)).text();
    const page = await pageOf(ada);
    expect(page).toContain('<h2 id="organization-api-keys">Organization API keys</h2>');
    expect(page).toContain('name="scope.member:invite"');
    expect(await pageOf(carl)).not.toContain("organization-api-keys");

    const created = await post(ada, `/auth/api-keys/form-create?organizationId=${id}`, {
      name: "Invites bot",
      "scope.member:invite": "on",
    });
    expect(created.status).toBe(200);
    const shown = await created.text();
    const key = (shown.match(KEY) ?? [])[0] as string;
    expect(shown).toContain('id="organization-api-key-new"');
    expect(await app.auth.api.verifyApiKey(app.bearing(key))).toMatchObject({ organizationId: id, scopes: ["member:invite"] });
    const listedPage = await pageOf(ada);
    expect(listedPage).not.toContain(key);
    expect(listedPage).toContain("Invites bot");

    // A scope beyond the role, and Carl's forged form: back on the organization page, nothing made.
    const beyond = await post(carl, `/auth/api-keys/form-create?organizationId=${id}`, { name: "x", "scope.organization:read": "on" });
    expect(beyond.headers.get("location")).toBe(`${ORIGIN}/auth/organization?organizationId=${id}&error=OrganizationForbidden`);
    expect(app.keys.keys.size).toBe(1);

    const record = [...app.keys.keys.values()][0];
    const revoked = await post(ada, `/auth/api-keys/form-revoke?organizationId=${id}`, { keyId: record?.id as string });
    expect(revoked.headers.get("location")).toBe(`${ORIGIN}/auth/organization?organizationId=${id}&done=apiKeyRevoked`);
    expect(await pageOf(ada, "&done=apiKeyRevoked")).toContain("The API key was revoked.");
    await expect(app.auth.api.verifyApiKey(app.bearing(key))).rejects.toMatchObject({ type: "InvalidApiKey" });
  }, 120_000);
});

describe("in Chromium", () => {
  let chromium: Chromium;
  let server: NodeServer;
  let app: ReturnType<typeof apiKeysApp>;
  beforeAll(async () => {
    let handle: (request: Request) => Promise<Response> = async () => new Response(null, { status: 503 });
    server = await startNodeServer((request) => handle(request), { host: "127.0.0.1" });
    app = apiKeysApp({}, undefined, server.origin);
    handle = (request) => app.auth.handler(request);
    chromium = await launchChromium();
  });
  afterAll(async () => {
    await chromium?.close();
    await server?.close();
  });

  it("the section is accessible (axe) on the page, after a create and after a revoke", async () => {
    const ada = await app.signedUp("ada@example.com");
    await app.auth.api.createApiKey(app.as(ada), { name: "Existing", scopes: ["projects:write"] });
    const { context, page, problems } = await openWatchedTab(chromium, true);
    await context.addCookies(
      [...ada.jar.cookies.values()].map((cookie) => ({ name: cookie.name, value: cookie.value, url: server.origin })),
    );
    await page.goto(`${server.origin}/auth/account`);
    await expect.poll(() => page.locator("#api-keys").textContent()).toBe("API keys");
    expect(await axeViolations(page)).toEqual([]);

    await page.fill("#api-key-name", "From the browser");
    await page.check('input[name="scope.projects:read"]');
    await page.check('input[name="scope.projects:write"]');
    await page.click('form[action$="/api-keys/form-create"] button[type="submit"]');
    const newKey = page.locator("#api-key-new");
    await expect.poll(() => newKey.inputValue()).toMatch(/^acme_[0-9A-Za-z]{54}$/);
    // Both checked scopes (one field each) are the key's.
    expect((await app.auth.api.verifyApiKey(app.bearing(await newKey.inputValue()))).scopes.sort()).toEqual([
      "projects:read",
      "projects:write",
    ]);
    expect(await axeViolations(page)).toEqual([]);

    await page.click('button[aria-label="Revoke: Existing"]');
    await expect.poll(() => page.url()).toContain("done=apiKeyRevoked");
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it("the organization page with its keys section is accessible (axe), after a create", async () => {
    const ada = await app.signedUp("ada-org@example.com");
    const id = (await orgJson(ada, "create", { name: "Axe Inc", slug: "axe-inc" })).body.organization.id as string;
    const { context, page, problems } = await openWatchedTab(chromium, true);
    await context.addCookies(
      [...ada.jar.cookies.values()].map((cookie) => ({ name: cookie.name, value: cookie.value, url: server.origin })),
    );
    await page.goto(`${server.origin}/auth/organization?organizationId=${id}`);
    await expect.poll(() => page.locator("#organization-api-keys").textContent()).toBe("Organization API keys");
    expect(await axeViolations(page)).toEqual([]);
    await page.fill("#organization-api-key-name", "Bot");
    await page.check('input[name="scope.member:invite"]');
    await page.click('form[action*="/api-keys/form-create"] button[type="submit"]');
    await expect.poll(() => page.locator("#organization-api-key-new").inputValue()).toMatch(/^acme_[0-9A-Za-z]{54}$/);
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);
});
