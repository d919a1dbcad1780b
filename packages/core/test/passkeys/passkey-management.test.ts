/**
 * Passkeys managed like any factor (issue 44): `GET /passkeys`, `POST /passkeys/rename` and
 * `/passkeys/remove`, and `auth.api.listPasskeys`, `renamePasskey`, `removePasskey`, on the in-memory
 * adapter, on PGlite and on PostgreSQL (skipped, saying why, when no server answers), with JWT and
 * database sessions. Passkeys are registered with the software authenticator (no browser).
 *
 * The owner-present rule guards adding and removing: a 30-minute-old copy of a session (the clock moved
 * with `vi.useFakeTimers({ toFake: ["Date"] })`) gets `RecentSignInRequired` from both, and with
 * `twoFactor.passkeys` a thief holding such a copy cannot register a passkey of theirs, so the owner's
 * password sign-in never asks for it (the lockout of issue 44).
 */
import { HostedDbAdapter, HostedDbClient } from "@authlib/hosted-db-adapter";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { dropBranch, postgresAnswers, randomBranch, testDatabaseURL } from "../../../hosted-db-adapter/test/helpers.js";
import type { AuditEvent } from "../../src/index.js";
import { createAuth } from "../../src/kernel/instance.js";
import Credentials from "../../src/providers/credentials.js";
import Passkey from "../../src/providers/passkey.js";
import { memoryRateLimitStore } from "../../src/rate-limit/store.js";
import type { Adapter, AdapterUser } from "../../src/types/adapters.js";
import type { AuthConfig } from "../../src/types/config.js";
import type { PasskeyChangedMessage } from "../../src/types/passkeys.js";
import { authClient } from "../helpers/auth-client.js";
import { closeSharedPglite, freshDatabase } from "../helpers/database.js";
import { memoryAdapter } from "../helpers/memory-adapter.js";
import { passkeyCeremony } from "../helpers/second-factor-flows.js";
import { SoftAuthenticator } from "../webauthn/soft-authenticator.js";

const ORIGIN = "http://localhost:3000";
const SECRET = "passkey-management-secret-0123456789abcdef";
const PASSWORD = "owner password 4242";
const SESSION_COOKIE = "authlib.session-token";
const HALF_AN_HOUR = 30 * 60 * 1000;

type Client = ReturnType<typeof authClient>;

/** Where the adapter lives: memory, a PGlite branch, a PostgreSQL branch. */
interface Storage {
  name: string;
  available: boolean;
  open(): Promise<Adapter>;
}

const postgresClients: HostedDbClient[] = [];
const postgresURL = testDatabaseURL();
const storages: Storage[] = [
  { name: "memory", available: true, open: async () => memoryAdapter({ sessionRecords: true }).adapter },
  { name: "PGlite", available: true, open: async () => (await freshDatabase()).adapter },
  {
    name: "PostgreSQL",
    available: await postgresAnswers(postgresURL, "the PostgreSQL passkey management tests"),
    async open() {
      const client = new HostedDbClient({ databaseURL: postgresURL, branch: randomBranch("passkeys") });
      await client.migrate();
      postgresClients.push(client);
      return HostedDbAdapter(client);
    },
  },
];

// PGlite's cold start (seconds, more on a busy machine) is paid here, not by whichever test runs first.
beforeAll(async () => {
  await freshDatabase();
}, 120_000);

afterAll(async () => {
  for (const client of postgresClients.splice(0)) {
    await dropBranch(client, client.branch);
    await client.close();
  }
  await closeSharedPglite();
});

/** An app with a password (Credentials) and passkeys for one owner, already in the adapter. */
async function app(storage: Storage, strategy: "jwt" | "database", overrides: Partial<AuthConfig> = {}) {
  const adapter = await storage.open();
  const email = `owner-${crypto.randomUUID()}@example.com`;
  const owner = (await adapter.createUser?.({ id: crypto.randomUUID(), email, emailVerified: null, name: "Ada" })) as AdapterUser;
  const added: PasskeyChangedMessage[] = [];
  const removed: PasskeyChangedMessage[] = [];
  const audit: AuditEvent[] = [];
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter,
    session: { strategy },
    providers: [
      Credentials({
        credentials: { email: {}, password: { type: "password" } },
        authorize: (input) => (input.email === email && input.password === PASSWORD ? { id: owner.id, email } : null),
      }),
      Passkey({}),
    ],
    experimental: { enableWebAuthn: true },
    rateLimit: { store: memoryRateLimitStore() },
    events: { passkeyAdded: (m) => void added.push(m), passkeyRemoved: (m) => void removed.push(m) },
    audit: { store: { write: (event) => void audit.push(event) } },
    logger: { error: () => {}, warn: () => {} },
    ...overrides,
  };
  const auth = createAuth(config);
  return { adapter, owner, email, config, auth, added, removed, audit, authenticator: new SoftAuthenticator(ORIGIN) };
}
type App = Awaited<ReturnType<typeof app>>;

/** The owner's password sign-in in a new browser (or `browser`): its response. */
async function signIn(a: App, browser: Client = authClient(a.config, ORIGIN)) {
  const csrfToken = await browser.csrf();
  const response = await browser.send("/auth/callback/credentials", {
    form: { csrfToken, email: a.email, password: PASSWORD, callbackUrl: "/home" },
  });
  return { browser, response };
}

/** A signed-in browser of the owner with `count` passkeys registered. */
async function ownerWithPasskeys(a: App, count: number) {
  const { browser } = await signIn(a);
  for (let i = 0; i < count; i++) {
    const { response } = await passkeyCeremony(browser, a.authenticator, "register");
    expect(response.status).toBe(302);
  }
  return browser;
}

function requestOf(browser: Client): Request {
  return new Request(`${ORIGIN}/app`, { headers: { cookie: browser.jar.header() } });
}

/** Another browser holding a copy of `browser`'s session cookie (a thief's). */
function copyOf(a: App, browser: Client): Client {
  const thief = authClient(a.config, ORIGIN);
  thief.jar.cookies.set(SESSION_COOKIE, { name: SESSION_COOKIE, value: browser.jar.get(SESSION_COOKIE) ?? "", attributes: {} });
  return thief;
}

async function post(browser: Client, path: string, body: Record<string, string>) {
  return browser.send(path, { json: { csrfToken: await browser.csrf(), ...body } });
}

async function list(browser: Client) {
  const response = await browser.send("/auth/passkeys");
  return { status: response.status, body: (await response.json()) as { passkeys: Array<Record<string, unknown>> } };
}

/** Runs `run` with the clock `ms` ahead (Date only: timers and I/O go on). */
async function later<T>(ms: number, run: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + ms });
  try {
    return await run();
  } finally {
    vi.useRealTimers();
  }
}

for (const storage of storages) {
  for (const strategy of ["jwt", "database"] as const) {
    describe.skipIf(!storage.available)(`passkeys managed like any factor: ${storage.name}, ${strategy} sessions`, () => {
      it("lists the owner's passkeys (name, created, last used; never the key or counter), oldest first", async () => {
        const a = await app(storage, strategy);
        const browser = await ownerWithPasskeys(a, 2);
        const { status, body } = await list(browser);
        expect(status).toBe(200);
        expect(body.passkeys).toHaveLength(2);
        const today = new Date().toISOString().slice(0, 10);
        for (const passkey of body.passkeys) {
          expect(Object.keys(passkey).sort()).toEqual(["backedUp", "createdAt", "deviceType", "id", "lastUsedAt", "name"]);
          expect(passkey.name).toBe(`Passkey ${today}`);
          expect(Date.parse(passkey.createdAt as string)).toBeGreaterThan(Date.now() - 60_000);
          expect(passkey.lastUsedAt).toBeNull();
        }
        expect(JSON.stringify(body)).not.toMatch(/publicKey|counter/i);
        expect(await a.auth.api.listPasskeys(requestOf(browser))).toEqual(body.passkeys);
        expect(a.added.map((m) => [m.userId, m.passkey.id])).toEqual(body.passkeys.map((p) => [a.owner.id, p.id]));
        expect(a.audit.filter((e) => e.type === "passkeyAdded").map((e) => [e.userId, e.provider])).toEqual([
          [a.owner.id, "passkey"],
          [a.owner.id, "passkey"],
        ]);
      });

      it("a passkey sign-in records its last use", async () => {
        const a = await app(storage, strategy);
        await ownerWithPasskeys(a, 1);
        const other = authClient(a.config, ORIGIN);
        expect((await passkeyCeremony(other, a.authenticator, "authenticate")).response.status).toBe(302);
        const [passkey] = await a.auth.api.listPasskeys(requestOf(other));
        expect(Date.parse(passkey?.lastUsedAt ?? "")).toBeGreaterThan(Date.now() - 60_000);
      });

      it("renames a passkey (one line, at most 64 characters); refused names change nothing", async () => {
        const a = await app(storage, strategy);
        const browser = await ownerWithPasskeys(a, 1);
        const [passkey] = (await list(browser)).body.passkeys;
        const id = passkey?.id as string;
        const renamed = await post(browser, "/auth/passkeys/rename", { id, name: "  Work laptop " });
        expect(renamed.status).toBe(200);
        expect(((await renamed.json()) as { passkey: { name: string } }).passkey.name).toBe("Work laptop");
        for (const name of ["", "   ", "a".repeat(65), "two\nlines"]) {
          const refused = await post(browser, "/auth/passkeys/rename", { id, name });
          expect([refused.status, await refused.json()]).toEqual([400, { error: "InvalidName" }]);
        }
        await expect(a.auth.api.renamePasskey(requestOf(browser), { id, name: "Phone @home" })).resolves.toMatchObject({
          id,
          name: "Phone @home",
        });
        expect((await a.auth.api.listPasskeys(requestOf(browser))).map((p) => p.name)).toEqual(["Phone @home"]);
        const noToken = await browser.send("/auth/passkeys/rename", { json: { id, name: "x" } });
        expect([noToken.status, await noToken.json()]).toEqual([403, { error: "MissingCSRF" }]);
      });

      it("removes a passkey: it no longer signs in; the last way in is refused as LastSignInMethod", async () => {
        const a = await app(storage, strategy);
        const browser = await ownerWithPasskeys(a, 2);
        const [first, second] = (await list(browser)).body.passkeys;
        const gone = await post(browser, "/auth/passkeys/remove", { id: first?.id as string });
        expect([gone.status, await gone.json()]).toEqual([200, { removed: 1 }]);
        expect((await list(browser)).body.passkeys.map((p) => p.id)).toEqual([second?.id]);
        expect(a.removed.map((m) => [m.userId, m.passkey.id, m.passkey.name])).toEqual([[a.owner.id, first?.id, first?.name]]);
        expect(a.audit.filter((e) => e.type === "passkeyRemoved").map((e) => e.userId)).toEqual([a.owner.id]);
        // The account row went with it: the linked accounts no longer list it.
        expect((await a.adapter.listAccountsByUserId?.(a.owner.id))?.map((row) => row.providerAccountId)).toEqual([second?.id]);
        // The removed credential no longer signs in.
        const removedCredential = a.authenticator.credentials[0];
        const stranger = authClient(a.config, ORIGIN);
        const query = new URLSearchParams({ action: "authenticate" });
        const { options } = (await (await stranger.send(`/auth/webauthn-options/passkey?${query}`)).json()) as { options: any };
        const answer = await a.authenticator.authenticate(options, { credential: removedCredential });
        const refused = await stranger.send("/auth/callback/passkey", {
          json: { action: "authenticate", data: JSON.stringify(answer), csrfToken: await stranger.csrf() },
        });
        expect(refused.headers.get("location")).toContain("error=");
        expect(stranger.jar.get(SESSION_COOKIE)).toBeUndefined();
        // The last passkey of a user whose password is no account row here (Credentials): their last way in.
        await expect(a.auth.api.removePasskey(requestOf(browser), { id: second?.id as string })).rejects.toMatchObject({
          type: "LastSignInMethod",
        });
        const last = await post(browser, "/auth/passkeys/remove", { id: second?.id as string });
        expect([last.status, await last.json()]).toEqual([409, { error: "LastSignInMethod" }]);
        expect(await a.auth.api.listPasskeys(requestOf(browser))).toHaveLength(1);
      });

      it("two removals of a user's last two ways in at once leave one: the later finds none left and puts its passkey back", async () => {
        const a = await app(storage, strategy);
        const browser = await ownerWithPasskeys(a, 2);
        const ids = (await list(browser)).body.passkeys.map((p) => p.id as string);
        const results = await Promise.allSettled(ids.map((id) => a.auth.api.removePasskey(requestOf(browser), { id })));
        const left = (await a.auth.api.listPasskeys(requestOf(browser))).map((p) => p.id);
        expect(left.length).toBeGreaterThanOrEqual(1);
        expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(2 - left.length);
        for (const refused of results.filter((r) => r.status === "rejected")) {
          expect((refused as PromiseRejectedResult).reason).toMatchObject({ type: "LastSignInMethod" });
        }
        // What stays still signs in.
        const [kept] = left;
        const credential = a.authenticator.credentials.find((c) => Buffer.from(c.id, "base64url").toString("base64") === kept);
        const stranger = authClient(a.config, ORIGIN);
        const { options } = (await (await stranger.send("/auth/webauthn-options/passkey?action=authenticate")).json()) as { options: any };
        const answer = await a.authenticator.authenticate(options, { credential });
        const signedIn = await stranger.send("/auth/callback/passkey", {
          json: { action: "authenticate", data: JSON.stringify(answer), csrfToken: await stranger.csrf() },
        });
        expect(signedIn.headers.get("location")).toBe(`${ORIGIN}/`);
      });

      it("another user's passkey id is PasskeyNotFound, the same answer as an id nobody has; nothing changes", async () => {
        const a = await app(storage, strategy);
        const owner = await ownerWithPasskeys(a, 2);
        const ownerIds = (await list(owner)).body.passkeys.map((p) => p.id as string);
        // A second user, signed up with a passkey of their own.
        const other = authClient(a.config, ORIGIN);
        const otherAuthenticator = new SoftAuthenticator(ORIGIN);
        expect((await passkeyCeremony(other, otherAuthenticator, "register")).response.status).toBe(302);
        expect((await list(other)).body.passkeys.map((p) => p.id)).not.toContain(ownerIds[0]);
        for (const id of [ownerIds[0] as string, "bm9ib2R5J3M=", "", "x".repeat(5000)]) {
          for (const route of ["rename", "remove"]) {
            const answer = await post(other, `/auth/passkeys/${route}`, { id, name: "Mine now" });
            expect([route, answer.status, await answer.json()]).toEqual([route, 404, { error: "PasskeyNotFound" }]);
          }
        }
        await expect(a.auth.api.removePasskey(requestOf(other), { id: ownerIds[0] as string })).rejects.toMatchObject({
          type: "PasskeyNotFound",
        });
        expect((await list(owner)).body.passkeys.map((p) => [p.id, p.name])).toEqual(ownerIds.map((id) => [id, expect.any(String)]));
        expect((await list(owner)).body.passkeys.every((p) => p.name !== "Mine now")).toBe(true);
      });

      it("signed out: 401 SessionRequired from every route", async () => {
        const a = await app(storage, strategy);
        const nobody = authClient(a.config, ORIGIN);
        expect([(await nobody.send("/auth/passkeys")).status]).toEqual([401]);
        for (const route of ["rename", "remove"]) {
          const answer = await post(nobody, `/auth/passkeys/${route}`, { id: "x", name: "y" });
          expect([answer.status, await answer.json()]).toEqual([401, { error: "SessionRequired" }]);
        }
      });

      it("a 30-minute-old copied session gets RecentSignInRequired from removing and from adding a passkey", async () => {
        const a = await app(storage, strategy);
        const owner = await ownerWithPasskeys(a, 2);
        const ids = (await list(owner)).body.passkeys.map((p) => p.id as string);
        const thief = copyOf(a, owner);
        await later(HALF_AN_HOUR, async () => {
          // Reading and renaming are no change to how anyone signs in.
          expect((await list(thief)).status).toBe(200);
          const remove = await post(thief, "/auth/passkeys/remove", { id: ids[0] as string });
          expect([remove.status, await remove.json()]).toEqual([403, { error: "RecentSignInRequired" }]);
          await expect(a.auth.api.removePasskey(requestOf(thief), { id: ids[0] as string })).rejects.toMatchObject({
            type: "RecentSignInRequired",
            operation: "removePasskey",
          });
          const add = await thief.send("/auth/webauthn-options/passkey?action=register");
          expect([add.status, await add.json()]).toEqual([403, { error: "RecentSignInRequired" }]);
          // The owner's own browser, as old, is refused the same: a sign-in again makes it recent.
          const again = await post(owner, "/auth/passkeys/remove", { id: ids[0] as string });
          expect(again.status).toBe(403);
          const { browser: fresh } = await signIn(a);
          expect((await post(fresh, "/auth/passkeys/remove", { id: ids[0] as string })).status).toBe(200);
        });
        expect((await a.adapter.listAuthenticatorsByUserId?.(a.owner.id))?.map((x) => x.credentialID)).toEqual([ids[1]]);
        expect(a.removed).toHaveLength(1);
      });

      it("the lockout: with twoFactor.passkeys, a 30-minute-old copied session cannot register a passkey, so the owner's password sign-in asks for none", async () => {
        const a = await app(storage, strategy, { twoFactor: { passkeys: true } });
        const { browser: owner, response } = await signIn(a);
        expect(response.headers.get("location")).toBe(`${ORIGIN}/home`);
        const thief = copyOf(a, owner);
        const thiefAuthenticator = new SoftAuthenticator(ORIGIN);
        await later(HALF_AN_HOUR, async () => {
          const options = await thief.send("/auth/webauthn-options/passkey?action=register");
          expect([options.status, await options.json()]).toEqual([403, { error: "RecentSignInRequired" }]);
          // Nor with options of its own making: the callback verifies only a challenge this browser got
          // for the same signed-in user (a registration answer to options from a fresh, signed-out browser).
          const signedOut = authClient(a.config, ORIGIN);
          const fresh = await signedOut.send(
            `/auth/webauthn-options/passkey?${new URLSearchParams({ action: "register", name: "Thief" })}`,
          );
          const answer = await thiefAuthenticator.register(((await fresh.json()) as { options: any }).options);
          const posted = await thief.send("/auth/callback/passkey", {
            json: { action: "register", data: JSON.stringify(answer), csrfToken: await thief.csrf() },
          });
          expect(posted.headers.get("location")).toMatch(/\/auth\/error\?error=/);
          expect(await a.adapter.listAuthenticatorsByUserId?.(a.owner.id)).toEqual([]);
          // The owner signs in with the password as always: no second step, no thief's passkey asked for.
          const { response: ownerAgain } = await signIn(a);
          expect(ownerAgain.headers.get("location")).toBe(`${ORIGIN}/home`);
        });
      });
    });
  }
}

describe("passkey management without the adapter methods", () => {
  it("MissingAdapterMethods (501), naming them, when the adapter cannot update or delete authenticators", async () => {
    const memory = memoryAdapter();
    const { updateAuthenticator: _update, deleteAuthenticator: _delete, ...older } = memory.adapter;
    const errors: string[] = [];
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      adapter: older,
      providers: [Passkey({})],
      experimental: { enableWebAuthn: true },
      logger: { error: (error) => void errors.push((error as Error).message), warn: () => {} },
    };
    const browser = authClient(config, ORIGIN);
    const authenticator = new SoftAuthenticator(ORIGIN);
    expect((await passkeyCeremony(browser, authenticator, "register")).response.status).toBe(302);
    // A passkey of such an adapter is stored without a name (an Auth.js adapter may refuse fields it does not know).
    expect([...memory.authenticators.values()].map((x) => x.name)).toEqual([undefined]);
    const listed = await browser.send("/auth/passkeys");
    expect([listed.status, await listed.json()]).toEqual([501, { error: "MissingAdapterMethods" }]);
    expect(errors).toContain("Managing passkeys needs the adapter methods updateAuthenticator, deleteAuthenticator.");
    // Signing in with it still works (the counter alone is written).
    expect((await passkeyCeremony(authClient(config, ORIGIN), authenticator, "authenticate")).response.status).toBe(302);
  });

  it("an adapter with one of updateAuthenticator and deleteAuthenticator but not the other is refused at start-up", () => {
    const { deleteAuthenticator: _delete, ...half } = memoryAdapter().adapter;
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      adapter: half,
      providers: [Passkey({})],
      experimental: { enableWebAuthn: true },
    };
    expect(() => createAuth({ ...config, logger: { error: () => {}, warn: () => {} } })).toThrow(
      "Managing passkeys needs both updateAuthenticator and deleteAuthenticator; missing: deleteAuthenticator.",
    );
  });

  it("without a passkey provider the routes are an UnknownAction (400)", async () => {
    const memory = memoryAdapter();
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      adapter: memory.adapter,
      session: { strategy: "jwt" },
      providers: [Credentials({ credentials: { id: {} }, authorize: (input) => ({ id: String(input.id) }) })],
      logger: { error: () => {}, warn: () => {} },
    };
    const browser = authClient(config, ORIGIN);
    await browser.send("/auth/callback/credentials", { form: { csrfToken: await browser.csrf(), id: "u1" } });
    expect((await browser.send("/auth/passkeys")).status).toBe(400);
  });
});

describe("the account page's passkeys", () => {
  it("lists them, renames and removes through its forms; an old session's removal goes to sign in again and back", async () => {
    const a = await app(storages[0] as Storage, "jwt");
    const browser = await ownerWithPasskeys(a, 2);
    const page = await (await browser.send("/auth/account")).text();
    const [first, second] = await a.auth.api.listPasskeys(requestOf(browser));
    expect(page).toContain(`<strong>${first?.name}</strong>`);
    expect(page).toContain("data-webauthn-add");
    expect(page).toContain("/auth/webauthn-script?v=");
    const form = async (route: string, body: Record<string, string>) =>
      browser.send(`/auth/account/${route}`, { form: { csrfToken: await browser.csrf(), ...body } });
    const renamed = await form("passkey-rename", { id: first?.id as string, name: "Work laptop" });
    expect(renamed.headers.get("location")).toBe(`${ORIGIN}/auth/account?done=passkey-renamed`);
    expect(await (await browser.send("/auth/account?done=passkey-renamed")).text()).toContain("The passkey was renamed.");
    const badName = await form("passkey-rename", { id: first?.id as string, name: "" });
    expect(badName.headers.get("location")).toBe(`${ORIGIN}/auth/account?error=InvalidName`);
    const foreign = await form("passkey-remove", { id: "bm9ib2R5J3M=" });
    expect(foreign.headers.get("location")).toBe(`${ORIGIN}/auth/account?error=PasskeyNotFound`);
    const removed = await form("passkey-remove", { id: first?.id as string });
    expect(removed.headers.get("location")).toBe(`${ORIGIN}/auth/account?done=passkey-removed`);
    expect((await a.auth.api.listPasskeys(requestOf(browser))).map((p) => p.id)).toEqual([second?.id]);
    const last = await form("passkey-remove", { id: second?.id as string });
    expect(last.headers.get("location")).toBe(`${ORIGIN}/auth/account?error=LastSignInMethod`);
    await later(HALF_AN_HOUR, async () => {
      const old = await form("passkey-remove", { id: second?.id as string });
      const target = new URL(old.headers.get("location") ?? "");
      expect([target.pathname, target.searchParams.get("error"), target.searchParams.get("callbackUrl")]).toEqual([
        "/auth/signin",
        "RecentSignInRequired",
        `${ORIGIN}/auth/account`,
      ]);
    });
  });
});
