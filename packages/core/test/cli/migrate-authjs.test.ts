/**
 * Migrating an Auth.js v5 app to authlib without signing anyone out (docs/migrating-from-authjs.md).
 *
 * A throwaway PostgreSQL database gets `@auth/pg-adapter`'s documented schema, filled by the real
 * `@auth/core` through OIDC sign-ins at a real OP (database and JWT sessions) and an email sign-in. The
 * `authlib-db import-authjs` command copies it into authlib's tables; then the Auth.js cookies from before
 * the move keep the same users signed in through authlib's `Auth()` configured as the guide says, and
 * authlib's session decodes in `@auth/core` again (the way back).
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Auth as AuthjsAuth, type AuthConfig as AuthjsConfig } from "@auth/core";
import { decode as authjsDecode, encode as authjsEncode } from "@auth/core/jwt";
import PostgresAdapter from "@auth/pg-adapter";
import { HostedDbAdapter, HostedDbClient, importFromAuthjs } from "@authlib/hosted-db-adapter";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setEnvDefaults } from "../../src/env/defaults.js";
import { Auth } from "../../src/kernel/auth.js";
import type { AuthConfig } from "../../src/types/config.js";
import { CookieJar } from "../helpers/auth-client.js";
import { opProvider, startTestOP, type TestOP } from "../helpers/oidc-provider.js";

const ORIGIN = "https://app.example";
const SECRET = "migration-test-secret-0123456789abcdef";
const ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres";
const database = `authjs_mig_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
const databaseUrl = `postgres://postgres@127.0.0.1:5432/${database}`;
const BRANCH = "authlib";

/** `@auth/pg-adapter`'s schema, as its documentation gives it. */
const PG_ADAPTER_SCHEMA = [
  `CREATE TABLE verification_token (identifier TEXT NOT NULL, expires TIMESTAMPTZ NOT NULL, token TEXT NOT NULL, PRIMARY KEY (identifier, token))`,
  `CREATE TABLE accounts (id SERIAL, "userId" INTEGER NOT NULL, type VARCHAR(255) NOT NULL, provider VARCHAR(255) NOT NULL,
    "providerAccountId" VARCHAR(255) NOT NULL, refresh_token TEXT, access_token TEXT, expires_at BIGINT, id_token TEXT, scope TEXT,
    session_state TEXT, token_type TEXT, PRIMARY KEY (id))`,
  `CREATE TABLE sessions (id SERIAL, "userId" INTEGER NOT NULL, expires TIMESTAMPTZ NOT NULL, "sessionToken" VARCHAR(255) NOT NULL, PRIMARY KEY (id))`,
  `CREATE TABLE users (id SERIAL, name VARCHAR(255), email VARCHAR(255), "emailVerified" TIMESTAMPTZ, image TEXT, PRIMARY KEY (id))`,
];

let op: TestOP;
let admin: pg.Client;
let pool: pg.Pool;
let client: HostedDbClient;
const mailed: string[] = [];

/** The Auth.js app: `@auth/core` with the pg adapter, on https (so its session cookie is `__Secure-authjs.session-token`). */
function authjsConfig(strategy: "database" | "jwt", overrides: Partial<AuthjsConfig> = {}): AuthjsConfig {
  return {
    basePath: "/auth",
    secret: SECRET,
    trustHost: true,
    adapter: PostgresAdapter(pool),
    session: { strategy },
    providers: [
      { id: "op", name: "Test OP", type: "oidc", issuer: op.issuer, clientId: "app", clientSecret: "app-secret" },
      {
        id: "email",
        name: "Email",
        type: "email",
        from: "app@example.com",
        maxAge: 86_400,
        sendVerificationRequest: async ({ url }: { url: string }) => {
          mailed.push(url);
        },
      } as never,
    ],
    ...overrides,
  };
}

/** A browser of the Auth.js app: `@auth/core`'s `Auth()` with a cookie jar. */
function authjsBrowser(config: AuthjsConfig) {
  const jar = new CookieJar();
  async function send(path: string, form?: Record<string, string>) {
    const headers = new Headers();
    if (jar.cookies.size > 0) headers.set("cookie", jar.header());
    if (form) headers.set("content-type", "application/x-www-form-urlencoded");
    const request = new Request(new URL(path, ORIGIN), { method: form ? "POST" : "GET", headers, body: form && new URLSearchParams(form) });
    const response = await AuthjsAuth(request, config);
    jar.apply(response);
    return response;
  }
  async function signIn(providerId: string, form: Record<string, string> = {}) {
    const { csrfToken } = (await (await send("/auth/csrf")).json()) as { csrfToken: string };
    return send(`/auth/signin/${providerId}`, { csrfToken, callbackUrl: `${ORIGIN}/dashboard`, ...form });
  }
  async function signInWithOP(user: string) {
    const start = await signIn("op");
    const callback = await op.authorize(start.headers.get("location") as string, { user });
    const done = await send(callback.pathname + callback.search);
    expect(done.headers.get("location")).toBe(`${ORIGIN}/dashboard`);
  }
  return { jar, send, signIn, signInWithOP };
}

/** authlib's `Auth()` for one request carrying `cookie`; returns the session body and the Set-Cookie names. */
async function authlibSession(config: AuthConfig, cookie: string) {
  const response = await Auth(new Request(`${ORIGIN}/auth/session`, { headers: { cookie } }), config);
  const jar = new CookieJar();
  const set = jar.apply(response);
  return { session: (await response.json()) as Record<string, any> | null, set, jar };
}

/**
 * authlib configured as the migration guide says: Auth.js's env names (`AUTH_URL`, `AUTH_SECRET`) read
 * through `setEnvDefaults` called the Auth.js way, and `acceptAuthjsSessions`.
 */
function authlibConfig(strategy: "database" | "jwt"): AuthConfig {
  const config: AuthConfig = {
    providers: [opProvider(op)],
    adapter: HostedDbAdapter(client),
    session: { strategy },
    acceptAuthjsSessions: true,
    callbacks: {
      session: (params) => ({
        ...params.session,
        user: { ...params.session.user, id: "token" in params ? params.token.sub : params.user.id },
      }),
    },
  };
  setEnvDefaults({ AUTH_URL: `${ORIGIN}/auth`, AUTH_SECRET: SECRET }, config, true);
  return config;
}

/** Every row of every authlib table of the branch (and the import ledger), to compare two runs. */
async function snapshot() {
  const tables = ["authlib_users", "authlib_accounts", "authlib_sessions", "authlib_users_accounts", "authlib_users_sessions"];
  const rows: Record<string, unknown[]> = {};
  for (const table of [...tables, "authlib_verificationTokens", "authlib_authenticators", "authlib_authjs_imports"]) {
    rows[table] = (await client.query(`SELECT * FROM "${BRANCH}"."${table}" ORDER BY 1, 2`)).rows;
  }
  return rows;
}

const packageDir = fileURLToPath(new URL("../../../hosted-db-adapter/", import.meta.url));

/** `npx authlib-db import-authjs …`, run from the adapter's TypeScript source as the built bin runs. */
async function importCommand(): Promise<string> {
  const args = ["--import", "tsx", "src/cli.ts", "import-authjs", "--from", databaseUrl, "--tables", "pg-adapter"];
  const { stdout } = await promisify(execFile)(process.execPath, [...args, "--url", databaseUrl, "--branch", BRANCH], {
    cwd: packageDir,
    env: { ...process.env, AUTHLIB_DATABASE_URL: "", AUTHLIB_BRANCH: "" },
  });
  return stdout;
}

beforeAll(async () => {
  admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  pool = new pg.Pool({ connectionString: databaseUrl });
  for (const statement of PG_ADAPTER_SCHEMA) await pool.query(statement);
  op = await startTestOP({ clients: [{ client_id: "app", client_secret: "app-secret", redirect_uris: [`${ORIGIN}/auth/callback/op`] }] });
  client = new HostedDbClient({ databaseURL: databaseUrl, branch: BRANCH });
  await client.migrate();
});

afterAll(async () => {
  await client?.close();
  await pool?.end();
  await op?.close();
  // Closed pools end their connections asynchronously: wait for the server to see them gone (bounded),
  // so that FORCE never has to kill one of ours mid-close.
  for (let i = 0; i < 50; i++) {
    const { rows } = await admin.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1", [database]);
    if (rows[0].n === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await admin?.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await admin?.end();
});

describe("migrating from Auth.js v5 (@auth/pg-adapter)", () => {
  const cookies = { alice: "", bob: "", carol: "" };
  let aliceToken = "";

  it("Auth.js signs users in: database and JWT sessions, an email link, a pending link", async () => {
    const alice = authjsBrowser(authjsConfig("database"));
    await alice.signInWithOP("alice");
    cookies.alice = alice.jar.header();
    aliceToken = alice.jar.get("__Secure-authjs.session-token") as string;
    expect(aliceToken).toMatch(/^[0-9a-f-]{36}$/);

    const bob = authjsBrowser(authjsConfig("jwt"));
    await bob.signInWithOP("bob");
    cookies.bob = bob.jar.header();
    expect(bob.jar.get("__Secure-authjs.session-token")?.split(".")).toHaveLength(5);

    const carol = authjsBrowser(authjsConfig("database"));
    await carol.signIn("email", { email: "carol@example.com" });
    const link = new URL(mailed.pop() as string);
    await carol.send(link.pathname + link.search);
    cookies.carol = carol.jar.header();
    await authjsBrowser(authjsConfig("database")).signIn("email", { email: "dave@example.com" });

    const users = (await pool.query(`SELECT id, email FROM users ORDER BY id`)).rows;
    expect(users).toEqual([
      { id: 1, email: "alice@example.com" },
      { id: 2, email: "bob@example.com" },
      { id: 3, email: "carol@example.com" },
    ]);
    expect((await pool.query(`SELECT count(*)::int AS n FROM sessions`)).rows[0].n).toBe(2);
  });

  it("without acceptAuthjsSessions an Auth.js cookie is no session", async () => {
    const config = { ...authlibConfig("database"), acceptAuthjsSessions: false };
    expect((await authlibSession(config, cookies.alice)).session).toBeNull();
  });

  it("authlib-db import-authjs copies users, accounts and sessions; pending links are counted, not copied", async () => {
    const output = await importCommand();
    expect(output).toContain("users: 3 imported (3 in Auth.js)");
    expect(output).toContain("accounts: 2 imported (2 in Auth.js)");
    expect(output).toContain("sessions: 2 imported (2 in Auth.js)");
    expect(output).toContain("pending sign-in links not carried over: 1");
    const users = await client.db.authlib_users.filter();
    expect(users.map((u) => [u.id, u.email])).toEqual([
      ["1", "alice@example.com"],
      ["2", "bob@example.com"],
      ["3", "carol@example.com"],
    ]);
    const adapter = HostedDbAdapter(client);
    expect((await adapter.getUserByAccount({ provider: "op", providerAccountId: "bob" }))?.id).toBe("2");
    expect(await adapter.listAccountsByUserId("1")).toEqual([
      expect.objectContaining({ provider: "op", providerAccountId: "alice", type: "oidc", userId: "1" }),
    ]);
  });

  it("running the import again changes nothing", async () => {
    const before = await snapshot();
    const again = await importFromAuthjs(client, { from: databaseUrl, tables: "pg-adapter" });
    expect(again).toEqual({
      users: { read: 3, imported: 0 },
      accounts: { read: 2, imported: 0 },
      sessions: { read: 2, imported: 0 },
      authenticators: { read: 0, imported: 0 },
      pendingSignInLinks: 1,
    });
    expect(await snapshot()).toEqual(before);
  });

  it("an Auth.js database-session cookie keeps its user signed in, moved to authlib's __Host- cookie", async () => {
    const config = authlibConfig("database");
    const first = await authlibSession(config, cookies.alice);
    expect(first.session?.user).toMatchObject({ id: "1", email: "alice@example.com" });
    const moved = first.set.find((c) => c.name === "__Host-authlib.session-token");
    expect(moved?.value).toBe(aliceToken);
    expect(first.set.find((c) => c.name === "__Secure-authjs.session-token")?.attributes.maxAge).toBe(0);

    const next = await authlibSession(config, first.jar.header());
    expect(next.session?.user).toMatchObject({ id: "1", email: "alice@example.com" });

    const carol = await authlibSession(config, cookies.carol);
    expect(carol.session?.user).toMatchObject({ id: "3", email: "carol@example.com" });
  });

  it("an Auth.js JWT cookie keeps its user signed in; authlib's JWT decodes in @auth/core (the way back)", async () => {
    const config = authlibConfig("jwt");
    const first = await authlibSession(config, cookies.bob);
    expect(first.session?.user).toMatchObject({ id: "2", email: "bob@example.com" });
    expect((await HostedDbAdapter(client).getUser("2"))?.email).toBe("bob@example.com");
    const ours = first.jar.get("__Host-authlib.session-token") as string;
    expect(ours).toBeDefined();
    expect(first.set.find((c) => c.name === "__Secure-authjs.session-token")?.attributes.maxAge).toBe(0);

    const decoded = await authjsDecode({ token: ours, secret: SECRET, salt: "__Host-authlib.session-token" });
    expect(decoded).toMatchObject({ sub: "2", email: "bob@example.com" });

    // Rolling back: Auth.js told to read authlib's cookie name keeps the user signed in.
    const rollback = authjsConfig("jwt", {
      cookies: {
        sessionToken: { name: "__Host-authlib.session-token", options: { httpOnly: true, sameSite: "lax", path: "/", secure: true } },
      },
    });
    const back = await AuthjsAuth(new Request(`${ORIGIN}/auth/session`, { headers: { cookie: first.jar.header() } }), rollback);
    expect(await back.json()).toMatchObject({ user: { email: "bob@example.com" } });
  });

  it("a token minted by @auth/core's encode under Auth.js's cookie name is read; one under another salt is not", async () => {
    const config = authlibConfig("jwt");
    const token = await authjsEncode({
      token: { sub: "3", email: "carol@example.com" },
      secret: SECRET,
      salt: "__Secure-authjs.session-token",
    });
    const read = await authlibSession(config, `__Secure-authjs.session-token=${token}`);
    expect(read.session?.user).toMatchObject({ id: "3", email: "carol@example.com" });
    const foreign = await authjsEncode({ token: { sub: "3" }, secret: SECRET, salt: "authjs.session-token" });
    expect((await authlibSession(config, `__Secure-authjs.session-token=${foreign}`)).session).toBeNull();
  });

  it("a chunked Auth.js JWT cookie (.0, .1) is read, re-issued under authlib's name, and every chunk cleared", async () => {
    const big = authjsBrowser(authjsConfig("jwt", { callbacks: { jwt: ({ token }) => ({ ...token, notes: "n".repeat(5000) }) } }));
    await big.signInWithOP("alice");
    expect([...big.jar.cookies.keys()].filter((name) => name.startsWith("__Secure-authjs.session-token"))).toEqual([
      "__Secure-authjs.session-token.0",
      "__Secure-authjs.session-token.1",
    ]);
    const read = await authlibSession(authlibConfig("jwt"), big.jar.header());
    expect(read.session?.user).toMatchObject({ id: "1", email: "alice@example.com" });
    const cleared = read.set.filter((c) => c.attributes.maxAge === 0).map((c) => c.name);
    expect(cleared.sort()).toEqual(["__Secure-authjs.session-token.0", "__Secure-authjs.session-token.1"]);
    expect(read.jar.get("__Host-authlib.session-token.0")).toBeDefined();
  });

  it("on http the unprefixed authjs.session-token is read and moved to authlib.session-token", async () => {
    const config: AuthConfig = { providers: [], acceptAuthjsSessions: true };
    setEnvDefaults({ AUTH_URL: "http://localhost:3000/auth", AUTH_SECRET: SECRET }, config, true);
    const token = await authjsEncode({ token: { sub: "9", email: "dev@example.com" }, secret: SECRET, salt: "authjs.session-token" });
    const response = await Auth(
      new Request("http://localhost:3000/auth/session", { headers: { cookie: `authjs.session-token=${token}` } }),
      config,
    );
    const jar = new CookieJar();
    const set = jar.apply(response);
    expect(await response.json()).toMatchObject({ user: { email: "dev@example.com" } });
    expect(set.map((c) => [c.name, c.attributes.maxAge === 0])).toEqual([
      ["authjs.session-token", true],
      ["authlib.session-token", false],
    ]);
  });

  it("an Auth.js cookie never replaces a present authlib session (a planted one is ignored)", async () => {
    const config = authlibConfig("database");
    const mine = await authlibSession(config, cookies.carol);
    const planted = `${mine.jar.header()}; ${cookies.alice}`;
    expect((await authlibSession(config, planted)).session?.user).toMatchObject({ id: "3" });
  });
});
