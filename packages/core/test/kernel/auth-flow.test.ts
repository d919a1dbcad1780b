import { afterEach, describe, expect, it, vi } from "vitest";
import { CredentialsSignin } from "../../src/errors.js";
import { decode, encode } from "../../src/jwt.js";
import { Auth, getSession } from "../../src/kernel/auth.js";
import Credentials from "../../src/providers/credentials.js";
import { skipCSRFCheck } from "../../src/symbols.js";
import type { AuthConfig } from "../../src/types/config.js";
import { authClient } from "../helpers/auth-client.js";

const secret = "engine-test-secret-0123456789abcdef";

function makeConfig(overrides: Partial<AuthConfig> = {}) {
  const calls: Array<[string, unknown]> = [];
  const logs: string[] = [];
  const record = (name: string) => (message: unknown) => {
    calls.push([name, message]);
  };
  class WrongPassword extends CredentialsSignin {
    override code = "wrong_password";
  }
  const config: AuthConfig = {
    secret,
    trustHost: true,
    providers: [
      Credentials({
        credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
        async authorize(credentials, request) {
          calls.push(["authorize", { credentials, isRequest: request instanceof Request }]);
          if (credentials.username === "crash") throw new Error("database exploded");
          if (credentials.username === "custom") throw new WrongPassword();
          if (credentials.username === "ada" && credentials.password === "correct horse") {
            return { id: "user-1", name: "Ada", email: "ada@example.com", image: "/ada.png" };
          }
          return null;
        },
      }),
    ],
    callbacks: {
      signIn(params) {
        calls.push(["callbacks.signIn", params]);
        return true;
      },
      jwt(params) {
        calls.push(["callbacks.jwt", params]);
        if (params.trigger === "update") return { ...params.token, name: (params.session as { name: string }).name };
        return params.token;
      },
      session(params) {
        calls.push(["callbacks.session", params]);
        return params.session;
      },
    },
    events: {
      signIn: record("events.signIn"),
      signOut: record("events.signOut"),
      session: record("events.session"),
    },
    // Every failure is logged at the level of its meaning (src/http/log-level.ts): a user's and a client's
    // at debug (a client's with a warning code too), a fault at error. The test reads them all.
    debug: true,
    logger: {
      error: (e) => logs.push(`${e.name}: ${e.message} ${String((e.cause as { err?: Error })?.err ?? "")}`),
      warn: (c) => logs.push(`warn ${c}`),
      debug: (message, metadata) => {
        if ((metadata as { type?: string } | undefined)?.type) logs.push(message);
      },
    },
    ...overrides,
  };
  return { config, calls, logs };
}

async function signIn(client: ReturnType<typeof authClient>, username = "ada", password = "correct horse", callbackUrl = "/profile") {
  const csrfToken = await client.csrf();
  return client.send("/auth/callback/credentials", { form: { csrfToken, callbackUrl, username, password } });
}

describe("credentials sign-in, session, update, sign-out through Auth()", () => {
  it("runs the whole flow with the right statuses, cookies, bodies, callbacks and events", async () => {
    const { config, calls, logs } = makeConfig();
    const client = authClient(config);

    // 1. CSRF token and cookie
    const csrfResponse = await client.send("/auth/csrf");
    expect(csrfResponse.status).toBe(200);
    expect(csrfResponse.headers.get("cache-control")).toContain("no-store");
    const { csrfToken } = (await csrfResponse.json()) as { csrfToken: string };
    expect(csrfToken).toMatch(/^[0-9a-f]{64}$/);
    const csrfCookie = csrfResponse.setCookies.find((c) => c.name === "authlib.csrf-token");
    expect(csrfCookie?.attributes).toMatchObject({ httponly: true, samesite: "Lax", path: "/" });
    expect(csrfCookie?.value.startsWith(`${csrfToken}|`)).toBe(true);

    // 2. Credentials callback
    const signedIn = await client.send("/auth/callback/credentials", {
      form: { csrfToken, callbackUrl: "/profile", username: "ada", password: "correct horse" },
    });
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("location")).toBe("http://localhost:3000/profile");
    const sessionCookie = signedIn.setCookies.find((c) => c.name === "authlib.session-token");
    expect(sessionCookie?.attributes).toMatchObject({ httponly: true, samesite: "Lax", path: "/" });
    expect(sessionCookie?.attributes.secure).toBeUndefined();
    expect((sessionCookie?.attributes.expires as Date | undefined)?.valueOf()).toBeGreaterThan(Date.now() + 29 * 86400_000);
    const authorizeCall = calls.find(([n]) => n === "authorize")?.[1] as { credentials: Record<string, string>; isRequest: boolean };
    expect(authorizeCall).toEqual({ credentials: { username: "ada", password: "correct horse" }, isRequest: true });
    const signInCallback = calls.find(([n]) => n === "callbacks.signIn")?.[1] as Record<string, unknown>;
    expect(signInCallback.account).toEqual({ providerAccountId: "user-1", type: "credentials", provider: "credentials" });
    expect(signInCallback.credentials).toEqual({ username: "ada", password: "correct horse" });
    const jwtAtSignIn = calls.find(([n]) => n === "callbacks.jwt")?.[1] as Record<string, unknown>;
    expect(jwtAtSignIn).toMatchObject({
      trigger: "signIn",
      isNewUser: false,
      token: { name: "Ada", email: "ada@example.com", picture: "/ada.png", sub: "user-1" },
    });

    // 3. Session
    const sessionResponse = await client.send("/auth/session");
    expect(sessionResponse.status).toBe(200);
    expect(sessionResponse.headers.get("cache-control")).toContain("no-store");
    const session = (await sessionResponse.json()) as Record<string, any>;
    expect(session.user).toEqual({ name: "Ada", email: "ada@example.com", image: "/ada.png" });
    expect(new Date(session.expires).valueOf()).toBeGreaterThan(Date.now());
    // Not due for an update: no new cookie.
    expect(sessionResponse.setCookies.filter((c) => c.name.startsWith("authlib.session-token"))).toHaveLength(0);

    // 4. Update
    const updated = await client.send("/auth/session", { json: { csrfToken, data: { name: "Ada L." } } });
    expect(updated.status).toBe(200);
    expect(((await updated.json()) as { user: { name: string } }).user.name).toBe("Ada L.");
    expect(updated.setCookies.some((c) => c.name === "authlib.session-token")).toBe(true);
    expect((await client.session())?.user.name).toBe("Ada L.");

    // 5. Sign out
    const signedOut = await client.send("/auth/signout", { form: { csrfToken, callbackUrl: "/bye" } });
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("location")).toBe("http://localhost:3000/bye");
    expect(signedOut.setCookies.find((c) => c.name === "authlib.session-token")?.attributes.maxAge).toBe(0);
    expect(await client.session()).toBeNull();

    const eventOrder = calls.map(([n]) => n).filter((n) => n.startsWith("events."));
    expect(eventOrder).toEqual(["events.signIn", "events.session", "events.session", "events.session", "events.signOut"]);
    expect(logs.filter((l) => !l.startsWith("warn"))).toEqual([]);
  });

  it("uses __Host- cookies on https", async () => {
    const { config } = makeConfig();
    const client = authClient(config, "https://app.example.com");
    const response = await signIn(client);
    expect(response.status).toBe(302);
    const names = [...client.jar.cookies.keys()];
    expect(names).toContain("__Host-authlib.csrf-token");
    expect(names).toContain("__Host-authlib.session-token");
    expect(response.setCookies.find((c) => c.name === "__Host-authlib.session-token")?.attributes.secure).toBe(true);
  });

  it("a wrong password redirects to the sign-in page with error=CredentialsSignin&code=credentials", async () => {
    const { config } = makeConfig();
    const client = authClient(config);
    const response = await signIn(client, "ada", "wrong");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(
      "http://localhost:3000/auth/signin?error=CredentialsSignin&code=credentials&provider=credentials",
    );
    expect(await client.session()).toBeNull();
  });

  it("a thrown CredentialsSignin subclass keeps its code; any other throw is a Configuration error, logged", async () => {
    const { config, logs } = makeConfig();
    const client = authClient(config);
    expect((await signIn(client, "custom")).headers.get("location")).toContain("error=CredentialsSignin&code=wrong_password");
    const crash = await signIn(client, "crash");
    expect(crash.headers.get("location")).toBe("http://localhost:3000/auth/error?error=Configuration");
    expect(logs.some((l) => l.includes("CallbackRouteError") && l.includes("database exploded"))).toBe(true);
  });

  it("X-Auth-Return-Redirect answers redirects as JSON {url}, keeping cookies", async () => {
    const { config } = makeConfig();
    const client = authClient(config);
    const csrfToken = await client.csrf();
    const response = await client.send("/auth/callback/credentials", {
      form: { csrfToken, username: "ada", password: "correct horse", callbackUrl: "/x" },
      headers: { "X-Auth-Return-Redirect": "1" },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ url: "http://localhost:3000/x" });
    expect(response.setCookies.some((c) => c.name === "authlib.session-token")).toBe(true);
  });
});

describe("signIn callback", () => {
  it.each([
    [false, "http://localhost:3000/auth/error?error=AccessDenied"],
    ["/not-allowed", "http://localhost:3000/not-allowed"],
    ["https://evil.example/phish", "http://localhost:3000/"],
  ])("returning %s redirects to %s and creates no session", async (result, location) => {
    const { config } = makeConfig({ callbacks: { signIn: () => result } });
    const client = authClient(config);
    const response = await signIn(client);
    expect(response.headers.get("location")).toBe(location);
    expect(await client.session()).toBeNull();
  });

  it("a throwing callback is AccessDenied carrying the message", async () => {
    const { config, logs } = makeConfig({
      callbacks: {
        signIn: () => {
          throw new Error("banned user");
        },
      },
    });
    const client = authClient(config);
    expect((await signIn(client)).headers.get("location")).toBe("http://localhost:3000/auth/error?error=AccessDenied");
    expect(logs.some((l) => l.startsWith("AccessDenied: banned user"))).toBe(true);
  });
});

describe("events", () => {
  it("a failing event handler is logged as EventError and never breaks the sign-in", async () => {
    const { config, logs } = makeConfig({
      events: {
        signIn: () => {
          throw new Error("audit log down");
        },
      },
    });
    const client = authClient(config);
    expect((await signIn(client)).headers.get("location")).toBe("http://localhost:3000/profile");
    expect((await client.session())?.user.name).toBe("Ada");
    expect(logs.some((l) => l.startsWith("EventError"))).toBe(true);
  });
});

describe("CSRF", () => {
  it("refuses a POST without the token, with a wrong token, or without the cookie", async () => {
    const { config } = makeConfig();
    const client = authClient(config);
    const csrfToken = await client.csrf();
    const cases: Array<Record<string, string>> = [
      { username: "ada", password: "correct horse" },
      { username: "ada", password: "correct horse", csrfToken: "0".repeat(64) },
      { username: "ada", password: "correct horse", csrfToken: csrfToken.slice(0, -1) },
    ];
    for (const form of cases) {
      const response = await client.send("/auth/callback/credentials", { form });
      expect(response.headers.get("location")).toBe("http://localhost:3000/auth/signin?error=MissingCSRF");
    }
    const noCookie = await Auth(
      new Request("http://localhost:3000/auth/callback/credentials", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken, username: "ada", password: "correct horse" }),
      }),
      config,
    );
    expect(noCookie.headers.get("location")).toContain("error=MissingCSRF");
    expect(await client.session()).toBeNull();
  });

  it("refuses a cookie whose token was planted without the secret", async () => {
    const { config } = makeConfig();
    const client = authClient(config);
    const planted = "a".repeat(64);
    const response = await client.send("/auth/callback/credentials", {
      form: { csrfToken: planted, username: "ada", password: "correct horse" },
      headers: { cookie: `authlib.csrf-token=${planted}|${"b".repeat(64)}` },
    });
    expect(response.headers.get("location")).toContain("error=MissingCSRF");
  });

  it.each([
    [{ origin: "https://evil.example" }],
    [{ origin: "null" }],
    // A null origin is ours only with the browser's own word for it (a page under no-referrer, below).
    [{ origin: "null", "sec-fetch-site": "same-site" }],
    [{ origin: "null", "sec-fetch-site": "none" }],
    [{ origin: "null", "sec-fetch-site": "cross-site" }],
    // Only a null origin: another origin is not ours whatever Sec-Fetch-Site claims.
    [{ origin: "https://evil.example", "sec-fetch-site": "same-origin" }],
    [{ origin: "http://localhost:3000.evil.example" }],
    [{ origin: "https://localhost:3000" }],
    [{ "sec-fetch-site": "cross-site" }],
    [{ origin: "http://localhost:3000", "sec-fetch-site": "cross-site" }],
  ])("refuses a cross-site POST with a valid token (%o)", async (headers) => {
    const { config } = makeConfig();
    const client = authClient(config);
    const csrfToken = await client.csrf();
    const response = await client.send("/auth/signout", { form: { csrfToken }, headers: { ...headers, cookie: client.jar.header() } });
    expect(response.headers.get("location")).toContain("error=MissingCSRF");
  });

  it.each([
    [{ origin: "http://localhost:3000" }],
    [{ origin: "http://localhost:3000", "sec-fetch-site": "same-origin" }],
    [{ "sec-fetch-site": "same-site" }],
    [{ "sec-fetch-site": "none" }],
    // A form of a page sent with Referrer-Policy: no-referrer (every built-in page): the browser nulls the Origin.
    [{ origin: "null", "sec-fetch-site": "same-origin" }],
  ])("accepts a POST from our own site with a valid token (%o), as every browser sends it", async (headers) => {
    const { config } = makeConfig();
    const client = authClient(config);
    const csrfToken = await client.csrf();
    const response = await client.send("/auth/callback/credentials", {
      form: { csrfToken, username: "ada", password: "correct horse", callbackUrl: "/in" },
      headers: { ...headers, cookie: client.jar.header() },
    });
    expect(response.headers.get("location")).toBe("http://localhost:3000/in");
    expect((await client.session())?.user.name).toBe("Ada");
  });

  it("a CSRF cookie made before a secret rotation stays valid while the old secret is listed", async () => {
    const { config } = makeConfig();
    const before = authClient(config);
    const csrfToken = await before.csrf();
    const rotated = authClient({ ...config, secret: ["engine-test-secret-after-rotation-0123", secret] });
    for (const [name, value] of before.jar.cookies) rotated.jar.cookies.set(name, value);
    expect(await rotated.csrf()).toBe(csrfToken);
    const response = await rotated.send("/auth/callback/credentials", { form: { csrfToken, username: "ada", password: "correct horse" } });
    expect(response.headers.get("location")).toBe("http://localhost:3000/");
    const unrelated = authClient({ ...config, secret: "engine-test-secret-after-rotation-0123" });
    for (const [name, value] of before.jar.cookies) unrelated.jar.cookies.set(name, value);
    expect(await unrelated.csrf()).not.toBe(csrfToken);
  });

  it("a CSRF cookie without its MAC, or with an empty token, is replaced", async () => {
    const { config } = makeConfig();
    for (const cookie of ["authlib.csrf-token=abc", `authlib.csrf-token=|${"b".repeat(64)}`, "authlib.csrf-token=abc|"]) {
      const response = await authClient(config).send("/auth/csrf", { headers: { cookie } });
      const { csrfToken } = (await response.json()) as { csrfToken: string };
      expect(csrfToken).toMatch(/^[0-9a-f]{64}$/);
      expect(response.setCookies.find((c) => c.name === "authlib.csrf-token")?.value.startsWith(`${csrfToken}|`)).toBe(true);
    }
  });

  it.each([
    ["signout", "/auth/signout"],
    ["signin", "/auth/signin/credentials"],
  ])("a %s POST from a browser without a CSRF cookie is refused, even with a token in the body, and logged", async (action, path) => {
    const { config, logs } = makeConfig();
    const client = authClient(config);
    const csrfToken = await client.csrf();
    const response = await authClient(config).send(path, { form: { csrfToken } });
    expect(response.headers.get("location")).toContain("error=MissingCSRF");
    // A client's signal: the csrf-refused warning, and the refusal's line at debug.
    expect(logs).toContain("warn csrf-refused");
    expect(logs).toContain(`MissingCSRF: The CSRF token was missing or wrong during the ${action} action.`);
  });

  it("a session update from a browser without a CSRF cookie changes nothing", async () => {
    const { config } = makeConfig();
    const client = authClient(config);
    await signIn(client);
    const csrfToken = await client.csrf();
    const session = client.jar.get("authlib.session-token") as string;
    const response = await client.send("/auth/session", {
      json: { csrfToken, data: { name: "Mallory" } },
      headers: { cookie: `authlib.session-token=${session}` },
    });
    expect(response.status).toBe(400);
    expect((await client.session())?.user.name).toBe("Ada");
  });

  it("a callback without a CSRF cookie does not make one, nor remember its callback URL", async () => {
    const { config } = makeConfig();
    const response = await authClient(config).send("/auth/callback/credentials", {
      form: { csrfToken: "0".repeat(64), username: "ada", password: "correct horse", callbackUrl: "/after" },
    });
    expect(response.headers.get("location")).toContain("error=MissingCSRF");
    expect(response.setCookies.map((c) => c.name)).not.toContain("authlib.csrf-token");
    expect(response.setCookies.map((c) => c.name)).not.toContain("authlib.callback-url");
  });

  it("refuses a valid cookie whose token is not the one in the body, or a body without one", async () => {
    const { config } = makeConfig();
    const client = authClient(config);
    const csrfToken = await client.csrf();
    const other = `${csrfToken.slice(0, -1)}${csrfToken.endsWith("0") ? "1" : "0"}`;
    for (const form of [{ csrfToken: other }, { csrfToken: csrfToken.slice(0, -1) }, {}]) {
      const response = await client.send("/auth/callback/credentials", { form: { ...form, username: "ada", password: "correct horse" } });
      expect(response.headers.get("location")).toContain("error=MissingCSRF");
    }
    expect(await client.session()).toBeNull();
  });

  it("a valid cookie is kept, not replaced, and its token is the one /csrf reports", async () => {
    const { config } = makeConfig();
    const client = authClient(config);
    const first = await client.csrf();
    const second = await client.send("/auth/csrf");
    expect(((await second.json()) as { csrfToken: string }).csrfToken).toBe(first);
    expect(second.setCookies.map((c) => c.name)).not.toContain("authlib.csrf-token");
    expect(client.jar.get("authlib.csrf-token")?.split("|")[0]).toBe(first);
  });

  it("skipCSRFCheck switches it off deliberately, and /csrf then answers 404", async () => {
    const { config } = makeConfig({ skipCSRFCheck });
    const client = authClient(config);
    expect((await client.send("/auth/csrf")).status).toBe(404);
    const response = await client.send("/auth/callback/credentials", { form: { username: "ada", password: "correct horse" } });
    expect(response.headers.get("location")).toBe("http://localhost:3000/");
  });

  it("a session update without the token is a 400 null and changes nothing", async () => {
    const { config } = makeConfig();
    const client = authClient(config);
    await signIn(client);
    const response = await client.send("/auth/session", { json: { data: { name: "Mallory" } } });
    expect(response.status).toBe(400);
    expect(await response.json()).toBeNull();
    expect((await client.session())?.user.name).toBe("Ada");
  });
});

// The open-redirect corpus runs through every input in open-redirect.test.ts.
describe("open redirects", () => {
  it("logs a foreign callbackUrl as the callback-url-refused warning (InvalidCallbackUrl at debug), never a 5xx or an error", async () => {
    const { config, logs } = makeConfig();
    const client = authClient(config);
    const response = await client.send("/auth/signin?callbackUrl=https%3A%2F%2Fevil.example");
    expect(response.status).toBe(200);
    expect(logs).toContain("warn callback-url-refused");
    expect(logs.some((l) => l.startsWith("InvalidCallbackUrl"))).toBe(true);
  });

  it("keeps same-origin callback URLs, relative or absolute", async () => {
    const { config } = makeConfig();
    const client = authClient(config);
    expect((await signIn(client, "ada", "correct horse", "/a/b?c=d#e")).headers.get("location")).toBe("http://localhost:3000/a/b?c=d#e");
    const again = authClient(config);
    expect((await signIn(again, "ada", "correct horse", "http://localhost:3000/x")).headers.get("location")).toBe(
      "http://localhost:3000/x",
    );
  });
});

describe("session cookie", () => {
  it("a tampered or expired session cookie gives null and is cleared", async () => {
    const { config, logs } = makeConfig();
    const client = authClient(config);
    await signIn(client);
    const token = client.jar.get("authlib.session-token") as string;
    const tampered = `${token.slice(0, -5)}${token.slice(-5) === "AAAAA" ? "BBBBB" : "AAAAA"}`;
    const response = await client.send("/auth/session", { headers: { cookie: `authlib.session-token=${tampered}` } });
    expect(await response.json()).toBeNull();
    expect(response.setCookies.find((c) => c.name === "authlib.session-token")?.attributes.maxAge).toBe(0);
    const expired = await encode({ token: { sub: "user-1" }, secret, salt: "authlib.session-token", maxAge: -60 });
    const r2 = await client.send("/auth/session", { headers: { cookie: `authlib.session-token=${expired}` } });
    expect(await r2.json()).toBeNull();
    expect(logs.some((l) => l.startsWith("JWTSessionError"))).toBe(true);
  });

  it("a token for another salt (a check cookie's) is not a session", async () => {
    const { config } = makeConfig();
    const client = authClient(config);
    const foreign = await encode({ token: { sub: "user-1" }, secret, salt: "authlib.state" });
    const response = await client.send("/auth/session", { headers: { cookie: `authlib.session-token=${foreign}` } });
    expect(await response.json()).toBeNull();
  });

  it("chunks an oversized session and reads it back; a shrinking one clears stale chunks", async () => {
    const big = "x".repeat(9000);
    let grow = true;
    const { config } = makeConfig({
      callbacks: {
        jwt: ({ token }) => (grow ? { ...token, big } : { sub: token.sub, name: token.name }),
        session: ({ session, ...rest }) => ({ ...session, size: String(("token" in rest && rest.token.big) || "").length }),
      },
    });
    const client = authClient(config);
    const response = await signIn(client);
    const chunks = response.setCookies.filter((c) => c.name.startsWith("authlib.session-token."));
    expect(chunks.length).toBeGreaterThanOrEqual(3);
    for (const chunk of chunks) expect(chunk.value.length).toBeLessThanOrEqual(3936);
    expect((await client.session())?.size).toBe(9000);
    grow = false;
    const csrfToken = await client.csrf();
    const shrunk = await client.send("/auth/session", { json: { csrfToken, data: {} } });
    expect(shrunk.setCookies.filter((c) => c.name.startsWith("authlib.session-token.")).every((c) => c.attributes.maxAge === 0)).toBe(true);
    expect([...client.jar.cookies.keys()].filter((n) => n.startsWith("authlib.session-token"))).toEqual(["authlib.session-token"]);
    expect((await client.session())?.size).toBe(0);
  });

  it("re-issues the cookie only when updateAge has passed or the jwt callback changed the token", async () => {
    let counter = 0;
    let change = false;
    const { config } = makeConfig({
      session: { updateAge: 3600 },
      callbacks: { jwt: ({ token }) => (change ? { ...token, counter: ++counter } : token) },
    });
    const client = authClient(config);
    await signIn(client);
    const quiet = await client.send("/auth/session");
    expect(quiet.setCookies.some((c) => c.name === "authlib.session-token")).toBe(false);
    change = true;
    const changed = await client.send("/auth/session");
    expect(changed.setCookies.some((c) => c.name === "authlib.session-token")).toBe(true);

    change = false;
    const { config: eager } = makeConfig({ session: { updateAge: 0 } });
    const eagerClient = authClient(eager);
    await signIn(eagerClient);
    expect((await eagerClient.send("/auth/session")).setCookies.some((c) => c.name === "authlib.session-token")).toBe(true);
  });

  it("jwt.maxAge sets the lifetime of the issued token", async () => {
    const { config } = makeConfig({ jwt: { maxAge: 60 } });
    const client = authClient(config);
    await signIn(client);
    const payload = await decode({ token: client.jar.get("authlib.session-token"), secret, salt: "authlib.session-token" });
    expect((payload?.exp as number) - (payload?.iat as number)).toBe(60);
  });

  it("a custom jwt encode/decode pair (signed JWS instead of JWE) works end to end", async () => {
    const { SignJWT, jwtVerify } = await import("jose");
    const key = new TextEncoder().encode(secret);
    const { config } = makeConfig({
      jwt: {
        encode: async ({ token, maxAge }) =>
          new SignJWT({ ...token })
            .setProtectedHeader({ alg: "HS256" })
            .setIssuedAt()
            .setExpirationTime(`${maxAge ?? 60}s`)
            .sign(key),
        decode: async ({ token }) => (token ? ((await jwtVerify(token, key)).payload as Record<string, unknown>) : null),
      },
    });
    const client = authClient(config);
    await signIn(client);
    expect(client.jar.get("authlib.session-token")?.split(".")).toHaveLength(3);
    expect((await client.session())?.user.email).toBe("ada@example.com");
  });
});

describe("routing and bad input", () => {
  it("unknown paths are 404 JSON, other methods 405, a method a path does not take 405 (issue 45: was 400)", async () => {
    const { config } = makeConfig();
    const client = authClient(config);
    for (const path of ["/auth/nope", "/auth/signin/credentials/extra", "/auth/session/x", "/other"]) {
      const response = await client.send(path);
      expect(response.status).toBe(404);
      expect(((await response.json()) as { error: string }).error).toBe("UnknownAction");
    }
    expect((await client.send("/auth/session", { method: "PUT" })).status).toBe(405);
    // A path that exists for the other method: MethodNotAllowed, shown as UnknownAction.
    for (const [path, init] of [
      ["/auth/signin/credentials", {}],
      ["/auth/providers", { method: "POST", body: "x" }],
    ] as const) {
      const response = await client.send(path, init);
      expect(response.status).toBe(405);
      expect(((await response.json()) as { error: string }).error).toBe("UnknownAction");
    }
  });

  it("an unknown provider ends on the error page", async () => {
    const { config } = makeConfig();
    const client = authClient(config);
    const csrfToken = await client.csrf();
    const response = await client.send("/auth/signin/nope", { form: { csrfToken } });
    expect(response.headers.get("location")).toBe("http://localhost:3000/auth/error?error=Configuration");
    expect((await client.send("/auth/callback/nope")).headers.get("location")).toContain("error=Configuration");
  });

  it("malformed JSON and form bodies are refused cleanly", async () => {
    const { config } = makeConfig();
    const client = authClient(config);
    await client.csrf();
    const bodies: Array<[string, string]> = [
      ["application/json", "{not json"],
      ["application/json", "[1,2,3]"],
      ["application/json", "null"],
      ["application/x-www-form-urlencoded", "%%%&&&==="],
      ["multipart/form-data; boundary=x", "--x--"],
      ["text/plain", "csrfToken=abc"],
    ];
    for (const [type, body] of bodies) {
      const response = await client.send("/auth/callback/credentials", { method: "POST", body, headers: { "content-type": type } });
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toContain("error=MissingCSRF");
      const update = await client.send("/auth/session", { method: "POST", body, headers: { "content-type": type } });
      expect(update.status).toBe(400);
    }
  });

  it("an oversized body (even without Content-Length) is not parsed and fails the CSRF check", async () => {
    const { config } = makeConfig();
    const client = authClient(config);
    const csrfToken = await client.csrf();
    const huge = `csrfToken=${csrfToken}&username=ada&password=correct%20horse&pad=${"x".repeat(70_000)}`;
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(huge));
        controller.close();
      },
    });
    const response = await client.send("/auth/callback/credentials", {
      method: "POST",
      body: stream,
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(response.headers.get("location")).toContain("error=MissingCSRF");
  });

  it("GET /providers lists providers with their URLs", async () => {
    const { config } = makeConfig();
    const response = await authClient(config).send("/auth/providers");
    expect(await response.json()).toEqual({
      credentials: {
        id: "credentials",
        name: "Credentials",
        type: "credentials",
        signinUrl: "http://localhost:3000/auth/signin/credentials",
        callbackUrl: "http://localhost:3000/auth/callback/credentials",
      },
    });
  });

  it("honours a custom basePath and X-Forwarded-* when the host is trusted", async () => {
    const { config } = makeConfig({ basePath: "/api/auth" });
    const request = new Request("http://internal:8080/api/auth/providers", {
      headers: { "x-forwarded-host": "app.example.com", "x-forwarded-proto": "https" },
    });
    const body = (await (await Auth(request, config)).json()) as Record<string, { signinUrl: string }>;
    expect(body.credentials?.signinUrl).toBe("https://app.example.com/api/auth/signin/credentials");
  });
});

describe("configuration assertions", () => {
  const cases: Array<[string, Partial<AuthConfig>, string]> = [
    ["missing secret", { secret: undefined }, "MissingSecret"],
    ["empty secret array", { secret: [] }, "MissingSecret"],
    ["untrusted host", { trustHost: false }, "UntrustedHost"],
    [
      "credentials without authorize",
      { providers: [{ id: "c", name: "C", type: "credentials", credentials: {} } as never] },
      "MissingAuthorize",
    ],
    [
      "webauthn without the experimental flag",
      { providers: [{ id: "passkey", name: "Passkey", type: "webauthn" }] },
      "ExperimentalFeatureNotEnabled",
    ],
    ["database strategy without adapter", { session: { strategy: "database" } }, "MissingAdapter"],
    ["adapter without methods", { adapter: { getUser: async () => null } }, "MissingAdapterMethods"],
    [
      "email without adapter",
      { providers: [{ id: "email", name: "Email", type: "email", sendVerificationRequest: () => {} }] },
      "MissingAdapter",
    ],
    ["oauth without issuer or endpoints", { providers: [{ id: "x", name: "X", type: "oauth", clientId: "a" }] }, "InvalidEndpoints"],
    [
      "duplicate provider ids",
      { providers: [Credentials({ authorize: () => null }), Credentials({ authorize: () => null })] },
      "InvalidProvider",
    ],
  ];

  it.each(cases)("%s: logged once by name; JSON 500 and an error page that reveal nothing", async (_name, overrides, type) => {
    const { config, logs } = makeConfig(overrides);
    const client = authClient(config);
    const json = await client.send("/auth/session");
    expect(json.status).toBe(500);
    const body = await json.text();
    expect(body).toContain("server configuration");
    expect(body).not.toContain(type);
    const page = await client.send("/auth/signin");
    expect(page.status).toBe(500);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(await page.text()).not.toContain(secret);
    await client.send("/auth/csrf");
    expect(logs.filter((l) => l.startsWith(`${type}:`))).toHaveLength(1);
    // getSession fails closed
    expect((await getSession(new Request("http://localhost:3000/"), config)).data).toBeNull();
  });
});

describe("getSession", () => {
  afterEach(() => vi.restoreAllMocks());

  it("returns the session for a signed-in request and null otherwise", async () => {
    const { config } = makeConfig();
    const client = authClient(config);
    await signIn(client);
    const result = await getSession(new Request("http://localhost:3000/page", { headers: { cookie: client.jar.header() } }), config);
    expect(result.data?.user?.name).toBe("Ada");
    expect((await getSession(new Request("http://localhost:3000/page"), config)).data).toBeNull();
  });

  it("is null (not an error object) when a callback throws", async () => {
    const { config } = makeConfig();
    const client = authClient(config);
    await signIn(client);
    config.callbacks = {
      session: () => {
        throw new Error("boom");
      },
    };
    const result = await getSession(new Request("http://localhost:3000/", { headers: { cookie: client.jar.header() } }), config);
    expect(result.data).toBeNull();
  });
});

// Secrets never reach the logs: every flow, with debug on, in log-secrets.test.ts.
