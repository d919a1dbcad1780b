/**
 * The runtime smoke: what an app does with `@authlib/core` on any runtime, through Web-standard
 * `Request`/`Response` only (no server, no `process`, no `node:` module), so the same bundle runs on Node,
 * Deno, Bun and workerd. Each check returns pass/fail with a short reason; nothing secret goes into a reason.
 *
 * Imports go through the package names (the `exports` an app resolves), so the bundle holds what a
 * consumer's bundler would pull in.
 *
 * @module bench/runtimes/smoke
 */
import { Auth, type AuthConfig, getSession } from "@authlib/core";
import { encode } from "@authlib/core/jwt";
import { hashPassword, verifyPassword } from "@authlib/core/password";
import Credentials from "@authlib/core/providers/credentials";
import { protectResource, resourceErrorResponse } from "@authlib/core/resource";
import { exportJWK, generateKeyPair, SignJWT } from "jose";

/** The outcome of one check. */
export interface CheckResult {
  name: string;
  ok: boolean;
  /** Why it failed (an assertion message or an error name and message); empty when it passed. */
  detail: string;
}

/** The names of the checks, in the order they run: the harness expects exactly these. */
export const CHECK_NAMES = [
  "session from encode",
  "credentials round trip",
  "sign-in page",
  "password hash/verify",
  "resource access token",
] as const;

const ORIGIN = "http://localhost:3000";
const SECRET = "runtime-smoke-secret-0123456789abcdef";
const SESSION_COOKIE = "authlib.session-token";
const PASSWORD = "correct horse battery staple";
/**
 * A hash made by `hashPassword` on Node with `node:crypto` scrypt (N=2^15, r=8, p=1). Every runtime must
 * verify it: stored hashes keep working whichever scrypt implementation a runtime ends up with.
 */
const NODE_MADE_HASH =
  "scrypt$32768$8$1$rqlXRjt4LgM30jciNzqRDQ$MQv8ZhPD0tw4yONVQks4PJMzJ-8LnUT1coToN3Oyn5gWKSpcbTRpHOUiNASbLMfWTBmjjp6WhazOmmX9m6UIYQ";

const ADA = { id: "user-1", name: "Ada", email: "ada@example.com" };

/** The quick start's configuration: one credentials provider checking a stored password hash. */
function config(): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    providers: [
      Credentials({
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize({ email, password }) {
          return email === ADA.email && (await verifyPassword(String(password), NODE_MADE_HASH)) ? ADA : null;
        },
      }),
    ],
  };
}

class CheckFailed extends Error {}

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new CheckFailed(message);
}

/** `name=value` pairs of a response's Set-Cookie headers (attributes dropped). */
function setCookies(response: Response): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const header of response.headers.getSetCookie()) {
    const pair = header.split(";", 1)[0] ?? "";
    const index = pair.indexOf("=");
    cookies.set(pair.slice(0, index).trim(), pair.slice(index + 1).trim());
  }
  return cookies;
}

/** "answered 302 to <location>": an unexpected redirect usually points at the error page and its code. */
function status(response: Response): string {
  const location = response.headers.get("location");
  return location ? `${response.status} to ${location}` : String(response.status);
}

function cookieHeader(cookies: Map<string, string>): string {
  return [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
}

async function sessionUser(response: Response): Promise<Record<string, unknown> | undefined> {
  const body = (await response.json()) as { user?: Record<string, unknown> } | null;
  return body?.user;
}

/** A session token made with `encode` reads back through `Auth()`'s GET /session and through `getSession`. */
async function sessionFromEncode(): Promise<void> {
  const token = await encode({ token: { sub: ADA.id, name: ADA.name, email: ADA.email }, secret: SECRET, salt: SESSION_COOKIE });
  const request = () => new Request(`${ORIGIN}/auth/session`, { headers: { cookie: `${SESSION_COOKIE}=${token}` } });

  const response = await Auth(request(), config());
  assert(response.status === 200, `GET /auth/session answered ${status(response)}`);
  const user = await sessionUser(response);
  assert(user?.email === ADA.email && user.name === ADA.name, `GET /auth/session gave user ${JSON.stringify(user)}`);

  const { data } = await getSession(request(), config());
  assert(data?.user?.email === ADA.email, `getSession gave ${JSON.stringify(data)}`);

  const tampered = new Request(`${ORIGIN}/auth/session`, { headers: { cookie: `${SESSION_COOKIE}=${token.slice(0, -4)}AAAA` } });
  assert((await getSession(tampered, config())).data === null, "getSession accepted a tampered token");
}

/** CSRF token, POST to the credentials callback, session cookie, then the session; a wrong password gets none. */
async function credentialsRoundTrip(): Promise<void> {
  const csrfResponse = await Auth(new Request(`${ORIGIN}/auth/csrf`), config());
  assert(csrfResponse.status === 200, `GET /auth/csrf answered ${status(csrfResponse)}`);
  const { csrfToken } = (await csrfResponse.json()) as { csrfToken?: string };
  assert(typeof csrfToken === "string" && csrfToken.length > 0, "GET /auth/csrf gave no token");
  const jar = setCookies(csrfResponse);
  assert(jar.has("authlib.csrf-token"), "GET /auth/csrf set no CSRF cookie");

  const signIn = (password: string) =>
    Auth(
      new Request(`${ORIGIN}/auth/callback/credentials`, {
        method: "POST",
        headers: { cookie: cookieHeader(jar), "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
        body: new URLSearchParams({ csrfToken, callbackUrl: "/profile", email: ADA.email, password }),
      }),
      config(),
    );

  const wrong = await signIn("not the password");
  assert(wrong.status === 302, `a wrong password answered ${status(wrong)}`);
  assert(wrong.headers.get("location")?.includes("error=CredentialsSignin"), `a wrong password went to ${wrong.headers.get("location")}`);
  assert(!setCookies(wrong).has(SESSION_COOKIE), "a wrong password got a session cookie");

  const signedIn = await signIn(PASSWORD);
  assert(signedIn.status === 302, `the credentials callback answered ${status(signedIn)}`);
  assert(signedIn.headers.get("location") === `${ORIGIN}/profile`, `signed in, went to ${signedIn.headers.get("location")}`);
  const sessionToken = setCookies(signedIn).get(SESSION_COOKIE);
  assert(sessionToken, "the credentials callback set no session cookie");
  jar.set(SESSION_COOKIE, sessionToken);

  const session = await Auth(new Request(`${ORIGIN}/auth/session`, { headers: { cookie: cookieHeader(jar) } }), config());
  assert(session.status === 200, `GET /auth/session after sign-in answered ${status(session)}`);
  const user = await sessionUser(session);
  assert(user?.email === ADA.email, `GET /auth/session after sign-in gave user ${JSON.stringify(user)}`);
}

/** The built-in sign-in page renders the credentials form with a CSRF token. */
async function signInPage(): Promise<void> {
  const response = await Auth(new Request(`${ORIGIN}/auth/signin`), config());
  assert(response.status === 200, `GET /auth/signin answered ${status(response)}`);
  assert(response.headers.get("content-type")?.startsWith("text/html"), `GET /auth/signin is ${response.headers.get("content-type")}`);
  const html = await response.text();
  assert(html.includes(`action="${ORIGIN}/auth/callback/credentials"`), "the page has no credentials form");
  assert(/name="password"/.test(html), "the credentials form has no password field");
  assert(/name="csrfToken" value="[0-9a-f]{64}"/.test(html), "the form carries no CSRF token");
  assert(setCookies(response).has("authlib.csrf-token"), "the page set no CSRF cookie");
}

/** `hashPassword` makes a hash in the stable format that `verifyPassword` accepts; a Node-made hash verifies. */
async function passwordHashVerify(): Promise<void> {
  const hash = await hashPassword(PASSWORD);
  assert(
    /^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{86}$/.test(hash),
    `hashPassword gave a hash of another format (${hash.split("$", 4).join("$")}…)`,
  );
  assert(await verifyPassword(PASSWORD, hash), "verifyPassword refused the right password");
  assert(!(await verifyPassword("not the password", hash)), "verifyPassword accepted a wrong password");
  assert(await verifyPassword(PASSWORD, NODE_MADE_HASH), "verifyPassword refused a hash made with node:crypto");
  assert(!(await verifyPassword(PASSWORD, "scrypt$32768$8$1$bad")), "verifyPassword accepted a malformed hash");
}

/**
 * `protectResource` verifies an ES256 access token (RFC 9068) against a JWK Set with the runtime's Web
 * Crypto; a token for another resource, and a request without one, get their RFC 6750 answers.
 */
async function resourceAccessToken(): Promise<void> {
  const issuer = "https://auth.example.com";
  const resource = "https://api.example.com/mcp";
  const { privateKey, publicKey } = await generateKeyPair("ES256");
  const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: "k1", alg: "ES256" }] };
  const now = Math.floor(Date.now() / 1000);
  const mint = (aud: string) =>
    new SignJWT({ client_id: "c1", scope: "mcp", jti: "t1", grant_id: "g1" })
      .setProtectedHeader({ alg: "ES256", kid: "k1", typ: "at+jwt" })
      .setIssuer(issuer)
      .setSubject(ADA.id)
      .setAudience(aud)
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .sign(privateKey);
  const options = { issuer, resource, jwks, scopes: ["mcp"] };
  const request = (token?: string) => new Request(`${resource}/tools`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const caller = await protectResource(request(await mint(resource)), options);
  assert(caller.userId === ADA.id && caller.grantId === "g1", `protectResource gave ${JSON.stringify(caller)}`);
  const refused = await protectResource(request(await mint("https://other.example.com")), options).then(
    () => undefined,
    (error: unknown) => resourceErrorResponse(error, options),
  );
  assert(refused?.status === 401, `a token for another resource answered ${refused?.status ?? "accepted"}`);
  assert(refused.headers.get("www-authenticate")?.includes('error="invalid_token"'), "the refusal's challenge has no invalid_token");
  const none = await protectResource(request(), options).catch((error: unknown) => resourceErrorResponse(error, options));
  assert(none instanceof Response && none.status === 401, "a request without a token was not answered 401");
  assert(!none.headers.get("www-authenticate")?.includes("error="), "a request without a token got an error code");
}

const CHECKS: Record<(typeof CHECK_NAMES)[number], () => Promise<void>> = {
  "session from encode": sessionFromEncode,
  "credentials round trip": credentialsRoundTrip,
  "sign-in page": signInPage,
  "password hash/verify": passwordHashVerify,
  "resource access token": resourceAccessToken,
};

/** Runs every check, one after the other; a failing check does not stop the others. */
export async function runSmoke(): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const name of CHECK_NAMES) {
    try {
      await CHECKS[name]();
      results.push({ name, ok: true, detail: "" });
    } catch (error) {
      const e = error as Error;
      results.push({ name, ok: false, detail: e instanceof CheckFailed ? e.message : `${e?.name}: ${e?.message}` });
    }
  }
  return results;
}
