/**
 * The adapter conformance suite: the contract of every authlib `Adapter`, as vitest tests. Any adapter
 * runs it by passing a factory and a `db` view that reads rows straight from its storage (bypassing the
 * adapter, so a test can tell "the adapter said so" from "it is so").
 *
 * Every test creates its own rows with fresh random ids, so tests are independent of each other and of
 * their order, and may share one database.
 */
import { randomUUID } from "node:crypto";
import type { Adapter, AdapterAccount, AdapterAuthenticator, AdapterSession, AdapterUser, VerificationToken } from "@authlib/core/adapters";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

type Awaitable<T> = T | PromiseLike<T>;

/** Reads rows straight from the adapter's storage; every helper returns `null` when the row is absent. */
export interface AdapterConformanceDb {
  /** The user row with this id, in the `AdapterUser` shape. */
  user(id: string): Awaitable<AdapterUser | null>;
  /** The account row of this provider account, in the `AdapterAccount` shape. */
  account(key: { provider: string; providerAccountId: string }): Awaitable<AdapterAccount | null>;
  /** The session row with this token, with its `id` when the adapter keeps session records (see `answered`). */
  session(sessionToken: string): Awaitable<AdapterSession | null>;
  /** The verification token row, with exactly `identifier`, `token` and `expires`. */
  verificationToken(key: { identifier: string; token: string }): Awaitable<VerificationToken | null>;
  /** The authenticator row with this credential id. */
  authenticator(credentialID: string): Awaitable<AdapterAuthenticator | null>;
}

/** Inputs of `runAdapterConformanceSuite`. */
export interface AdapterConformanceOptions {
  /** Names the `describe` block, e.g. "HostedDbAdapter on PGlite". */
  name: string;
  /** Creates the adapter; called once, after `setup`. */
  adapter: () => Adapter;
  /** Direct reads of the storage. */
  db: AdapterConformanceDb;
  /** Runs before the first test (connect, create a schema, migrate). */
  setup?: () => Awaitable<void>;
  /** Runs after the last test (drop the schema, disconnect). */
  teardown?: () => Awaitable<void>;
}

const ADAPTER_METHODS = [
  "createUser",
  "getUser",
  "getUserByEmail",
  "getUserByAccount",
  "updateUser",
  "deleteUser",
  "linkAccount",
  "unlinkAccount",
  "createSession",
  "getSessionAndUser",
  "updateSession",
  "deleteSession",
  "createVerificationToken",
  "useVerificationToken",
  "getAccount",
  "getAuthenticator",
  "createAuthenticator",
  "listAuthenticatorsByUserId",
  "updateAuthenticatorCounter",
  "updateAuthenticator",
  "deleteAuthenticator",
  "listAccountsByUserId",
  "updateAccount",
  "swapAccountTokens",
  "deleteSessionsByUserId",
] as const satisfies readonly (keyof Adapter)[];

function isComplete(adapter: Adapter): adapter is Required<Adapter> {
  return ADAPTER_METHODS.every((method) => typeof adapter[method] === "function");
}

const SECOND = 1000;
const DAY = 86_400 * SECOND;

/** A date `offset` ms from now with a non-zero millisecond part, to prove millisecond round trips. */
function dateIn(offset: number): Date {
  return new Date(Math.floor((Date.now() + offset) / SECOND) * SECOND + 123);
}

function newUser(overrides: Partial<AdapterUser> = {}): AdapterUser {
  const id = randomUUID();
  return {
    id,
    email: `user-${id}@example.com`,
    emailVerified: dateIn(-DAY),
    name: "Fill Murray",
    image: "https://example.com/fill-murray.png",
    ...overrides,
  };
}

function newAccount(userId: string, overrides: Partial<AdapterAccount> = {}): AdapterAccount {
  return {
    userId,
    type: "oauth",
    provider: "github",
    providerAccountId: randomUUID(),
    access_token: randomUUID(),
    refresh_token: randomUUID(),
    id_token: randomUUID(),
    expires_at: Math.floor(Date.now() / SECOND) + 30 * 86_400,
    token_type: "bearer",
    scope: "user",
    session_state: randomUUID(),
    ...overrides,
  };
}

function newSession(userId: string, overrides: Partial<AdapterSession> = {}): AdapterSession {
  return { sessionToken: randomUUID(), userId, expires: dateIn(7 * DAY), ...overrides };
}

function newVerificationToken(overrides: Partial<VerificationToken> = {}): VerificationToken {
  // Shaped like authlib's hashed token: 64 hex characters.
  const token = (randomUUID() + randomUUID()).replaceAll("-", "");
  return { identifier: `verify-${randomUUID()}@example.com`, token, expires: dateIn(15 * 60 * SECOND), ...overrides };
}

function newAuthenticator(userId: string, overrides: Partial<AdapterAuthenticator> = {}): AdapterAuthenticator {
  const credentialID = Buffer.from(randomUUID()).toString("base64url");
  return {
    credentialID,
    userId,
    providerAccountId: credentialID,
    counter: Math.floor(Math.random() * 100),
    credentialBackedUp: true,
    credentialDeviceType: "platform",
    credentialPublicKey: Buffer.from(randomUUID()).toString("base64"),
    transports: "usb,ble,nfc",
    ...overrides,
  };
}

/**
 * `session` as the adapter answers it: with its `id` when the adapter keeps session records (the row id
 * it is listed and revoked by; `created`'s, so every answer about one session has the same id).
 */
function answered(adapter: Adapter, session: AdapterSession, created?: AdapterSession): AdapterSession {
  if (typeof adapter.listSessionRecords !== "function") return session;
  return { ...session, id: created?.id ?? expect.any(String) };
}

/** How many of the settled results were fulfilled. */
function fulfilledCount(results: PromiseSettledResult<unknown>[]): number {
  return results.filter((result) => result.status === "fulfilled").length;
}

/** Registers the conformance tests of an adapter in a `describe` block named after it. */
export function runAdapterConformanceSuite(options: AdapterConformanceOptions): void {
  const { db } = options;

  describe(options.name, () => {
    let adapter: Required<Adapter>;

    beforeAll(async () => {
      await options.setup?.();
      const candidate = options.adapter();
      const missing = ADAPTER_METHODS.filter((method) => typeof candidate[method] !== "function");
      if (!isComplete(candidate)) throw new Error(`The adapter lacks: ${missing.join(", ")}`);
      adapter = candidate;
    });

    afterAll(async () => {
      await options.teardown?.();
    });

    /** A freshly created user. */
    async function storedUser(overrides: Partial<AdapterUser> = {}): Promise<AdapterUser> {
      return adapter.createUser(newUser(overrides));
    }

    it("implements every Adapter method", () => {
      for (const method of ADAPTER_METHODS) expect(typeof adapter[method], method).toBe("function");
    });

    describe("users", () => {
      it("createUser stores every field, dates to the millisecond, and returns the user", async () => {
        const user = newUser();
        const created = await adapter.createUser(user);
        expect(created).toEqual(user);
        expect(await db.user(user.id)).toEqual(user);
      });

      it("createUser returns absent optional fields as null", async () => {
        const { id, email } = newUser();
        const created = await adapter.createUser({ id, email, emailVerified: null });
        expect(created).toEqual({ id, email, emailVerified: null, name: null, image: null });
        expect(await db.user(id)).toEqual({ id, email, emailVerified: null, name: null, image: null });
      });

      it("createUser rejects a second user with the same email", async () => {
        const first = await storedUser();
        await expect(adapter.createUser(newUser({ email: first.email }))).rejects.toThrow();
        expect(await db.user(first.id)).toEqual(first);
      });

      it("getUser returns the user, or null for an unknown id", async () => {
        const user = await storedUser();
        expect(await adapter.getUser(user.id)).toEqual(user);
        expect(await adapter.getUser(randomUUID())).toBeNull();
      });

      it("getUserByEmail returns the user, or null for an unknown email", async () => {
        const user = await storedUser();
        expect(await adapter.getUserByEmail(user.email as string)).toEqual(user);
        expect(await adapter.getUserByEmail(`missing-${randomUUID()}@example.com`)).toBeNull();
        expect(await adapter.getUserByEmail("non-existent-email")).toBeNull();
      });

      it("updateUser changes the given fields only and returns the whole user", async () => {
        const user = await storedUser();
        const emailVerified = dateIn(-60 * SECOND);
        const updated = await adapter.updateUser({ id: user.id, name: "Updated Name", emailVerified });
        const expected = { ...user, name: "Updated Name", emailVerified };
        expect(updated).toEqual(expected);
        expect(await db.user(user.id)).toEqual(expected);
      });

      it("updateUser clears a field set to null", async () => {
        const user = await storedUser();
        const updated = await adapter.updateUser({ id: user.id, image: null });
        expect(updated).toEqual({ ...user, image: null });
        expect(await db.user(user.id)).toEqual({ ...user, image: null });
      });

      it("users without a proven address: email null is stored, many users may have none, and getUserByEmail finds none of them", async () => {
        const first = await storedUser({ email: null });
        const second = await storedUser({ email: null });
        expect(first.email).toBeNull();
        expect(await db.user(second.id)).toEqual(second);
        expect(second.email).toBeNull();
        expect(await adapter.getUserByEmail("null")).toBeNull();
      });

      it("updateUser moves an address: the holder's email set to null frees it for another user", async () => {
        const holder = await storedUser();
        const address = holder.email as string;
        expect(await adapter.updateUser({ id: holder.id, email: null })).toEqual({ ...holder, email: null });
        const prover = await storedUser({ email: address, emailVerified: dateIn(0) });
        expect(await adapter.getUserByEmail(address)).toEqual(prover);
        expect(await db.user(holder.id)).toEqual({ ...holder, email: null });
      });

      it("updateUser rejects an unknown id", async () => {
        await expect(adapter.updateUser({ id: randomUUID(), name: "Nobody" })).rejects.toThrow();
      });

      it("getUserByAccount returns the user of a linked account, or null", async () => {
        const user = await storedUser();
        const account = newAccount(user.id);
        await adapter.linkAccount(account);
        const { provider, providerAccountId } = account;
        expect(await adapter.getUserByAccount({ provider, providerAccountId })).toEqual(user);
        expect(await adapter.getUserByAccount({ provider: "other", providerAccountId })).toBeNull();
        expect(await adapter.getUserByAccount({ provider, providerAccountId: randomUUID() })).toBeNull();
        expect(await adapter.getUserByAccount({ provider: "other", providerAccountId: randomUUID() })).toBeNull();
      });
    });

    describe("deleteUser", () => {
      it("deletes the user with their sessions, accounts and authenticators, and nothing else", async () => {
        const user = await storedUser();
        const other = await storedUser();
        const sessions = [newSession(user.id), newSession(user.id)];
        const accounts = [newAccount(user.id), newAccount(user.id, { provider: "google", type: "oidc" })];
        const authenticator = newAuthenticator(user.id);
        for (const session of sessions) await adapter.createSession(session);
        for (const account of accounts) await adapter.linkAccount(account);
        await adapter.linkAccount(
          newAccount(user.id, { provider: "webauthn", type: "webauthn", providerAccountId: authenticator.credentialID }),
        );
        await adapter.createAuthenticator(authenticator);
        const otherSession = newSession(other.id);
        const otherAccount = newAccount(other.id);
        await adapter.createSession(otherSession);
        await adapter.linkAccount(otherAccount);

        await adapter.deleteUser(user.id);

        expect(await db.user(user.id)).toBeNull();
        for (const session of sessions) expect(await db.session(session.sessionToken)).toBeNull();
        for (const account of accounts) expect(await db.account(account)).toBeNull();
        expect(await db.authenticator(authenticator.credentialID)).toBeNull();
        expect(await adapter.getSessionAndUser(sessions[0].sessionToken)).toBeNull();
        expect(await adapter.listAuthenticatorsByUserId(user.id)).toEqual([]);

        expect(await db.user(other.id)).toEqual(other);
        expect(await db.session(otherSession.sessionToken)).toEqual(answered(adapter, otherSession));
        expect(await db.account(otherAccount)).toEqual(otherAccount);
      });

      it("does not throw for an unknown id", async () => {
        await expect(Promise.resolve(adapter.deleteUser(randomUUID()))).resolves.toBeFalsy();
      });
    });

    describe("accounts", () => {
      it("linkAccount stores every token field", async () => {
        const user = await storedUser();
        const account = newAccount(user.id);
        await adapter.linkAccount(account);
        expect(await db.account(account)).toEqual(account);
      });

      it("linkAccount rejects a second link of the same provider account and keeps the first", async () => {
        const user = await storedUser();
        const other = await storedUser();
        const account = newAccount(user.id);
        await adapter.linkAccount(account);
        await expect(Promise.resolve(adapter.linkAccount({ ...account, userId: other.id }))).rejects.toThrow();
        expect(await db.account(account)).toEqual(account);
      });

      it("getAccount matches on both providerAccountId and provider", async () => {
        const user = await storedUser();
        const account = newAccount(user.id, { provider: "auth0", type: "oidc" });
        await adapter.linkAccount(account);
        expect(await adapter.getAccount(randomUUID(), "invalid-provider")).toBeNull();
        expect(await adapter.getAccount(account.providerAccountId, "invalid-provider")).toBeNull();
        expect(await adapter.getAccount(randomUUID(), account.provider)).toBeNull();
        const found = await adapter.getAccount(account.providerAccountId, account.provider);
        expect(found).toMatchObject(account);
        expect(await db.account(account)).toMatchObject(found ?? {});
      });

      it("unlinkAccount removes the account row", async () => {
        const user = await storedUser();
        const account = newAccount(user.id);
        await adapter.linkAccount(account);
        expect(await db.account(account)).not.toBeNull();
        await adapter.unlinkAccount(account);
        expect(await db.account(account)).toBeNull();
        expect(await adapter.getUserByAccount(account)).toBeNull();
        expect(await adapter.getAccount(account.providerAccountId, account.provider)).toBeNull();
        expect(await db.user(user.id)).toEqual(user);
      });

      it("listAccountsByUserId lists a user's accounts, [] for an unknown user", async () => {
        const user = await storedUser();
        const first = newAccount(user.id);
        const second = { ...newAccount(user.id), provider: "gitlab" };
        await adapter.linkAccount(first);
        await adapter.linkAccount(second);
        const listed = await adapter.listAccountsByUserId(user.id);
        expect(listed.map((a) => a.provider).sort()).toEqual(["github", "gitlab"].sort());
        expect(listed.every((a) => a.userId === user.id)).toBe(true);
        expect(await adapter.listAccountsByUserId(randomUUID())).toEqual([]);
      });

      it("updateAccount sets new tokens and returns the account; null for an unknown account", async () => {
        const user = await storedUser();
        const account = newAccount(user.id);
        await adapter.linkAccount(account);
        const updated = await adapter.updateAccount({
          provider: account.provider,
          providerAccountId: account.providerAccountId,
          access_token: "new-access",
          refresh_token: "new-refresh",
          expires_at: 2_000_000_000,
        });
        expect(updated).toMatchObject({
          access_token: "new-access",
          refresh_token: "new-refresh",
          expires_at: 2_000_000_000,
          userId: user.id,
        });
        expect(await db.account(account)).toMatchObject({
          access_token: "new-access",
          refresh_token: "new-refresh",
          expires_at: 2_000_000_000,
        });
        expect(await adapter.updateAccount({ provider: "github", providerAccountId: randomUUID(), access_token: "x" })).toBeNull();
      });

      it("swapAccountTokens updates only while the stored refresh token is the previous one", async () => {
        const user = await storedUser();
        const account = newAccount(user.id, { refresh_token: "rt-0" });
        await adapter.linkAccount(account);
        const key = { provider: account.provider, providerAccountId: account.providerAccountId };
        const won = await adapter.swapAccountTokens(
          { ...key, access_token: "at-1", refresh_token: "rt-1", expires_at: 2_000_000_001 },
          "rt-0",
        );
        expect(won).toMatchObject({ access_token: "at-1", refresh_token: "rt-1", expires_at: 2_000_000_001, userId: user.id });
        // A second instance that refreshed with rt-0 too loses: nothing changes.
        expect(await adapter.swapAccountTokens({ ...key, access_token: "at-x", refresh_token: "rt-x" }, "rt-0")).toBeNull();
        expect(await db.account(key)).toMatchObject({ access_token: "at-1", refresh_token: "rt-1", expires_at: 2_000_000_001 });
        expect(
          await adapter.swapAccountTokens({ provider: "github", providerAccountId: randomUUID(), access_token: "x" }, "rt-0"),
        ).toBeNull();
      });

      it("of 10 parallel swapAccountTokens from one refresh token, exactly one lands", async () => {
        const user = await storedUser();
        const account = newAccount(user.id, { refresh_token: "rt-start" });
        await adapter.linkAccount(account);
        const key = { provider: account.provider, providerAccountId: account.providerAccountId };
        const results = await Promise.all(
          Array.from({ length: 10 }, (_, i) => adapter.swapAccountTokens({ ...key, refresh_token: `rt-${i}` }, "rt-start")),
        );
        const winners = results.filter((r) => r !== null);
        expect(winners).toHaveLength(1);
        expect((await db.account(key))?.refresh_token).toBe(winners[0]?.refresh_token);
      });

      it("unlinkAccount of an unknown account does not throw", async () => {
        await expect(Promise.resolve(adapter.unlinkAccount({ provider: "github", providerAccountId: randomUUID() }))).resolves.toBeFalsy();
      });
    });

    describe("sessions", () => {
      it("createSession stores the session, expiry to the millisecond, and returns it", async () => {
        const user = await storedUser();
        const session = newSession(user.id);
        const created = await adapter.createSession(session);
        expect(created).toEqual(answered(adapter, session));
        expect(await db.session(session.sessionToken)).toEqual(answered(adapter, session, created));
      });

      it("getSessionAndUser returns exactly the session and its user, or null", async () => {
        const user = await storedUser();
        const session = newSession(user.id);
        const created = await adapter.createSession(session);
        expect(await adapter.getSessionAndUser(session.sessionToken)).toEqual({ session: answered(adapter, session, created), user });
        expect(await adapter.getSessionAndUser("invalid-token")).toBeNull();
      });

      it("the stored row, createSession, getSessionAndUser, updateSession and deleteSession agree on one session, id included (Auth.js's adapter-suite check)", async () => {
        // Auth.js's own suite reads the row after createSession and expects getSessionAndUser to answer
        // exactly that row (its id included); an adapter's answers about one session must all agree.
        const user = await storedUser();
        const session = newSession(user.id);
        const created = await adapter.createSession(session);
        const stored = await db.session(session.sessionToken);
        expect(stored).toEqual(answered(adapter, session, created));
        expect(created).toEqual(stored);
        expect(await adapter.getSessionAndUser(session.sessionToken)).toEqual({ session: stored, user });
        const expires = dateIn(30 * DAY);
        const updated = await adapter.updateSession({ sessionToken: session.sessionToken, expires });
        if (updated) expect(updated).toEqual({ ...stored, expires });
        expect(await db.session(session.sessionToken)).toEqual({ ...stored, expires });
        expect(await adapter.deleteSession(session.sessionToken)).toEqual({ ...stored, expires });
      });

      it("getSessionAndUser returns an expired session (authlib checks the expiry itself)", async () => {
        const user = await storedUser();
        const session = newSession(user.id, { expires: dateIn(-DAY) });
        const created = await adapter.createSession(session);
        expect(await adapter.getSessionAndUser(session.sessionToken)).toEqual({ session: answered(adapter, session, created), user });
      });

      it("updateSession sets the new expiry to the millisecond", async () => {
        const user = await storedUser();
        const session = newSession(user.id);
        const created = await adapter.createSession(session);
        const expires = dateIn(30 * DAY + 456);
        expect(expires.getTime()).not.toBe(session.expires.getTime());
        const updated = await adapter.updateSession({ sessionToken: session.sessionToken, expires });
        if (updated) expect(updated).toEqual(answered(adapter, { ...session, expires }, created));
        expect(await db.session(session.sessionToken)).toEqual(answered(adapter, { ...session, expires }, created));
      });

      it("deleteSessionsByUserId deletes every session of that user and no other, and counts them", async () => {
        const user = await storedUser();
        const other = await storedUser();
        const mine = [newSession(user.id), newSession(user.id)];
        const theirs = newSession(other.id);
        for (const session of [...mine, theirs]) await adapter.createSession(session);
        expect(await adapter.deleteSessionsByUserId(user.id)).toBe(2);
        for (const session of mine) expect(await db.session(session.sessionToken)).toBeNull();
        expect(await db.session(theirs.sessionToken)).toEqual(answered(adapter, theirs));
        expect(await db.user(user.id)).toEqual(user);
        expect(await adapter.deleteSessionsByUserId(randomUUID())).toBe(0);
      });

      it("updateSession of an unknown token returns nothing and creates nothing", async () => {
        const sessionToken = randomUUID();
        expect(await adapter.updateSession({ sessionToken, expires: dateIn(DAY) })).toBeFalsy();
        expect(await db.session(sessionToken)).toBeNull();
      });

      it("deleteSession removes the session and returns it; a second delete returns null", async () => {
        const user = await storedUser();
        const session = newSession(user.id);
        const created = await adapter.createSession(session);
        expect(await adapter.deleteSession(session.sessionToken)).toEqual(answered(adapter, session, created));
        expect(await db.session(session.sessionToken)).toBeNull();
        expect(await adapter.getSessionAndUser(session.sessionToken)).toBeNull();
        expect(await adapter.deleteSession(session.sessionToken)).toBeNull();
        expect(await db.user(user.id)).toEqual(user);
      });
    });

    describe("verification tokens", () => {
      it("createVerificationToken stores exactly identifier, token and expiry", async () => {
        const token = newVerificationToken();
        await adapter.createVerificationToken(token);
        expect(await db.verificationToken(token)).toEqual(token);
      });

      it("useVerificationToken returns the stored token with its real expiry, once", async () => {
        const token = newVerificationToken();
        await adapter.createVerificationToken(token);
        expect(await adapter.useVerificationToken(token)).toEqual(token);
        expect(await db.verificationToken(token)).toBeNull();
        expect(await adapter.useVerificationToken(token)).toBeNull();
      });

      it("useVerificationToken needs both identifier and token to match", async () => {
        const token = newVerificationToken();
        await adapter.createVerificationToken(token);
        expect(await adapter.useVerificationToken({ identifier: "invalid@identifier.com", token: token.token })).toBeNull();
        expect(await adapter.useVerificationToken({ identifier: token.identifier, token: "0".repeat(64) })).toBeNull();
        expect(await db.verificationToken(token)).toEqual(token);
        expect(await adapter.useVerificationToken(token)).toEqual(token);
      });

      it("createVerificationToken does not store a second live token with the same identifier and token (null, or a throw)", async () => {
        const token = newVerificationToken();
        await adapter.createVerificationToken(token);
        // authlib claims a used passkey challenge this way: a stored second copy would let an answer be replayed.
        const second = await Promise.resolve(adapter.createVerificationToken({ ...token, expires: dateIn(DAY) })).catch(() => null);
        expect(second).toBeNull();
        expect(await adapter.useVerificationToken(token)).toEqual(token);
        expect(await adapter.useVerificationToken(token)).toBeNull();
      });

      it("useVerificationToken returns an expired token with its expiry (authlib rejects it)", async () => {
        const token = newVerificationToken({ expires: dateIn(-60 * SECOND) });
        await adapter.createVerificationToken(token);
        expect(await adapter.useVerificationToken(token)).toEqual(token);
        expect(await db.verificationToken(token)).toBeNull();
      });
    });

    describe("authenticators", () => {
      /** A user with a linked webauthn account, as passkey registration leaves it. */
      async function userWithPasskeyAccount(): Promise<{ user: AdapterUser; authenticator: AdapterAuthenticator }> {
        const user = await storedUser();
        const authenticator = newAuthenticator(user.id);
        await adapter.linkAccount(
          newAccount(user.id, { provider: "webauthn", type: "webauthn", providerAccountId: authenticator.credentialID }),
        );
        return { user, authenticator };
      }

      it("createAuthenticator stores and returns every field", async () => {
        const { authenticator } = await userWithPasskeyAccount();
        const created = await adapter.createAuthenticator(authenticator);
        expect(created).toMatchObject(authenticator);
        expect(await db.authenticator(authenticator.credentialID)).toMatchObject(authenticator);
      });

      it("createAuthenticator keeps counters beyond 2^31 (WebAuthn counters are 32-bit unsigned)", async () => {
        const { authenticator } = await userWithPasskeyAccount();
        const counter = 2 ** 32 - 1;
        expect(await adapter.createAuthenticator({ ...authenticator, counter })).toMatchObject({ counter });
        expect(await adapter.getAuthenticator(authenticator.credentialID)).toMatchObject({ counter });
      });

      it("getAuthenticator returns the authenticator, or null for an unknown credential", async () => {
        const { authenticator } = await userWithPasskeyAccount();
        await adapter.createAuthenticator(authenticator);
        expect(await adapter.getAuthenticator(randomUUID())).toBeNull();
        const found = await adapter.getAuthenticator(authenticator.credentialID);
        expect(found).toMatchObject(authenticator);
        expect(await db.authenticator(authenticator.credentialID)).toMatchObject(found ?? {});
      });

      it("listAuthenticatorsByUserId lists a user's authenticators, [] for an unknown user", async () => {
        const { user: user1, authenticator: auth1 } = await userWithPasskeyAccount();
        const auth2 = newAuthenticator(user1.id);
        const { user: user2, authenticator: auth3 } = await userWithPasskeyAccount();
        for (const authenticator of [auth1, auth2, auth3]) await adapter.createAuthenticator(authenticator);

        expect(await adapter.listAuthenticatorsByUserId(randomUUID())).toEqual([]);
        const list1 = await adapter.listAuthenticatorsByUserId(user1.id);
        expect(list1).toHaveLength(2);
        expect(list1).toEqual(expect.arrayContaining([expect.objectContaining(auth1), expect.objectContaining(auth2)]));
        const list2 = await adapter.listAuthenticatorsByUserId(user2.id);
        expect(list2).toHaveLength(1);
        expect(list2[0]).toMatchObject(auth3);
      });

      it("updateAuthenticatorCounter sets the counter, and rejects an unknown credential", async () => {
        const { authenticator } = await userWithPasskeyAccount();
        await adapter.createAuthenticator(authenticator);
        await expect(Promise.resolve(adapter.updateAuthenticatorCounter(randomUUID(), 1))).rejects.toThrow();
        const newCounter = authenticator.counter + 1;
        const updated = await adapter.updateAuthenticatorCounter(authenticator.credentialID, newCounter);
        expect(updated).toMatchObject({ ...authenticator, counter: newCounter });
        expect(await db.authenticator(authenticator.credentialID)).toMatchObject({ counter: newCounter });
      });

      it("the stored row, createAuthenticator, getAuthenticator and listAuthenticatorsByUserId agree exactly, extra fields included (Auth.js's adapter-suite checks)", async () => {
        const { user, authenticator } = await userWithPasskeyAccount();
        const created = await adapter.createAuthenticator(authenticator);
        expect(await db.authenticator(authenticator.credentialID)).toEqual(created);
        expect(await adapter.getAuthenticator(authenticator.credentialID)).toEqual(created);
        expect(await adapter.listAuthenticatorsByUserId(user.id)).toEqual([created]);
        const counted = await adapter.updateAuthenticatorCounter(authenticator.credentialID, authenticator.counter + 1);
        expect(counted).toEqual({ ...created, counter: authenticator.counter + 1 });
      });

      it("a new authenticator has its registration time, its name, and no last use", async () => {
        const { authenticator } = await userWithPasskeyAccount();
        const before = Date.now();
        const created = await adapter.createAuthenticator({ ...authenticator, name: "Phone" });
        expect(created).toMatchObject({ name: "Phone", lastUsedAt: null });
        expect(created.createdAt?.getTime()).toBeGreaterThanOrEqual(before - 5 * SECOND);
        expect(await adapter.getAuthenticator(authenticator.credentialID)).toMatchObject({ name: "Phone", createdAt: created.createdAt });
      });

      it("updateAuthenticator sets the given fields and keeps the others; null for an unknown credential", async () => {
        const { authenticator } = await userWithPasskeyAccount();
        await adapter.createAuthenticator({ ...authenticator, name: "Phone" });
        expect(await adapter.updateAuthenticator(randomUUID(), { name: "x" })).toBeNull();
        const lastUsedAt = dateIn(0);
        const used = await adapter.updateAuthenticator(authenticator.credentialID, { counter: authenticator.counter + 5, lastUsedAt });
        expect(used).toMatchObject({ ...authenticator, counter: authenticator.counter + 5, name: "Phone", lastUsedAt });
        const renamed = await adapter.updateAuthenticator(authenticator.credentialID, { name: "Laptop" });
        expect(renamed).toMatchObject({ counter: authenticator.counter + 5, name: "Laptop", lastUsedAt });
        expect(await adapter.getAuthenticator(authenticator.credentialID)).toMatchObject({ name: "Laptop", lastUsedAt });
      });

      it("deleteAuthenticator deletes and returns the authenticator, null when there is none", async () => {
        const { user, authenticator } = await userWithPasskeyAccount();
        await adapter.createAuthenticator(authenticator);
        expect(await adapter.deleteAuthenticator(randomUUID())).toBeNull();
        expect(await adapter.deleteAuthenticator(authenticator.credentialID)).toMatchObject(authenticator);
        expect(await adapter.getAuthenticator(authenticator.credentialID)).toBeNull();
        expect(await adapter.listAuthenticatorsByUserId(user.id)).toEqual([]);
        expect(await adapter.deleteAuthenticator(authenticator.credentialID)).toBeNull();
      });
    });

    describe("concurrency", () => {
      it("of 50 parallel useVerificationToken calls for one token, exactly one gets it", async () => {
        const token = newVerificationToken();
        await adapter.createVerificationToken(token);
        const results = await Promise.all(Array.from({ length: 50 }, () => adapter.useVerificationToken(token)));
        const winners = results.filter((result) => result !== null);
        expect(winners).toEqual([token]);
        expect(await db.verificationToken(token)).toBeNull();
      });

      it("of 50 parallel linkAccount calls for one provider account, exactly one succeeds", async () => {
        const user = await storedUser();
        const account = newAccount(user.id);
        const results = await Promise.allSettled(Array.from({ length: 50 }, () => adapter.linkAccount(account)));
        expect(fulfilledCount(results)).toBe(1);
        expect(await db.account(account)).toEqual(account);
        expect(await adapter.getUserByAccount(account)).toEqual(user);
      });

      it("of 20 parallel createUser calls with one email, exactly one succeeds", async () => {
        const email = `race-${randomUUID()}@example.com`;
        const results = await Promise.allSettled(Array.from({ length: 20 }, () => adapter.createUser(newUser({ email }))));
        expect(fulfilledCount(results)).toBe(1);
        const winner = results.find((result): result is PromiseFulfilledResult<AdapterUser> => result.status === "fulfilled");
        expect(await adapter.getUserByEmail(email)).toEqual(winner?.value);
      });
    });
  });
}
