/**
 * The authorization server's pages over real HTTP: the consent page (the client's name, where the browser
 * goes back to, each scope in words, who is signed in; in the request's language), a sensitive scope on a
 * one-factor session (the page says why and offers no approval, and a forged approval is refused), the
 * device pages, and the user's grants: the "Connected applications" section of the account page with its
 * revoke form, `GET oauth2/grants` and `POST oauth2/revoke-grant`, and `auth.api.listGrants`/`revokeGrant`.
 * A revoked grant's refresh token fails at the token endpoint; another user's grant id is a 404 that
 * changes nothing. axe-core (in Debian's Chromium) finds no WCAG 2.1 A/AA violation on the consent and
 * device pages.
 */
import type { Browser as Chromium } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { pkceChallenge } from "../../src/features/authorization-server/pkce.js";
import { createAuth } from "../../src/kernel/instance.js";
import { formOf, httpClient } from "../helpers/auth-client.js";
import { axeViolations, launchChromium, openWatchedTab } from "../helpers/chromium.js";
import { authorizeIn, type Browser, post, startServerApp } from "./app.js";

const REDIRECT = "https://app.example/callback";
const SECRET = "confidential-client-secret-0123456789abcdef";
const VERIFIER = "a-verifier-that-is-long-enough-0123456789-abcdefghijkl";
const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

let app: Awaited<ReturnType<typeof startServerApp>>;
let auth: ReturnType<typeof createAuth>;
let ada: Browser & { userId: string };
let bob: Browser & { userId: string };

beforeAll(async () => {
  app = await startServerApp({
    config: {
      authorizationServer: {
        scopes: {
          "read:projects": { description: "Read your projects" },
          "admin:all": { description: "Administer everything", sensitive: true },
        },
        clients: [
          { clientId: "web", clientSecret: SECRET, name: "Web App", redirectUris: [REDIRECT] },
          { clientId: "cli", name: "Terminal", redirectUris: [], grantTypes: [DEVICE_GRANT] },
        ],
      },
    },
  });
  auth = createAuth(app.config);
  ada = await app.signedUp("ada@example.com");
  bob = await app.signedUp("bob@example.com");
});

afterAll(async () => {
  await app.close();
});

async function authorizeUrl(scope: string): Promise<string> {
  const query = new URLSearchParams({
    client_id: "web",
    redirect_uri: REDIRECT,
    response_type: "code",
    scope,
    state: "s1",
    code_challenge: await pkceChallenge(VERIFIER),
    code_challenge_method: "S256",
    prompt: "consent",
  });
  return `${app.issuer}/oauth2/authorize?${query}`;
}

async function tokenRequest(form: Record<string, string>) {
  const response = await fetch(`${app.issuer}/oauth2/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${btoa(`web:${SECRET}`)}` },
    body: new URLSearchParams(form),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

/** A grant of `scope` to "Web App", allowed on the consent page and its code exchanged: its id and refresh token. */
async function grantOf(browser: Browser, scope = "openid offline_access read:projects") {
  const { location } = await authorizeIn(browser, await authorizeUrl(scope));
  const code = new URL(location).searchParams.get("code");
  if (!code) throw new Error(`no code: ${location}`);
  const tokens = await tokenRequest({ grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: VERIFIER });
  expect(tokens.status).toBe(200);
  const claims = JSON.parse(Buffer.from((tokens.body.access_token as string).split(".")[1] as string, "base64url").toString());
  expect(claims.grant_id).toMatch(/^[0-9a-f]{32}$/);
  return { grantId: claims.grant_id as string, refreshToken: tokens.body.refresh_token as string };
}

const refreshWith = (refreshToken: string) => tokenRequest({ grant_type: "refresh_token", refresh_token: refreshToken });

/** A request of `browser`'s session, for `auth.api`. */
const requestOf = (browser: Browser) => new Request(`${app.origin}/app`, { headers: { cookie: browser.jar.header() } });

async function consentPage(browser: Browser, scope: string, language = "en") {
  const response = await browser.send(await authorizeUrl(scope), { headers: { "accept-language": language } });
  expect(response.status).toBe(200);
  return response.text();
}

/** Starts a device authorization of the "Terminal" client: its user code and device code. */
async function deviceStarted(scope = "openid") {
  const started = await fetch(`${app.issuer}/oauth2/device_authorization`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ client_id: "cli", scope }),
  });
  expect(started.status).toBe(200);
  return (await started.json()) as { user_code: string; device_code: string };
}

describe("the consent page", () => {
  it("shows the client, the redirect host, each scope in words and the signed-in account", async () => {
    const html = await consentPage(ada, "openid profile email offline_access read:projects");
    expect(html).toContain('<html lang="en"');
    expect(html).toContain("Allow access to your account?");
    expect(html).toContain("<strong>Web App</strong> asks to use your account.");
    expect(html).toContain("After you decide, you go back to app.example.");
    // The built-in scopes from the catalog, the app's own scope by its description; each with its name.
    for (const [text, scope] of [
      ["Know who you are", "openid"],
      ["See your name and picture", "profile"],
      ["See your email address", "email"],
      ["Keep this access when you are not using it", "offline_access"],
      ["Read your projects", "read:projects"],
    ])
      expect(html).toContain(`<li>${text} <code>${scope}</code></li>`);
    expect(html).toContain("You are signed in as ada@example.com.");
    expect(html).toContain('name="decision" value="allow"');
    expect(html).toContain('name="decision" value="deny"');
    expect(html).not.toContain('role="alert"');
  });

  it("is in German for Accept-Language: de", async () => {
    const html = await consentPage(ada, "openid read:projects", "de");
    expect(html).toContain('<html lang="de"');
    expect(html).toContain("Zugriff auf Ihr Konto erlauben?");
    expect(html).toContain("<strong>Web App</strong> möchte Ihr Konto verwenden.");
    expect(html).toContain("Nach Ihrer Entscheidung kehren Sie zu app.example zurück.");
    expect(html).toContain("<li>Wissen, wer Sie sind <code>openid</code></li>");
    // The app's own description is the app's text, in the app's words.
    expect(html).toContain("<li>Read your projects <code>read:projects</code></li>");
    expect(html).toContain("Sie sind als ada@example.com angemeldet.");
    expect(html).toMatch(/value="allow">Erlauben<\/button>/);
    expect(html).toMatch(/value="deny">Ablehnen<\/button>/);
    expect(html).not.toContain("Allow access");
  });

  it("a sensitive scope on a one-factor session: the second-factor alert and no Allow button; a forged allow is refused", async () => {
    const grace = await app.signedUp("grace@example.com");
    const html = await consentPage(grace, "openid admin:all");
    expect(html).toContain("<li>Administer everything <code>admin:all</code></li>");
    expect(html).toMatch(/<div class="alert" role="alert"><p>Some of this access needs a sign-in with your second factor\./);
    expect(html).not.toContain('value="allow"');
    expect(html).toContain('name="decision" value="deny"');
    const form = formOf(html);
    if (!form) throw new Error("no form on the consent page");
    const forged = await grace.send(form.action, { form: { ...form.fields, decision: "allow" } });
    // Refused on the server (the error page), never a code for the client.
    expect(forged.status).toBe(302);
    expect(forged.headers.get("location")).toMatch(new RegExp(`^${app.issuer}/error\\?`));
    expect(await app.store.getOAuthConsent?.(grace.userId, "web")).toBeNull();
    expect(await auth.api.listGrants(requestOf(grace))).toEqual([]);
  });
});

describe("the device pages", () => {
  it("the code form, then the consent page for the device's client, then the page after the decision", async () => {
    const form = await ada.send("/auth/oauth2/device");
    expect(form.status).toBe(200);
    const formHtml = await form.text();
    expect(formHtml).toContain("Connect a device");
    expect(formHtml).toContain('<label for="user_code">Code</label>');
    const device = await deviceStarted("openid profile");
    const consent = await post(ada, "/auth/oauth2/device", { user_code: device.user_code.toLowerCase() });
    expect(consent.status).toBe(200);
    const consentHtml = await consent.text();
    expect(consentHtml).toContain("<strong>Terminal</strong> asks to use your account.");
    expect(consentHtml).toContain(`The request comes from the device that shows the code ${device.user_code}.`);
    expect(consentHtml).toContain("<li>See your name and picture <code>profile</code></li>");
    expect(consentHtml).not.toContain("you go back to");
    const decisionForm = formOf(consentHtml);
    if (!decisionForm) throw new Error("no form on the consent page");
    const done = await ada.send(decisionForm.action, { form: { ...decisionForm.fields, decision: "allow" } });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain("Done. You can go back to your device.");
  });

  it("a code that is not one is the form again, saying so", async () => {
    const refused = await post(ada, "/auth/oauth2/device", { user_code: "BCDF-GHJK" });
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain('role="alert"');
    expect(html).toContain("This code is not valid, was used, or has expired.");
    expect(html).toContain('value="BCDF-GHJK"');
  });
});

describe("the user's grants", () => {
  it("the account page lists a grant with its client and scopes; its revoke form revokes it and says so", async () => {
    const { grantId, refreshToken } = await grantOf(ada);
    const account = await ada.send("/auth/account");
    expect(account.status).toBe(200);
    const html = await account.text();
    expect(html).toContain('<h2 id="connected-applications">Connected applications</h2>');
    expect(html).toContain("<strong>Web App</strong> — <code>openid offline_access read:projects</code>");
    expect(html).toContain(`name="grantId" value="${grantId}"`);
    expect(html).toContain('aria-label="Revoke access: Web App"');
    const revokeForm = [...html.matchAll(/<form action="([^"]*)" method="post">([\s\S]*?)<\/form>/g)].find((form) =>
      (form[2] as string).includes(`value="${grantId}"`),
    );
    expect(revokeForm?.[1]).toBe(`${app.issuer}/oauth2/grants-form`);
    const fields = formOf(revokeForm?.[0] as string)?.fields ?? {};
    expect(fields.grantId).toBe(grantId);
    const revoked = await ada.send(revokeForm?.[1] as string, { form: fields });
    expect(revoked.status).toBe(302);
    const back = revoked.headers.get("location") as string;
    expect(back).toBe(`${app.issuer}/account?done=grantRevoked`);
    const after = await (await ada.send(back)).text();
    expect(after).toContain("The application no longer has access to your account.");
    expect(after).not.toContain(`value="${grantId}"`);
    expect(await refreshWith(refreshToken)).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
  });

  it("GET oauth2/grants lists them as JSON; POST oauth2/revoke-grant (with the CSRF token) revokes one", async () => {
    const { grantId, refreshToken } = await grantOf(ada, "openid offline_access");
    const listed = await ada.send("/auth/oauth2/grants");
    expect(listed.status).toBe(200);
    const { grants } = (await listed.json()) as { grants: Array<Record<string, unknown>> };
    expect(grants.find((grant) => grant.id === grantId)).toMatchObject({
      clientId: "web",
      clientName: "Web App",
      scopes: ["openid", "offline_access"],
      refreshable: true,
    });
    // Without the CSRF token, nothing is revoked.
    const unproven = await ada.send("/auth/oauth2/revoke-grant", { form: { grantId } });
    expect(unproven.status).not.toBe(200);
    expect((await refreshWith(refreshToken)).status).toBe(200);
    const revoked = await post(ada, "/auth/oauth2/revoke-grant", { grantId });
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toEqual({ revoked: true });
    const again = (await (await ada.send("/auth/oauth2/grants")).json()) as { grants: Array<{ id: string }> };
    expect(again.grants.map((grant) => grant.id)).not.toContain(grantId);
  });

  it("auth.api.listGrants and auth.api.revokeGrant do the same in process", async () => {
    const { grantId, refreshToken } = await grantOf(ada);
    const listed = await auth.api.listGrants(requestOf(ada));
    const grant = listed.find((each) => each.id === grantId);
    expect(grant).toMatchObject({ clientName: "Web App", scopes: ["openid", "offline_access", "read:projects"], refreshable: true });
    expect(grant?.createdAt).toBeInstanceOf(Date);
    await auth.api.revokeGrant(requestOf(ada), { grantId });
    expect((await auth.api.listGrants(requestOf(ada))).map((each) => each.id)).not.toContain(grantId);
    expect(await refreshWith(refreshToken)).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    await expect(auth.api.listGrants(new Request(`${app.origin}/app`))).rejects.toMatchObject({ type: "SessionRequired" });
  });

  it("another user's grant id is refused with 404 (form, JSON and auth.api) and changes nothing", async () => {
    const { grantId, refreshToken } = await grantOf(ada);
    const json = await post(bob, "/auth/oauth2/revoke-grant", { grantId });
    expect(json.status).toBe(404);
    const form = await post(bob, "/auth/oauth2/grants-form", { grantId });
    // The account page's form: back on the page, saying so (not the operator's error page).
    expect(form.status).toBe(302);
    expect(form.headers.get("location")).toBe(`${app.issuer}/account?error=OAuthError`);
    const shown = await (await bob.send(form.headers.get("location") as string)).text();
    expect(shown).toContain("That application is not connected to your account");
    await expect(auth.api.revokeGrant(requestOf(bob), { grantId })).rejects.toMatchObject({ type: "OAuthError", status: 404 });
    expect((await auth.api.listGrants(requestOf(ada))).map((each) => each.id)).toContain(grantId);
    expect(await auth.api.listGrants(requestOf(bob))).toEqual([]);
    expect((await refreshWith(refreshToken)).status).toBe(200);
  });
});

describe("revoking a grant is an owner-present operation", () => {
  afterEach(() => void vi.useRealTimers());

  it("a session copied 30 minutes after its sign-in revokes nothing (JSON, form, auth.api): RecentSignInRequired", async () => {
    const grace = await app.signedUp("grace-stolen@example.com");
    const { grantId, refreshToken } = await grantOf(grace);
    const thief = httpClient(app.origin);
    for (const [name, cookie] of grace.jar.cookies) thief.jar.cookies.set(name, cookie);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 30 * 60 * 1000 });
    const json = await post(thief, "/auth/oauth2/revoke-grant", { grantId });
    expect([json.status, await json.json()]).toEqual([403, { error: "RecentSignInRequired" }]);
    const form = await post(thief, "/auth/oauth2/grants-form", { grantId });
    expect(form.status).toBe(302);
    expect(form.headers.get("location")).toContain("error=RecentSignInRequired");
    await expect(auth.api.revokeGrant(requestOf(thief), { grantId })).rejects.toMatchObject({ type: "RecentSignInRequired" });
    expect((await auth.api.listGrants(requestOf(grace))).map((each) => each.id)).toContain(grantId);
    expect((await refreshWith(refreshToken)).status).toBe(200);
  });

  it("the owner's revoke mails them that an application lost its access; a repeated revoke mails nothing more", async () => {
    const { grantId } = await grantOf(ada);
    const mailsOf = () => app.mails.filter((mail) => mail.to === "ada@example.com");
    const before = mailsOf().length;
    expect((await post(ada, "/auth/oauth2/revoke-grant", { grantId })).status).toBe(200);
    expect(mailsOf().length).toBe(before + 1);
    expect(mailsOf().at(-1)?.text).toContain("An application’s access to your account was revoked.");
    expect((await post(ada, "/auth/oauth2/revoke-grant", { grantId })).status).toBe(200);
    expect(mailsOf().length).toBe(before + 1);
  });
});

describe("accessibility (axe-core in Chromium)", () => {
  let chromium: Chromium;

  beforeAll(async () => {
    chromium = await launchChromium();
  });

  afterAll(async () => {
    await chromium?.close();
  });

  it("the consent page and the device page have no WCAG 2.1 A/AA violation", async () => {
    const { context, page } = await openWatchedTab(chromium, true);
    try {
      await context.addCookies(
        [...ada.jar.cookies.values()].map(({ name, value }) => ({ name, value: encodeURIComponent(value), url: app.origin })),
      );
      for (const [url, heading] of [
        [await authorizeUrl("openid profile email offline_access read:projects"), "Allow access to your account?"],
        [await authorizeUrl("openid admin:all"), "Allow access to your account?"],
        [`${app.issuer}/oauth2/device`, "Connect a device"],
        [`${app.issuer}/oauth2/device?user_code=NOT-ACODE`, "Connect a device"],
      ]) {
        const response = await page.goto(url as string);
        expect(response?.status(), url).toBe(200);
        expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(heading);
        expect(await axeViolations(page), `axe on ${url}`).toEqual([]);
      }
    } finally {
      await context.close();
    }
  });
});
