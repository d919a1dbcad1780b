/**
 * Cookies someone else planted (issue 19): an attacker who controls a sibling subdomain can set any
 * cookie that is not `__Host-` for the parent domain. These tests play that attacker against Auth() with
 * a real OpenID Provider and a real Postgres (PGlite): the planted cookie arrives under exactly the name
 * authlib reads (the strongest case, as on http or under the old `__Secure-` names), and the defence has
 * to come from the server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHUNK_SIZE, splitIntoChunks } from "../../src/http/cookie-chunks.js";
import { resolveCookies } from "../../src/http/cookies.js";
import { decode, encode, getToken } from "../../src/jwt.js";
import Credentials from "../../src/providers/credentials.js";
import type { OAuthConfig } from "../../src/providers/types.js";
import type { AuthConfig, CookieOption } from "../../src/types/config.js";
import { authClient, parseSetCookie } from "../helpers/auth-client.js";
import { closeSharedPglite, freshDatabase } from "../helpers/database.js";
import { opProvider, startTestOP, type TestOP } from "../helpers/oidc-provider.js";

const secret = "planted-cookies-secret-0123456789abcdef";
const origin = "http://localhost:3000";
const httpsOrigin = "https://app.example.com";
let op: TestOP;

beforeAll(async () => {
  op = await startTestOP({
    clients: [
      {
        client_id: "app",
        client_secret: "app-secret",
        redirect_uris: [`${origin}/auth/callback/op`, `${httpsOrigin}/auth/callback/op`],
      },
      { client_id: "second", client_secret: "second-secret", redirect_uris: [`${origin}/auth/callback/second`] },
    ],
  });
  await freshDatabase(); // PGlite's cold start (seconds) here, not inside the first test's timeout
}, 120_000);
afterAll(async () => {
  await op.close();
  await closeSharedPglite();
});

const quiet = { error: () => {}, warn: () => {}, debug: () => {} };
type Client = ReturnType<typeof authClient>;

/** Starts a sign-in (or a link, with `link`) in `client`'s browser and signs `user` in at the OP; stops before the callback. */
async function startAtOP(client: Client, providerId: string, user: string, extra: Record<string, string> = {}) {
  const csrfToken = await client.csrf();
  const start = await client.send(`/auth/signin/${providerId}`, { form: { csrfToken, callbackUrl: "/dashboard", ...extra } });
  expect(start.status).toBe(302);
  const callback = await op.authorize(start.headers.get("location") as string, { user });
  return callback.pathname + callback.search;
}

/** Copies the attacker's cookie `name` into the victim's jar, as a parent-domain cookie would arrive. */
function plant(from: Client, to: Client, name: string) {
  const value = from.jar.get(name);
  expect(value).toBeTruthy();
  to.jar.cookies.set(name, { name, value: value as string, attributes: {} });
}

async function setup(checks: OAuthConfig["checks"]) {
  const { adapter, client: db } = await freshDatabase();
  const op1 = opProvider(op, { checks });
  const second = opProvider(op, { id: "second", name: "Second", clientId: "second", clientSecret: "second-secret", checks });
  const links: Array<{ user: string; linkTo?: string }> = [];
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter,
    providers: [op1, second],
    logger: quiet,
    callbacks: {
      signIn: ({ user, link }) => {
        links.push({ user: String(user.id ?? ""), linkTo: link?.user.id });
        return true;
      },
    },
  };
  const accounts = async () =>
    Number((await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${db.db.authlib_accounts.sqlName}`)).rows[0]?.n);
  return { adapter, config, accounts, links };
}

/** A victim signed in as alice through the OP. */
async function signedInVictim(config: AuthConfig) {
  const victim = authClient(config);
  const done = await victim.send(await startAtOP(victim, "op", "alice"));
  expect(done.headers.get("location")).toBe(`${origin}/dashboard`);
  expect((await victim.session())?.user.email).toBe("alice@example.com");
  return victim;
}

const refused = [`${origin}/auth/error?error=Configuration`, `${origin}/auth/signin?error=OAuthAccountNotLinked`];

describe("planted check cookies (linking CSRF, login CSRF)", () => {
  for (const [label, checks, cookie] of [
    ["PKCE", ["pkce"], "authlib.pkce.code_verifier"],
    ["state", ["state"], "authlib.state"],
    ["nonce", ["nonce"], "authlib.nonce"],
    ["all three", ["pkce", "state", "nonce"], "*"],
  ] as const) {
    it(`a planted ${label} cookie does not link the attacker's account to a signed-in victim`, async () => {
      const { adapter, config, accounts } = await setup([...checks]);
      const victim = await signedInVictim(config);
      const before = await accounts();
      const attacker = authClient(config);
      const callback = await startAtOP(attacker, "second", "bob");
      for (const name of cookie === "*" ? ["authlib.pkce.code_verifier", "authlib.state", "authlib.nonce"] : [cookie])
        plant(attacker, victim, name);
      const done = await victim.send(callback);
      expect(refused).toContain(done.headers.get("location"));
      expect(await adapter.getUserByAccount!({ provider: "second", providerAccountId: "bob" })).toBeNull();
      expect(await accounts()).toBe(before);
      expect((await victim.session())?.user.email).toBe("alice@example.com");
    });
  }

  it("a planted check cookie started as a link in the attacker's session does not link either", async () => {
    const { adapter, config, accounts } = await setup(["pkce", "state"]);
    const victim = await signedInVictim(config);
    const attacker = authClient(config);
    await attacker.send(await startAtOP(attacker, "op", "bob")); // the attacker's own user
    const before = await accounts();
    const callback = await startAtOP(attacker, "second", "bob", { link: "true" });
    plant(attacker, victim, "authlib.pkce.code_verifier");
    plant(attacker, victim, "authlib.state");
    const done = await victim.send(callback);
    expect(done.headers.get("location")).toBe(`${origin}/auth/error?error=Configuration`);
    expect(await adapter.getUserByAccount!({ provider: "second", providerAccountId: "bob" })).toBeNull();
    expect(await accounts()).toBe(before);
  });

  it("login CSRF: a planted check cookie does not sign a signed-out victim in as the attacker", async () => {
    const { config } = await setup(["pkce"]);
    const victim = authClient(config);
    await victim.csrf(); // the victim has visited the site: their own CSRF cookie
    const attacker = authClient(config);
    const callback = await startAtOP(attacker, "op", "bob");
    plant(attacker, victim, "authlib.pkce.code_verifier");
    const done = await victim.send(callback);
    expect(done.headers.get("location")).toBe(`${origin}/auth/error?error=Configuration`);
    expect(await victim.session()).toBeNull();
  });

  it("login CSRF: planting the check cookie and a CSRF cookie of the attacker's does not help on https (__Host- only)", async () => {
    const { config } = await setup(["pkce"]);
    const attacker = authClient(config, httpsOrigin);
    const callback = await startAtOP(attacker, "op", "bob");
    const victim = authClient(config, httpsOrigin);
    await victim.csrf();
    // Everything a sibling subdomain can set: the non-__Host- names. Browsers refuse __Host- with Domain.
    for (const name of ["__Host-authlib.pkce.code_verifier", "__Host-authlib.csrf-token"]) {
      const value = attacker.jar.get(name) as string;
      const tossed = name.replace("__Host-", "__Secure-");
      victim.jar.cookies.set(tossed, { name: tossed, value, attributes: {} });
      victim.jar.cookies.set(name.replace("__Host-", ""), { name: name.replace("__Host-", ""), value, attributes: {} });
    }
    const done = await victim.send(callback);
    expect(done.headers.get("location")).toBe(`${httpsOrigin}/auth/error?error=Configuration`);
    expect(await victim.session()).toBeNull();
  });
});

describe("linking is an explicit, CSRF-protected intent", () => {
  it("an OAuth callback for an unknown account while signed in is refused without link=true", async () => {
    const { adapter, config, accounts } = await setup(["pkce", "state"]);
    const victim = await signedInVictim(config);
    const before = await accounts();
    const done = await victim.send(await startAtOP(victim, "second", "bob"));
    expect(done.headers.get("location")).toBe(`${origin}/auth/signin?error=OAuthAccountNotLinked`);
    expect(await adapter.getUserByAccount!({ provider: "second", providerAccountId: "bob" })).toBeNull();
    expect(await accounts()).toBe(before);
  });

  it("an explicit link started from the session links, and the signIn callback is told to whom", async () => {
    const { adapter, config, links } = await setup(["pkce", "state"]);
    const victim = await signedInVictim(config);
    const alice = await adapter.getUserByAccount!({ provider: "op", providerAccountId: "alice" });
    const done = await victim.send(await startAtOP(victim, "second", "bob", { link: "true" }));
    expect(done.headers.get("location")).toBe(`${origin}/dashboard`);
    expect((await adapter.getUserByAccount!({ provider: "second", providerAccountId: "bob" }))?.id).toBe(alice?.id);
    expect(links.at(-1)).toEqual({ user: expect.any(String), linkTo: alice?.id });
    // An account already linked to the signed-in user signs in as usual (no link intent needed).
    const again = await victim.send(await startAtOP(victim, "second", "bob"));
    expect(again.headers.get("location")).toBe(`${origin}/dashboard`);
    expect((await victim.session())?.user.email).toBe("alice@example.com");
  });

  it("a link request without the CSRF token, or while signed out, is refused", async () => {
    const { config } = await setup(["pkce"]);
    const victim = await signedInVictim(config);
    const noToken = await victim.send("/auth/signin/second", { form: { link: "true", callbackUrl: "/" } });
    expect(noToken.headers.get("location")).toBe(`${origin}/auth/signin?error=MissingCSRF`);
    const anonymous = authClient(config);
    const csrfToken = await anonymous.csrf();
    const start = await anonymous.send("/auth/signin/second", { form: { csrfToken, link: "true" } });
    expect(start.headers.get("location")).toBe(`${origin}/auth/signin?error=OAuthAccountNotLinked`);
  });
});

describe("planted session cookie chunks", () => {
  const jwtConfig: AuthConfig = {
    secret,
    trustHost: true,
    logger: quiet,
    providers: [Credentials({ authorize: (c) => ({ id: String(c.id), name: String(c.id), email: `${String(c.id)}@example.com` }) })],
  };
  async function signedIn(id: string, at = origin) {
    const client = authClient(jwtConfig, at);
    const csrfToken = await client.csrf();
    await client.send("/auth/callback/credentials", { form: { csrfToken, id } });
    expect((await client.session())?.user.name).toBe(id);
    return client;
  }

  it("a planted .0 chunk next to a real session cookie gives no session, never the planted one, and both are cleared", async () => {
    const victim = await signedIn("victim");
    const attacker = await signedIn("attacker");
    const planted = attacker.jar.get("authlib.session-token") as string;
    victim.jar.cookies.set("authlib.session-token.0", { name: "authlib.session-token.0", value: planted, attributes: {} });
    const response = await victim.send("/auth/session");
    expect(await response.json()).toBeNull();
    const cleared = response.setCookies.filter((c) => c.attributes.maxAge === 0).map((c) => c.name);
    expect(cleared.sort()).toEqual(["authlib.session-token", "authlib.session-token.0"]);
  });

  it("chunk sets with a gap, a wrong size or too many chunks are no session", async () => {
    const token = await encode({ token: { sub: "x", name: "big", blob: "a".repeat(9000) }, secret, salt: "authlib.session-token" });
    const parts = splitIntoChunks("authlib.session-token", token).map((c) => c.value);
    expect(parts.length).toBeGreaterThan(2);
    const real = Object.fromEntries(parts.map((value, i) => [`.${i}`, value]));
    const { ".1": _gap, ...withGap } = real;
    const resplit = { ...real, ".0": `${parts[0]}${parts[1]?.slice(0, 10)}`, ".1": parts[1]?.slice(10) as string };
    const shapes: Array<Record<string, string>> = [
      real, // the real thing: readable
      withGap,
      resplit, // same bytes, another split: the sizes do not match the count
      { ...real, [`.${parts.length}`]: "x" }, // an extra chunk
      { ...real, ...Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`.${i + parts.length}`, "a".repeat(CHUNK_SIZE)])) }, // too many
    ];
    const results = [];
    for (const shape of shapes) {
      const cookie = Object.entries(shape)
        .map(([suffix, value]) => `authlib.session-token${suffix}=${value}`)
        .join("; ");
      const response = await authClient(jwtConfig).send("/auth/session", { headers: { cookie } });
      results.push(((await response.json()) as { user?: { name?: string } } | null)?.user?.name ?? null);
    }
    expect(results).toEqual(["big", null, null, null, null]);
  });

  it("database sessions: a planted chunk next to the session cookie is no session", async () => {
    const { adapter } = await freshDatabase();
    const user = await adapter.createUser!({ id: crypto.randomUUID(), email: "db@example.com", emailVerified: null, name: "db" });
    const config: AuthConfig = { ...jwtConfig, adapter, providers: [Credentials({ authorize: () => user })] };
    const client = authClient(config);
    const csrfToken = await client.csrf();
    await client.send("/auth/callback/credentials", { form: { csrfToken } });
    expect((await client.session())?.user.email).toBe("db@example.com");
    client.jar.cookies.set("authlib.session-token.0", { name: "authlib.session-token.0", value: "planted", attributes: {} });
    expect(await client.session()).toBeNull();
  });
});

describe("planted callback-URL cookie", () => {
  it("a callback-URL cookie made in another browser is ignored: the victim lands on the default page", async () => {
    const { config } = await setup(["pkce", "state"]);
    const attacker = authClient(config);
    await attacker.send("/auth/signin?callbackUrl=%2Fattacker-chosen");
    const victim = authClient(config);
    const csrfToken = await victim.csrf();
    plant(attacker, victim, "authlib.callback-url");
    const start = await victim.send("/auth/signin/op", { form: { csrfToken } });
    const callback = await op.authorize(start.headers.get("location") as string);
    const done = await victim.send(callback.pathname + callback.search);
    expect(done.headers.get("location")).toBe(`${origin}/`);
    // The same steps with the victim's own cookie keep the URL.
    await victim.send("/auth/signin?callbackUrl=%2Fmine");
    const again = await victim.send("/auth/signin/op", { form: { csrfToken: await victim.csrf() } });
    const ownCallback = await op.authorize(again.headers.get("location") as string);
    const own = await victim.send(ownCallback.pathname + ownCallback.search);
    expect(own.headers.get("location")).toBe(`${origin}/mine`);
  });
});

describe("__Host- cookies on https", () => {
  it("a cookies override with a domain cannot keep __Host-: it falls back to __Secure- (documented as weakening)", () => {
    const cookies = resolveCookies(true, { sessionToken: { options: { domain: "example.com" } } as CookieOption });
    expect(cookies.sessionToken.name).toBe("__Secure-authlib.session-token");
    expect(cookies.csrfToken.name).toBe("__Host-authlib.csrf-token");
    expect(resolveCookies(true, { state: { options: { secure: false } } as CookieOption }).state.name).toBe("authlib.state");
  });

  it("every Set-Cookie authlib writes during an OAuth sign-in, session read and sign-out starts with __Host- and has no Domain", async () => {
    const { config } = await setup(["pkce", "state", "nonce"]);
    const client = authClient(config, httpsOrigin);
    const headers: string[] = [];
    const record = (r: Response) => headers.push(...r.headers.getSetCookie());
    const csrfToken = await client.csrf();
    const start = await client.send("/auth/signin/op", { form: { csrfToken, callbackUrl: "/dashboard" } });
    record(start);
    const callback = await op.authorize(start.headers.get("location") as string);
    const done = await client.send(callback.pathname + callback.search);
    record(done);
    expect(done.headers.get("location")).toBe(`${httpsOrigin}/dashboard`);
    record(await client.send("/auth/session"));
    record(await client.send("/auth/signin?callbackUrl=%2Fback"));
    record(await client.send("/auth/signout", { form: { csrfToken: await client.csrf() } }));
    record(await authClient(config, httpsOrigin).send("/auth/csrf")); // a first visit: the CSRF cookie
    const names = new Set(headers.map((h) => parseSetCookie(h).name));
    for (const name of ["session-token", "csrf-token", "callback-url", "pkce.code_verifier", "state", "nonce"]) {
      expect([...names]).toContain(`__Host-authlib.${name}`);
    }
    for (const header of headers) {
      const { name, attributes } = parseSetCookie(header);
      expect(name.startsWith("__Host-")).toBe(true);
      expect(attributes.domain).toBeUndefined();
      expect(attributes.path).toBe("/");
      expect(attributes.secure).toBe(true);
    }
  });

  it("while migrating (acceptAuthjsSessions), a session under the old __Secure- name is read, re-issued as __Host- and the old one cleared", async () => {
    const oldName = "__Secure-authlib.session-token";
    const token = await encode({ token: { sub: "old-user", name: "Old" }, secret, salt: oldName });
    const config: AuthConfig = { secret, trustHost: true, acceptAuthjsSessions: true, providers: [Credentials({ authorize: () => null })] };
    const client = authClient(config, httpsOrigin);
    client.jar.cookies.set(oldName, { name: oldName, value: token, attributes: {} });
    const response = await client.send("/auth/session");
    expect(((await response.json()) as { user: { name: string } }).user.name).toBe("Old");
    expect(client.jar.get(oldName)).toBeUndefined();
    const reissued = client.jar.get("__Host-authlib.session-token") as string;
    expect((await decode({ token: reissued, secret, salt: "__Host-authlib.session-token" }))?.sub).toBe("old-user");
  });

  it("database sessions, while migrating: a session cookie under the old __Secure- name is read and moved to __Host-", async () => {
    const { adapter } = await freshDatabase();
    const user = await adapter.createUser!({ id: crypto.randomUUID(), email: "old@example.com", emailVerified: null, name: "old" });
    const sessionToken = crypto.randomUUID();
    await adapter.createSession!({ sessionToken, userId: user.id, expires: new Date(Date.now() + 86_400_000) });
    const config: AuthConfig = {
      secret,
      trustHost: true,
      acceptAuthjsSessions: true,
      adapter,
      providers: [Credentials({ authorize: () => null })],
    };
    const client = authClient(config, httpsOrigin);
    const oldName = "__Secure-authlib.session-token";
    client.jar.cookies.set(oldName, { name: oldName, value: sessionToken, attributes: {} });
    expect((await client.session())?.user.email).toBe("old@example.com");
    expect(client.jar.get(oldName)).toBeUndefined();
    expect(client.jar.get("__Host-authlib.session-token")).toBe(sessionToken);
    expect((await client.session())?.user.email).toBe("old@example.com");
  });

  it("getToken with secureCookie reads the __Host- name, never the plantable __Secure- one unless it is named", async () => {
    const read = async (name: string, salt = name, cookieName?: string) => {
      const token = await encode({ token: { sub: name }, secret, salt });
      const req = new Request("https://a.test/", { headers: { cookie: `${name}=${token}` } });
      return (await getToken({ req, secret, secureCookie: true, ...(cookieName ? { cookieName } : {}) }))?.sub;
    };
    expect(await read("__Host-authlib.session-token")).toBe("__Host-authlib.session-token");
    expect(await read("__Secure-authlib.session-token")).toBeUndefined();
    expect(await read("__Secure-authlib.session-token", undefined, "__Secure-authlib.session-token")).toBe(
      "__Secure-authlib.session-token",
    );
    // A token sealed for the other name does not decode under this one.
    const sealedForHost = "__Host-authlib.session-token";
    expect(await read("__Secure-authlib.session-token", sealedForHost, "__Secure-authlib.session-token")).toBeUndefined();
  });
});

describe("planted legacy session cookies (issue 26): a signed-out victim never ends up in the attacker's account", () => {
  /** A database-session app on https; `migrating` sets `acceptAuthjsSessions`. */
  async function databaseApp(migrating: boolean) {
    const { adapter } = await freshDatabase();
    const attacker = await adapter.createUser!({ id: crypto.randomUUID(), email: "mallory@example.com", emailVerified: null, name: "m" });
    const config: AuthConfig = {
      secret,
      trustHost: true,
      adapter,
      logger: quiet,
      ...(migrating ? { acceptAuthjsSessions: true } : {}),
      providers: [Credentials({ authorize: () => attacker })],
    };
    // The attacker signs in on the real site and takes their own (database) session token: no secret needed.
    const own = authClient(config, httpsOrigin);
    await own.send("/auth/callback/credentials", { form: { csrfToken: await own.csrf() } });
    const token = own.jar.get("__Host-authlib.session-token") as string;
    expect((await own.session())?.user.email).toBe("mallory@example.com");
    return { config, token };
  }

  /** Plants `value` under `name` in `victim`'s jar, as a parent-domain cookie from a sibling would arrive. */
  function plantAs(victim: Client, name: string, value: string) {
    victim.jar.cookies.set(name, { name, value, attributes: {} });
  }

  for (const name of ["__Secure-authlib.session-token", "__Secure-authjs.session-token"]) {
    it(`without acceptAuthjsSessions, a planted ${name} is not read: the fresh victim stays signed out`, async () => {
      const { config, token } = await databaseApp(false);
      const victim = authClient(config, httpsOrigin);
      plantAs(victim, name, token);
      expect(await victim.session()).toBeNull();
      expect(victim.jar.get("__Host-authlib.session-token")).toBeUndefined();
    });

    it(`with acceptAuthjsSessions, a planted ${name} is not read in a browser that carries a __Host- cookie of authlib's`, async () => {
      const { config, token } = await databaseApp(true);
      const victim = authClient(config, httpsOrigin);
      await victim.csrf(); // the victim has visited authlib since the migration: __Host-authlib.csrf-token
      plantAs(victim, name, token);
      expect(await victim.session()).toBeNull();
      expect(victim.jar.get("__Host-authlib.session-token")).toBeUndefined();
    });
  }

  it("with acceptAuthjsSessions, a planted Auth.js JWT next to any __Host-authlib cookie is not read (JWT sessions)", async () => {
    const legacy = "__Secure-authjs.session-token";
    // The attacker's own Auth.js session from before the migration (sealed under Auth.js's name, as Auth.js does).
    const planted = await encode({ token: { sub: "mallory", name: "Mallory" }, secret, salt: legacy });
    const config: AuthConfig = {
      secret,
      trustHost: true,
      acceptAuthjsSessions: true,
      logger: quiet,
      providers: [Credentials({ authorize: () => null })],
    };
    for (const host of ["__Host-authlib.csrf-token", "__Host-authlib.callback-url", "__Host-authlib.state"]) {
      const cookie = `${host}=anything; ${legacy}=${planted}`;
      const response = await authClient(config, httpsOrigin).send("/auth/session", { headers: { cookie } });
      expect(await response.json()).toBeNull();
      expect(response.setCookies.map((c) => c.name)).not.toContain("__Host-authlib.session-token");
    }
    // The control: the same cookie alone, in a browser authlib has not seen yet, is the migration window.
    const alone = await authClient(config, httpsOrigin).send("/auth/session", { headers: { cookie: `${legacy}=${planted}` } });
    expect(((await alone.json()) as { user: { name: string } }).user.name).toBe("Mallory");
  });
});
