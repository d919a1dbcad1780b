/**
 * The HTTP side of the 1.x promise (docs/compatibility.md): every documented route still answers as a route
 * (not as an unknown path), and the cookies keep their documented names, on http and (`__Host-`) on https.
 * Through the built package's public entry points only, with every feature on and the hosted-db adapter on
 * PGlite. A route or a cookie name may be added; one that disappears or is renamed fails here.
 */
import { createAuth } from "@authlib/core";
import Credentials from "@authlib/core/providers/credentials";
import GitHub from "@authlib/core/providers/github";
import Nodemailer from "@authlib/core/providers/nodemailer";
import Passkey from "@authlib/core/providers/passkey";
import Password from "@authlib/core/providers/password";
import { HostedDbAdapter, HostedDbClient } from "@authlib/hosted-db-adapter";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** Every route of 1.x under the default `basePath`, as the docs list them (method, path with its parameters). */
const ROUTES = [
  "GET /auth/signin",
  "POST /auth/signin/github",
  "POST /auth/signin/nodemailer",
  "GET /auth/callback/github?code=c&state=s",
  "POST /auth/callback/credentials",
  "POST /auth/callback/password",
  "POST /auth/callback/passkey",
  "GET /auth/callback/nodemailer?token=t&email=a%40example.com",
  "GET /auth/signout",
  "POST /auth/signout",
  "GET /auth/session",
  "POST /auth/session",
  "GET /auth/csrf",
  "GET /auth/providers",
  "GET /auth/error?error=Configuration",
  "GET /auth/verify-request",
  "GET /auth/verify-request?type=password-sign-up",
  "GET /auth/webauthn-options/passkey?action=authenticate",
  "GET /auth/webauthn-options/passkey?action=register&name=Ada",
  "GET /auth/webauthn-script",
  "GET /auth/sessions",
  "POST /auth/sessions/revoke",
  "GET /auth/accounts",
  "POST /auth/accounts/unlink",
  "GET /auth/passkeys",
  "POST /auth/passkeys/rename",
  "POST /auth/passkeys/remove",
  "GET /auth/account",
  "POST /auth/account/email",
  "POST /auth/account/confirm-email",
  "POST /auth/account/delete",
  "GET /auth/account/revert-email?token=t",
  "POST /auth/account/revert-email",
  "GET /auth/password/sign-up",
  "POST /auth/password/sign-up",
  "GET /auth/password/verify?token=t",
  "POST /auth/password/verify",
  "GET /auth/password/forgot",
  "POST /auth/password/forgot",
  "GET /auth/password/reset?token=t",
  "POST /auth/password/reset",
  "POST /auth/password/resend",
  "POST /auth/password/change",
  "GET /auth/two-factor",
  "POST /auth/two-factor",
  "GET /auth/two-factor/status",
  "POST /auth/two-factor/enroll",
  "POST /auth/two-factor/confirm",
  "POST /auth/two-factor/disable",
];

/** The documented cookie names ([configuration](../../../docs/configuration.md#cookies)), without prefix. */
const COOKIES = [
  "authlib.session-token",
  "authlib.csrf-token",
  "authlib.callback-url",
  "authlib.pkce.code_verifier",
  "authlib.state",
  "authlib.nonce",
  "authlib.challenge",
  "authlib.device-token",
  "authlib.email-flow",
  "authlib.two-factor",
  "authlib.session-assurance",
];

const ADA = { id: "u-ada", email: "ada@example.com", name: "Ada" };

let pglite: PGlite;
let client: HostedDbClient;

beforeAll(async () => {
  pglite = await PGlite.create();
  client = new HostedDbClient({ pglite, branch: "wire_contract" });
  await client.migrate();
  await HostedDbAdapter(client).createUser({ ...ADA, emailVerified: null });
});

afterAll(async () => {
  await client?.close();
  await pglite?.close();
});

function instance(url: string) {
  return createAuth({
    url,
    secret: "wire-contract-secret-0123456789abcdef",
    adapter: HostedDbAdapter(client),
    session: { strategy: "database" },
    providers: [
      GitHub({ clientId: "github-client", clientSecret: "github-secret" }),
      Credentials({ credentials: { username: {}, password: {} }, authorize: ({ password }) => (password === "pw" ? ADA : null) }),
      Password({ sendMail: async () => {} }),
      Passkey,
      Nodemailer({ server: "smtp://127.0.0.1:1", from: "auth@example.com", sendVerificationRequest: async () => {} }),
    ],
    experimental: { enableWebAuthn: true },
    twoFactor: {},
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
  });
}

/** A browser: sends requests with its cookies, keeps what the answers set, and remembers every name it saw. */
function browser(auth: ReturnType<typeof instance>, origin: string) {
  const jar = new Map<string, string>();
  const seen = new Set<string>();
  async function send(method: string, path: string, form?: Record<string, string>) {
    const headers = new Headers({ origin, "sec-fetch-site": "same-origin" });
    if (jar.size > 0) headers.set("cookie", [...jar].map(([name, value]) => `${name}=${value}`).join("; "));
    if (form) headers.set("content-type", "application/x-www-form-urlencoded");
    const response = await auth.handler(new Request(new URL(path, origin), { method, headers, body: form && new URLSearchParams(form) }));
    for (const header of response.headers.getSetCookie()) {
      const [pair = ""] = header.split(";");
      const name = pair.slice(0, pair.indexOf("="));
      const value = pair.slice(pair.indexOf("=") + 1);
      seen.add(name);
      if (value === "" || /max-age=0/i.test(header)) jar.delete(name);
      else jar.set(name, value);
    }
    return response;
  }
  const csrf = async () => ((await (await send("GET", "/auth/csrf")).json()) as { csrfToken: string }).csrfToken;
  return { send, csrf, seen, jar };
}

describe("the routes of 1.x", () => {
  it.each(ROUTES)("%s is a route", async (route) => {
    const [method = "", path = ""] = route.split(" ");
    const { send } = browser(instance("http://localhost:3000/auth"), "http://localhost:3000");
    const response = await send(method, path, method === "POST" ? {} : undefined);
    const body = await response.text();
    // What a path that is no route answers: 404 (or 405) `UnknownAction`.
    expect(response.status, `${route}: ${body.slice(0, 200)}`).not.toBe(404);
    expect(response.status, `${route}: ${body.slice(0, 200)}`).not.toBe(405);
    expect(response.headers.get("location") ?? "").not.toMatch(/error=(UnknownAction|RouteNotFound|MethodNotAllowed)/);
    expect(body).not.toMatch(/"error":"(UnknownAction|RouteNotFound|MethodNotAllowed)"/);
  });

  it("a path that is no route answers 404 UnknownAction (what the check above tells apart)", async () => {
    const { send } = browser(instance("http://localhost:3000/auth"), "http://localhost:3000");
    const response = await send("GET", "/auth/no-such-route");
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: "UnknownAction" });
  });
});

describe.each([
  ["http", "http://localhost:3000", ""],
  ["https", "https://app.example.com", "__Host-"],
])("the cookies of 1.x on %s", (_scheme, origin, prefix) => {
  it(`keep their names${prefix ? ` (${prefix} prefixed)` : ""} through an OAuth start, an email sign-in, a passkey challenge and a sign-in`, async () => {
    const auth = instance(`${origin}/auth`);
    const { send, csrf, seen } = browser(auth, origin);
    const csrfToken = await csrf();
    const oauth = await send("POST", "/auth/signin/github", { csrfToken, callbackUrl: `${origin}/profile` });
    expect(oauth.headers.get("location")).toMatch(/^https:\/\/github\.com\/login\/oauth\/authorize\?/);
    await send("POST", "/auth/signin/nodemailer", { csrfToken, email: ADA.email });
    await send("GET", "/auth/webauthn-options/passkey?action=authenticate");
    const signIn = await send("POST", "/auth/callback/credentials", { csrfToken, username: "ada", password: "pw" });
    expect(signIn.status).toBe(302);
    const session = await (await send("GET", "/auth/session")).json();
    expect(session).toMatchObject({ user: { email: ADA.email } });

    const names = [...seen].map((name) => name.replace(/\.\d+$/, ""));
    const expected = COOKIES.map((name) => `${prefix}${name}`);
    // Every cookie set is a documented one...
    expect(names.filter((name) => !expected.includes(name))).toEqual([]);
    // ...and these flows set these.
    for (const name of [
      "authlib.csrf-token",
      "authlib.callback-url",
      "authlib.state",
      "authlib.pkce.code_verifier",
      "authlib.email-flow",
      "authlib.challenge",
      "authlib.session-token",
      "authlib.session-assurance",
      "authlib.device-token",
    ]) {
      expect(names, name).toContain(`${prefix}${name}`);
    }
  });
});
