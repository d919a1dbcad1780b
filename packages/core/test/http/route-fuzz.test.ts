/**
 * Property-based fuzzing of every route of `Auth()`, in process, with a configuration that has every
 * provider kind (credentials, OIDC with explicit endpoints that the fuzzed requests never reach, email
 * with a capturing sender, passkeys) on PGlite: random methods, headers (Cookie with random, oversized and
 * duplicated names, Origin, Host, X-Forwarded-*, Content-Type variants), query strings and bodies (form,
 * JSON, malformed, deep, large but bounded). Some requests carry a real CSRF cookie and token, or a real
 * session, so that the POST actions are fuzzed past their CSRF check too.
 *
 * Every answer must be below 500 (with a valid configuration authlib has no 5xx), and nothing may reject
 * unhandled. fuzz.test.ts fuzzes paths and headers with a smaller configuration; this file goes route by
 * route. In CI the seed is fixed (scripts/vitest-setup.ts).
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Auth } from "../../src/kernel/auth.js";
import Credentials from "../../src/providers/credentials.js";
import Email from "../../src/providers/email.js";
import Passkey from "../../src/providers/passkey.js";
import type { OAuthConfig } from "../../src/providers/types.js";
import type { AuthConfig } from "../../src/types/config.js";
import { authClient } from "../helpers/auth-client.js";
import { closeSharedPglite, freshDatabase } from "../helpers/database.js";

const ORIGIN = "http://localhost:3000";
const secret = "route-fuzz-secret-0123456789abcdef0123";
/** Random requests per route group; the total is in the test name. */
const RUNS_PER_ROUTE = 600;

/** The route groups: a path under /auth (a provider id is appended by the arbitrary). */
const ROUTES = [
  "providers",
  "csrf",
  "session",
  "signin",
  "signin/credentials",
  "signin/op",
  "signin/email",
  "signin/passkey",
  "callback/credentials",
  "callback/op",
  "callback/email",
  "callback/passkey",
  "signout",
  "error",
  "verify-request",
  "webauthn-options/passkey",
  "webauthn-script",
  "accounts",
  "accounts/unlink",
  "unknown",
] as const;
const TOTAL_CASES = ROUTES.length * RUNS_PER_ROUTE;

const mails: string[] = [];
const configs: AuthConfig[] = [];
/** A real CSRF cookie and its token, and a real session cookie. */
const real = { csrfCookie: "", csrfToken: "", session: "" };
const unhandled: unknown[] = [];
/** How many fuzzed credentials callbacks signed in (the fuzzing must reach the end of the flows). */
const statuses = { signedIn: 0 };
const onUnhandled = (reason: unknown) => void unhandled.push(reason);

beforeAll(async () => {
  const db = await freshDatabase();
  // The signed-in user is in the database, so the account routes are fuzzed past their session check.
  await db.adapter.createUser?.({ id: "ada", name: "Ada", email: null, emailVerified: null });
  const base: AuthConfig = {
    secret,
    adapter: db.adapter,
    session: { strategy: "jwt" },
    experimental: { enableWebAuthn: true },
    providers: [
      Credentials({
        credentials: { username: {}, password: {} },
        authorize: ({ username }) => {
          if (username === "throw") throw new Error("authorize failed");
          return username === "ada" ? { id: "ada", name: "Ada", email: "ada@example.com" } : null;
        },
      }),
      {
        id: "op",
        name: "OP",
        type: "oidc",
        issuer: "http://127.0.0.1:9",
        authorization: "http://127.0.0.1:9/authorize",
        token: "http://127.0.0.1:9/token",
        userinfo: "http://127.0.0.1:9/userinfo",
        clientId: "app",
        clientSecret: "app-secret",
      } satisfies OAuthConfig,
      Email({ sendVerificationRequest: ({ identifier }) => void mails.push(identifier) }),
      Passkey({}),
    ],
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
  };
  // The same providers with the two host modes that read request headers.
  configs.push({ ...base, trustHost: true }, { ...base, trustedHosts: ["localhost:3000", "app.example.com"] });

  const client = authClient(configs[0] as AuthConfig, ORIGIN);
  real.csrfToken = await client.csrf();
  real.csrfCookie = client.jar.get("authlib.csrf-token") as string;
  await client.send("/auth/callback/credentials", { form: { csrfToken: real.csrfToken, username: "ada" } });
  real.session = client.jar.get("authlib.session-token") as string;
  expect(real.session).toBeTruthy();
  process.on("unhandledRejection", onUnhandled);
}, 120_000);

afterAll(async () => {
  process.off("unhandledRejection", onUnhandled);
  await closeSharedPglite();
});

/** Header values must be printable Latin-1 (Request refuses the rest before Auth() sees it). */
const headerSafe = (value: string) => [...value].filter((c) => c >= " " && c <= "~").join("");

const fieldNames = fc.constantFrom(
  "csrfToken",
  "callbackUrl",
  "username",
  "password",
  "email",
  "action",
  "data",
  "link",
  "code",
  "state",
  "token",
  "error",
  "iss",
  "provider",
  "providerAccountId",
  "__proto__",
  "constructor",
);
const nastyString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    "",
    "ada",
    "throw",
    "ada@example.com",
    "a@b",
    "%",
    "%E0%A4%A",
    "//evil.example",
    "javascript:alert(1)",
    "\u0000",
    "\uD800",
    "authenticate",
    "register",
    "{}",
    "[]",
    "null",
    "true",
    "x".repeat(5000),
  ),
);
/** A value that is sometimes the real CSRF token, so the POST actions get past the check. */
const fieldValue = fc.oneof({ weight: 4, arbitrary: nastyString }, { weight: 1, arbitrary: fc.constant("<csrf>") });
/** Random fields, and often the fields a real form sends (an address, a user name) so that actions run to the end. */
const fields = fc
  .tuple(
    fc.dictionary(fieldNames, fieldValue, { maxKeys: 6 }),
    fc.record(
      {
        email: fc.constantFrom("ada@example.com", "  Grace@Example.COM ", "bob@example.com", "not-an-address", "a@b@c"),
        username: fc.constantFrom("ada", "throw", "nobody"),
        action: fc.constantFrom("authenticate", "register"),
      },
      { requiredKeys: [] },
    ),
  )
  .map(([random, form]) => ({ ...form, ...random }));

/** A JSON value nested `depth` levels deep. */
const deep = fc.integer({ min: 1, max: 400 }).map((depth) => {
  let value: unknown = "leaf";
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { data: value };
  return value;
});

const body = fc.oneof(
  fields.map((f) => ({ type: "application/x-www-form-urlencoded", text: new URLSearchParams(f).toString() })),
  fc
    .record({ fields, data: fc.oneof(fc.jsonValue({ maxDepth: 3 }), deep) })
    .map(({ fields: f, data }) => ({ type: "application/json", text: JSON.stringify({ ...f, data }) })),
  fc.record({
    type: fc.constantFrom(
      "application/json",
      "application/json; charset=utf-8",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "text/plain",
      "application/octet-stream",
      "",
    ),
    text: fc.oneof(nastyString, fc.constantFrom("{not json", "[1,2", "%%%&&&===", "--x--", "csrfToken=<csrf>&data={")),
  }),
  fc.constant({ type: "application/x-www-form-urlencoded", text: `csrfToken=<csrf>&pad=${"x".repeat(70_000)}` }),
);

const cookieName = fc.oneof(
  fc.constantFrom(
    "authlib.session-token",
    "authlib.session-token.0",
    "authlib.session-token.1",
    "authlib.session-token.99",
    "authlib.csrf-token",
    "authlib.callback-url",
    "authlib.pkce.code_verifier",
    "authlib.state",
    "authlib.nonce",
    "authlib.challenge",
    "__Host-authlib.session-token",
    "__Secure-authlib.session-token",
  ),
  fc.string({ minLength: 1, maxLength: 12 }),
  fc.integer({ min: 100, max: 4000 }).map((n) => "n".repeat(n)),
);
const cookieValue = fc.oneof(
  { weight: 3, arbitrary: nastyString },
  { weight: 1, arbitrary: fc.constantFrom("<csrf-cookie>", "<session>") },
  { weight: 1, arbitrary: fc.integer({ min: 1000, max: 8000 }).map((n) => "v".repeat(n)) },
);
const cookies = fc.array(fc.tuple(cookieName, cookieValue), { maxLength: 8 });

const request = fc.record({
  method: fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom("GET", "POST") },
    { weight: 1, arbitrary: fc.constantFrom("PUT", "DELETE", "PATCH", "HEAD", "OPTIONS") },
  ),
  suffix: fc.oneof(
    { weight: 6, arbitrary: fc.constant("") },
    { weight: 1, arbitrary: fc.constantFrom("/", "/x", "/%2e%2e", "/..", "/%", "/op/extra") },
  ),
  query: fc.dictionary(fieldNames, fieldValue, { maxKeys: 5 }),
  cookies,
  origin: fc.option(fc.constantFrom(ORIGIN, "https://evil.example", "null", "http://localhost:3000.evil.example", "garbage"), {
    nil: undefined,
    freq: 1,
  }),
  host: fc.option(
    fc.constantFrom("localhost:3000", "app.example.com", "evil.example", "a b", "[::1]:99999", "x/y", "localhost:3000, evil.example"),
    { nil: undefined, freq: 1 },
  ),
  proto: fc.option(fc.constantFrom("http", "https", "javascript", "https, http", ""), { nil: undefined, freq: 1 }),
  secFetchSite: fc.option(fc.constantFrom("same-origin", "cross-site", "none"), { nil: undefined, freq: 1 }),
  body: fc.option(body, { nil: undefined, freq: 4 }),
  config: fc.nat({ max: 1 }),
  /** What a real browser would add: its CSRF cookie and token, and maybe its session. */
  browser: fc.constantFrom("none", "csrf", "csrf+session"),
});

/** Substitutes the markers for the real CSRF token, CSRF cookie and session. */
function withReal(text: string): string {
  return text.replaceAll("<csrf-cookie>", real.csrfCookie).replaceAll("<session>", real.session).replaceAll("<csrf>", real.csrfToken);
}

/** The body text; a real browser's form or JSON body carries its CSRF token. */
function withCsrfField(browser: string, body: { type: string; text: string }): string {
  const text = withReal(body.text);
  if (browser === "none") return text;
  if (body.type === "application/x-www-form-urlencoded") return `csrfToken=${real.csrfToken}&${text}`;
  if (body.type === "application/json" && text.startsWith("{") && text.length > 2)
    return `{"csrfToken":"${real.csrfToken}",${text.slice(1)}`;
  return text;
}

function buildRequest(route: string, r: typeof request extends fc.Arbitrary<infer T> ? T : never): Request {
  const url = new URL(`${ORIGIN}/auth/${route}${r.suffix}`);
  for (const [key, value] of Object.entries(r.query)) url.searchParams.append(key, withReal(value));
  const headers = new Headers();
  const jar = r.cookies.map(([name, value]) => `${headerSafe(name)}=${headerSafe(withReal(value))}`);
  if (r.browser !== "none") jar.unshift(`authlib.csrf-token=${real.csrfCookie}`);
  if (r.browser === "csrf+session") jar.unshift(`authlib.session-token=${real.session}`);
  if (jar.length > 0) headers.set("cookie", jar.join("; "));
  if (r.origin !== undefined) headers.set("origin", r.origin);
  if (r.host !== undefined) headers.set("x-forwarded-host", r.host);
  if (r.proto !== undefined) headers.set("x-forwarded-proto", r.proto);
  if (r.secFetchSite !== undefined) headers.set("sec-fetch-site", r.secFetchSite);
  const sent = r.method !== "GET" && r.method !== "HEAD" ? r.body : undefined;
  if (sent?.type) headers.set("content-type", sent.type);
  return new Request(url, { method: r.method, headers, body: sent ? withCsrfField(r.browser, sent) : undefined });
}

describe(`fuzzing every route (${TOTAL_CASES} cases per run)`, () => {
  it.each(ROUTES)(`/auth/%s: ${RUNS_PER_ROUTE} random requests, each answered below 500`, async (route) => {
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const response = await Auth(buildRequest(route, r), configs[r.config] as AuthConfig);
        expect(response.status).toBeLessThan(500);
        if (route === "callback/credentials" && response.headers.getSetCookie().some((c) => /^authlib\.session-token=[^;]/.test(c))) {
          statuses.signedIn++;
        }
        await response.arrayBuffer();
      }),
      { numRuns: RUNS_PER_ROUTE },
    );
  });

  it("no promise rejected unhandled, and the fuzzing reached the deep paths", () => {
    expect(unhandled).toEqual([]);
    // Requests got past the CSRF check: the email sign-in sent mails, the credentials callback signed in.
    expect(mails.length).toBeGreaterThan(0);
    expect(statuses.signedIn).toBeGreaterThan(0);
  });
});
