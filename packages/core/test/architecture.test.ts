/**
 * The shape of core: the configuration is resolved once per object, a session check does only what it
 * needs, and the in-process API gives integrations the actions' results as data (no HTTP in between).
 */
import { describe, expect, it } from "vitest";
import { Auth, answerAuthRequest } from "../src/auth.js";
import * as errors from "../src/errors.js";
import { AuthError, CredentialsSignin, MissingCSRF, MissingSecret, UnknownAction, UntrustedHost } from "../src/errors.js";
import { getSession } from "../src/get-session.js";
import { serializeCookie } from "../src/http/response.js";
import * as core from "../src/index.js";
import { errorRedirect, failureCookies, readSession, runAuthAction } from "../src/integration.js";
import Credentials from "../src/providers/credentials.js";
import type { AuthConfig, Provider } from "../src/types.js";
import { authClient } from "./helpers/auth-client.js";

const secret = "architecture-secret-0123456789abcdefghij";
const ORIGIN = "http://localhost:3000";

/** A credentials preset (a provider factory, as `providers: [GitHub]` is) that counts its calls. */
function countingConfig(overrides: Partial<AuthConfig> = {}) {
  const counts = { preset: 0, redirect: 0, authorize: 0 };
  const preset: Provider = () => {
    counts.preset++;
    return Credentials({
      credentials: { username: {}, password: {} },
      authorize: ({ username, password }) => {
        counts.authorize++;
        return username === "ada" && password === "correct horse" ? { id: "1", name: "Ada", email: "ada@example.com" } : null;
      },
    });
  };
  const config: AuthConfig = {
    secret,
    trustHost: true,
    providers: [preset],
    callbacks: {
      redirect: ({ url, baseUrl }) => {
        counts.redirect++;
        const target = new URL(url, baseUrl);
        return target.origin === baseUrl ? target.href : baseUrl;
      },
    },
    logger: { error: () => {}, warn: () => {} },
    ...overrides,
  };
  return { config, counts };
}

async function signIn(client: ReturnType<typeof authClient>, callbackUrl = "/profile") {
  const csrfToken = await client.csrf();
  return client.send("/auth/callback/credentials", { form: { csrfToken, callbackUrl, username: "ada", password: "correct horse" } });
}

describe("the configuration is resolved once per configuration object", () => {
  it("1,000 requests (sessions, pages, CSRF, sign-in) with one config object call the provider preset once", async () => {
    const { config, counts } = countingConfig();
    const client = authClient(config);
    expect((await signIn(client)).status).toBe(302);
    for (let i = 0; i < 996; i++) {
      const path = ["/auth/session", "/auth/providers", "/auth/csrf", "/auth/signin"][i % 4] as string;
      expect((await client.send(path)).status).toBe(200);
    }
    expect((await getSession(new Request(`${ORIGIN}/`, { headers: { cookie: client.jar.header() } }), config)).data?.user?.name).toBe(
      "Ada",
    );
    expect((await readSession(new Request(`${ORIGIN}/`, { headers: { cookie: client.jar.header() } }), config)).session?.user?.name).toBe(
      "Ada",
    );
    expect(counts.preset).toBe(1);
  });

  it("a replaced top-level field is seen (the object is resolved again), so a config changed in place is never stale", async () => {
    const { config, counts } = countingConfig();
    const client = authClient(config);
    await signIn(client);
    config.callbacks = { ...config.callbacks, session: () => ({ expires: "", user: { name: "Replaced" } }) };
    expect((await client.session())?.user?.name).toBe("Replaced");
    expect(counts.preset).toBe(2);
  });

  it("a fresh object per request is resolved per request (why integrations should return one object)", async () => {
    const { config, counts } = countingConfig();
    for (let i = 0; i < 3; i++) await Auth(new Request(`${ORIGIN}/auth/session`), { ...config });
    expect(counts.preset).toBe(3);
  });

  it("a configuration error is logged once per configuration object, however many requests", async () => {
    const errors: string[] = [];
    const config: AuthConfig = { trustHost: true, providers: [], logger: { error: (e) => void errors.push(e.name) } };
    for (let i = 0; i < 20; i++) expect((await Auth(new Request(`${ORIGIN}/auth/session`), config)).status).toBe(500);
    expect((await getSession(new Request(`${ORIGIN}/`), config)).data).toBeNull();
    expect(errors).toEqual(["MissingSecret"]);
  });
});

describe("GET /session never calls the redirect callback", () => {
  it("not with ?callbackUrl=, not with a sealed callback-URL cookie, not through getSession/readSession", async () => {
    const { config, counts } = countingConfig();
    const client = authClient(config);
    await signIn(client, "/profile");
    // The callback-URL cookie is set: the sign-in read ?callbackUrl and sealed it.
    expect([...client.jar.header().matchAll(/authlib\.callback-url=/g)]).toHaveLength(1);
    const before = counts.redirect;
    for (let i = 0; i < 50; i++) {
      const response = await client.send(`/auth/session?callbackUrl=${encodeURIComponent(`https://evil.example/${i}`)}`);
      expect(response.status).toBe(200);
      // No cookie is written by a session check of a fresh JWT (nothing to refresh), none for the URL.
      expect(response.headers.get("set-cookie") ?? "").not.toContain("callback-url");
    }
    await getSession(new Request(`${ORIGIN}/?callbackUrl=https://evil.example/`, { headers: { cookie: client.jar.header() } }), config);
    await readSession({ url: `${ORIGIN}/`, headers: { cookie: client.jar.header() } }, config);
    expect(counts.redirect).toBe(before);
    // Pages still validate it: the sign-in page runs the callback for its form.
    await client.send("/auth/signin?callbackUrl=/next");
    expect(counts.redirect).toBe(before + 1);
  });
});

describe("the in-process API", () => {
  it("answerAuthRequest is Auth() as data: same status, headers and body, cookies as objects in the same order", async () => {
    const { config } = countingConfig();
    const request = () => new Request(`${ORIGIN}/auth/signin?callbackUrl=%2Fdashboard`);
    const answer = await answerAuthRequest(request(), config);
    const response = await Auth(request(), config);
    expect(answer.status).toBe(response.status);
    expect(answer.headers["Content-Security-Policy"]).toBe(response.headers.get("content-security-policy"));
    expect(answer.cookies.map((c) => c.name)).toEqual(["authlib.csrf-token", "authlib.callback-url"]);
    expect(answer.cookies.map((c) => serializeCookie(c).split("=")[0])).toEqual(
      response.headers.getSetCookie().map((l) => l.split("=")[0]),
    );
    expect(answer.body).toContain("<form");
    // Refusals are answers too, never throws.
    const refused = await answerAuthRequest(new Request(`${ORIGIN}/auth/nope`), config);
    expect(refused.status).toBe(404);
  });

  it("errorRedirect sends an error where Auth() would, by the one error policy", () => {
    const { config } = countingConfig();
    const request = { url: `${ORIGIN}/some/page`, headers: {} };
    const rejected = new CredentialsSignin("no");
    rejected.code = "bad-password";
    expect(errorRedirect(rejected, request, config)).toBe(`${ORIGIN}/auth/signin?error=CredentialsSignin&code=bad-password`);
    expect(errorRedirect(new errors.AccessDenied("no"), request, config)).toBe(`${ORIGIN}/auth/error?error=AccessDenied`);
    // Not client-safe, or not an AuthError at all: the details stay in the log.
    expect(errorRedirect(new MissingSecret("x"), request, config)).toBe(`${ORIGIN}/auth/error?error=Configuration`);
    expect(errorRedirect(new Error("boom"), request, config)).toBe(`${ORIGIN}/auth/error?error=Configuration`);
    expect(errorRedirect(new errors.AccessDenied("no"), request, { ...config, pages: { error: "/oops" } })).toBe(
      `${ORIGIN}/oops?error=AccessDenied`,
    );
  });

  it("runAuthAction returns the result as data: the redirect and the session cookie as objects", async () => {
    const { config } = countingConfig();
    const client = authClient(config);
    const csrfToken = await client.csrf();
    const result = await runAuthAction(
      {
        url: `${ORIGIN}/auth/callback/credentials`,
        method: "POST",
        headers: { cookie: client.jar.header() },
        body: { csrfToken, callbackUrl: "/profile", username: "ada", password: "correct horse" },
      },
      config,
    );
    expect(result.redirect).toBe(`${ORIGIN}/profile`);
    const session = result.cookies.find((c) => c.name === "authlib.session-token");
    expect(session?.value).toMatch(/^ey/);
    expect(session?.options.httpOnly).toBe(true);
    // The cookie works: a direct session read finds the user.
    const read = await readSession({ url: `${ORIGIN}/`, headers: { cookie: `authlib.session-token=${session?.value}` } }, config);
    expect(read.session?.user?.email).toBe("ada@example.com");
  });

  it("takes a Request too, and answers a GET route's body", async () => {
    const { config } = countingConfig();
    const result = await runAuthAction(new Request(`${ORIGIN}/auth/providers`), config);
    expect(result.body).toMatchObject({ credentials: { id: "credentials", callbackUrl: `${ORIGIN}/auth/callback/credentials` } });
  });

  it("throws AuthErrors instead of encoding them into a URL: a wrong password is CredentialsSignin with its code", async () => {
    const { config } = countingConfig();
    const client = authClient(config);
    const csrfToken = await client.csrf();
    const attempt = runAuthAction(
      {
        url: `${ORIGIN}/auth/callback/credentials`,
        method: "POST",
        headers: { cookie: client.jar.header() },
        body: { csrfToken, username: "ada", password: "wrong" },
      },
      config,
    );
    await expect(attempt).rejects.toBeInstanceOf(CredentialsSignin);
    await expect(attempt).rejects.toMatchObject({ code: "credentials" });
  });

  it("an attacker's cross-site POST without the CSRF cookie is MissingCSRF, thrown, with no cookie to set", async () => {
    const { config, counts } = countingConfig();
    const error = await runAuthAction(
      {
        url: `${ORIGIN}/auth/callback/credentials`,
        method: "POST",
        headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
        body: { csrfToken: "forged", username: "ada", password: "correct horse" },
      },
      config,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MissingCSRF);
    expect(failureCookies(error)).toEqual([]);
    expect(counts.authorize).toBe(0);
  });

  it("refuses what Auth() refuses, as named errors: unknown route, bad method, untrusted host, broken config", async () => {
    const { config } = countingConfig({ trustHost: false, trustedHosts: ["localhost:3000"] });
    await expect(runAuthAction({ url: `${ORIGIN}/auth/nope` }, config)).rejects.toBeInstanceOf(UnknownAction);
    await expect(runAuthAction({ url: `${ORIGIN}/auth/session`, method: "TRACE" }, config)).rejects.toBeInstanceOf(UnknownAction);
    await expect(
      runAuthAction({ url: `${ORIGIN}/auth/session`, headers: { "x-forwarded-host": "evil.example" } }, config),
    ).rejects.toBeInstanceOf(UntrustedHost);
    await expect(readSession({ url: `${ORIGIN}/`, headers: { host: "evil.example" } }, config)).rejects.toBeInstanceOf(UntrustedHost);
    const broken = { providers: [], trustHost: true, logger: { error: () => {} } } satisfies AuthConfig;
    await expect(runAuthAction({ url: `${ORIGIN}/auth/session` }, broken)).rejects.toBeInstanceOf(MissingSecret);
    const thrown = await readSession({ url: `${ORIGIN}/` }, broken).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(AuthError);
  });
});

describe("public API: the export names of each entry point", () => {
  it("@authlib/core keeps its names (every error class, the functions) and adds the in-process API", () => {
    const functions = ["Auth", "decode", "encode", "getSession", "getToken", "normaliseBasePath", "setEnvDefaults", "skipCSRFCheck"];
    const added = ["answerAuthRequest", "errorRedirect", "failureCookies", "readSession", "runAuthAction", "serializeCookie"];
    // Issue 13: the memory store of the rate limits (its contract and the config types are type-only).
    added.push("memoryRateLimitStore");
    expect(Object.keys(core).sort()).toEqual([...Object.keys(errors), ...functions, ...added].sort());
  });

  it("the other entry points keep theirs", async () => {
    const names = async (entry: Promise<object>) => Object.keys(await entry).sort();
    expect(await names(import("../src/jwt.js"))).toEqual(["DEFAULT_MAX_AGE", "SESSION_COOKIE_NAME", "decode", "encode", "getToken"]);
    expect(await names(import("../src/password.js"))).toEqual([
      "hashPassword",
      "passwordHashLoad",
      "setPasswordHashLimits",
      "verifyPassword",
    ]);
    expect(await names(import("../src/rate-limit/index.js"))).toEqual([
      "DOT_INSENSITIVE_DOMAINS",
      "deliveryMailbox",
      "memoryRateLimitStore",
    ]);
    expect(await names(import("../src/types.js"))).toEqual([]);
    expect(await names(import("../src/adapters.js"))).toEqual([]);
    expect(await names(import("../src/providers/index.js"))).toEqual(
      "Apple Atlassian Auth0 Authentik AzureADB2C BattleNet Bitbucket Box Cognito Coinbase Credentials Descope Discord Dropbox DuendeIdentityServer Email Facebook Figma Frontegg FusionAuth GitHub GitLab Google HubSpot HuggingFace Instagram Kakao Keycloak Kick Kinde Line Linear LinkedIn Logto Mailgun Mastodon MicrosoftEntraID Naver Nextcloud Nodemailer Notion OAuthProvider Okta OneLogin OryHydra Passkey Patreon PayPal PingId Pinterest Postmark Reddit Resend Roblox Salesforce SendGrid Slack Spotify Strava TikTok Twitch Twitter Vercel Vk WeChat Wikimedia WordPress WorkOS Yandex Zitadel Zoom".split(
        " ",
      ),
    );
  });
});
