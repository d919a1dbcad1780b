/**
 * Trust boundary: the app's origin. Written as an attacker tries it: forged `Host`, `X-Forwarded-Host`,
 * `X-Forwarded-Proto`, `Forwarded`, duplicated and comma-joined headers, against every flow that builds a
 * URL (email sign-in with a real SMTP server, OAuth sign-in start against a real OP, passkey options and
 * registration, sign-in/sign-out pages, callbackUrl handling, CSRF Origin check, cookies and getToken()).
 *
 * - With a canonical origin (`url` / AUTHLIB_URL) nothing authlib answers, mails or sets names the forged host.
 * - With a trusted-host list the forged host is refused (400 UntrustedHost) and never echoed.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { setEnvDefaults } from "../../src/env/defaults.js";
import { type AuthError, InvalidOriginConfig } from "../../src/errors.js";
import { canonicalOrigin, compileHostPattern, isAllowedOrigin, isTrustedHost } from "../../src/http/origin.js";
import { decode, getToken } from "../../src/jwt.js";
import { Auth } from "../../src/kernel/auth.js";
import Credentials from "../../src/providers/credentials.js";
import Nodemailer from "../../src/providers/nodemailer.js";
import Passkey from "../../src/providers/passkey.js";
import { memoryRateLimitStore } from "../../src/rate-limit/store.js";
import type { AuthConfig } from "../../src/types/config.js";
import { authClient } from "../helpers/auth-client.js";
import { closeSharedPglite, freshDatabase, sharedPglite } from "../helpers/database.js";
import { opProvider, startTestOP, type TestOP } from "../helpers/oidc-provider.js";
import { startSmtpServer } from "../helpers/smtp.js";
import { SoftAuthenticator } from "../webauthn/soft-authenticator.js";

const secret = "origin-test-secret-0123456789abcdef0123";
const CANONICAL = "https://app.example.com";
const FORGED = "evil.example";
/** Where the requests physically arrive: a plain-http hop behind a TLS proxy. */
const UPSTREAM = "http://localhost:3000";

type HeaderList = Array<[string, string]>;
/** Every way an attacker can try to name another host or scheme. */
const forgeries: Array<[string, HeaderList]> = [
  ["Host", [["host", FORGED]]],
  ["X-Forwarded-Host", [["x-forwarded-host", FORGED]]],
  ["X-Forwarded-Host with a port", [["x-forwarded-host", `${FORGED}:8443`]]],
  [
    "X-Forwarded-Host + X-Forwarded-Proto",
    [
      ["x-forwarded-host", FORGED],
      ["x-forwarded-proto", "http"],
    ],
  ],
  ["X-Forwarded-Proto http", [["x-forwarded-proto", "http"]]],
  ["Forwarded (RFC 7239)", [["forwarded", `for=192.0.2.1;host=${FORGED};proto=http`]]],
  ["comma-joined X-Forwarded-Host", [["x-forwarded-host", `${FORGED}, app.example.com`]]],
  [
    "duplicated X-Forwarded-Host",
    [
      ["x-forwarded-host", "app.example.com"],
      ["x-forwarded-host", FORGED],
    ],
  ],
  [
    "duplicated X-Forwarded-Proto",
    [
      ["x-forwarded-proto", "https"],
      ["x-forwarded-proto", "http"],
    ],
  ],
  [
    "Host and X-Forwarded-Host both forged",
    [
      ["host", FORGED],
      ["x-forwarded-host", FORGED],
      ["x-forwarded-proto", "https"],
    ],
  ],
];

/** Everything a response carries: status line, every header (cookies included, decoded) and the body. */
async function everything(response: Response): Promise<string> {
  const headers = [...response.headers].map(([k, v]) => `${k}: ${v}`).join("\n");
  let decoded = headers;
  try {
    decoded = decodeURIComponent(headers);
  } catch {
    // keep the raw headers
  }
  return `${response.status}\n${headers}\n${decoded}\n${await response.clone().text()}`;
}

async function expectNoForgedHost(response: Response) {
  expect(await everything(response)).not.toContain(FORGED);
}

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let op: TestOP;
beforeAll(async () => {
  await sharedPglite().waitReady; // the database's cold start belongs to the hook, not to the first test
  smtp = await startSmtpServer();
  op = await startTestOP({
    clients: [{ client_id: "app", client_secret: "app-secret", redirect_uris: [`${CANONICAL}/auth/callback/op`] }],
  });
});
afterAll(async () => {
  await smtp.close();
  await op.close();
  await closeSharedPglite();
});
afterEach(() => {
  vi.unstubAllEnvs();
});

const credentials = () =>
  Credentials({
    credentials: { username: { label: "Username" } },
    authorize: ({ username }) => (username === "ada" ? { id: "user-ada", name: "Ada", email: "ada@example.com" } : null),
  });

/** GET /csrf then POST a credentials sign-in, every request with `headers`. */
async function signInWithCredentials(client: ReturnType<typeof authClient>, headers: HeaderList = []) {
  const csrf = await client.send("/auth/csrf", { headers });
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  return client.send("/auth/callback/credentials", { headers, form: { csrfToken, username: "ada", callbackUrl: "/dashboard" } });
}

describe("host and origin patterns", () => {
  const url = (s: string) => new URL(s);
  it.each([
    ["app.example.com", "https://app.example.com", true],
    ["app.example.com", "https://app.example.com:443", true],
    ["app.example.com", "https://app.example.com:8443", false],
    ["app.example.com:8443", "https://app.example.com:8443", true],
    ["app.example.com", "https://APP.example.com", true],
    ["app.example.com", "https://app.example.com.evil.example", false],
    ["*.preview.example", "https://pr-1.preview.example", true],
    ["*.preview.example", "https://preview.example", false],
    ["*.preview.example", "https://a.b.preview.example", false],
    ["*.preview.example", "https://pr-1.preview.example.evil.example", false],
    ["*.preview.example", "https://evilpreview.example", false],
    ["*-team.preview.example", "https://pr-1-team.preview.example", true],
    ["*-team.preview.example", "https://-team.preview.example", false],
    ["*-team.preview.example", "https://pr-1-team-x.preview.example", false],
    ["localhost:3000", "http://localhost:3000", true],
    ["[::1]:3000", "http://[::1]:3000", true],
  ])("%s matches %s: %s", (pattern, target, expected) => {
    expect(isTrustedHost(url(target), [pattern])).toBe(expected);
  });

  it.each([
    "*.example",
    "*",
    "a.*.example.com",
    "**.example.com",
    "*.*.example.com",
    "App.Example.com",
    "app.example.com/path",
    "https://app.example.com",
    "app.example.com:99999",
    "app_1.example.com",
    "",
  ])("refuses the pattern %j with InvalidOriginConfig", (pattern) => {
    expect(() => compileHostPattern(pattern)).toThrow(InvalidOriginConfig);
  });

  it("origin patterns compare the scheme as well as the host", () => {
    const allowed = ["https://*-team.preview.example", "http://localhost:4000"];
    expect(isAllowedOrigin(url("https://pr-9-team.preview.example/auth/callback/op"), allowed)).toBe(true);
    expect(isAllowedOrigin(url("http://pr-9-team.preview.example/auth/callback/op"), allowed)).toBe(false);
    expect(isAllowedOrigin(url("https://pr-9-team.preview.example.attacker.example/x"), allowed)).toBe(false);
    expect(isAllowedOrigin(url("http://localhost:4000/auth/callback/op"), allowed)).toBe(true);
    expect(isAllowedOrigin(url("http://localhost:4001/auth/callback/op"), allowed)).toBe(false);
  });

  it.each(["not a url", "ftp://app.example.com", "https://user:pass@app.example.com", "https://app.example.com/?next=x", "/auth"])(
    "a canonical URL %j is a named configuration error",
    (value) => {
      expect(() => canonicalOrigin(value)).toThrow(InvalidOriginConfig);
    },
  );
});

describe("configuration: a bad origin setting is a named error at start-up, never a fallback to the request's host", () => {
  it.each<[string, Partial<AuthConfig>]>([
    ["url that is not a URL", { url: "app.example.com" }],
    ["url with credentials", { url: "https://u:p@app.example.com" }],
    ["trustedHosts with a bare wildcard", { trustedHosts: ["*.com"] }],
    ["redirectProxyAllowedOrigins without a scheme", { redirectProxyAllowedOrigins: ["*-team.preview.example"] }],
  ])("%s", async (_, overrides) => {
    const errors: AuthError[] = [];
    const config: AuthConfig = {
      secret,
      trustHost: true,
      providers: [credentials()],
      logger: { error: (e) => void errors.push(e as AuthError) },
      ...overrides,
    };
    const response = await Auth(new Request(`${UPSTREAM}/auth/signin`, { headers: { host: FORGED } }), config);
    expect(response.status).toBe(500);
    await expectNoForgedHost(response);
    const json = await Auth(new Request(`${UPSTREAM}/auth/session`), config);
    expect(await json.json()).toMatchObject({ error: "Configuration" });
    expect(errors.map((e) => e.type)).toContain("InvalidOriginConfig");
  });

  it("AUTHLIB_URL that is not a URL fails every request (it used to be ignored, falling back to the Host header)", async () => {
    const errors: AuthError[] = [];
    const config: AuthConfig = {
      secret,
      providers: [credentials()],
      logger: { error: (e) => void errors.push(e as AuthError), warn: () => {} },
    };
    setEnvDefaults({ AUTHLIB_URL: "app.example.com" }, config);
    const response = await Auth(new Request(`${UPSTREAM}/auth/session`, { headers: { host: FORGED } }), config);
    expect(response.status).toBe(500);
    expect(errors.map((e) => e.type)).toEqual(["InvalidOriginConfig"]);
  });

  it("a canonical URL or a trusted-host list satisfies the host assertion without trustHost", async () => {
    for (const extra of [{ url: CANONICAL }, { trustedHosts: ["localhost:3000"] }]) {
      const response = await Auth(new Request(`${UPSTREAM}/auth/providers`), { secret, providers: [credentials()], ...extra });
      expect(response.status).toBe(200);
    }
    const none = await Auth(new Request(`${UPSTREAM}/auth/providers`), { secret, providers: [credentials()], logger: { error: () => {} } });
    expect(none.status).toBe(500);
  });

  it("setEnvDefaults reads AUTHLIB_URL, AUTH_TRUSTED_HOSTS and AUTH_REDIRECT_PROXY_ALLOWED_ORIGINS; config wins", () => {
    const fromEnv: AuthConfig = { providers: [] };
    setEnvDefaults(
      {
        AUTHLIB_URL: "https://app.example.com/api/auth",
        AUTH_TRUSTED_HOSTS: " app.example.com, *.preview.example ,",
        AUTH_REDIRECT_PROXY_ALLOWED_ORIGINS: "https://*-team.preview.example",
      },
      fromEnv,
    );
    expect(fromEnv).toMatchObject({
      url: "https://app.example.com/api/auth",
      basePath: "/api/auth",
      trustedHosts: ["app.example.com", "*.preview.example"],
      redirectProxyAllowedOrigins: ["https://*-team.preview.example"],
    });
    const fromConfig: AuthConfig = { providers: [], url: "https://config.example.com/auth" };
    setEnvDefaults({ AUTHLIB_URL: "https://env.example.com/x" }, fromConfig);
    expect(fromConfig.url).toBe("https://config.example.com/auth");
    expect(fromConfig.basePath).toBe("/auth");
  });
});

describe("with a canonical origin (url / AUTHLIB_URL), no forged header reaches a response, a mail or a cookie", () => {
  async function emailApp() {
    const db = await freshDatabase();
    const config: AuthConfig = {
      secret,
      url: CANONICAL,
      trustHost: true,
      adapter: db.adapter,
      providers: [
        Nodemailer({ server: smtp.transport, from: "App <no-reply@app.example.com>", rateLimit: { store: memoryRateLimitStore() } }),
      ],
    };
    return { config, client: authClient(config, UPSTREAM) };
  }

  it.each(forgeries)("email sign-in: %s — the mailed link points at the canonical origin, and it works", async (_, headers) => {
    const { client } = await emailApp();
    const csrf = await client.send("/auth/csrf", { headers });
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const before = smtp.mails.length;
    const response = await client.send("/auth/signin/nodemailer", {
      headers,
      form: { csrfToken, email: "victim@example.com", callbackUrl: "/inbox" },
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${CANONICAL}/auth/verify-request?provider=nodemailer&type=email`);
    await expectNoForgedHost(response);
    expect(smtp.mails.length).toBe(before + 1);
    const mail = smtp.mails.at(-1)!;
    expect(`${mail.subject}\n${mail.text}\n${mail.html}`).not.toContain(FORGED);
    const links = [...(mail.text ?? "").matchAll(/https?:\/\/[^\s"'<>]+/g)].map((m) => new URL(m[0]));
    const signInLink = links.find((l) => l.pathname === "/auth/callback/nodemailer");
    expect(signInLink?.origin).toBe(CANONICAL);
    expect(signInLink?.searchParams.get("callbackUrl")).toBe(`${CANONICAL}/inbox`);

    const page = await client.send(`/auth/verify-request?provider=nodemailer&type=email`, { headers });
    await expectNoForgedHost(page);

    // The victim follows the link (through the same proxy): signed in on the real origin.
    const followed = await client.send(`${signInLink!.pathname}${signInLink!.search}`, { headers });
    expect(followed.headers.get("location")).toBe(`${CANONICAL}/inbox`);
    await expectNoForgedHost(followed);
    expect((await client.session())?.user?.email).toBe("victim@example.com");
  });

  it.each(forgeries)("OAuth sign-in start: %s — redirect_uri is the canonical callback", async (_, headers) => {
    const config: AuthConfig = { secret, url: CANONICAL, trustHost: true, providers: [opProvider(op)] };
    const client = authClient(config, UPSTREAM);
    const csrf = await client.send("/auth/csrf", { headers });
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const response = await client.send("/auth/signin/op", { headers, form: { csrfToken, callbackUrl: `https://${FORGED}/steal` } });
    expect(response.status).toBe(302);
    const authorization = new URL(response.headers.get("location")!);
    expect(authorization.origin).toBe(new URL(op.issuer).origin);
    expect(authorization.searchParams.get("redirect_uri")).toBe(`${CANONICAL}/auth/callback/op`);
    await expectNoForgedHost(response);
    // The OP accepts it: the redirect_uri is the one registered for the canonical origin.
    const callback = await op.authorize(authorization.href);
    expect(`${callback.origin}${callback.pathname}`).toBe(`${CANONICAL}/auth/callback/op`);
  });

  it.each(forgeries)("sign-in and sign-out pages: %s — form actions and links use the canonical origin", async (_, headers) => {
    const config: AuthConfig = { secret, url: CANONICAL, trustHost: true, providers: [credentials(), opProvider(op)] };
    const client = authClient(config, UPSTREAM);
    const signin = await client.send(`/auth/signin?callbackUrl=${encodeURIComponent(`https://${FORGED}/x`)}`, { headers });
    expect(signin.status).toBe(200);
    const html = await signin.clone().text();
    expect(html).toContain(`action="${CANONICAL}/auth/signin/op"`);
    expect(html).toContain(`action="${CANONICAL}/auth/callback/credentials"`);
    await expectNoForgedHost(signin);
    const signout = await client.send("/auth/signout", { headers });
    expect(await signout.clone().text()).toContain(`action="${CANONICAL}/auth/signout"`);
    await expectNoForgedHost(signout);
    const error = await client.send("/auth/error?error=Verification", { headers });
    await expectNoForgedHost(error);
  });

  it.each(forgeries)("callbackUrl and the redirect callback: %s — baseUrl is the canonical origin", async (_, headers) => {
    const baseUrls: string[] = [];
    const config: AuthConfig = {
      secret,
      url: CANONICAL,
      trustHost: true,
      providers: [credentials()],
      callbacks: {
        redirect: ({ url, baseUrl }) => {
          baseUrls.push(baseUrl);
          return new URL(url, baseUrl).origin === baseUrl ? new URL(url, baseUrl).href : baseUrl;
        },
      },
    };
    const client = authClient(config, UPSTREAM);
    const forged = await client.send(`/auth/signin?callbackUrl=${encodeURIComponent(`http://${FORGED}/phish`)}`, { headers });
    await expectNoForgedHost(forged);
    // The cookie holds `<hmac bound to this browser>|<url>`: the URL is what follows the first `|`.
    const urlOf = (value: string | undefined) => value?.slice(value.indexOf("|") + 1);
    expect(urlOf(client.jar.get(forged.setCookies.find((c) => c.name.endsWith("authlib.callback-url"))!.name))).toBe(`${CANONICAL}/`);
    const own = await client.send(`/auth/signin?callbackUrl=${encodeURIComponent(`${CANONICAL}/dashboard`)}`, { headers });
    expect(urlOf(own.setCookies.find((c) => c.name.endsWith("authlib.callback-url"))?.value)).toBe(`${CANONICAL}/dashboard`);
    expect(new Set(baseUrls)).toEqual(new Set([CANONICAL]));

    const signedIn = await signInWithCredentials(client, headers);
    expect(signedIn.headers.get("location")).toBe(`${CANONICAL}/dashboard`);
    await expectNoForgedHost(signedIn);
  });

  it("CSRF Origin check compares with the canonical origin, not the forged Host", async () => {
    const config: AuthConfig = { secret, url: CANONICAL, trustHost: true, providers: [credentials()], logger: { error: () => {} } };
    // A page on the attacker's host posts a sign-in with the attacker's own Host header.
    const attacker = authClient(config, UPSTREAM);
    const forged = await signInWithCredentials(attacker, [
      ["host", FORGED],
      ["origin", `http://${FORGED}`],
    ]);
    expect(forged.headers.get("location")).toBe(`${CANONICAL}/auth/signin?error=MissingCSRF`);
    expect(forged.setCookies.some((c) => /session-token/.test(c.name))).toBe(false);
    // The real page on the canonical origin, behind the same plain-http proxy hop.
    const user = authClient(config, UPSTREAM);
    const own = await signInWithCredentials(user, [["origin", CANONICAL]]);
    expect(own.headers.get("location")).toBe(`${CANONICAL}/dashboard`);
  });

  it.each(forgeries)("passkey options: %s — RP ID and expected origin are the canonical ones", async (_, headers) => {
    const db = await freshDatabase();
    const config: AuthConfig = {
      secret,
      url: CANONICAL,
      trustHost: true,
      adapter: db.adapter,
      providers: [Passkey({})],
      experimental: { enableWebAuthn: true },
      logger: { error: () => {}, warn: () => {} },
    };
    const client = authClient(config, UPSTREAM);
    const options = await client.send("/auth/webauthn-options/passkey?action=register&name=Ada", { headers });
    expect(options.status).toBe(200);
    await expectNoForgedHost(options);
    const body = (await options.json()) as { options: { rp: { id: string; name: string } } & Record<string, any> };
    expect(body.options.rp).toEqual({ id: "app.example.com", name: "app.example.com" });

    // A phishing page on the forged host cannot register: the browser would put its own origin in.
    const phished = await new SoftAuthenticator(`https://${FORGED}`).register(body.options as never);
    const csrf = (await (await client.send("/auth/csrf", { headers })).json()) as { csrfToken: string };
    const refused = await client.send("/auth/callback/passkey", {
      headers,
      json: { action: "register", data: JSON.stringify(phished), csrfToken: csrf.csrfToken },
    });
    expect(refused.headers.get("location")).toBe(`${CANONICAL}/auth/error?error=WebAuthnVerificationError`);

    const again = (await (await client.send("/auth/webauthn-options/passkey?action=register&name=Ada", { headers })).json()) as typeof body;
    const real = await new SoftAuthenticator(CANONICAL).register(again.options as never);
    const accepted = await client.send("/auth/callback/passkey", {
      headers,
      json: { action: "register", data: JSON.stringify(real), csrfToken: csrf.csrfToken },
    });
    expect(accepted.headers.get("location")).toBe(`${CANONICAL}/`);
    await expectNoForgedHost(accepted);
  });

  it("behind a plain-http proxy (no X-Forwarded-Proto), an https AUTHLIB_URL gives prefixed Secure cookies that getToken() reads", async () => {
    vi.stubEnv("AUTHLIB_URL", CANONICAL);
    const config: AuthConfig = { secret, providers: [credentials()] };
    setEnvDefaults({ AUTHLIB_URL: CANONICAL }, config);
    const client = authClient(config, UPSTREAM);
    const response = await signInWithCredentials(client);
    const session = response.setCookies.find((c) => c.name.endsWith("authlib.session-token"));
    expect(session?.name).toMatch(/^__Host-/);
    expect(session?.attributes.secure).toBe(true);
    const token = await getToken({ req: new Request(`${UPSTREAM}/api`, { headers: { cookie: client.jar.header() } }), secret });
    expect(token?.email).toBe("ada@example.com");
    for (const cookie of response.setCookies) expect(cookie.attributes.secure).toBe(true);
  });
});

describe("Auth() and getToken() agree on the session cookie name", () => {
  const canonicalUrls = [undefined, "http://app.example.com", "https://app.example.com"] as const;
  const schemes = ["http", "https"] as const;
  const forwarded: Array<[string, HeaderList]> = [
    ["no forwarded headers", []],
    ["X-Forwarded-Proto https", [["x-forwarded-proto", "https"]]],
    ["X-Forwarded-Proto http", [["x-forwarded-proto", "http"]]],
    [
      "forged X-Forwarded-Host + Proto https",
      [
        ["x-forwarded-host", FORGED],
        ["x-forwarded-proto", "https"],
      ],
    ],
    ["Forwarded proto=https", [["forwarded", "proto=https;host=app.example.com"]]],
  ];
  const cases = canonicalUrls.flatMap((url) =>
    schemes.flatMap((scheme) => forwarded.map(([name, headers]) => [url ?? "unset", scheme, name, url, headers] as const)),
  );

  it.each(cases)("AUTHLIB_URL %s, request %s, %s", async (_, scheme, __, url, headers) => {
    vi.stubEnv("AUTHLIB_URL", url ?? "");
    const config: AuthConfig = { secret, providers: [credentials()] };
    setEnvDefaults(url ? { AUTHLIB_URL: url } : {}, config);
    const client = authClient(config, `${scheme}://localhost:3000`);
    const response = await signInWithCredentials(client, headers);
    expect(response.status).toBe(302);
    const session = response.setCookies.find((c) => c.name.endsWith("authlib.session-token"));
    expect(session).toBeDefined();
    if (url === "https://app.example.com") {
      expect(session?.name).toMatch(/^__Host-/);
      expect(session?.attributes.secure).toBe(true);
    }
    if (url === "http://app.example.com") expect(session?.name).toBe("authlib.session-token");
    if (url) await expectNoForgedHost(response);
    const req = { headers: { cookie: client.jar.header() } };
    expect((await getToken({ req, secret }))?.email).toBe("ada@example.com");
    expect(await getToken({ req, secret, raw: true })).toBe(session?.value);
  });
});

describe("with a trusted-host list, a forged host is refused with 400 UntrustedHost and never echoed", () => {
  const trustedHosts = ["app.example.com", "*.preview.example"];
  const legit: HeaderList = [
    ["x-forwarded-host", "app.example.com"],
    ["x-forwarded-proto", "https"],
  ];
  function app(extra: Partial<AuthConfig> = {}) {
    const errors: AuthError[] = [];
    const warnings: string[] = [];
    const config: AuthConfig = {
      secret,
      trustHost: true,
      trustedHosts,
      providers: [credentials()],
      logger: { error: (e) => void errors.push(e as AuthError), warn: (code) => void warnings.push(code) },
      ...extra,
    };
    return { config, errors, warnings, client: authClient(config, UPSTREAM) };
  }

  const refused: Array<[string, HeaderList]> = [
    ["Host", [["host", FORGED]]],
    ["X-Forwarded-Host", [["x-forwarded-host", FORGED]]],
    ["X-Forwarded-Host on an unlisted port", [["x-forwarded-host", "app.example.com:8443"]]],
    ["X-Forwarded-Host that only ends like a wildcard", [["x-forwarded-host", `pr-1.preview.example.${FORGED}`]]],
    ["X-Forwarded-Host two labels under a wildcard", [["x-forwarded-host", "a.b.preview.example"]]],
    ["comma-joined X-Forwarded-Host", [["x-forwarded-host", `app.example.com, ${FORGED}`]]],
    [
      "duplicated X-Forwarded-Host",
      [
        ["x-forwarded-host", "app.example.com"],
        ["x-forwarded-host", FORGED],
      ],
    ],
    ["two different trusted hosts", [["x-forwarded-host", "app.example.com, pr-1.preview.example"]]],
    [
      "comma-joined X-Forwarded-Proto",
      [
        ["x-forwarded-host", "app.example.com"],
        ["x-forwarded-proto", "https, http"],
      ],
    ],
    [
      "a non-http X-Forwarded-Proto",
      [
        ["x-forwarded-host", "app.example.com"],
        ["x-forwarded-proto", "javascript"],
      ],
    ],
    ["userinfo in X-Forwarded-Host", [["x-forwarded-host", `app.example.com@${FORGED}`]]],
    ["a path in X-Forwarded-Host", [["x-forwarded-host", `app.example.com/${FORGED}`]]],
    ["an empty X-Forwarded-Host", [["x-forwarded-host", ""]]],
    ["no forwarded header, upstream Host not listed", []],
  ];

  it.each(refused)("%s", async (_, headers) => {
    const { client, errors, warnings } = app();
    for (const path of ["/auth/session", "/auth/csrf", "/auth/providers"]) {
      const response = await client.send(path, { headers });
      expect(response.status).toBe(400);
      expect(await response.clone().json()).toEqual({ error: "UntrustedHost", message: "This host is not trusted." });
      await expectNoForgedHost(response);
    }
    const page = await client.send(`/auth/signin?callbackUrl=${encodeURIComponent(`https://${FORGED}/`)}`, { headers });
    expect(page.status).toBe(400);
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
    await expectNoForgedHost(page);
    expect(page.headers.getSetCookie()).toEqual([]);
    const post = await client.send("/auth/callback/credentials", { headers, form: { csrfToken: "x", username: "ada" } });
    expect(post.status).toBe(400);
    // A client's signal for the operator: the untrusted-host warning, not an error (src/http/log-level.ts).
    expect(warnings).toContain("untrusted-host");
    expect(errors).toEqual([]);
  });

  it.each<[string, HeaderList, string]>([
    ["a listed host", legit, "https://app.example.com"],
    [
      "a wildcard host",
      [
        ["x-forwarded-host", "pr-7.preview.example"],
        ["x-forwarded-proto", "https"],
      ],
      "https://pr-7.preview.example",
    ],
    [
      "the same host twice (two proxies)",
      [
        ["x-forwarded-host", "app.example.com"],
        ["x-forwarded-host", "app.example.com"],
        ["x-forwarded-proto", "https, https"],
      ],
      "https://app.example.com",
    ],
    ["the Host header of a listed host", [["host", "app.example.com"]], "http://app.example.com"],
    [
      "a forged Forwarded header next to a listed host (ignored)",
      [...legit, ["forwarded", `host=${FORGED};proto=http`]],
      "https://app.example.com",
    ],
  ])("accepts %s", async (_, headers, origin) => {
    const { client } = app();
    const page = await client.send("/auth/signin", { headers });
    expect(page.status).toBe(200);
    expect(await page.clone().text()).toContain(`action="${origin}/auth/callback/credentials"`);
    await expectNoForgedHost(page);
  });

  it("email sign-in with a forged host is refused before any mail is sent", async () => {
    const db = await freshDatabase();
    const { client } = app({
      adapter: db.adapter,
      providers: [
        Nodemailer({ server: smtp.transport, from: "App <no-reply@app.example.com>", rateLimit: { store: memoryRateLimitStore() } }),
      ],
    });
    const csrf = (await (await client.send("/auth/csrf", { headers: legit })).json()) as { csrfToken: string };
    const before = smtp.mails.length;
    const forged = await client.send("/auth/signin/nodemailer", {
      headers: [
        ["x-forwarded-host", FORGED],
        ["x-forwarded-proto", "https"],
      ],
      form: { csrfToken: csrf.csrfToken, email: "victim@example.com" },
    });
    expect(forged.status).toBe(400);
    await expectNoForgedHost(forged);
    expect(smtp.mails.length).toBe(before);
    const real = await client.send("/auth/signin/nodemailer", {
      headers: legit,
      form: { csrfToken: csrf.csrfToken, email: "victim@example.com" },
    });
    expect(real.status).toBe(302);
    expect(smtp.mails.length).toBe(before + 1);
    expect(smtp.mails.at(-1)?.text).toContain("https://app.example.com/auth/callback/nodemailer?");
  });
});

describe("trustHost without a list (development) keeps reading the headers, and says so in production", () => {
  it("the first X-Forwarded-Host still wins, as before (only safe behind a proxy that overwrites it)", async () => {
    const client = authClient({ secret, trustHost: true, providers: [credentials()] }, UPSTREAM);
    const page = await client.send("/auth/signin", { headers: [["x-forwarded-host", "dev.example:8080"]] });
    expect(await page.text()).toContain('action="http://dev.example:8080/auth/callback/credentials"');
  });

  it("logs trust-host-unrestricted once in production, and not with url or trustedHosts", async () => {
    vi.stubEnv("NODE_ENV", "production");
    const warnings: string[] = [];
    const warn = (code: string) => void warnings.push(code);
    const unrestricted: AuthConfig = { secret, trustHost: true, providers: [credentials()], logger: { warn } };
    for (let i = 0; i < 3; i++) await Auth(new Request(`${UPSTREAM}/auth/session`), unrestricted);
    expect(warnings).toEqual(["trust-host-unrestricted"]);

    const quiet: string[] = [];
    for (const extra of [{ url: CANONICAL }, { trustedHosts: ["localhost:3000"] }]) {
      await Auth(new Request(`${UPSTREAM}/auth/session`), {
        secret,
        trustHost: true,
        providers: [credentials()],
        logger: { warn: (c) => void quiet.push(c) },
        ...extra,
      });
    }
    expect(quiet).toEqual([]);

    vi.stubEnv("NODE_ENV", "development");
    const dev: string[] = [];
    await Auth(new Request(`${UPSTREAM}/auth/session`), {
      secret,
      trustHost: true,
      providers: [credentials()],
      logger: { warn: (c) => void dev.push(c) },
    });
    expect(dev).toEqual([]);
  });
});

describe("redirect proxy through Auth(): the state origin comes from the canonical origin, and the proxy forwards only to allowed origins", () => {
  const PROXY = `${CANONICAL}/auth`;
  const PREVIEW = "https://pr-5-team.preview.example";

  it.each(forgeries)("a preview with a canonical url seals its own callback into the state: %s", async (_, headers) => {
    const config: AuthConfig = { secret, url: PREVIEW, trustHost: true, redirectProxyUrl: PROXY, providers: [opProvider(op)] };
    const client = authClient(config, UPSTREAM);
    const csrf = (await (await client.send("/auth/csrf", { headers })).json()) as { csrfToken: string };
    const start = await client.send("/auth/signin/op", { headers, form: { csrfToken: csrf.csrfToken } });
    await expectNoForgedHost(start);
    const authorization = new URL(start.headers.get("location")!);
    expect(authorization.searchParams.get("redirect_uri")).toBe(`${PROXY}/callback/op`);
    const state = await decode<{ origin: string }>({ token: authorization.searchParams.get("state")!, secret, salt: "encodedState" });
    expect(state?.origin).toBe(`${PREVIEW}/auth/callback/op`);
  });

  it("a proxy never forwards a code to an origin off its allow-list: the error page, not a redirect", async () => {
    // A preview that believed a forged X-Forwarded-Host (trustHost, no list) sealed the attacker's origin.
    const preview: AuthConfig = { secret, trustHost: true, redirectProxyUrl: PROXY, providers: [opProvider(op)] };
    const previewClient = authClient(preview, UPSTREAM);
    const forged: HeaderList = [
      ["x-forwarded-host", FORGED],
      ["x-forwarded-proto", "https"],
    ];
    const csrf = (await (await previewClient.send("/auth/csrf", { headers: forged })).json()) as { csrfToken: string };
    const start = await previewClient.send("/auth/signin/op", { headers: forged, form: { csrfToken: csrf.csrfToken } });
    const state = new URL(start.headers.get("location")!).searchParams.get("state")!;
    expect((await decode<{ origin: string }>({ token: state, secret, salt: "encodedState" }))?.origin).toBe(
      `https://${FORGED}/auth/callback/op`,
    );

    for (const allowList of [
      {},
      { redirectProxyAllowedOrigins: ["https://*-team.preview.example"] },
      { trustedHosts: ["app.example.com", "*.preview.example"] },
    ]) {
      const errors: AuthError[] = [];
      const warnings: string[] = [];
      const proxy: AuthConfig = {
        secret,
        url: CANONICAL,
        redirectProxyUrl: PROXY,
        providers: [opProvider(op)],
        logger: { error: (e) => void errors.push(e as AuthError), warn: (code) => void warnings.push(code) },
        ...allowList,
      };
      const callback = await Auth(new Request(`${PROXY}/callback/op?code=stolen-code&state=${encodeURIComponent(state)}`), proxy);
      expect(callback.status).toBe(302);
      expect(callback.headers.get("location")).toBe(`${CANONICAL}/auth/error?error=Configuration`);
      await expectNoForgedHost(callback);
      // A client's signal: the redirect-refused warning, not an error.
      expect(warnings).toContain("redirect-refused");
      expect(errors.map((e) => e.type)).not.toContain("UntrustedRedirectTarget");
    }
  });

  it("a proxy forwards to a preview its allow-list (or its trustedHosts) names", async () => {
    const preview: AuthConfig = { secret, url: PREVIEW, redirectProxyUrl: PROXY, providers: [opProvider(op)] };
    const previewClient = authClient(preview, UPSTREAM);
    const csrf = (await (await previewClient.send("/auth/csrf")).json()) as { csrfToken: string };
    const start = await previewClient.send("/auth/signin/op", { form: { csrfToken: csrf.csrfToken } });
    const state = new URL(start.headers.get("location")!).searchParams.get("state")!;
    for (const allowList of [
      { redirectProxyAllowedOrigins: ["https://*-team.preview.example"] },
      { trustedHosts: ["app.example.com", "*.preview.example"] },
    ]) {
      const proxy: AuthConfig = { secret, url: CANONICAL, redirectProxyUrl: PROXY, providers: [opProvider(op)], ...allowList };
      const callback = await Auth(
        new Request(`${PROXY}/callback/op?code=c&state=${encodeURIComponent(state)}`, { headers: { host: FORGED } }),
        proxy,
      );
      expect(callback.status).toBe(302);
      const target = new URL(callback.headers.get("location")!);
      expect(`${target.origin}${target.pathname}`).toBe(`${PREVIEW}/auth/callback/op`);
    }
  });
});
