/**
 * The instance as the spine (`createAuth`): the configuration is checked and resolved once per instance
 * (a bad one throws its typed error at creation), `Auth()` / `getSession()` are wrappers over an instance
 * kept per configuration object, a session check does only what it needs, `auth.api` gives the app and
 * the integrations the operations as data, and `@authlib/core/integration` answers as `handler` does.
 */
import { describe, expect, it } from "vitest";
import * as errors from "../../src/errors.js";
import {
  AuthError,
  CredentialsSignin,
  InvalidOriginConfig,
  InvalidProvider,
  MethodNotAllowed,
  MissingCSRF,
  MissingSecret,
  RouteNotFound,
  UnknownAction,
  UntrustedHost,
} from "../../src/errors.js";
import { serializeCookie } from "../../src/http/response.js";
import * as core from "../../src/index.js";
import { answerRequest, errorRedirect, failureCookies } from "../../src/integration.js";
import { Auth, getSession } from "../../src/kernel/auth.js";
import { createAuth } from "../../src/kernel/instance.js";
import Credentials from "../../src/providers/credentials.js";
import type { AuthConfig, Provider } from "../../src/types/config.js";
import { authClient } from "../helpers/auth-client.js";

const secret = "instance-secret-0123456789abcdefghijklmn";
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

/** The session cookie header of Ada, signed in through the instance's API. */
async function signedInCookie(auth: ReturnType<typeof createAuth>): Promise<string> {
  const { cookies } = await auth.api.signIn(
    { url: ORIGIN, headers: {} },
    { providerId: "credentials", username: "ada", password: "correct horse" },
  );
  return cookies.map((c) => `${c.name}=${c.value}`).join("; ");
}

async function signIn(client: ReturnType<typeof authClient>, callbackUrl = "/profile") {
  const csrfToken = await client.csrf();
  return client.send("/auth/callback/credentials", { form: { csrfToken, callbackUrl, username: "ada", password: "correct horse" } });
}

describe("createAuth: the configuration is checked and resolved once, at creation", () => {
  it("throws the configuration's typed error at creation, never per request", () => {
    const logger = { error: () => {}, warn: () => {} };
    expect(() => createAuth({ providers: [], trustHost: true, logger })).toThrow(MissingSecret);
    expect(() => createAuth({ secret, providers: [], url: "not a url", logger })).toThrow(InvalidOriginConfig);
    expect(() => createAuth({ secret, providers: [], trustedHosts: ["*.com"], logger })).toThrow(InvalidOriginConfig);
    const twice = Credentials({ authorize: () => null });
    expect(() => createAuth({ secret, trustHost: true, providers: [twice, twice], logger })).toThrow(InvalidProvider);
  });

  it("Auth() keeps answering the same configuration error per request (500, details in the log only)", async () => {
    const logged: string[] = [];
    const config: AuthConfig = { providers: [], trustHost: true, logger: { error: (e) => void logged.push(e.type) } };
    const response = await Auth(new Request(`${ORIGIN}/auth/session`), config);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: "Configuration", message: expect.stringContaining("server configuration") });
    expect(logged).toEqual(["MissingSecret"]);
  });

  it("1,000 requests and operations on one instance call the provider preset once", async () => {
    const { config, counts } = countingConfig();
    const auth = createAuth(config);
    const cookie = await signedInCookie(auth);
    for (let i = 0; i < 998; i++) {
      const path = ["/auth/session", "/auth/providers", "/auth/csrf", "/auth/signin"][i % 4] as string;
      expect((await auth.handler(new Request(`${ORIGIN}${path}`, { headers: { cookie } }))).status).toBe(200);
    }
    expect((await auth.api.getSession(new Request(`${ORIGIN}/`, { headers: { cookie } }))).session?.user?.name).toBe("Ada");
    expect(counts.preset).toBe(1);
  });

  it("two instances of one configuration object keep their own state (a warning said once per instance)", async () => {
    const warnings: string[] = [];
    const config: AuthConfig = {
      secret,
      trustHost: true,
      debug: true,
      providers: [],
      logger: { warn: (code) => void warnings.push(code), debug: () => {} },
    };
    createAuth(config);
    createAuth(config);
    expect(warnings.filter((w) => w === "debug-enabled")).toHaveLength(2);
  });

  it("auth.handler and Auth() give the same answers, byte for byte", async () => {
    const { config } = countingConfig();
    const auth = createAuth(config);
    for (const path of ["/auth/providers", "/auth/session", "/auth/nope", "/auth/signin/credentials", "/auth/error?error=AccessDenied"]) {
      const ours = await auth.handler(new Request(`${ORIGIN}${path}`));
      const wrapped = await Auth(new Request(`${ORIGIN}${path}`), config);
      expect(ours.status).toBe(wrapped.status);
      expect(ours.headers.get("content-type")).toBe(wrapped.headers.get("content-type"));
      const [a, b] = [await ours.text(), await wrapped.text()];
      // Pages carry a fresh CSRF token and nonce per request; everything else is the same text.
      const strip = (t: string) => t.replace(/[0-9a-f]{64}/g, "TOKEN").replace(/nonce-[^'"]+/g, "nonce");
      expect(strip(a)).toBe(strip(b));
    }
  });
});

describe("Auth() and getSession(): one instance per configuration object", () => {
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
  it("not with ?callbackUrl=, not with a sealed callback-URL cookie, not through getSession/auth.api.getSession", async () => {
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
    await createAuth(config).api.getSession({ url: `${ORIGIN}/`, headers: { cookie: client.jar.header() } });
    expect(counts.redirect).toBe(before);
    // Pages still validate it: the sign-in page runs the callback for its form.
    await client.send("/auth/signin?callbackUrl=/next");
    expect(counts.redirect).toBe(before + 1);
  });
});

describe("auth.api: operations as data, typed errors", () => {
  it("signIn with credentials answers the redirect and the session cookie as objects; getSession reads it", async () => {
    const auth = createAuth(countingConfig().config);
    const result = await auth.api.signIn(new Request(`${ORIGIN}/login`), {
      providerId: "credentials",
      redirectTo: "/profile",
      username: "ada",
      password: "correct horse",
    });
    expect(result.redirect).toBe(`${ORIGIN}/profile`);
    const session = result.cookies.find((c) => c.name === "authlib.session-token");
    expect(session?.value).toMatch(/^ey/);
    expect(session?.options.httpOnly).toBe(true);
    const read = await auth.api.getSession({ url: ORIGIN, headers: { cookie: `authlib.session-token=${session?.value}` } });
    expect(read.session?.user?.email).toBe("ada@example.com");
  });

  it("a wrong password is CredentialsSignin with its code, thrown, never a URL", async () => {
    const auth = createAuth(countingConfig().config);
    const attempt = auth.api.signIn(new Request(`${ORIGIN}/login`), { providerId: "credentials", username: "ada", password: "wrong" });
    await expect(attempt).rejects.toBeInstanceOf(CredentialsSignin);
    await expect(attempt).rejects.toMatchObject({ code: "credentials" });
  });

  it("signOut answers the cookies that clear the session; the cleared cookie reads as signed out", async () => {
    const auth = createAuth(countingConfig().config);
    const cookie = await signedInCookie(auth);
    const out = await auth.api.signOut(new Request(`${ORIGIN}/`, { headers: { cookie } }), { redirectTo: "/bye" });
    expect(out.redirect).toBe(`${ORIGIN}/bye`);
    const cleared = out.cookies.find((c) => c.name === "authlib.session-token");
    expect(cleared?.options.maxAge).toBe(0);
    expect((await auth.api.getSession({ url: ORIGIN, headers: {} })).session).toBeNull();
  });

  it("a redirectTo off the app's origin is replaced by the app's root (the redirect callback decides)", async () => {
    const auth = createAuth(countingConfig().config);
    const result = await auth.api.signIn(new Request(`${ORIGIN}/login`), {
      providerId: "credentials",
      redirectTo: "https://evil.example/steal",
      username: "ada",
      password: "correct horse",
    });
    expect(result.redirect).toBe(`${ORIGIN}/`);
  });

  it("an operation the browser sent from another site is MissingCSRF, before authorize runs", async () => {
    const { config, counts } = countingConfig();
    const auth = createAuth(config);
    for (const headers of [{ origin: "https://evil.example" }, { "sec-fetch-site": "cross-site" }]) {
      const error = await auth.api
        .signIn(new Request(`${ORIGIN}/login`, { method: "POST", headers }), {
          providerId: "credentials",
          username: "ada",
          password: "correct horse",
        })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MissingCSRF);
      expect(failureCookies(error)).toEqual([]);
    }
    await expect(auth.api.signOut({ url: ORIGIN, headers: { origin: "https://evil.example" } })).rejects.toBeInstanceOf(MissingCSRF);
    expect(counts.authorize).toBe(0);
    // Same-origin and server-side calls (no Origin header) pass.
    await expect(
      auth.api.signIn(
        { url: ORIGIN, headers: { origin: ORIGIN } },
        { providerId: "credentials", username: "ada", password: "correct horse" },
      ),
    ).resolves.toMatchObject({ redirect: `${ORIGIN}/` });
  });

  it("refuses what the handler refuses, as named errors: unknown provider, untrusted host, broken config, bad request", async () => {
    const auth = createAuth(countingConfig({ trustHost: false, trustedHosts: ["localhost:3000"] }).config);
    await expect(auth.api.signIn(new Request(`${ORIGIN}/`), { providerId: "nope" })).rejects.toBeInstanceOf(InvalidProvider);
    await expect(auth.api.getSession({ url: ORIGIN, headers: { "x-forwarded-host": "evil.example" } })).rejects.toBeInstanceOf(
      UntrustedHost,
    );
    await expect(auth.api.getSession({ headers: { host: "evil.example" } })).rejects.toBeInstanceOf(UntrustedHost);
    await expect(auth.api.getSession({ headers: {} })).rejects.toBeInstanceOf(UnknownAction);
    await expect(auth.api.getSession({ url: "not a url", headers: {} })).rejects.toBeInstanceOf(UnknownAction);
    // Without a URL, the Host header gives the origin.
    await expect(auth.api.getSession({ headers: { host: "localhost:3000" } })).resolves.toEqual({ session: null, cookies: [] });
  });
});

describe("@authlib/core/integration: the handler's answer as data, the one error policy", () => {
  it("answerRequest is handler() as data: same status, headers and body, cookies as objects in the same order", async () => {
    const auth = createAuth(countingConfig().config);
    const request = () => new Request(`${ORIGIN}/auth/signin?callbackUrl=%2Fdashboard`);
    const answer = await answerRequest(auth, request());
    const response = await auth.handler(request());
    expect(answer.status).toBe(response.status);
    expect(answer.headers["Content-Security-Policy"]).toBe(response.headers.get("content-security-policy"));
    expect(answer.cookies.map((c) => c.name)).toEqual(["authlib.csrf-token", "authlib.callback-url"]);
    expect(answer.cookies.map((c) => serializeCookie(c).split("=")[0])).toEqual(
      response.headers.getSetCookie().map((l) => l.split("=")[0]),
    );
    expect(answer.body).toContain("<form");
    // Refusals are answers too, never throws: each status from the error type's table entry.
    expect((await answerRequest(auth, new Request(`${ORIGIN}/auth/nope`))).status).toBe(404);
    expect((await answerRequest(auth, new Request(`${ORIGIN}/auth/session`, { method: "PUT" }))).status).toBe(405);
    expect((await answerRequest(auth, new Request(`${ORIGIN}/auth/webauthn-options/x`))).status).toBe(400);
  });

  it("errorRedirect sends an error where the handler would, by the one error policy", () => {
    const { config } = countingConfig();
    const auth = createAuth(config);
    const request = new Request(`${ORIGIN}/some/page`);
    const rejected = new CredentialsSignin("no");
    rejected.code = "bad-password";
    expect(errorRedirect(auth, rejected, request)).toBe(`${ORIGIN}/auth/signin?error=CredentialsSignin&code=bad-password`);
    expect(errorRedirect(auth, new errors.AccessDenied("no"), request)).toBe(`${ORIGIN}/auth/error?error=AccessDenied`);
    // Not client-safe, or not an AuthError at all: the details stay in the log.
    expect(errorRedirect(auth, new MissingSecret("x"), request)).toBe(`${ORIGIN}/auth/error?error=Configuration`);
    expect(errorRedirect(auth, new Error("boom"), request)).toBe(`${ORIGIN}/auth/error?error=Configuration`);
    expect(errorRedirect(createAuth({ ...config, pages: { error: "/oops" } }), new errors.AccessDenied("no"), request)).toBe(
      `${ORIGIN}/oops?error=AccessDenied`,
    );
  });

  it("parse refusals are typed: RouteNotFound and MethodNotAllowed are UnknownActions with their own type", () => {
    expect(new RouteNotFound("x")).toBeInstanceOf(UnknownAction);
    expect(new RouteNotFound("x").type).toBe("RouteNotFound");
    expect(new MethodNotAllowed("x").type).toBe("MethodNotAllowed");
    expect(new AuthError("x").type).toBe("AuthError");
  });
});

describe("public API: the export names of each entry point", () => {
  it("@authlib/core keeps its names (every error class, the functions) and adds createAuth, no integration internals", () => {
    const functions = ["Auth", "decode", "encode", "getSession", "getToken", "setEnvDefaults", "skipCSRFCheck"];
    // Issue 25: the instance; no integration internals in the main entry.
    const added = ["createAuth"];
    // Issue 13: the memory store of the rate limits (its contract and the config types are type-only).
    added.push("memoryRateLimitStore");
    // Issue 27: the memory registry of sessions (the Redis one is the `session/redis` entry point).
    added.push("memorySessionStore");
    // Issue 45: features as modules (an app's own feature; its operations' code loaded with their first request).
    added.push("defineFeature", "lazyHandler");
    // Issue 45: an operation's typed input (its schema, parsed once by the pipeline).
    added.push("defineOperation", "field", "inputSchema");
    // Issue 46: organizations' roles (their error classes are among the errors).
    added.push("defaultRoles", "defineRoles", "ORGANIZATION_PERMISSIONS");
    expect(Object.keys(core).sort()).toEqual([...Object.keys(errors), ...functions, ...added].sort());
  });

  it("the other entry points keep theirs", async () => {
    const names = async (entry: Promise<object>) => Object.keys(await entry).sort();
    expect(await names(import("../../src/jwt.js"))).toEqual(["DEFAULT_MAX_AGE", "SESSION_COOKIE_NAME", "decode", "encode", "getToken"]);
    expect(await names(import("../../src/password.js"))).toEqual([
      "hashPassword",
      "passwordHashLoad",
      "setPasswordHashLimits",
      "verifyPassword",
    ]);
    expect(await names(import("../../src/rate-limit/index.js"))).toEqual([
      "DOT_INSENSITIVE_DOMAINS",
      "deliveryMailbox",
      "memoryRateLimitStore",
    ]);
    expect(await names(import("../../src/integration.js"))).toEqual([
      "answerRequest",
      "authFor",
      "errorRedirect",
      "failureCookies",
      "serializeCookie",
      "sessionErrorStatus",
      "setEnvDefaults",
    ]);
    expect(await names(import("../../src/types/config.js"))).toEqual([]);
    expect(await names(import("../../src/types/adapters.js"))).toEqual([]);
    expect(await names(import("../../src/providers/index.js"))).toEqual(
      "Apple Atlassian Auth0 Authentik AzureADB2C BattleNet Bitbucket Box Cognito Coinbase Credentials Descope Discord Dropbox DuendeIdentityServer Email Facebook Figma Frontegg FusionAuth GitHub GitLab Google HubSpot HuggingFace Instagram Kakao Keycloak Kick Kinde Line Linear LinkedIn Logto Mailgun Mastodon MicrosoftEntraID Naver Nextcloud Nodemailer Notion OAuthProvider Okta OneLogin OryHydra Passkey Password Patreon PayPal PingId Pinterest Postmark Reddit Resend Roblox Salesforce SendGrid Slack Spotify Strava TikTok Twitch Twitter Vercel Vk WeChat Wikimedia WordPress WorkOS Yandex Zitadel Zoom".split(
        " ",
      ),
    );
  });
});
