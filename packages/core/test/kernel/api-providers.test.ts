/**
 * `auth.api` on every provider kind, against real parts: an OpenID Provider (oidc-provider) for `oidc` and
 * `oauth`, an SMTP server for email, PGlite for database sessions; credentials without a database. (The
 * passkey kind: `webauthn/passkey-negative.test.ts` signs in through `auth.api.signIn` with a software
 * authenticator.) Each flow starts with an operation, finishes where the browser would (the provider's
 * callback, the mailed link, through `auth.handler`), and ends with `api.getSession` and `api.signOut`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccessDenied, CredentialsSignin, InvalidProvider, OAuthAccountNotLinked } from "../../src/errors.js";
import type { Cookie } from "../../src/http/cookies.js";
import { serializeCookie } from "../../src/http/response.js";
import { type AuthInstance, createAuth } from "../../src/kernel/instance.js";
import Credentials from "../../src/providers/credentials.js";
import Nodemailer from "../../src/providers/nodemailer.js";
import { memoryRateLimitStore } from "../../src/rate-limit/store.js";
import type { AuthConfig } from "../../src/types/config.js";
import { CookieJar } from "../helpers/auth-client.js";
import { closeSharedPglite, freshDatabase, sharedPglite } from "../helpers/database.js";
import { opProvider, startTestOP, type TestOP } from "../helpers/oidc-provider.js";
import { startSmtpServer } from "../helpers/smtp.js";

const secret = "api-providers-secret-0123456789abcdefgh";
const ORIGIN = "http://localhost:3000";
let op: TestOP;
let endpoints: { authorization_endpoint: string; token_endpoint: string; userinfo_endpoint: string };
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

beforeAll(async () => {
  op = await startTestOP({
    clients: [
      { client_id: "app", client_secret: "app-secret", redirect_uris: [`${ORIGIN}/auth/callback/op`, `${ORIGIN}/auth/callback/op-oauth`] },
    ],
  });
  endpoints = (await (await fetch(`${op.issuer}/.well-known/openid-configuration`)).json()) as typeof endpoints;
  smtp = await startSmtpServer();
  await sharedPglite().waitReady;
});
afterAll(async () => {
  await op.close();
  await smtp.close();
  await closeSharedPglite();
});

/** An instance with the OP (as `oidc` and as plain `oauth`) and email sign-in, sessions in PGlite. */
async function databaseApp(overrides: Partial<AuthConfig> = {}) {
  const db = await freshDatabase();
  const errors: string[] = [];
  const auth = createAuth({
    secret,
    trustHost: true,
    adapter: db.adapter,
    providers: [
      opProvider(op, { checks: ["pkce", "state", "nonce"] }),
      // A plain OAuth 2 client: explicit endpoints, the profile from userinfo.
      opProvider(op, {
        id: "op-oauth",
        name: "Test OP (OAuth 2)",
        type: "oauth",
        authorization: { url: endpoints.authorization_endpoint, params: { scope: "openid profile email" } },
        token: endpoints.token_endpoint,
        userinfo: endpoints.userinfo_endpoint,
      }),
      Nodemailer({ server: smtp.transport, from: "Demo <no-reply@demo.test>", rateLimit: { store: memoryRateLimitStore() } }),
    ],
    logger: { error: (e) => void errors.push(e.type), warn: () => {} },
    ...overrides,
  });
  return { auth, db, errors };
}

/** A browser's cookie jar that takes an operation's cookies, as the framework would send them. */
function jarWith(cookies: Cookie[], jar = new CookieJar()): CookieJar {
  jar.apply(new Response(null, { headers: cookies.map((cookie): [string, string] => ["set-cookie", serializeCookie(cookie)]) }));
  return jar;
}

/** The browser follows `url` through the handler, keeping its cookies. */
async function follow(auth: AuthInstance, jar: CookieJar, url: string): Promise<Response> {
  const response = await auth.handler(new Request(url, { headers: { cookie: jar.header() } }));
  jar.apply(response);
  return response;
}

const browser = (jar: CookieJar) => ({ url: `${ORIGIN}/somewhere`, headers: { cookie: jar.header() } });

describe.each([
  ["oidc", "op"],
  ["oauth", "op-oauth"],
])("auth.api with an %s provider", (_kind, providerId) => {
  it("signIn answers the provider's authorization URL and the flow's cookies; the callback signs in; signOut ends the row", async () => {
    const { auth, errors } = await databaseApp();
    const start = await auth.api.signIn(browser(new CookieJar()), { providerId, redirectTo: "/dashboard" });
    expect(start.redirect.startsWith(`${op.issuer}/`)).toBe(true);
    expect(new URL(start.redirect).searchParams.get("redirect_uri")).toBe(`${ORIGIN}/auth/callback/${providerId}`);
    const names = start.cookies.map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(["authlib.csrf-token", "authlib.pkce.code_verifier", "authlib.state"]));

    const jar = jarWith(start.cookies);
    const callback = await op.authorize(start.redirect);
    const done = await follow(auth, jar, callback.href);
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe(`${ORIGIN}/dashboard`);

    const { session } = await auth.api.getSession(browser(jar));
    expect(session?.user?.email).toBe("alice@example.com");

    const out = await auth.api.signOut(browser(jar));
    expect(out.redirect).toBe(`${ORIGIN}/`);
    const stale = browser(jar);
    jarWith(out.cookies, jar);
    expect((await auth.api.getSession(browser(jar))).session).toBeNull();
    // The row is gone: the old cookie, replayed, is nobody.
    expect((await auth.api.getSession(stale)).session).toBeNull();
    expect(errors).toEqual([]);
  });

  it("authorizationParams reach the authorization request; link without a session is OAuthAccountNotLinked", async () => {
    const { auth } = await databaseApp();
    const start = await auth.api.signIn(browser(new CookieJar()), {
      providerId,
      authorizationParams: { prompt: "login", login_hint: "alice" },
    });
    const url = new URL(start.redirect);
    expect(url.searchParams.get("prompt")).toBe("login");
    expect(url.searchParams.get("login_hint")).toBe("alice");
    await expect(auth.api.signIn(browser(new CookieJar()), { providerId, link: true })).rejects.toBeInstanceOf(OAuthAccountNotLinked);
  });
});

describe("auth.api with an email provider", () => {
  it("signIn sends the mail and answers the verify-request page; the link signs in; a refused signIn callback is AccessDenied", async () => {
    const { auth } = await databaseApp();
    const before = smtp.mails.length;
    const start = await auth.api.signIn(browser(new CookieJar()), {
      providerId: "nodemailer",
      email: "Ada@Example.com",
      redirectTo: "/welcome",
    });
    expect(new URL(start.redirect).pathname).toBe("/auth/verify-request");
    expect(smtp.mails.length).toBe(before + 1);
    const link = smtp.mails.at(-1)?.text?.match(/http:\/\/localhost:3000\/auth\/callback\/nodemailer\?\S+/)?.[0];
    expect(link).toBeTruthy();

    const jar = jarWith(start.cookies);
    const done = await follow(auth, jar, link as string);
    expect(done.headers.get("location")).toBe(`${ORIGIN}/welcome`);
    expect((await auth.api.getSession(browser(jar))).session?.user?.email).toBe("ada@example.com");

    const refusing = await databaseApp({ callbacks: { signIn: () => false } });
    await expect(
      refusing.auth.api.signIn(browser(new CookieJar()), { providerId: "nodemailer", email: "eve@example.com" }),
    ).rejects.toBeInstanceOf(AccessDenied);
  });
});

describe("auth.api with a credentials provider (JWT sessions, no database)", () => {
  const auth = createAuth({
    secret,
    trustHost: true,
    providers: [
      Credentials({
        credentials: { email: {}, password: { type: "password" } },
        authorize: ({ email, password }) =>
          email === "ada@example.com" && password === "right" ? { id: "u1", email: "ada@example.com" } : null,
      }),
    ],
    logger: { error: () => {}, warn: () => {} },
  });

  it("signIn checks the credentials and answers the session cookie; getSession reads it; signOut clears it", async () => {
    const start = await auth.api.signIn(browser(new CookieJar()), {
      providerId: "credentials",
      email: "ada@example.com",
      password: "right",
    });
    const jar = jarWith(start.cookies);
    expect((await auth.api.getSession(browser(jar))).session?.user?.email).toBe("ada@example.com");
    const out = await auth.api.signOut(browser(jar), { redirectTo: "/bye" });
    expect(out.redirect).toBe(`${ORIGIN}/bye`);
    expect((await auth.api.getSession(browser(jarWith(out.cookies, jar)))).session).toBeNull();
  });

  it("bad input is a typed error: wrong password, unknown provider", async () => {
    await expect(
      auth.api.signIn(browser(new CookieJar()), { providerId: "credentials", email: "ada@example.com", password: "wrong" }),
    ).rejects.toBeInstanceOf(CredentialsSignin);
    await expect(auth.api.signIn(browser(new CookieJar()), { providerId: "github" })).rejects.toBeInstanceOf(InvalidProvider);
  });
});
