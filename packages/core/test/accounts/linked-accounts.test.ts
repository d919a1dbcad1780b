/**
 * Linked accounts (issue 28): a signed-in user lists their accounts (never the tokens) and unlinks one,
 * by route and by `auth.api`, with JWT and database sessions, on the test memory adapter and on the
 * hosted-db adapter over PGlite. Unlinking never leaves the user without a way in (another account of a
 * configured provider, a passkey, a proven address with an email provider); nobody reaches another
 * user's accounts; bad input is a typed error that changes nothing.
 */
import { afterAll, describe, expect, it } from "vitest";
import { AccountNotFound, AccountsUnavailable, InvalidAccount, LastSignInMethod, MissingCSRF, SessionRequired } from "../../src/errors.js";
import { createAuth } from "../../src/kernel/instance.js";
import Credentials from "../../src/providers/credentials.js";
import Email from "../../src/providers/email.js";
import Passkey from "../../src/providers/passkey.js";
import type { OAuthConfig } from "../../src/providers/types.js";
import type { Adapter, AdapterAccount, AdapterAuthenticator, AdapterUser, VerificationToken } from "../../src/types/adapters.js";
import type { AuthConfig } from "../../src/types/config.js";
import type { AccountUnlinkedMessage } from "../../src/types/linked-accounts.js";
import type { AuditEvent } from "../../src/types/telemetry.js";
import { authClient } from "../helpers/auth-client.js";
import { closeSharedPglite, freshDatabase } from "../helpers/database.js";
import { memoryAdapter } from "../helpers/memory-adapter.js";

const ORIGIN = "http://localhost:3000";
const secret = "linked-accounts-secret-0123456789abcdefgh";
const TOKENS = { access_token: "at-SECRET-access", refresh_token: "rt-SECRET-refresh", id_token: "it-SECRET-id" };

/** An OIDC provider whose endpoints are never reached: accounts are seeded through the adapter. */
function oidc(id: string): OAuthConfig {
  return {
    id,
    name: id,
    type: "oidc",
    issuer: "http://127.0.0.1:9",
    authorization: "http://127.0.0.1:9/authorize",
    token: "http://127.0.0.1:9/token",
    userinfo: "http://127.0.0.1:9/userinfo",
    clientId: "app",
    clientSecret: "app-secret",
  };
}

/** The memory adapter with verification tokens (the email provider needs them). */
function memoryStore(): Adapter {
  const { adapter } = memoryAdapter();
  const tokens = new Map<string, VerificationToken>();
  return {
    ...adapter,
    createVerificationToken: (token) => {
      tokens.set(`${token.identifier}:${token.token}`, token);
      return token;
    },
    useVerificationToken: ({ identifier, token }) => {
      const found = tokens.get(`${identifier}:${token}`) ?? null;
      tokens.delete(`${identifier}:${token}`);
      return found;
    },
  };
}

const stores: Array<[string, () => Promise<Adapter>]> = [
  ["memory adapter", async () => memoryStore()],
  ["hosted-db adapter on PGlite", async () => (await freshDatabase()).adapter],
];
afterAll(() => closeSharedPglite());

interface Setup {
  strategy: "jwt" | "database";
  email?: boolean;
  passkey?: boolean;
}

/** A configuration over `adapter`: credentials sign-in for the seeded users, two OIDC providers, and the extras asked for. */
function configOf(adapter: Adapter, setup: Setup) {
  const unlinked: AccountUnlinkedMessage[] = [];
  const audited: AuditEvent[] = [];
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter,
    session: { strategy: setup.strategy },
    experimental: { enableWebAuthn: setup.passkey === true },
    providers: [
      Credentials({ credentials: { username: {} }, authorize: ({ username }) => ({ id: `u-${username as string}` }) }),
      oidc("op-a"),
      oidc("op-b"),
      ...(setup.email ? [Email({ sendVerificationRequest: () => {} })] : []),
      ...(setup.passkey ? [Passkey({})] : []),
    ],
    events: { accountUnlinked: (message) => void unlinked.push(message) },
    audit: { store: { write: (event) => void audited.push(event) } },
    logger: { error: () => {}, warn: () => {} },
  };
  return { config, unlinked, audited };
}

async function seedUser(adapter: Adapter, name: string, email: { address: string; proven: boolean } | null = null): Promise<AdapterUser> {
  return (adapter.createUser as NonNullable<Adapter["createUser"]>)({
    id: `u-${name}`,
    name,
    email: email?.address ?? null,
    emailVerified: email?.proven ? new Date() : null,
  });
}

async function seedAccount(
  adapter: Adapter,
  userId: string,
  provider: string,
  providerAccountId: string,
  type: AdapterAccount["type"] = "oidc",
) {
  await adapter.linkAccount?.({ userId, type, provider, providerAccountId, token_type: "bearer", ...(type === "webauthn" ? {} : TOKENS) });
}

async function seedPasskey(adapter: Adapter, userId: string, credentialID: string) {
  await seedAccount(adapter, userId, "passkey", credentialID, "webauthn");
  const authenticator: AdapterAuthenticator = {
    credentialID,
    userId,
    providerAccountId: credentialID,
    counter: 0,
    credentialBackedUp: false,
    credentialPublicKey: "cHVibGljLWtleQ",
    credentialDeviceType: "singleDevice",
    transports: "internal",
  };
  await adapter.createAuthenticator?.(authenticator);
}

/** A browser signed in as `name` (a seeded user) through the credentials form. */
async function signedIn(config: AuthConfig, name: string) {
  const client = authClient(config, ORIGIN);
  const csrfToken = await client.csrf();
  const response = await client.send("/auth/callback/credentials", { form: { csrfToken, username: name } });
  expect(response.status).toBe(302);
  expect(await client.session()).not.toBeNull();
  return client;
}

async function listed(client: ReturnType<typeof authClient>) {
  const response = await client.send("/auth/accounts");
  const text = await response.text();
  return { status: response.status, text, body: JSON.parse(text) };
}

async function unlink(client: ReturnType<typeof authClient>, form: Record<string, string>) {
  const csrfToken = await client.csrf();
  const response = await client.send("/auth/accounts/unlink", { form: { csrfToken, ...form } });
  return { status: response.status, body: await response.json() };
}

const providersOf = async (adapter: Adapter, userId: string) =>
  ((await adapter.listAccountsByUserId?.(userId)) ?? []).map((a) => `${a.provider}:${a.providerAccountId}`).sort();

const requestOf = (client: ReturnType<typeof authClient>, headers: Record<string, string> = {}) => ({
  headers: { cookie: client.jar.header(), ...headers },
  url: ORIGIN,
});

describe.each(stores)("linked accounts on the %s", (_name, open) => {
  describe.each(["jwt", "database"] as const)("with %s sessions", (strategy) => {
    it("lists both OIDC accounts without tokens, unlinks one, refuses to unlink the last way in", async () => {
      const adapter = await open();
      await seedUser(adapter, "ada");
      await seedAccount(adapter, "u-ada", "op-a", "ada-at-a");
      await seedAccount(adapter, "u-ada", "op-b", "ada-at-b");
      const { config, unlinked, audited } = configOf(adapter, { strategy });
      const auth = createAuth(config);
      const ada = await signedIn(config, "ada");

      const list = await listed(ada);
      expect(list.status).toBe(200);
      expect(list.body.accounts).toHaveLength(2);
      expect(list.body.accounts).toEqual(
        expect.arrayContaining([
          { provider: "op-a", type: "oidc", providerAccountId: "ada-at-a" },
          { provider: "op-b", type: "oidc", providerAccountId: "ada-at-b" },
        ]),
      );
      expect(list.text).not.toMatch(/SECRET|access_token|refresh_token|id_token|bearer/);
      expect(await auth.api.listAccounts(requestOf(ada))).toEqual(list.body.accounts);

      expect(await unlink(ada, { provider: "op-a", providerAccountId: "ada-at-a" })).toEqual({ status: 200, body: { unlinked: 1 } });
      expect(unlinked).toEqual([{ userId: "u-ada", account: { provider: "op-a", type: "oidc", providerAccountId: "ada-at-a" } }]);
      expect(await providersOf(adapter, "u-ada")).toEqual(["op-b:ada-at-b"]);

      expect(await unlink(ada, { provider: "op-b", providerAccountId: "ada-at-b" })).toEqual({
        status: 409,
        body: { error: "LastSignInMethod" },
      });
      await expect(auth.api.unlinkAccount(requestOf(ada), { provider: "op-b", providerAccountId: "ada-at-b" })).rejects.toBeInstanceOf(
        LastSignInMethod,
      );
      expect(await providersOf(adapter, "u-ada")).toEqual(["op-b:ada-at-b"]);
      expect(unlinked).toHaveLength(1);
      // The audit trail has the unlinking, once: the user and the unlinked account's provider.
      const unlinkRows = () => audited.filter((row) => row.type === "accountUnlinked");
      await expect.poll(() => unlinkRows().length).toBe(1);
      expect(unlinkRows().map((row) => [row.outcome, row.userId, row.provider])).toEqual([["success", "u-ada", "op-a"]]);
    });

    it("cross-user: unlinking another user's account is AccountNotFound and changes nothing (route and API)", async () => {
      const adapter = await open();
      await seedUser(adapter, "ada");
      await seedUser(adapter, "bob");
      await seedAccount(adapter, "u-ada", "op-a", "ada-at-a");
      await seedAccount(adapter, "u-ada", "op-b", "ada-at-b");
      await seedAccount(adapter, "u-bob", "op-a", "bob-at-a");
      await seedAccount(adapter, "u-bob", "op-b", "bob-at-b");
      const { config, unlinked } = configOf(adapter, { strategy });
      const auth = createAuth(config);
      const ada = await signedIn(config, "ada");

      expect(await unlink(ada, { provider: "op-a", providerAccountId: "bob-at-a" })).toEqual({
        status: 404,
        body: { error: "AccountNotFound" },
      });
      expect(await unlink(ada, { provider: "op-a", providerAccountId: "nobody" })).toEqual({
        status: 404,
        body: { error: "AccountNotFound" },
      });
      await expect(auth.api.unlinkAccount(requestOf(ada), { provider: "op-b", providerAccountId: "bob-at-b" })).rejects.toBeInstanceOf(
        AccountNotFound,
      );
      expect(await providersOf(adapter, "u-bob")).toEqual(["op-a:bob-at-a", "op-b:bob-at-b"]);
      expect(await providersOf(adapter, "u-ada")).toEqual(["op-a:ada-at-a", "op-b:ada-at-b"]);
      expect((await listed(ada)).body.accounts.map((a: { providerAccountId: string }) => a.providerAccountId).sort()).toEqual([
        "ada-at-a",
        "ada-at-b",
      ]);
      expect(unlinked).toEqual([]);
    });
  });

  it("allowed when a passkey remains; the passkey is listed read-only (InvalidAccount to unlink it)", async () => {
    const adapter = await open();
    await seedUser(adapter, "ada");
    await seedAccount(adapter, "u-ada", "op-a", "ada-at-a");
    await seedPasskey(adapter, "u-ada", "cred-ada-1");
    const { config } = configOf(adapter, { strategy: "database", passkey: true });
    const ada = await signedIn(config, "ada");
    expect((await listed(ada)).body.accounts).toContainEqual({ provider: "passkey", type: "webauthn", providerAccountId: "cred-ada-1" });
    expect(await unlink(ada, { provider: "passkey", providerAccountId: "cred-ada-1" })).toEqual({
      status: 400,
      body: { error: "InvalidAccount" },
    });
    expect(await unlink(ada, { provider: "op-a", providerAccountId: "ada-at-a" })).toEqual({ status: 200, body: { unlinked: 1 } });
    expect(await providersOf(adapter, "u-ada")).toEqual(["passkey:cred-ada-1"]);
  });

  it("a passkey is no way in when no passkey provider is configured", async () => {
    const adapter = await open();
    await seedUser(adapter, "ada");
    await seedAccount(adapter, "u-ada", "op-a", "ada-at-a");
    await seedPasskey(adapter, "u-ada", "cred-ada-2");
    const { config } = configOf(adapter, { strategy: "jwt" });
    const ada = await signedIn(config, "ada");
    expect((await unlink(ada, { provider: "op-a", providerAccountId: "ada-at-a" })).status).toBe(409);
  });

  it("allowed when a proven address remains with an email provider; refused for an unproven one or without an email provider", async () => {
    const adapter = await open();
    await seedUser(adapter, "ada", { address: "ada@example.com", proven: true });
    await seedUser(adapter, "bob", { address: "bob@example.com", proven: false });
    await seedAccount(adapter, "u-ada", "op-a", "ada-at-a");
    await seedAccount(adapter, "u-bob", "op-a", "bob-at-a");
    const withoutEmail = configOf(adapter, { strategy: "jwt" }).config;
    const adaWithout = await signedIn(withoutEmail, "ada");
    expect((await unlink(adaWithout, { provider: "op-a", providerAccountId: "ada-at-a" })).body).toEqual({ error: "LastSignInMethod" });
    expect(await providersOf(adapter, "u-ada")).toEqual(["op-a:ada-at-a"]);

    const { config } = configOf(adapter, { strategy: "database", email: true });
    const bob = await signedIn(config, "bob");
    expect((await unlink(bob, { provider: "op-a", providerAccountId: "bob-at-a" })).status).toBe(409);
    expect(await providersOf(adapter, "u-bob")).toEqual(["op-a:bob-at-a"]);
    const ada = await signedIn(config, "ada");
    expect(await unlink(ada, { provider: "op-a", providerAccountId: "ada-at-a" })).toEqual({ status: 200, body: { unlinked: 1 } });
    expect(await providersOf(adapter, "u-ada")).toEqual([]);
  });

  it("an account of a provider the app no longer has is no way in: it can go, the last configured one cannot", async () => {
    const adapter = await open();
    await seedUser(adapter, "ada");
    await seedAccount(adapter, "u-ada", "op-a", "ada-at-a");
    await seedAccount(adapter, "u-ada", "retired", "ada-at-retired", "oauth");
    const { config } = configOf(adapter, { strategy: "jwt" });
    const ada = await signedIn(config, "ada");
    expect((await unlink(ada, { provider: "op-a", providerAccountId: "ada-at-a" })).status).toBe(409);
    expect((await unlink(ada, { provider: "retired", providerAccountId: "ada-at-retired" })).status).toBe(200);
    expect(await providersOf(adapter, "u-ada")).toEqual(["op-a:ada-at-a"]);
  });

  it("two requests unlinking the last two accounts at once: at least one account stays", async () => {
    const adapter = await open();
    await seedUser(adapter, "ada");
    await seedAccount(adapter, "u-ada", "op-a", "ada-at-a");
    await seedAccount(adapter, "u-ada", "op-b", "ada-at-b");
    const { config } = configOf(adapter, { strategy: "database" });
    const auth = createAuth(config);
    const ada = await signedIn(config, "ada");
    const results = await Promise.allSettled([
      auth.api.unlinkAccount(requestOf(ada), { provider: "op-a", providerAccountId: "ada-at-a" }),
      auth.api.unlinkAccount(requestOf(ada), { provider: "op-b", providerAccountId: "ada-at-b" }),
    ]);
    const done = results.filter((r) => r.status === "fulfilled").length;
    for (const r of results) if (r.status === "rejected") expect(r.reason).toBeInstanceOf(LastSignInMethod);
    const left = await providersOf(adapter, "u-ada");
    expect(done).toBeLessThanOrEqual(1);
    expect(left.length).toBe(2 - done);
  });

  it("bad input: missing fields, no session, missing CSRF, cross-site: typed errors, nothing changed", async () => {
    const adapter = await open();
    await seedUser(adapter, "ada");
    await seedAccount(adapter, "u-ada", "op-a", "ada-at-a");
    await seedAccount(adapter, "u-ada", "op-b", "ada-at-b");
    const { config, unlinked } = configOf(adapter, { strategy: "jwt" });
    const auth = createAuth(config);
    const ada = await signedIn(config, "ada");
    const anonymous = authClient(config, ORIGIN);

    expect(await unlink(ada, { provider: "op-a" })).toEqual({ status: 400, body: { error: "InvalidAccount" } });
    expect(await unlink(ada, { providerAccountId: "ada-at-a" })).toEqual({ status: 400, body: { error: "InvalidAccount" } });
    expect(await unlink(ada, { provider: "op-a", providerAccountId: "x".repeat(600) })).toEqual({
      status: 400,
      body: { error: "InvalidAccount" },
    });
    const json = await ada.send("/auth/accounts/unlink", {
      json: { csrfToken: await ada.csrf(), provider: "op-a", providerAccountId: 42 },
    });
    expect(json.status).toBe(400);
    expect((await listed(anonymous)).status).toBe(401);
    expect(await unlink(anonymous, { provider: "op-a", providerAccountId: "ada-at-a" })).toEqual({
      status: 401,
      body: { error: "SessionRequired" },
    });
    const noToken = await ada.send("/auth/accounts/unlink", { form: { provider: "op-a", providerAccountId: "ada-at-a" } });
    expect(noToken.status).toBe(403);
    expect(await noToken.json()).toEqual({ error: "MissingCSRF" });
    expect((await ada.send("/auth/accounts/unlink")).status).toBe(405);
    expect((await ada.send("/auth/accounts/other")).status).toBe(404);

    await expect(auth.api.unlinkAccount(requestOf(ada), { provider: "op-a" } as never)).rejects.toBeInstanceOf(InvalidAccount);
    await expect(auth.api.listAccounts({ headers: {}, url: ORIGIN })).rejects.toBeInstanceOf(SessionRequired);
    await expect(
      auth.api.unlinkAccount(requestOf(ada, { "sec-fetch-site": "cross-site" }), { provider: "op-a", providerAccountId: "ada-at-a" }),
    ).rejects.toBeInstanceOf(MissingCSRF);
    expect(await providersOf(adapter, "u-ada")).toEqual(["op-a:ada-at-a", "op-b:ada-at-b"]);
    expect(unlinked).toEqual([]);
  });
});

describe("linked accounts without an adapter that can keep them", () => {
  it("JWT sessions without an adapter: AccountsUnavailable (501 on the routes), sign-in still works", async () => {
    const config: AuthConfig = {
      secret,
      trustHost: true,
      providers: [Credentials({ credentials: { username: {} }, authorize: ({ username }) => ({ id: `u-${username as string}` }) })],
      logger: { error: () => {}, warn: () => {} },
    };
    const ada = await signedIn(config, "ada");
    expect(await listed(ada)).toMatchObject({ status: 501, body: { error: "AccountsUnavailable" } });
    expect(await unlink(ada, { provider: "op-a", providerAccountId: "x" })).toEqual({
      status: 501,
      body: { error: "AccountsUnavailable" },
    });
    await expect(createAuth(config).api.listAccounts(requestOf(ada))).rejects.toBeInstanceOf(AccountsUnavailable);
  });

  it("an adapter without unlinkAccount: AccountsUnavailable", async () => {
    const { unlinkAccount: _dropped, ...adapter } = memoryStore();
    await seedUser(adapter, "ada");
    const { config } = configOf(adapter, { strategy: "database" });
    const ada = await signedIn(config, "ada");
    await expect(createAuth(config).api.listAccounts(requestOf(ada))).rejects.toBeInstanceOf(AccountsUnavailable);
  });
});
