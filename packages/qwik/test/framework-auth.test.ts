/**
 * FrameworkAuth$ through Qwik City's real request handling: the fixture app (test/fixture) is built with
 * the Qwik optimizer and served by Qwik City's Node middleware on 127.0.0.1.
 */
import { decode } from "@authlib/core";
import * as OTPAuth from "otpauth";
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { CREDENTIALS_SIGNIN_MESSAGE, RATE_LIMITED_MESSAGE } from "../src/messages.js";
import { type FixtureApp, startFixture } from "./fixture-app.js";
import { actionId, CookieJar, postForm, printedJson, request } from "./http.js";

const SECRET = "qwik-fixture-secret-0123456789abcdef0123456789";
const SESSION_COOKIE = "authlib.session-token";

let app: FixtureApp;
const previousSecret = process.env.AUTH_SECRET;

beforeAll(async () => {
  process.env.AUTH_SECRET = SECRET;
  app = await startFixture();
});

afterAll(async () => {
  await app?.close();
  if (previousSecret === undefined) delete process.env.AUTH_SECRET;
  else process.env.AUTH_SECRET = previousSecret;
});

function url(path: string): string {
  return `${app.origin}${path}`;
}

async function csrfToken(jar: CookieJar): Promise<string> {
  const response = await request(url("/api/authlib/csrf"), { jar });
  return ((await response.json()) as { csrfToken: string }).csrfToken;
}

/** Signs in through the built-in credentials form; `padding` lengthens the name (and the cookie). */
async function signInBuiltIn(jar: CookieJar, padding = 0): Promise<Response> {
  return postForm(
    url("/api/authlib/callback/credentials"),
    { csrfToken: await csrfToken(jar), username: "ada", password: "lovelace", padding: String(padding), callbackUrl: "/protected" },
    jar,
  );
}

async function pageActionId(path: string, formId: string, jar?: CookieJar): Promise<string> {
  return actionId(await (await request(url(path), { jar })).text(), formId);
}

describe("onRequest", () => {
  test("answers every request under a custom basePath through core, and no others", async () => {
    const providers = await request(url("/api/authlib/providers"));
    expect(providers.status).toBe(200);
    expect(Object.keys((await providers.json()) as object)).toEqual(["credentials", "example", "email", "password"]);

    const csrf = await request(url("/api/authlib/csrf"));
    expect(csrf.status).toBe(200);
    expect(csrf.headers.get("content-type")).toContain("application/json");
    expect(csrf.headers.get("cache-control")).toContain("no-store");
    expect(csrf.headers.getSetCookie()).toEqual([
      expect.stringMatching(/^authlib\.csrf-token=\w+%7C\w+; Path=\/; HttpOnly; SameSite=Lax$/),
    ]);

    expect((await request(url("/auth/providers"))).status).toBe(404);
    expect((await request(url("/api/authlibx/providers"))).status).toBe(404);
  });

  test("sends Qwik's client data requests (q-data) under basePath to the page itself", async () => {
    // A signed-out client-side navigation to a protected route: Qwik turns the redirect into a q-data URL…
    const protectedData = await request(url("/protected/q-data.json"));
    expect(protectedData.status).toBe(302);
    expect(protectedData.headers.get("location")).toBe("/api/authlib/signin/q-data.json");
    // …which leads the client to the sign-in page as a document, not to core as an unknown action.
    const signInData = await request(url("/api/authlib/signin/q-data.json?callbackUrl=%2Fprotected"));
    expect(signInData.status).toBe(302);
    expect(signInData.headers.get("location")).toBe("/api/authlib/signin?callbackUrl=%2Fprotected");
  });

  test("copies every Set-Cookie of core to the response, one by one and unchanged", async () => {
    const jar = new CookieJar();
    const response = await signInBuiltIn(jar, 6000);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(url("/protected"));

    const chunks = response.headers.getSetCookie().filter((line) => line.startsWith(`${SESSION_COOKIE}.`));
    expect(chunks.length).toBeGreaterThanOrEqual(2);
    for (const line of chunks) {
      expect(line).toMatch(/^authlib\.session-token\.\d+=[\w.-]+; Path=\/; Expires=[^;]+ GMT; HttpOnly; SameSite=Lax$/);
    }
    // The chunks put back together are the exact token core issued: it decrypts.
    const token = [...jar.cookies]
      .filter(([name]) => name.startsWith(`${SESSION_COOKIE}.`))
      .sort(([a], [b]) => Number(a.split(".").pop()) - Number(b.split(".").pop()))
      .map(([, value]) => value)
      .join("");
    const payload = await decode({ token, secret: SECRET, salt: SESSION_COOKIE });
    expect(payload?.name).toBe(`Ada${"a".repeat(6000)}`);

    // Signing out deletes every chunk, each with its own Set-Cookie.
    const signOut = await postForm(url("/api/authlib/signout"), { csrfToken: await csrfToken(jar), callbackUrl: "/" }, jar);
    expect(signOut.status).toBe(302);
    const deleted = signOut.headers
      .getSetCookie()
      .filter((line) => /Max-Age=0/i.test(line))
      .map((line) => line.slice(0, line.indexOf("=")));
    expect(deleted).toEqual(expect.arrayContaining(chunks.map((line) => line.slice(0, line.indexOf("=")))));
    expect([...jar.cookies.keys()].filter((name) => name.startsWith(SESSION_COOKIE))).toEqual([]);
  });

  test("keeps core's CSRF check on for the built-in endpoints", async () => {
    const jar = new CookieJar();
    await signInBuiltIn(jar);
    const response = await postForm(url("/api/authlib/signout"), { callbackUrl: "/" }, jar);
    expect(response.headers.get("location")).toContain("error=MissingCSRF");
    expect(jar.cookies.has(SESSION_COOKIE)).toBe(true);
  });

  test("reads the session only when asked, and at most once per request", async () => {
    const jar = new CookieJar();
    await signInBuiltIn(jar);
    const before = app.sessionReads.count;
    await request(url("/events"), { jar }); // an endpoint: no loaders, nothing asks
    await request(url("/api/authlib/csrf"), { jar });
    expect(app.sessionReads.count).toBe(before);

    // The route's onRequest calls getSession(ev) and the page's loader useSession: one read.
    const page = await request(url("/protected"), { jar });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("ada@example.com");
    expect(app.sessionReads.count).toBe(before + 1);
  });

  test("GET <basePath>/session is answered from one direct session read, as Auth() answers it", async () => {
    const jar = new CookieJar();
    await signInBuiltIn(jar);
    const before = app.sessionReads.count;
    const response = await request(url("/api/authlib/session"), { jar });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(response.headers.get("cache-control")).toBe("private, no-cache, no-store");
    expect(((await response.json()) as { user: { email: string } }).user.email).toBe("ada@example.com");
    expect(app.sessionReads.count).toBe(before + 1);

    // A forged cookie: null, and the cookie is cleared, as Auth() does.
    const forged = await request(url("/api/authlib/session"), { headers: { cookie: `${SESSION_COOKIE}=forged.token.value.x.y` } });
    expect(forged.status).toBe(200);
    expect(await forged.json()).toBeNull();
    expect(forged.headers.getSetCookie()).toEqual([
      expect.stringMatching(/^authlib\.session-token=; Max-Age=0; Path=\/; HttpOnly; SameSite=Lax$/),
    ]);

    // Signed out: null, no cookies.
    const anonymous = await request(url("/api/authlib/session"));
    expect(await anonymous.json()).toBeNull();
    expect(anonymous.headers.getSetCookie()).toEqual([]);
  });

  test("applies the cookies of the lazy session read: a refreshed token, a cleared bad one", async () => {
    const jar = new CookieJar();
    await signInBuiltIn(jar);
    // Serialised by core (the only cookie serialiser), exactly as core's own responses write them.
    const refreshed = await request(url("/protected"), { jar });
    expect(refreshed.headers.getSetCookie()).toEqual([
      expect.stringMatching(/^authlib\.session-token=[\w.-]+; Path=\/; Expires=[^;]+ GMT; HttpOnly; SameSite=Lax$/),
    ]);

    const garbage = await request(url("/"), { headers: { cookie: `${SESSION_COOKIE}=not-a-token` } });
    expect(garbage.status).toBe(200);
    expect(garbage.headers.getSetCookie()).toEqual([
      expect.stringMatching(/^authlib\.session-token=; Max-Age=0; Path=\/; HttpOnly; SameSite=Lax$/),
    ]);
    expect(printedJson(await garbage.text(), "session")).toBeNull();
  });
});

describe("the configuration", () => {
  test("a module-level configuration object is resolved once, not on every request", async () => {
    const jar = new CookieJar();
    await request(url("/"), { jar });
    const after = app.providerFactoryCalls.count;
    for (let i = 0; i < 5; i++) await request(url("/"), { jar });
    await signInBuiltIn(jar);
    await request(url("/protected"), { jar });
    expect(after).toBeGreaterThan(0);
    expect(app.providerFactoryCalls.count).toBe(after);
  });
});

describe("caching of pages that read the session", () => {
  test("a page rendered from the session is private and never stored, signed in or not", async () => {
    const jar = new CookieJar();
    expect((await request(url("/"), { jar })).headers.get("cache-control")).toBe("private, no-store");
    await signInBuiltIn(jar);
    const page = await request(url("/protected"), { jar });
    expect(await page.text()).toContain("ada@example.com");
    expect(page.headers.get("cache-control")).toBe("private, no-store");
  });

  test("the app's own cache header wins; a response that never read the session gets none from authlib", async () => {
    const cached = await request(url("/cached"));
    expect(await cached.text()).toContain("signed out");
    expect(cached.headers.get("cache-control")).toBe("max-age=60, public");
    expect((await request(url("/events"))).headers.get("cache-control") ?? "").not.toContain("private");
  });
});

describe("useSignIn", () => {
  test("invalid input gives { failed: true, formErrors, fieldErrors } with string[] per field (spec §4.1)", async () => {
    const id = await pageActionId("/", "sign-in");
    const response = await postForm(url(`/?qaction=${id}`), { options: "not-an-object" });
    expect(response.status).toBe(400);
    expect(printedJson(await response.text(), "sign-in-result")).toEqual({
      failed: true,
      formErrors: [],
      fieldErrors: { options: [expect.any(String)] },
    });

    const unknown = await postForm(url(`/?qaction=${id}`), { providerId: "nope" });
    expect(unknown.status).toBe(400);
    expect(printedJson(await unknown.text(), "sign-in-result")).toEqual({
      failed: true,
      formErrors: [],
      fieldErrors: { providerId: ['Unknown provider "nope".'] },
    });
  });

  test("email: an address core sends nothing to is a form failure (400), not the built-in page; a good one goes to verify-request", async () => {
    const id = await pageActionId("/", "sign-in");
    const before = app.mailbox.mails.length;
    const refused = await postForm(url(`/?qaction=${id}`), {
      providerId: "email",
      "options.email": "victim@example.com, attacker@evil.test",
    });
    expect(refused.status).toBe(400);
    expect(printedJson(await refused.text(), "sign-in-result")).toEqual({
      failed: true,
      formErrors: ["That is not an email address we can send a sign-in link to. Check it and try again."],
      fieldErrors: {},
      code: "EmailSignInError",
    });
    expect(app.mailbox.mails.length).toBe(before);
    const sent = await postForm(url(`/?qaction=${id}`), { providerId: "email", "options.email": "reader@example.com" }, new CookieJar());
    expect(sent.status).toBe(303);
    expect(sent.headers.get("location")).toBe("/api/authlib/verify-request?provider=email&type=email");
    expect(app.mailbox.mails.at(-1)?.to).toBe("reader@example.com");
  });

  test("credentials: a wrong password reports CredentialsSignin's code to the form, without redirecting", async () => {
    const jar = new CookieJar();
    const id = await pageActionId("/", "sign-in");
    const response = await postForm(
      url(`/?qaction=${id}`),
      { providerId: "credentials", "options.username": "ada", "options.password": "wrong", "options.redirectTo": "/protected" },
      jar,
    );
    expect(response.status).toBe(401);
    expect(response.headers.get("location")).toBeNull();
    expect(printedJson(await response.text(), "sign-in-result")).toEqual({
      failed: true,
      formErrors: [CREDENTIALS_SIGNIN_MESSAGE],
      fieldErrors: {},
      code: "credentials",
    });
    expect(jar.cookies.has(SESSION_COOKIE)).toBe(false);
  });

  test("credentials: a refusal by core's rate limit reports code RateLimited (429, Retry-After), without running authorize", async () => {
    const id = await pageActionId("/", "sign-in");
    const fields = { providerId: "credentials", "options.username": "mallory", "options.password": "guess" };
    // Three free failures, then a delay, and a lockout after ten: a refusal comes at the 11th attempt at the latest.
    let refused: Response | undefined;
    for (let i = 0; i < 11 && !refused; i++) {
      const response = await postForm(url(`/?qaction=${id}`), fields);
      if (response.status === 429) refused = response;
      else expect(response.status).toBe(401);
    }
    expect(refused?.status).toBe(429);
    expect(Number(refused?.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused?.headers.get("location")).toBeNull();
    expect(printedJson(await (refused as Response).text(), "sign-in-result")).toEqual({
      failed: true,
      formErrors: [RATE_LIMITED_MESSAGE],
      fieldErrors: {},
      code: "RateLimited",
    });
  });

  test("credentials: signs in, then redirects (303) to options.redirectTo", async () => {
    const jar = new CookieJar();
    const id = await pageActionId("/", "sign-in");
    const response = await postForm(
      url(`/?qaction=${id}`),
      { providerId: "credentials", "options.username": "ada", "options.password": "lovelace", "options.redirectTo": "/protected" },
      jar,
    );
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/protected");
    expect(jar.cookies.has(SESSION_COOKIE)).toBe(true);
    expect(await (await request(url("/protected"), { jar })).text()).toContain("ada@example.com");
  });

  test("credentials: a redirectTo on another origin is refused by core, which sends the user home instead", async () => {
    const id = await pageActionId("/", "sign-in");
    const response = await postForm(url(`/?qaction=${id}`), {
      providerId: "credentials",
      "options.username": "ada",
      "options.password": "lovelace",
      "options.redirectTo": "https://elsewhere.example/steal",
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/");
  });

  test("without a providerId, redirects (303) to the sign-in page, keeping redirectTo", async () => {
    const id = await pageActionId("/", "sign-in");
    const response = await postForm(url(`/?qaction=${id}`), { redirectTo: "/protected" });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/api/authlib/signin?callbackUrl=%2Fprotected");
  });

  test("OAuth: redirects (303) to the provider with the authorization params and sets the check cookies", async () => {
    const id = await pageActionId("/", "sign-in");
    const response = await postForm(url(`/?qaction=${id}`), {
      providerId: "example",
      authorizationParams: "prompt=login",
      "options.redirectTo": "/protected",
    });
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get("location") ?? "");
    expect(location.origin + location.pathname).toBe("https://provider.example/authorize");
    expect(location.searchParams.get("prompt")).toBe("login");
    expect(location.searchParams.get("client_id")).toBe("fixture-client");
    expect(location.searchParams.get("code_challenge_method")).toBe("S256");
    const names = response.headers.getSetCookie().map((line) => line.slice(0, line.indexOf("=")));
    expect(names).toEqual(expect.arrayContaining(["authlib.pkce.code_verifier", "authlib.callback-url"]));
  });

  test("a script-driven <Form> submission (q-data) gets the redirect in Qwik's data, for a full navigation", async () => {
    const jar = new CookieJar();
    const id = await pageActionId("/", "sign-in");
    const credentials = await postForm(
      url(`/q-data.json?qaction=${id}`),
      { providerId: "credentials", "options.username": "ada", "options.password": "lovelace", "options.redirectTo": "/protected" },
      jar,
    );
    expect(credentials.status).toBe(200);
    expect(await credentials.text()).toContain('"/protected"');
    expect(jar.cookies.has(SESSION_COOKIE)).toBe(true);

    const oauth = await postForm(url(`/q-data.json?qaction=${id}`), { providerId: "example" });
    expect(oauth.status).toBe(200);
    expect(await oauth.text()).toContain('"https://provider.example/authorize?');
  });
});

describe("useSignOut", () => {
  test("signs out, then redirects (303) to redirectTo", async () => {
    const jar = new CookieJar();
    await signInBuiltIn(jar);
    const id = await pageActionId("/", "sign-out", jar);
    const response = await postForm(url(`/?qaction=${id}`), { redirectTo: "/" }, jar);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/");
    expect(jar.cookies.has(SESSION_COOKIE)).toBe(false);
    const protectedPage = await request(url("/protected"), { jar });
    expect(protectedPage.status).toBe(302);
    expect(protectedPage.headers.get("location")).toBe("/api/authlib/signin");
  });

  test("a script-driven sign-out (q-data) ends the session: the loaders that follow do not re-issue the old cookie", async () => {
    const jar = new CookieJar();
    await signInBuiltIn(jar);
    const id = await pageActionId("/", "sign-out", jar);
    const response = await postForm(url(`/q-data.json?qaction=${id}`), { redirectTo: "/" }, jar);
    expect(response.status).toBe(200);
    const sessionCookies = response.headers.getSetCookie().filter((line) => line.startsWith(`${SESSION_COOKIE}=`));
    expect(sessionCookies.length).toBeGreaterThan(0);
    expect(sessionCookies.every((line) => line.startsWith(`${SESSION_COOKIE}=;`))).toBe(true);
    expect(jar.cookies.has(SESSION_COOKIE)).toBe(false);
    expect((await request(url("/protected"), { jar })).status).toBe(302);
  });

  // redirectTo never leaves the origin: the shared open-redirect corpus runs in open-redirect.test.ts.

  test("invalid input gives the failed shape", async () => {
    const id = await pageActionId("/", "sign-out");
    const response = await postForm(url(`/?qaction=${id}`), { "redirectTo.nested": "x" });
    expect(response.status).toBe(400);
    expect(printedJson(await response.text(), "sign-out-result")).toEqual({
      failed: true,
      formErrors: [],
      fieldErrors: { redirectTo: [expect.any(String)] },
    });
  });
});

describe("signIn(ev, …) in the app's own action", () => {
  test("throws CredentialsSignin, with its code, to the caller", async () => {
    const id = await pageActionId("/login", "login");
    const response = await postForm(url(`/login?qaction=${id}`), { username: "ada", password: "wrong" });
    expect(response.status).toBe(401);
    expect(printedJson(await response.text(), "login-result")).toEqual({ failed: true, thrown: "CredentialsSignin", code: "credentials" });
  });

  test("signs in and redirects (303)", async () => {
    const jar = new CookieJar();
    const id = await pageActionId("/login", "login");
    const response = await postForm(url(`/login?qaction=${id}`), { username: "ada", password: "lovelace" }, jar);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/protected");
    expect(jar.cookies.has(SESSION_COOKIE)).toBe(true);
  });
});

describe("useSessions and useRevokeSession", () => {
  /** A browser signed in through the built-in credentials form, and its session's id (the JWT's `sid`). */
  async function signedIn(username = "ada", password = "lovelace"): Promise<{ jar: CookieJar; sid: string }> {
    const jar = new CookieJar();
    const response = await postForm(
      url("/api/authlib/callback/credentials"),
      { csrfToken: await csrfToken(jar), username, password, callbackUrl: "/devices" },
      jar,
    );
    expect(response.status).toBe(302);
    const payload = await decode({ token: jar.cookies.get(SESSION_COOKIE) ?? "", secret: SECRET, salt: SESSION_COOKIE });
    expect(payload?.sid).toEqual(expect.any(String));
    return { jar, sid: payload?.sid as string };
  }

  type Listed = { sessions: { id: string; current: boolean }[] | null; error?: string };

  async function listedBy(jar?: CookieJar): Promise<Listed> {
    const page = await request(url("/devices"), { jar });
    expect(page.status).toBe(200);
    return printedJson(await page.text(), "sessions") as Listed;
  }

  async function revokeFrom(jar: CookieJar, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
    const id = await pageActionId("/devices", "revoke", jar);
    return request(url(`/devices?qaction=${id}`), {
      method: "POST",
      jar,
      headers: { origin: app.origin, "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(fields).toString(),
    });
  }

  test("lists the signed-in user's sessions, this browser's marked current, with what the user recognises", async () => {
    const a = await signedIn();
    const b = await signedIn();
    const listedByA = await listedBy(a.jar);
    expect(listedByA.error).toBeUndefined();
    const sessions = listedByA.sessions ?? [];
    expect(sessions.filter((s) => s.current)).toEqual([expect.objectContaining({ id: a.sid, current: true })]);
    expect(sessions.find((s) => s.id === b.sid)).toEqual({
      id: b.sid,
      current: false,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      lastSeenAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      expires: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      userAgent: null,
      clientAddress: "127.0.0.0/24",
      provider: "credentials",
    });
    // B sees the same sessions, its own marked.
    expect((await listedBy(b.jar)).sessions?.filter((s) => s.current).map((s) => s.id)).toEqual([b.sid]);
  });

  test("signed out: no list, the error named, never a failed request", async () => {
    expect(await listedBy()).toEqual({ sessions: null, error: "SessionRequired" });
  });

  test("revoking all others ends every other session of the user and keeps this one", async () => {
    const a = await signedIn();
    const b = await signedIn();
    const c = await signedIn();
    const response = await revokeFrom(a.jar, { all: "others" });
    expect(response.status).toBe(200);
    const html = await response.text();
    const revoked = (printedJson(html, "revoke-result") as { revoked: number }).revoked;
    expect(revoked).toBeGreaterThanOrEqual(2);
    // The page rendered after the action lists what is left: this browser's session only.
    expect((printedJson(html, "sessions") as Listed).sessions?.map((s) => s.id)).toEqual([a.sid]);
    expect(jar(a).has(SESSION_COOKIE)).toBe(true);

    for (const other of [b, c]) {
      expect(await listedBy(other.jar)).toEqual({ sessions: null, error: "SessionRequired" });
      expect((await request(url("/protected"), { jar: other.jar })).status).toBe(302);
    }
    expect((await request(url("/protected"), { jar: a.jar })).status).toBe(200);
    expect((await listedBy(a.jar)).sessions?.map((s) => s.id)).toEqual([a.sid]);
  });

  test("another user's session id is SessionNotFound, and nothing changes", async () => {
    const ada = await signedIn();
    const grace = await signedIn("grace", "hopper");
    const response = await revokeFrom(ada.jar, { sessionId: grace.sid });
    expect(response.status).toBe(404);
    expect(printedJson(await response.text(), "revoke-result")).toEqual({
      failed: true,
      formErrors: [expect.any(String)],
      fieldErrors: {},
      code: "SessionNotFound",
    });
    expect((await listedBy(grace.jar)).sessions?.filter((s) => s.current).map((s) => s.id)).toEqual([grace.sid]);
    expect((await request(url("/protected"), { jar: grace.jar })).status).toBe(200);
    expect((await request(url("/protected"), { jar: ada.jar })).status).toBe(200);
  });

  test("a malformed id is InvalidSessionId; input without an id or all=others is refused before core", async () => {
    const a = await signedIn();
    const malformed = await revokeFrom(a.jar, { sessionId: "not a session id!" });
    expect(malformed.status).toBe(400);
    expect(printedJson(await malformed.text(), "revoke-result")).toEqual({
      failed: true,
      formErrors: [expect.any(String)],
      fieldErrors: {},
      code: "InvalidSessionId",
    });

    for (const fields of [{}, { sessionId: a.sid, all: "others" }] as Record<string, string>[]) {
      const refused = await revokeFrom(a.jar, fields);
      expect(refused.status).toBe(400);
      expect(printedJson(await refused.text(), "revoke-result")).toEqual({
        failed: true,
        formErrors: [expect.any(String)],
        fieldErrors: {},
      });
    }
    const wrongAll = await revokeFrom(a.jar, { all: "everyone" });
    expect(wrongAll.status).toBe(400);
    expect(printedJson(await wrongAll.text(), "revoke-result")).toEqual({
      failed: true,
      formErrors: [],
      fieldErrors: { all: [expect.any(String)] },
    });
    expect((await listedBy(a.jar)).sessions?.some((s) => s.id === a.sid)).toBe(true);
  });

  test("revoking this browser's own session signs it out: its cookie is cleared", async () => {
    const a = await signedIn();
    const response = await revokeFrom(a.jar, { sessionId: a.sid });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(printedJson(html, "revoke-result")).toEqual({ revoked: 1 });
    expect(response.headers.getSetCookie()).toContainEqual(expect.stringMatching(/^authlib\.session-token=; Max-Age=0;/));
    expect(jar(a).has(SESSION_COOKIE)).toBe(false);
    // The page rendered after the action already shows this browser signed out.
    expect(printedJson(html, "session")).toBeNull();
    expect(printedJson(html, "sessions")).toEqual({ sessions: null, error: "SessionRequired" });
  });

  test("a revocation the browser says came from another site is MissingCSRF (core's check), and nothing changes", async () => {
    const a = await signedIn();
    const b = await signedIn();
    const response = await revokeFrom(a.jar, { sessionId: b.sid }, { "sec-fetch-site": "cross-site" });
    expect(response.status).toBe(403);
    expect(printedJson(await response.text(), "revoke-result")).toMatchObject({ failed: true, code: "MissingCSRF" });
    expect((await request(url("/protected"), { jar: b.jar })).status).toBe(200);
  });

  function jar(browser: { jar: CookieJar }): Map<string, string> {
    return browser.jar.cookies;
  }
});

describe("useAccounts and useUnlinkAccount", () => {
  type Listed = { accounts: { provider: string; type: string; providerAccountId: string }[] | null; error?: string };

  /** A browser signed in as `username` through the built-in credentials form. */
  async function signedIn(username = "ada", password = "lovelace"): Promise<CookieJar> {
    const jar = new CookieJar();
    const response = await postForm(
      url("/api/authlib/callback/credentials"),
      { csrfToken: await csrfToken(jar), username, password, callbackUrl: "/accounts" },
      jar,
    );
    expect(response.status).toBe(302);
    return jar;
  }

  async function listedBy(jar?: CookieJar): Promise<Listed> {
    const page = await request(url("/accounts"), { jar });
    expect(page.status).toBe(200);
    return printedJson(await page.text(), "accounts") as Listed;
  }

  async function unlinkFrom(jar: CookieJar, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
    const id = await pageActionId("/accounts", "unlink", jar);
    return request(url(`/accounts?qaction=${id}`), {
      method: "POST",
      jar,
      headers: { origin: app.origin, "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(fields).toString(),
    });
  }

  const adaAccounts = [
    { provider: "example", type: "oauth", providerAccountId: "ada-1" },
    { provider: "example", type: "oauth", providerAccountId: "ada-2" },
    { provider: "passkey", type: "webauthn", providerAccountId: "ada-passkey" },
  ];

  beforeEach(() => app.resetAccounts());

  test("lists the signed-in user's accounts, passkeys included, and never their tokens", async () => {
    const page = await request(url("/accounts"), { jar: await signedIn() });
    const html = await page.text();
    expect(printedJson(html, "accounts")).toEqual({ accounts: adaAccounts });
    expect(html).not.toMatch(/access-ada|refresh-ada|grace-1/);
    expect(await listedBy(await signedIn("grace", "hopper"))).toEqual({
      accounts: [{ provider: "example", type: "oauth", providerAccountId: "grace-1" }],
    });
  });

  test("signed out: no list, the error named, never a failed request", async () => {
    expect(await listedBy()).toEqual({ accounts: null, error: "SessionRequired" });
  });

  test("unlinks one account; the last way to sign in is refused with LastSignInMethod (409), and stays", async () => {
    const jar = await signedIn();
    const response = await unlinkFrom(jar, { provider: "example", providerAccountId: "ada-1" });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(printedJson(html, "unlink-result")).toEqual({ unlinked: 1 });
    // The page rendered after the action lists what is left.
    expect(printedJson(html, "accounts")).toEqual({ accounts: adaAccounts.slice(1) });

    // The passkey does not count as a way in: the fixture configures no passkey provider.
    const last = await unlinkFrom(jar, { provider: "example", providerAccountId: "ada-2" });
    expect(last.status).toBe(409);
    expect(printedJson(await last.text(), "unlink-result")).toEqual({
      failed: true,
      formErrors: [expect.stringContaining("last way to sign in")],
      fieldErrors: {},
      code: "LastSignInMethod",
    });
    expect(await listedBy(jar)).toEqual({ accounts: adaAccounts.slice(1) });
  });

  test("another user's account is AccountNotFound (404), and nothing changes", async () => {
    const response = await unlinkFrom(await signedIn(), { provider: "example", providerAccountId: "grace-1" });
    expect(response.status).toBe(404);
    expect(printedJson(await response.text(), "unlink-result")).toEqual({
      failed: true,
      formErrors: [expect.any(String)],
      fieldErrors: {},
      code: "AccountNotFound",
    });
    expect((await listedBy(await signedIn("grace", "hopper"))).accounts).toHaveLength(1);
  });

  test("malformed input is refused before core (400, per field); a passkey is core's InvalidAccount (400)", async () => {
    const jar = await signedIn();
    for (const fields of [{}, { provider: "example" }, { provider: "example", providerAccountId: "x".repeat(513) }] as Record<
      string,
      string
    >[]) {
      const refused = await unlinkFrom(jar, fields);
      expect(refused.status).toBe(400);
      const result = printedJson(await refused.text(), "unlink-result") as { fieldErrors: { providerAccountId?: string[] } };
      expect(result).toEqual({ failed: true, formErrors: [], fieldErrors: expect.any(Object) });
      expect(result.fieldErrors.providerAccountId).toEqual([expect.any(String)]);
    }
    const passkey = await unlinkFrom(jar, { provider: "passkey", providerAccountId: "ada-passkey" });
    expect(passkey.status).toBe(400);
    expect(printedJson(await passkey.text(), "unlink-result")).toMatchObject({ failed: true, code: "InvalidAccount" });
    expect(await listedBy(jar)).toEqual({ accounts: adaAccounts });
  });

  test("an unlink the browser says came from another site is MissingCSRF (core's check), and nothing changes", async () => {
    const jar = await signedIn();
    const response = await unlinkFrom(jar, { provider: "example", providerAccountId: "ada-1" }, { "sec-fetch-site": "cross-site" });
    expect(response.status).toBe(403);
    expect(printedJson(await response.text(), "unlink-result")).toMatchObject({ failed: true, code: "MissingCSRF" });
    expect(await listedBy(jar)).toEqual({ accounts: adaAccounts });
  });
});

describe("useSignUp, useRequestPasswordReset, useResetPassword, useChangePassword", () => {
  const PASSWORD = "correct horse battery";
  let addresses = 0;
  /** A new address for each account, so the per-address mail limit of one test never meets another's. */
  function newAddress(): string {
    return `user-${++addresses}-${Date.now()}@example.com`;
  }

  /** Posts `fields` to the password page's action form `formId` (from this app's origin, unless `headers` say otherwise). */
  async function submit(formId: string, fields: Record<string, string>, jar?: CookieJar, headers: Record<string, string> = {}) {
    const id = await pageActionId("/password", formId, jar);
    return request(url(`/password?qaction=${id}`), {
      method: "POST",
      jar,
      headers: { origin: app.origin, "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(fields).toString(),
    });
  }

  /** Posts `body` as JSON, which Qwik City passes to the action as it is (arrays, numbers…). */
  async function submitJson(formId: string, body: unknown, jar?: CookieJar) {
    const id = await pageActionId("/password", formId, jar);
    return request(url(`/password?qaction=${id}`), {
      method: "POST",
      jar,
      headers: { origin: app.origin, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  }

  /** What the action printed on the page it answered with. */
  async function result(response: Response, formId: string): Promise<unknown> {
    return printedJson(await response.text(), `${formId}-result`);
  }

  /** The newest mail to `to`, and the `token` of its link under `<basePath>/password/<path>`. */
  function mailedToken(to: string, path: "verify" | "reset"): string {
    const mail = app.mailbox.mails.findLast((m) => m.to === to);
    const link = mail?.text.match(new RegExp(`${app.origin}/api/authlib/password/${path}\\?\\S+`))?.[0];
    if (!link) throw new Error(`No ${path} link mailed to ${to}`);
    return new URL(link).searchParams.get("token") as string;
  }

  /** The session of `jar` as the page's useSession prints it. */
  async function sessionOf(jar: CookieJar): Promise<{ user?: { email?: string } } | null> {
    return printedJson(await (await request(url("/password"), { jar })).text(), "session") as { user?: { email?: string } } | null;
  }

  /** A browser that signed up with `useSignUp` and confirmed the mailed link: signed in. */
  async function account(password = PASSWORD): Promise<{ jar: CookieJar; email: string }> {
    const jar = new CookieJar();
    const email = newAddress();
    const signedUp = await submit("sign-up", { email, password, name: "Ada" }, jar);
    expect(signedUp.status).toBe(303);
    const confirm = await postForm(
      url("/api/authlib/password/verify"),
      { csrfToken: await csrfToken(jar), token: mailedToken(email, "verify") },
      jar,
    );
    expect(confirm.status).toBe(302);
    return { jar, email };
  }

  /** Signs in with the password through `useSignIn` in a fresh browser; answers the response and the browser. */
  async function signInWith(email: string, password: string): Promise<{ response: Response; jar: CookieJar }> {
    const jar = new CookieJar();
    const id = await pageActionId("/", "sign-in");
    const response = await postForm(
      url(`/?qaction=${id}`),
      { providerId: "password", "options.email": email, "options.password": password, "options.redirectTo": "/protected" },
      jar,
    );
    return { response, jar };
  }

  test("sign-up mails a link and redirects (303) to the verify-request page; the link signs this browser in", async () => {
    const jar = new CookieJar();
    const email = newAddress();
    const response = await submit("sign-up", { email, password: PASSWORD, name: "Ada", redirectTo: "/protected" }, jar);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/api/authlib/verify-request?provider=password&type=password-sign-up");
    // The CSRF cookie the link is bound to: this browser had none, so core made it and the action set it.
    expect(response.headers.getSetCookie()).toContainEqual(expect.stringMatching(/^authlib\.csrf-token=/));
    expect(jar.cookies.has(SESSION_COOKIE)).toBe(false);
    expect(app.mailbox.mails.at(-1)).toMatchObject({ to: email, subject: expect.stringContaining("Confirm your email address") });

    const confirm = await postForm(
      url("/api/authlib/password/verify"),
      { csrfToken: await csrfToken(jar), token: mailedToken(email, "verify") },
      jar,
    );
    expect(confirm.status).toBe(302);
    expect(confirm.headers.get("location")).toBe(url("/protected"));
    expect((await sessionOf(jar))?.user?.email).toBe(email);
  });

  test("sign-up: the password rules, the name and the address are core's typed errors, under their field (400), nothing mailed", async () => {
    const mailed = app.mailbox.mails.length;
    const cases: [Record<string, string>, object][] = [
      [{ password: "" }, { code: "InvalidPassword", rule: "missing", fieldErrors: { password: [expect.any(String)] } }],
      [{ password: "short" }, { code: "InvalidPassword", rule: "too-short", fieldErrors: { password: [expect.stringContaining("8")] } }],
      [
        { password: "x".repeat(129) },
        { code: "InvalidPassword", rule: "too-long", fieldErrors: { password: [expect.stringContaining("128")] } },
      ],
      [{ name: "two\nlines" }, { code: "InvalidName", fieldErrors: { name: [expect.any(String)] } }],
      [{ email: "not-an-address" }, { code: "EmailSignInError", fieldErrors: { email: [expect.any(String)] } }],
    ];
    for (const [fields, expected] of cases) {
      const response = await submit("sign-up", { email: newAddress(), password: PASSWORD, ...fields });
      expect(response.status, JSON.stringify(fields)).toBe(400);
      expect(response.headers.get("location")).toBeNull();
      expect(await result(response, "sign-up")).toEqual({ failed: true, formErrors: [], ...expected });
    }
    expect(app.mailbox.mails.length).toBe(mailed);
  });

  test("sign-up: a mail that cannot be sent is EmailSignInError with 503, a form error (not the user's doing)", async () => {
    app.mailbox.refuse = true;
    try {
      const response = await submit("sign-up", { email: newAddress(), password: PASSWORD });
      expect(response.status).toBe(503);
      expect(await result(response, "sign-up")).toEqual({
        failed: true,
        formErrors: [expect.stringContaining("could not be sent")],
        fieldErrors: {},
        code: "EmailSignInError",
      });
    } finally {
      app.mailbox.refuse = false;
    }
  });

  test("sign-up: mails to one address are limited, RateLimited (429, Retry-After)", async () => {
    const email = newAddress();
    let refused: Response | undefined;
    for (let i = 0; i < 10 && !refused; i++) {
      const response = await submit("sign-up", { email, password: PASSWORD });
      if (response.status === 429) refused = response;
      else expect(response.status).toBe(303);
    }
    expect(refused?.status).toBe(429);
    expect(Number(refused?.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await result(refused as Response, "sign-up")).toEqual({
      failed: true,
      formErrors: [RATE_LIMITED_MESSAGE],
      fieldErrors: {},
      code: "RateLimited",
    });
  });

  test("input that is not bounded strings is refused before core (400, per field): arrays, over-long, missing, numbers", async () => {
    const mailed = app.mailbox.mails.length;
    const array = await request(url(`/password?qaction=${await pageActionId("/password", "sign-up")}`), {
      method: "POST",
      headers: { origin: app.origin, "content-type": "application/x-www-form-urlencoded" },
      body: `email=${encodeURIComponent(newAddress())}&password[]=one&password[]=two`,
    });
    expect(array.status).toBe(400);
    expect(await result(array, "sign-up")).toEqual({ failed: true, formErrors: [], fieldErrors: { password: [expect.any(String)] } });

    const refused: [string, unknown, string][] = [
      ["sign-up", { email: [newAddress(), "b@example.com"], password: PASSWORD }, "email"],
      ["sign-up", { email: newAddress(), password: "x".repeat(4097) }, "password"],
      ["sign-up", { email: newAddress(), password: PASSWORD, name: "n".repeat(257) }, "name"],
      ["sign-up", { email: "a".repeat(321), password: PASSWORD }, "email"],
      ["request-reset", { email: 42 }, "email"],
      ["request-reset", { email: newAddress(), redirectTo: `/${"r".repeat(4096)}` }, "redirectTo"],
      ["reset", { token: "t".repeat(8193), password: PASSWORD }, "token"],
      ["reset", { password: PASSWORD }, "token"],
      ["change", { currentPassword: PASSWORD, password: { nested: true } }, "password"],
    ];
    for (const [formId, body, field] of refused) {
      const response = await submitJson(formId, body);
      expect(response.status, `${formId} ${field}`).toBe(400);
      const printed = (await result(response, formId)) as { failed: boolean; code?: string; fieldErrors: Record<string, string[]> };
      expect(printed.failed).toBe(true);
      expect(printed.code).toBeUndefined();
      expect(printed.fieldErrors[field], `${formId} ${field}`).toEqual([expect.any(String)]);
    }
    expect(app.mailbox.mails.length).toBe(mailed);
  });

  test("change: sets the new password, renews this session (cookie set), ends the others, and redirects (303) to the page", async () => {
    const { jar, email } = await account();
    const other = await signInWith(email, PASSWORD);
    expect(other.response.status).toBe(303);
    const before = jar.cookies.get(SESSION_COOKIE);

    const response = await submit("change", { currentPassword: PASSWORD, password: "a much newer password" }, jar);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/password");
    expect(response.headers.getSetCookie()).toContainEqual(expect.stringMatching(/^authlib\.session-token=[^;]+; Path=\/; Expires=/));
    expect(jar.cookies.get(SESSION_COOKIE)).not.toBe(before);
    expect((await sessionOf(jar))?.user?.email).toBe(email);
    // The other browser is signed out; the old password no longer signs in, the new one does.
    expect(await sessionOf(other.jar)).toBeNull();
    expect((await signInWith(email, PASSWORD)).response.status).toBe(401);
    const again = await signInWith(email, "a much newer password");
    expect(again.response.status).toBe(303);
    expect(again.response.headers.get("location")).toBe("/protected");
    expect(again.jar.cookies.has(SESSION_COOKIE)).toBe(true);
  });

  test("change, script-driven (q-data): the redirect in Qwik's data, the new cookie set, the old one not re-issued", async () => {
    const { jar } = await account();
    const id = await pageActionId("/password", "change", jar);
    const response = await postForm(
      url(`/password/q-data.json?qaction=${id}`),
      { currentPassword: PASSWORD, password: "another new password", redirectTo: "/protected" },
      jar,
    );
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('"/protected"');
    const sessionCookies = response.headers.getSetCookie().filter((line) => line.startsWith(`${SESSION_COOKIE}=`));
    expect(sessionCookies).toHaveLength(1);
    expect(sessionCookies[0]).not.toMatch(/Max-Age=0/);
    expect((await request(url("/protected"), { jar })).status).toBe(200);
  });

  test("change: a wrong current password is IncorrectPassword (403, under currentPassword); a bad new one InvalidPassword", async () => {
    const { jar, email } = await account();
    const wrong = await submit("change", { currentPassword: "not my password", password: "whatever new password" }, jar);
    expect(wrong.status).toBe(403);
    expect(await result(wrong, "change")).toEqual({
      failed: true,
      formErrors: [],
      fieldErrors: { currentPassword: [expect.any(String)] },
      code: "IncorrectPassword",
    });
    const short = await submit("change", { currentPassword: PASSWORD, password: "short" }, jar);
    expect(short.status).toBe(400);
    expect(await result(short, "change")).toMatchObject({ failed: true, code: "InvalidPassword", rule: "too-short" });
    // Nothing changed: still signed in, the password still the old one.
    expect((await sessionOf(jar))?.user?.email).toBe(email);
    expect((await signInWith(email, PASSWORD)).response.status).toBe(303);
  });

  test("change: signed out is SessionRequired (401); a user without a password PasswordNotSet (409)", async () => {
    const signedOut = await submit("change", { currentPassword: PASSWORD, password: "a new password" });
    expect(signedOut.status).toBe(401);
    expect(await result(signedOut, "change")).toEqual({
      failed: true,
      formErrors: [expect.any(String)],
      fieldErrors: {},
      code: "SessionRequired",
    });
    // Ada signs in with the fixture's own credentials provider: she has no password account.
    const ada = new CookieJar();
    await signInBuiltIn(ada);
    const notSet = await submit("change", { currentPassword: "lovelace", password: "a new password" }, ada);
    expect(notSet.status).toBe(409);
    expect(await result(notSet, "change")).toMatchObject({ failed: true, code: "PasswordNotSet", fieldErrors: {} });
  });

  test("change sent from another site is MissingCSRF (403, core's check), and the password stays", async () => {
    const { jar, email } = await account();
    const response = await submit("change", { currentPassword: PASSWORD, password: "attacker's password" }, jar, {
      "sec-fetch-site": "cross-site",
    });
    expect(response.status).toBe(403);
    expect(await result(response, "change")).toMatchObject({ failed: true, code: "MissingCSRF" });
    expect((await signInWith(email, PASSWORD)).response.status).toBe(303);
    expect((await signInWith(email, "attacker's password")).response.status).toBe(401);
  });

  test("reset: the mailed link sets a new password in the browser that asked, signs it in and ends the other sessions", async () => {
    const { jar: first, email } = await account();
    const browser = new CookieJar();
    const asked = await submit("request-reset", { email, redirectTo: "/protected" }, browser);
    expect(asked.status).toBe(303);
    expect(asked.headers.get("location")).toBe("/api/authlib/verify-request?provider=password&type=password-reset");
    const token = mailedToken(email, "reset");

    // Another browser cannot use it (Verification), and that does not spend it.
    const elsewhere = await submit("reset", { token, password: "a reset password" }, new CookieJar());
    expect(elsewhere.status).toBe(400);
    expect(await result(elsewhere, "reset")).toMatchObject({ failed: true, code: "Verification", fieldErrors: {} });

    const tooShort = await submit("reset", { token, password: "short" }, browser);
    expect(tooShort.status).toBe(400);
    expect(await result(tooShort, "reset")).toMatchObject({
      code: "InvalidPassword",
      rule: "too-short",
      fieldErrors: { password: [expect.any(String)] },
    });

    const response = await submit("reset", { token, password: "a reset password" }, browser);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/protected");
    expect((await sessionOf(browser))?.user?.email).toBe(email);
    expect(await sessionOf(first)).toBeNull();
    expect((await signInWith(email, "a reset password")).response.status).toBe(303);

    // The link works once.
    const again = await submit("reset", { token, password: "yet another password" }, browser);
    expect(again.status).toBe(400);
    expect(await result(again, "reset")).toMatchObject({ failed: true, code: "Verification" });
  });

  test("reset with a token that is not a link's is Verification (400, a form error), and nothing is set", async () => {
    for (const token of ["", "not-a-token", "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2Q0JDLUhTNTEyIn0..x.y.z"]) {
      const response = await submit("reset", { token, password: "a reset password" }, new CookieJar());
      expect(response.status).toBe(400);
      expect(await result(response, "reset")).toEqual({
        failed: true,
        formErrors: [expect.any(String)],
        fieldErrors: {},
        code: "Verification",
      });
      expect(response.headers.getSetCookie().filter((line) => line.startsWith(SESSION_COOKIE))).toEqual([]);
    }
  });

  test("a reset request answers the same for an address without an account, and mails it a note instead", async () => {
    const email = newAddress();
    const response = await submit("request-reset", { email }, new CookieJar());
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/api/authlib/verify-request?provider=password&type=password-reset");
    expect(app.mailbox.mails.at(-1)).toMatchObject({ to: email, subject: expect.stringContaining("Password reset") });
    expect(() => mailedToken(email, "reset")).toThrow();
  });
});

describe("second factors: useTwoFactor, useEnrollTotp, useConfirmTotp, useDisableTotp, useRegenerateRecoveryCodes, useTwoFactorStatus, requireRecentAuth", () => {
  const PASSWORD = "correct horse battery";
  let users = 0;

  /** The code otpauth (an independent TOTP implementation) computes for `secret`, `offsetSteps` steps from now. */
  function totp(secret: string, offsetSteps = 0): string {
    const generator = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 });
    return generator.generate({ timestamp: Date.now() + offsetSteps * 30_000 });
  }

  async function submit(formId: string, fields: Record<string, string>, jar: CookieJar, path = "/two-factor") {
    const id = await pageActionId(path, formId, jar);
    return request(url(`${path}?qaction=${id}`), {
      method: "POST",
      jar,
      headers: { origin: app.origin, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    });
  }

  async function printed(jar: CookieJar, id: string, response?: Response): Promise<any> {
    return printedJson(await (response ?? (await request(url("/two-factor"), { jar }))).text(), id);
  }

  /** A password account, signed up and confirmed (useSignUp and the mailed link): signed in in `jar`. */
  async function account(): Promise<{ jar: CookieJar; email: string }> {
    const jar = new CookieJar();
    const email = `second-${++users}-${Date.now()}@example.com`;
    await submit("sign-up", { email, password: PASSWORD }, jar, "/password");
    const mail = app.mailbox.mails.findLast((m) => m.to === email);
    const token = new URL(mail?.text.match(/http\S+\/password\/verify\?\S+/)?.[0] as string).searchParams.get("token") as string;
    await postForm(url("/api/authlib/password/verify"), { csrfToken: await csrfToken(jar), token }, jar);
    return { jar, email };
  }

  test("set up in the app, then a password sign-in ends on the app's /two-factor page and useTwoFactor completes it", async () => {
    const { jar, email } = await account();
    expect(await printed(jar, "status")).toEqual({ totp: false, recoveryCodes: 0, passkeys: 0 });
    const enrolled = await printed(jar, "enroll-result", await submit("enroll", {}, jar));
    expect(enrolled.secret).toMatch(/^[A-Z2-7]{32}$/);
    const wrong = await printed(
      jar,
      "confirm-result",
      await submit("confirm", { code: totp(enrolled.secret, 4) === "000000" ? "1" : "000000" }, jar),
    );
    expect(wrong).toMatchObject({ failed: true, code: "IncorrectCode" });
    expect(wrong.fieldErrors.code).toHaveLength(1);
    const confirmed = await printed(jar, "confirm-result", await submit("confirm", { code: totp(enrolled.secret) }, jar));
    expect(confirmed.recoveryCodes).toHaveLength(10);
    expect(await printed(jar, "status")).toEqual({ totp: true, recoveryCodes: 10, passkeys: 0 });

    const browser = new CookieJar();
    const id = await pageActionId("/", "sign-in");
    const first = await postForm(
      url(`/?qaction=${id}`),
      { providerId: "password", "options.email": email, "options.password": PASSWORD, "options.redirectTo": "/protected" },
      browser,
    );
    expect(first.status).toBe(303);
    expect(first.headers.get("location")).toBe("/two-factor");
    expect(await printed(browser, "session")).toBeNull();

    const refused = await submit("second-step", { code: "12" }, browser);
    expect(await printed(browser, "second-step-result", refused)).toMatchObject({ failed: true, code: "IncorrectCode" });
    const done = await submit("second-step", { code: totp(enrolled.secret, 1) }, browser);
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toBe("/protected");
    expect(await printed(browser, "session")).toMatchObject({ user: { email } });

    // Without a waiting sign-in: TwoFactorExpired (401), never an error page.
    const stranger = new CookieJar();
    const expired = await submit("second-step", { code: totp(enrolled.secret, 1) }, stranger);
    expect(expired.status).toBe(401);
    expect(await printed(stranger, "second-step-result", expired)).toMatchObject({ failed: true, code: "TwoFactorExpired" });

    // New recovery codes with one of the first ones: a wrong code is a form failure; then the earlier
    // codes no longer work.
    const wrongCode = await printed(browser, "regenerate-result", await submit("regenerate", { code: "000000x" }, browser));
    expect(wrongCode).toMatchObject({ failed: true, code: "IncorrectCode" });
    const regenerated = await printed(
      browser,
      "regenerate-result",
      await submit("regenerate", { code: confirmed.recoveryCodes[0] }, browser),
    );
    expect(regenerated.recoveryCodes).toHaveLength(10);
    const stale = await printed(browser, "disable-result", await submit("disable", { code: confirmed.recoveryCodes[1] }, browser));
    expect(stale).toMatchObject({ failed: true, code: "IncorrectCode" });

    // Off with a recovery code.
    const disabled = await submit("disable", { code: regenerated.recoveryCodes[0] }, browser);
    expect(await printed(browser, "disable-result", disabled)).toEqual({ disabled: true });
    expect(await printed(browser, "status")).toEqual({ totp: false, recoveryCodes: 0, passkeys: 0 });
  });

  test("requireRecentAuth: a recent sign-in passes; too old, too weak or signed out goes to sign in again, back to the page", async () => {
    const { jar } = await account();
    const fresh = await request(url("/recent?maxAge=600"), { jar });
    expect(printedJson(await fresh.text(), "recent")).toMatchObject({ aal: 1, amr: ["pwd"] });

    const weak = await request(url("/recent?maxAge=600&aal=2"), { jar });
    expect(weak.status).toBe(302);
    expect(new URL(weak.headers.get("location") as string, app.origin).pathname).toBe("/api/authlib/signin");
    expect(new URL(weak.headers.get("location") as string, app.origin).searchParams.get("callbackUrl")).toBe(
      url("/recent?maxAge=600&aal=2"),
    );

    const signedOut = await request(url("/recent?maxAge=600"));
    expect(signedOut.status).toBe(302);

    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 11 * 60_000 });
    try {
      expect((await request(url("/recent?maxAge=600"), { jar })).status).toBe(302);
      // The settings actions need a sign-in in the last 10 minutes: the action redirects to sign in again.
      const enroll = await submit("enroll", {}, jar);
      expect(enroll.status).toBe(303);
      expect(new URL(enroll.headers.get("location") as string, app.origin).pathname).toBe("/api/authlib/signin");
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("organizations: useOrganizations, useCreateOrganization, useSetActiveOrganization, useInviteMember", () => {
  async function submit(formId: string, fields: Record<string, string>, jar: CookieJar) {
    const id = await pageActionId("/organizations", formId, jar);
    return request(url(`/organizations?qaction=${id}`), {
      method: "POST",
      jar,
      headers: { origin: app.origin, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    });
  }
  async function printed(response: Response, id: string): Promise<any> {
    return printedJson(await response.text(), id);
  }

  test("creates one, makes it active (useSession shows it with the role), and reports a refusal as a value with core's status", async () => {
    const jar = new CookieJar();
    expect(await printed(await request(url("/organizations"), { jar }), "organizations")).toEqual({
      organizations: null,
      error: "SessionRequired",
    });
    await signInBuiltIn(jar);
    const slug = `acme-${Date.now()}`;
    const created = await printed(await submit("create", { name: "Acme", slug }, jar), "create-result");
    expect(created).toMatchObject({ organization: { name: "Acme", slug }, role: "owner" });
    const taken = await submit("create", { name: "Other", slug }, jar);
    expect(taken.status).toBe(409);
    expect(await printed(taken, "create-result")).toMatchObject({ failed: true, code: "SlugTaken" });
    const bad = await submit("create", { name: "", slug: "x" }, jar);
    expect(bad.status).toBe(400);
    const active = await submit("active", { organizationId: created.organization.id }, jar);
    // The loaders after the action read the session the new cookie carries (not the request's, re-issued over it).
    expect(printedJson(await active.clone().text(), "session")).toMatchObject({ activeOrganizationId: created.organization.id });
    expect(await printed(active, "active-result")).toEqual({ activeOrganizationId: created.organization.id, role: "owner" });
    const page = await request(url("/organizations"), { jar });
    const html = await page.text();
    expect(printedJson(html, "session")).toMatchObject({ activeOrganizationId: created.organization.id, activeOrganizationRole: "owner" });
    expect(printedJson(html, "organizations")).toMatchObject({ organizations: [{ organization: { slug }, role: "owner" }] });
    // Grace is not a member: making Ada's organization active is OrganizationNotFound (404), nothing set.
    const grace = new CookieJar();
    await postForm(
      url("/api/authlib/callback/credentials"),
      { csrfToken: await csrfToken(grace), username: "grace", password: "hopper" },
      grace,
    );
    const refused = await submit("active", { organizationId: created.organization.id }, grace);
    expect(refused.status).toBe(404);
    expect(await printed(refused, "active-result")).toMatchObject({ failed: true, code: "OrganizationNotFound" });
  });

  test("a refusal by the organization's sign-in policy carries what is missing and the step-up URL, as core's JSON does", async () => {
    const jar = new CookieJar();
    await signInBuiltIn(jar);
    const created = await printed(await submit("create", { name: "Vault", slug: `vault-${Date.now()}` }, jar), "create-result");
    const organizationId = created.organization.id as string;
    // Ada signed in with credentials; her organization now admits passkey sign-ins only.
    const policy = JSON.stringify({ allowedSignInMethods: ["passkey"] });
    const updated = await postForm(
      url("/api/authlib/organization/update"),
      { csrfToken: await csrfToken(jar), organizationId, policy },
      jar,
    );
    expect(updated.status).toBe(200);
    const refused = await submit("active", { organizationId }, jar);
    expect(refused.status).toBe(403);
    const failure = await printed(refused, "active-result");
    expect(failure).toMatchObject({ failed: true, code: "OrganizationPolicy", details: { missing: ["signInMethod"] } });
    const stepUp = new URL(failure.details.stepUp as string);
    expect(stepUp.pathname).toBe("/api/authlib/signin");
    expect(stepUp.searchParams.get("callbackUrl")).toContain(`organizationId=${organizationId}`);
  });
});

describe("API keys: useCreateApiKey, useListApiKeys, useRotateApiKey, useRevokeApiKey", () => {
  async function submit(formId: string, fields: Record<string, string>, jar: CookieJar) {
    const id = await pageActionId("/api-keys", formId, jar);
    return request(url(`/api-keys?qaction=${id}`), {
      method: "POST",
      jar,
      headers: { origin: app.origin, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    });
  }
  async function printed(response: Response, id: string): Promise<any> {
    return printedJson(await response.text(), id);
  }
  /** What core's verification answers for `key` (200 with the owner, or the refusal's status). */
  async function verified(key: string): Promise<number> {
    return (await fetch(url("/api/authlib/api-keys/verify"), { headers: { authorization: `Bearer ${key}` } })).status;
  }

  test("creates a key shown once, lists it without the key, rotates it (the old one stops) and revokes the new one", async () => {
    const jar = new CookieJar();
    const signedOut = await submit("list", {}, jar);
    expect(signedOut.status).toBe(401);
    expect(await printed(signedOut, "list-result")).toMatchObject({ failed: true, code: "SessionRequired" });
    await signInBuiltIn(jar);
    const created = await printed(await submit("create", { name: "CI deploy", scopes: "reports:read" }, jar), "create-result");
    expect(created.key).toMatch(/^fx_/);
    expect(created.apiKey).toMatchObject({ name: "CI deploy", scopes: ["reports:read"], organizationId: null });
    expect(await verified(created.key)).toBe(200);

    const listed = await printed(await submit("list", {}, jar), "list-result");
    expect(listed.apiKeys.map((key: { id: string }) => key.id)).toContain(created.apiKey.id);
    expect(JSON.stringify(listed)).not.toContain(created.key);

    const rotated = await printed(await submit("rotate", { keyId: created.apiKey.id }, jar), "rotate-result");
    expect(rotated.key).toMatch(/^fx_/);
    expect(rotated.key).not.toBe(created.key);
    expect(await verified(created.key)).toBe(401);
    expect(await verified(rotated.key)).toBe(200);

    const revoked = await submit("revoke", { keyId: rotated.apiKey.id }, jar);
    expect(await printed(revoked, "revoke-result")).toEqual({ revoked: true });
    expect(await verified(rotated.key)).toBe(401);
  });

  test("reports a refusal as a value with core's status: an unknown scope, another user's key, a bad field", async () => {
    const ada = new CookieJar();
    await signInBuiltIn(ada);
    const wide = await submit("create", { name: "Too wide", scopes: "admin:everything" }, ada);
    expect(wide.status).toBe(400);
    expect(await printed(wide, "create-result")).toMatchObject({ failed: true, code: "InvalidApiKeyRequest" });
    const mine = await printed(await submit("create", { name: "Mine" }, ada), "create-result");
    // Grace cannot revoke Ada's key: to her it does not exist.
    const grace = new CookieJar();
    await postForm(
      url("/api/authlib/callback/credentials"),
      { csrfToken: await csrfToken(grace), username: "grace", password: "hopper" },
      grace,
    );
    const refused = await submit("revoke", { keyId: mine.apiKey.id }, grace);
    expect(refused.status).toBe(404);
    expect(await printed(refused, "revoke-result")).toMatchObject({ failed: true, code: "ApiKeyNotFound" });
    expect(await verified(mine.key)).toBe(200);
    // A name that is empty never reaches core: the schema's 400.
    expect((await submit("create", { name: "" }, ada)).status).toBe(400);
  });
});
