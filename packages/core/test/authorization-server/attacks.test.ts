/**
 * The attacks on the authorization server, each a named test that would pass if its defence broke: code
 * replay, PKCE missing or downgraded, redirect URIs that are almost the client's, refresh-token reuse,
 * consent CSRF and a consent form shown to someone else, `prompt=none` without a session, the mix-up
 * defence (`iss`), a device code approved twice, and a stolen session authorizing a new client.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { pkceChallenge } from "../../src/features/authorization-server/pkce.js";
import { authorizeIn, type Browser, post, startServerApp } from "./app.js";

const REDIRECT = "https://app.example/callback";
const SECRET = "confidential-client-secret-0123456789abcdef";
const VERIFIER = "a-verifier-that-is-long-enough-0123456789-abcdefghijkl";

let app: Awaited<ReturnType<typeof startServerApp>>;
let ada: Browser & { userId: string };

beforeAll(async () => {
  app = await startServerApp({
    config: {
      authorizationServer: {
        resources: ["https://api.example/a", "https://api.example/b"],
        clients: [
          { clientId: "web", clientSecret: SECRET, name: "Web App", redirectUris: [REDIRECT] },
          { clientId: "native", name: "Native", redirectUris: ["http://127.0.0.1/cb", "com.example.app:/cb"] },
          { clientId: "cli", name: "CLI", redirectUris: [], grantTypes: ["urn:ietf:params:oauth:grant-type:device_code"] },
        ],
      },
    },
  });
  ada = await app.signedUp("ada@example.com");
});

afterAll(async () => {
  await app.close();
});

async function authorizeUrl(params: Record<string, string> = {}): Promise<string> {
  const query = new URLSearchParams({
    client_id: "web",
    redirect_uri: REDIRECT,
    response_type: "code",
    scope: "offline_access",
    state: "s1",
    code_challenge: await pkceChallenge(VERIFIER),
    code_challenge_method: "S256",
    ...params,
  });
  for (const [name, value] of Object.entries(params)) if (value === "") query.delete(name);
  return `${app.issuer}/oauth2/authorize?${query}`;
}

async function tokenRequest(form: Record<string, string>, auth = `Basic ${btoa(`web:${SECRET}`)}`) {
  const response = await fetch(`${app.issuer}/oauth2/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: auth },
    body: new URLSearchParams(form),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

async function codeFor(browser: Browser = ada, params: Record<string, string> = {}): Promise<string> {
  const { location } = await authorizeIn(browser, await authorizeUrl(params));
  const code = new URL(location).searchParams.get("code");
  if (!code) throw new Error(`no code: ${location}`);
  return code;
}

const exchange = (code: string, verifier = VERIFIER) =>
  tokenRequest({ grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier });

describe("attacks on the authorization server", () => {
  it("code replay: the second exchange fails and revokes what the first one issued", async () => {
    const code = await codeFor();
    const first = await exchange(code);
    expect(first.status).toBe(200);
    const second = await exchange(code);
    expect(second).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    const refreshed = await tokenRequest({ grant_type: "refresh_token", refresh_token: first.body.refresh_token });
    expect(refreshed.body.error).toBe("invalid_grant");
    const grants = [...app.oauth.grants.values()].filter((grant) => grant.userId === ada.userId);
    expect(grants.some((grant) => grant.revokedAt !== null)).toBe(true);
  });

  it("PKCE: a missing verifier, a wrong one, a missing challenge and the plain method are refused", async () => {
    const code = await codeFor();
    expect((await tokenRequest({ grant_type: "authorization_code", code, redirect_uri: REDIRECT })).body.error).toBe("invalid_request");
    expect((await exchange(code, `${VERIFIER}x`)).body.error).toBe("invalid_grant");
    // Refused before use: the right verifier still works once.
    expect((await exchange(code)).status).toBe(200);
    for (const params of [
      { code_challenge: "" },
      { code_challenge_method: "plain", code_challenge: VERIFIER },
      { code_challenge_method: "" },
    ]) {
      const { location } = await authorizeIn(ada, await authorizeUrl(params));
      const back = new URL(location);
      expect(back.origin + back.pathname).toBe(REDIRECT);
      expect(back.searchParams.get("error")).toBe("invalid_request");
      expect(back.searchParams.get("code")).toBeNull();
    }
  });

  it("redirect URIs that are almost the client's are shown the error page, never redirected to", async () => {
    for (const redirect of [
      "https://app.example/callbacks",
      "https://app.example/callback/",
      "https://app.example/callback/x",
      "https://app.example:444/callback",
      "https://app.example.evil/callback",
      "http://app.example/callback",
      "https://APP.example/callback?x=1",
    ]) {
      const opened = await ada.send(await authorizeUrl({ redirect_uri: redirect }));
      expect(opened.headers.get("location") ?? "").not.toContain("app.example");
      expect(opened.status === 302 ? opened.headers.get("location") : "error-page").toMatch(/error/);
    }
    // A loopback redirect of a native client takes any port, but not another path or host.
    const native = (redirect: string) => authorizeUrl({ client_id: "native", redirect_uri: redirect }).then((url) => ada.send(url));
    expect((await native("http://127.0.0.1:61234/cb")).status).toBe(200);
    expect((await native("http://127.0.0.1:61234/cb2")).headers.get("location") ?? "").not.toContain("127.0.0.1");
    expect((await native("http://127.0.0.2:61234/cb")).headers.get("location") ?? "").not.toContain("127.0.0.2");
  });

  it("the code is bound to its redirect_uri at the token endpoint", async () => {
    const code = await codeFor();
    const other = await tokenRequest({ grant_type: "authorization_code", code, redirect_uri: `${REDIRECT}/x`, code_verifier: VERIFIER });
    expect(other.body.error).toBe("invalid_grant");
  });

  it("refresh reuse: an old refresh token used after rotation kills the whole family", async () => {
    const tokens = (await exchange(await codeFor())).body;
    const next = await tokenRequest({ grant_type: "refresh_token", refresh_token: tokens.refresh_token });
    expect(next.status).toBe(200);
    const reused = await tokenRequest({ grant_type: "refresh_token", refresh_token: tokens.refresh_token });
    expect(reused.body.error).toBe("invalid_grant");
    // The newest token, in the right hands, died with the family.
    const after = await tokenRequest({ grant_type: "refresh_token", refresh_token: next.body.refresh_token });
    expect(after.body.error).toBe("invalid_grant");
    const audit = await fetch(`${app.issuer}/oauth2/introspect`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${btoa(`web:${SECRET}`)}` },
      body: new URLSearchParams({ token: next.body.access_token }),
    });
    expect(await audit.json()).toEqual({ active: false });
  });

  it("a forged refresh token for a real grant is refused and kills nothing", async () => {
    const tokens = (await exchange(await codeFor())).body;
    const [grantId] = (tokens.refresh_token as string).split(".");
    const forged = await tokenRequest({ grant_type: "refresh_token", refresh_token: `${grantId}.0.${"0".repeat(64)}` });
    expect(forged.body.error).toBe("invalid_grant");
    expect((await tokenRequest({ grant_type: "refresh_token", refresh_token: tokens.refresh_token })).status).toBe(200);
  });

  it("another client cannot exchange the code, nor use the refresh token", async () => {
    const code = await codeFor();
    const asNative = await tokenRequest(
      { grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: VERIFIER, client_id: "native" },
      "",
    );
    expect(asNative.body.error).toBe("invalid_grant");
    const wrongSecret = await exchange(code).then(() =>
      tokenRequest({ grant_type: "refresh_token", refresh_token: "x" }, `Basic ${btoa("web:wrong")}`),
    );
    expect(wrongSecret).toMatchObject({ status: 401, body: { error: "invalid_client" } });
  });

  it("a confidential client cannot present itself as a public one", async () => {
    const code = await codeFor();
    const asPublic = await tokenRequest(
      { grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: VERIFIER, client_id: "web" },
      "",
    );
    expect(asPublic).toMatchObject({ status: 401, body: { error: "invalid_client" } });
  });

  it("a token for resource A is refused at B: the token carries its audience, and B is not granted", async () => {
    const code = await codeFor(ada, { resource: "https://api.example/a" });
    const tokens = (await exchange(code)).body;
    const payload = JSON.parse(Buffer.from((tokens.access_token as string).split(".")[1] as string, "base64url").toString());
    expect(payload.aud).toBe("https://api.example/a");
    const widened = await tokenRequest({
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      resource: "https://api.example/b",
    });
    expect(widened.body.error).toBe("invalid_target");
    const { location } = await authorizeIn(ada, await authorizeUrl({ resource: "https://elsewhere.example/" }));
    expect(new URL(location).searchParams.get("error")).toBe("invalid_target");
  });

  it("two resources (RFC 8707): both granted, the token for both, a refreshed one narrowed to one", async () => {
    const url = new URL(await authorizeUrl({ resource: "https://api.example/a" }));
    url.searchParams.append("resource", "https://api.example/b");
    const { location } = await authorizeIn(ada, url.href);
    const code = new URL(location).searchParams.get("code") as string;
    const body = new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: VERIFIER });
    body.append("resource", "https://api.example/a");
    body.append("resource", "https://api.example/b");
    const response = await fetch(`${app.issuer}/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${btoa(`web:${SECRET}`)}` },
      body,
    });
    const tokens = (await response.json()) as Record<string, string>;
    const audienceOf = (token: string) => JSON.parse(Buffer.from(token.split(".")[1] as string, "base64url").toString()).aud;
    expect(audienceOf(tokens.access_token as string)).toEqual(["https://api.example/a", "https://api.example/b"]);
    const narrowed = await tokenRequest({
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token as string,
      resource: "https://api.example/b",
    });
    expect(audienceOf(narrowed.body.access_token)).toBe("https://api.example/b");
  });

  it("a parameter sent twice is invalid_request (RFC 6749 §3.1), and the code it carried is not spent", async () => {
    const code = await codeFor();
    const body = new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: VERIFIER });
    body.append("redirect_uri", "https://attacker.example/callback");
    const response = await fetch(`${app.issuer}/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${btoa(`web:${SECRET}`)}` },
      body,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: "invalid_request",
      error_description: '"redirect_uri" must be given once, as a string.',
    });
    expect((await exchange(code)).status).toBe(200);
  });

  it("mix-up: every answer to the client carries iss, success or error", async () => {
    const { location } = await authorizeIn(ada, await authorizeUrl());
    expect(new URL(location).searchParams.get("iss")).toBe(app.issuer);
    const denied = await authorizeIn(ada, await authorizeUrl({ scope: "openid", prompt: "consent" }), "deny");
    const back = new URL(denied.location);
    expect(back.searchParams.get("error")).toBe("access_denied");
    expect(back.searchParams.get("iss")).toBe(app.issuer);
    expect(back.searchParams.get("state")).toBe("s1");
  });

  it("prompt=none without a session is login_required; without consent, consent_required", async () => {
    const stranger = (await import("../helpers/auth-client.js")).httpClient(app.origin);
    const signedOut = await stranger.send(await authorizeUrl({ prompt: "none" }));
    expect(new URL(signedOut.headers.get("location") as string).searchParams.get("error")).toBe("login_required");
    const grace = await app.signedUp("grace@example.com");
    const noConsent = await grace.send(await authorizeUrl({ prompt: "none", scope: "openid" }));
    expect(new URL(noConsent.headers.get("location") as string).searchParams.get("error")).toBe("consent_required");
    // Signed out without prompt=none: the sign-in page, coming back to the request.
    const toSignIn = await stranger.send(await authorizeUrl());
    const signIn = new URL(toSignIn.headers.get("location") as string);
    expect(signIn.pathname).toBe("/auth/signin");
    expect(signIn.searchParams.get("callbackUrl")).toContain("/auth/oauth2/authorize?");
  });

  it("consent CSRF: a decision without the form's token, or from another user's form, changes nothing", async () => {
    const opened = await ada.send(await authorizeUrl({ scope: "openid profile", prompt: "consent" }));
    const html = await opened.text();
    const sealed = /name="request" value="([^"]+)"/.exec(html)?.[1] as string;
    const noToken = await ada.send("/auth/oauth2/consent", { form: { request: sealed, decision: "allow" } });
    expect(noToken.headers.get("location") ?? "").not.toContain(REDIRECT);
    const grace = await app.signedUp("grace2@example.com");
    const graceToken = await grace.csrf();
    const stolen = await grace.send("/auth/oauth2/consent", { form: { csrfToken: graceToken, request: sealed, decision: "allow" } });
    expect(stolen.headers.get("location") ?? "").not.toContain(REDIRECT);
    expect(await app.store.getOAuthConsent?.(grace.userId, "web")).toBeNull();
    // The page cannot be framed.
    expect(opened.headers.get("content-security-policy") ?? "").toContain("frame-ancestors 'none'");
  });

  it("a stolen session cannot authorize a new client: an old sign-in signs in again first", async () => {
    vi.useFakeTimers({ now: Date.now() + 11 * 60 * 1000, toFake: ["Date"] });
    try {
      const opened = await ada.send(await authorizeUrl({ scope: "openid email", prompt: "consent" }));
      expect(opened.status).toBe(302);
      const signIn = new URL(opened.headers.get("location") as string);
      expect(signIn.pathname).toBe("/auth/signin");
      expect(signIn.searchParams.get("error")).toBe("RecentSignInRequired");
    } finally {
      vi.useRealTimers();
    }
  });

  it("a device code is approved once: another user's later approval of the same code is refused, and the tokens are the first user's", async () => {
    const started = await fetch(`${app.issuer}/oauth2/device_authorization`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ client_id: "cli", scope: "openid" }),
    });
    const device = (await started.json()) as Record<string, string>;
    const consentFor = async (browser: Browser) => {
      const page = await browser.send("/auth/oauth2/device", {
        form: { csrfToken: await browser.csrf(), user_code: device.user_code as string },
      });
      return /name="request" value="([^"]+)"/.exec(await page.text())?.[1] as string;
    };
    const grace = await app.signedUp("grace3@example.com");
    const adaForm = await consentFor(ada);
    const graceForm = await consentFor(grace);
    const decide = async (browser: Browser, sealed: string) =>
      browser.send("/auth/oauth2/consent", { form: { csrfToken: await browser.csrf(), request: sealed, decision: "allow" } });
    expect((await decide(ada, adaForm)).status).toBe(200);
    expect((await decide(grace, graceForm)).status).toBe(400);
    // Nor can Grace submit the form shown to Ada.
    expect((await decide(grace, adaForm)).status).not.toBe(200);
    const tokens = await fetch(`${app.issuer}/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        client_id: "cli",
        grant_type: "urn:ietf:params:oauth:grant-type:device_code",
        device_code: device.device_code as string,
      }),
    });
    const body = (await tokens.json()) as Record<string, string>;
    const claims = JSON.parse(Buffer.from((body.access_token as string).split(".")[1] as string, "base64url").toString());
    expect(claims.sub).toBe(ada.userId);
  });

  it("a device that polls too fast is told slow_down, with a longer interval", async () => {
    const started = await fetch(`${app.issuer}/oauth2/device_authorization`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ client_id: "cli" }),
    });
    const device = (await started.json()) as Record<string, string>;
    const poll = async () =>
      (await (
        await fetch(`${app.issuer}/oauth2/token`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({
            client_id: "cli",
            grant_type: "urn:ietf:params:oauth:grant-type:device_code",
            device_code: device.device_code as string,
          }),
        })
      ).json()) as Record<string, string>;
    expect((await poll()).error).toBe("authorization_pending");
    const fast = await poll();
    expect(fast.error).toBe("slow_down");
    expect(fast.error_description).toContain("10 seconds");
  });

  it("a new consent mails the owner", async () => {
    const before = app.mails.filter((mail) => mail.to === "ada@example.com").length;
    await codeFor(ada, { scope: "openid email profile", prompt: "consent" });
    const mails = app.mails.filter((mail) => mail.to === "ada@example.com");
    expect(mails.length).toBe(before + 1);
    expect(mails.at(-1)?.text).toContain("An application was given access to your account");
  });

  it("a password reset revokes the user's grants (their sessions all end, and what else lets someone in with them)", async () => {
    const grace = await app.signedUp("grace-reset@example.com");
    const tokens = (await exchange(await codeFor(grace))).body;
    const stranger = (await import("../helpers/auth-client.js")).httpClient(app.origin);
    await post(stranger, "/auth/password/forgot", { email: "grace-reset@example.com" });
    const link = app.linkTo("grace-reset@example.com", "/auth/password/reset");
    const reset = await post(stranger, "/auth/password/reset", {
      token: link.searchParams.get("token") as string,
      password: "another long password 5678",
    });
    expect(reset.status).toBe(302);
    expect((await tokenRequest({ grant_type: "refresh_token", refresh_token: tokens.refresh_token })).body.error).toBe("invalid_grant");
  });

  it("an ended session everywhere revokes the user's grants", async () => {
    const tokens = (await exchange(await codeFor())).body;
    await post(ada, "/auth/sessions/revoke", { all: "others" });
    expect((await tokenRequest({ grant_type: "refresh_token", refresh_token: tokens.refresh_token })).body.error).toBe("invalid_grant");
  });
});
