/**
 * A client no one here wrote, `openid-client`, against the authorization server over HTTP: discovery (both
 * well-known documents), the code flow with PKCE as a confidential and as a public client, ID token
 * validation, userinfo, refresh (rotated), revocation and introspection; and the device flow polled while
 * the browser approves it.
 */
import * as client from "openid-client";
import type { Browser as Chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, openWatchedTab } from "../helpers/chromium.js";
import { authorizeIn, type Browser, PASSWORD, startServerApp } from "./app.js";

const SECRET = "confidential-client-secret-0123456789abcdef";
const CONFIDENTIAL_REDIRECT = "https://app.example/callback";
const NATIVE_REDIRECT = "http://127.0.0.1/callback";

let app: Awaited<ReturnType<typeof startServerApp>>;
let ada: Browser & { userId: string };
let chromium: Chromium;

beforeAll(async () => {
  app = await startServerApp({
    config: {
      authorizationServer: {
        scopes: { "read:projects": { description: "Read your projects" } },
        clients: [
          { clientId: "web", clientSecret: SECRET, name: "Web App", redirectUris: [CONFIDENTIAL_REDIRECT] },
          {
            clientId: "cli",
            name: "The CLI",
            redirectUris: [NATIVE_REDIRECT],
            grantTypes: ["authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"],
          },
        ],
      },
    },
  });
  [ada, chromium] = await Promise.all([app.signedUp("ada@example.com"), launchChromium()]);
});

afterAll(async () => {
  await chromium?.close();
  await app.close();
});

const insecure = { execute: [client.allowInsecureRequests] };

async function codeFlow(config: client.Configuration, redirectUri: string, scope: string) {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
    nonce,
  });
  const { location } = await authorizeIn(ada, url.href);
  expect(location.startsWith(redirectUri)).toBe(true);
  return client.authorizationCodeGrant(config, new URL(location), {
    pkceCodeVerifier: verifier,
    expectedState: state,
    expectedNonce: nonce,
  });
}

describe("openid-client", () => {
  it("discovers the server by OpenID Connect Discovery and by RFC 8414, with the same issuer and endpoints", async () => {
    const oidc = await client.discovery(new URL(app.issuer), "web", undefined, client.ClientSecretBasic(SECRET), insecure);
    const oauth = await client.discovery(new URL(app.issuer), "web", undefined, client.ClientSecretBasic(SECRET), {
      ...insecure,
      algorithm: "oauth2",
    });
    expect(oidc.serverMetadata().issuer).toBe(app.issuer);
    expect(oauth.serverMetadata().issuer).toBe(app.issuer);
    expect(oauth.serverMetadata().token_endpoint).toBe(`${app.issuer}/oauth2/token`);
    expect(oidc.serverMetadata().code_challenge_methods_supported).toEqual(["S256"]);
    expect(app.server.requests.some((r) => r.path === "/.well-known/oauth-authorization-server/auth")).toBe(true);
  });

  it("as a confidential client: code + PKCE, ID token, userinfo, refresh (rotated), introspection, revocation", async () => {
    const config = await client.discovery(new URL(app.issuer), "web", undefined, client.ClientSecretBasic(SECRET), insecure);
    const tokens = await codeFlow(config, CONFIDENTIAL_REDIRECT, "openid email offline_access read:projects");
    const claims = tokens.claims();
    expect(claims?.sub).toBe(ada.userId);
    expect(claims?.aud).toBe("web");
    expect(claims?.email).toBe("ada@example.com");
    expect(tokens.token_type.toLowerCase()).toBe("bearer");
    expect(tokens.scope?.split(" ").sort()).toEqual(["email", "offline_access", "openid", "read:projects"]);
    const info = await client.fetchUserInfo(config, tokens.access_token, ada.userId);
    expect(info).toMatchObject({ sub: ada.userId, email: "ada@example.com", email_verified: true });

    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token as string);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(await client.tokenIntrospection(config, refreshed.access_token)).toMatchObject({
      active: true,
      sub: ada.userId,
      client_id: "web",
      scope: "openid email offline_access read:projects",
    });
    // The rotated-out refresh token is dead (and using it again would be a reuse): introspection says so.
    expect((await client.tokenIntrospection(config, tokens.refresh_token as string)).active).toBe(false);

    await client.tokenRevocation(config, refreshed.refresh_token as string);
    expect((await client.tokenIntrospection(config, refreshed.access_token)).active).toBe(false);
    await expect(client.refreshTokenGrant(config, refreshed.refresh_token as string)).rejects.toMatchObject({ error: "invalid_grant" });
    await expect(client.fetchUserInfo(config, refreshed.access_token, ada.userId)).rejects.toThrow();
  });

  it("as a public client (PKCE, no secret) on a loopback redirect with any port", async () => {
    const config = await client.discovery(new URL(app.issuer), "cli", undefined, client.None(), insecure);
    const tokens = await codeFlow(config, "http://127.0.0.1:53682/callback", "openid offline_access");
    expect(tokens.claims()?.sub).toBe(ada.userId);
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token as string);
    expect(refreshed.access_token).toBeTruthy();
    // A public client may not introspect.
    await expect(client.tokenIntrospection(config, refreshed.access_token)).rejects.toMatchObject({ error: "invalid_client" });
  });

  it("the device flow: the CLI polls while the signed-in user types the code and allows it", async () => {
    const config = await client.discovery(new URL(app.issuer), "cli", undefined, client.None(), insecure);
    const started = await client.initiateDeviceAuthorization(config, { scope: "openid read:projects" });
    expect(started.verification_uri).toBe(`${app.issuer}/oauth2/device`);
    expect(started.user_code).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
    const polled = client.pollDeviceAuthorizationGrant(config, { ...started, interval: 1 });
    // The user opens the page, types the code (lower case, no dash: normalised), and allows.
    const page = await ada.send(`/auth/oauth2/device`);
    expect(page.status).toBe(200);
    const csrfToken = await ada.csrf();
    const consent = await ada.send("/auth/oauth2/device", {
      form: { csrfToken, user_code: started.user_code.replace("-", "").toLowerCase() },
    });
    expect(consent.status).toBe(200);
    const html = await consent.text();
    expect(html).toContain("The CLI");
    const sealed = /name="request" value="([^"]+)"/.exec(html)?.[1] as string;
    const done = await ada.send("/auth/oauth2/consent", { form: { csrfToken: await ada.csrf(), request: sealed, decision: "allow" } });
    expect(done.status).toBe(200);
    const tokens = await polled;
    expect(tokens.claims()?.sub).toBe(ada.userId);
    expect(tokens.scope).toBe("openid read:projects");
  });

  it("the device flow approved in Chromium: the user opens verification_uri_complete, signs in, checks the code and allows", async () => {
    const config = await client.discovery(new URL(app.issuer), "cli", undefined, client.None(), insecure);
    const started = await client.initiateDeviceAuthorization(config, { scope: "openid" });
    const polled = client.pollDeviceAuthorizationGrant(config, { ...started, interval: 1 });
    const { context, page, problems } = await openWatchedTab(chromium);
    try {
      await page.goto(started.verification_uri_complete as string);
      await page.waitForURL((at) => at.pathname === "/auth/signin");
      const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Sign in with Password" }) });
      await form.getByLabel("Email").fill("ada@example.com");
      await form.getByLabel("Password").fill(PASSWORD);
      await Promise.all([
        page.waitForURL((at) => at.pathname === "/auth/oauth2/device"),
        form.getByRole("button", { name: "Sign in with Password" }).click(),
      ]);
      // The page holds the code the device showed; the user checks it and continues.
      await expect(page.getByLabel("Code").inputValue()).resolves.toBe(started.user_code);
      await Promise.all([page.waitForLoadState(), page.getByRole("button", { name: "Continue" }).click()]);
      const consent = (await page.locator("main").textContent()) ?? "";
      expect(consent).toContain("The CLI");
      expect(consent).toContain(started.user_code);
      await Promise.all([page.waitForLoadState(), page.getByRole("button", { name: "Allow" }).click()]);
      await expect(page.locator("main").textContent()).resolves.toContain("You can go back to your device");
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
    const tokens = await polled;
    expect(tokens.claims()?.sub).toBe(ada.userId);
  });
});
