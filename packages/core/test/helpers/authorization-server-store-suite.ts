/**
 * The conformance suite of the authorization server's adapter methods (`AuthorizationServerAdapterMethods`),
 * as vitest tests: one standard for every store, run on the in-memory methods
 * (test/authorization-server/store.test.ts) and on the hosted-db adapter on PGlite and PostgreSQL
 * (packages/hosted-db-adapter/test/authorization-server.test.ts).
 *
 * The rules a store keeps: every field round-trips (lists, `null`s, nested JSON, dates to the millisecond);
 * a taken key throws; a consent per (user, client), replaced by a save; "not found" is `null` (`false` for a
 * compare-and-set); the three compare-and-set methods change a record only from the state they expect, so of
 * 20 concurrent calls exactly one wins (split across two stores on one database when `rival` is given);
 * deleting a user deletes their consents, codes, grants and the device codes they answered. Every test makes
 * its own rows with fresh keys, so the tests may share one store and run in any order.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuthorizationServerAdapterMethods } from "../../src/types/authorization-server.js";
import { dateIn, hash, newClient, newCode, newDeviceCode, newGrant, newSigningKey } from "./authorization-server-records.js";

type Awaitable<T> = T | PromiseLike<T>;
type Store = Required<AuthorizationServerAdapterMethods>;

/** Inputs of {@link runAuthorizationServerStoreSuite}. */
export interface AuthorizationServerStoreSuiteOptions {
  /** Names the `describe` block. */
  name: string;
  /** The methods under test; called after `setup`. */
  store: () => Store;
  /**
   * A second store on the same data through another connection (a database): the concurrent
   * compare-and-set cases split their calls between the two. Without it, all go to `store`.
   */
  rival?: () => Store;
  /** A user the store can hold rows of (a database checks the foreign key): its id. */
  newUser: () => Awaitable<string>;
  /** Deletes a user through the adapter; when given, the suite checks that their rows go with them. */
  deleteUser?: (id: string) => Awaitable<void>;
  setup?: () => Awaitable<void>;
  teardown?: () => Awaitable<void>;
}

interface SuiteContext {
  store: () => Store;
  /** The store that makes the `i`th of several concurrent calls: `store` and `rival` take turns. */
  racer: (i: number) => Store;
  newUser: () => Promise<string>;
  deleteUser?: (id: string) => Awaitable<void>;
}

/** How many calls race in the compare-and-set cases. */
const RACERS = 20;

/** Registers the suite's tests under `options.name`. */
export function runAuthorizationServerStoreSuite(options: AuthorizationServerStoreSuiteOptions): void {
  describe(options.name, () => {
    let store: Store;
    let rival: Store;
    beforeAll(async () => {
      await options.setup?.();
      store = options.store();
      rival = options.rival?.() ?? store;
    });
    afterAll(async () => {
      await options.teardown?.();
    });
    const context: SuiteContext = {
      store: () => store,
      racer: (i) => (i % 2 === 0 ? store : rival),
      newUser: async () => options.newUser(),
      deleteUser: options.deleteUser,
    };
    clientAndConsentCases(context);
    codeCases(context);
    grantCases(context);
    deviceCodeCases(context);
    signingKeyCases(context);
    deletionCases(context);
  });
}

/** Runs `call` (a synchronous throw included) and expects it to fail. */
async function expectRejected(call: () => Awaitable<unknown>): Promise<void> {
  await expect(Promise.resolve().then(call)).rejects.toThrow();
}

/** Starts `RACERS` calls at once and answers how many returned `true`. */
async function winners(call: (i: number) => Awaitable<boolean>): Promise<number> {
  const results = await Promise.all(Array.from({ length: RACERS }, (_, i) => Promise.resolve().then(() => call(i))));
  return results.filter((won) => won === true).length;
}

function clientAndConsentCases({ store, newUser }: SuiteContext): void {
  it("creates a client and reads back every field: lists, the JWKS, nulls, the date", async () => {
    const client = newClient();
    expect(await store().createOAuthClient(client)).toEqual(client);
    const read = await store().getOAuthClient(client.clientId);
    expect(read).toEqual(client);
    expect(read?.createdAt).toBeInstanceOf(Date);
    const bare = newClient({
      clientSecretHash: null,
      tokenEndpointAuthMethod: "none",
      grantTypes: ["authorization_code"],
      scopes: null,
      jwks: null,
      clientUri: null,
      logoUri: null,
      source: "metadata-document",
    });
    await store().createOAuthClient(bare);
    expect(await store().getOAuthClient(bare.clientId)).toEqual(bare);
    // An empty list stays a list: `[]` is "no scope", `null` "any scope".
    const none = newClient({ scopes: [], redirectUris: [] });
    await store().createOAuthClient(none);
    expect(await store().getOAuthClient(none.clientId)).toMatchObject({ scopes: [], redirectUris: [] });
    expect(await store().getOAuthClient(`client-${randomUUID()}`)).toBeNull();
  });

  it("refuses a client with a taken id and keeps the first", async () => {
    const first = newClient();
    await store().createOAuthClient(first);
    await expectRejected(() => store().createOAuthClient(newClient({ clientId: first.clientId, name: "Impostor" })));
    expect(await store().getOAuthClient(first.clientId)).toEqual(first);
  });

  it("replaces a client on update, and refuses to update one that is not stored", async () => {
    const client = newClient();
    await store().createOAuthClient(client);
    const refreshed = newClient({ clientId: client.clientId, name: "Acme CLI 2", redirectUris: ["https://acme.example/cb2"], jwks: null });
    expect(await store().updateOAuthClient(refreshed)).toEqual(refreshed);
    expect(await store().getOAuthClient(client.clientId)).toEqual(refreshed);
    await expectRejected(() => store().updateOAuthClient(newClient()));
  });

  it("hands out copies: changing a record given or got changes nothing stored", async () => {
    const client = newClient();
    const created = await store().createOAuthClient(client);
    client.redirectUris.push("https://evil.example/cb");
    client.createdAt.setTime(0);
    created.grantTypes.length = 0;
    const read = await store().getOAuthClient(client.clientId);
    expect(read?.redirectUris).toEqual(["https://acme.example/callback", "http://127.0.0.1/callback"]);
    expect(read?.createdAt.getTime()).not.toBe(0);
    expect(read?.grantTypes).toHaveLength(3);
    read?.jwks?.push({ kty: "oct" });
    expect((await store().getOAuthClient(client.clientId))?.jwks).toHaveLength(1);
  });

  it("keeps one consent per user and client: a save replaces it, a delete forgets it", async () => {
    const [ada, bob] = [await newUser(), await newUser()];
    const clientId = newClient().clientId;
    const first = { userId: ada, clientId, scopes: ["openid"], updatedAt: dateIn(-5000) };
    await store().saveOAuthConsent(first);
    expect(await store().getOAuthConsent(ada, clientId)).toEqual(first);
    const wider = { userId: ada, clientId, scopes: ["openid", "projects:read", "offline_access"], updatedAt: dateIn(0) };
    await store().saveOAuthConsent(wider);
    expect(await store().getOAuthConsent(ada, clientId)).toEqual(wider);
    const other = { userId: bob, clientId, scopes: [], updatedAt: dateIn(0) };
    await store().saveOAuthConsent(other);
    expect(await store().getOAuthConsent(bob, clientId)).toEqual(other);
    await store().deleteOAuthConsent(ada, clientId);
    expect(await store().getOAuthConsent(ada, clientId)).toBeNull();
    expect(await store().getOAuthConsent(bob, clientId)).toEqual(other);
    expect(await store().getOAuthConsent(ada, `client-${randomUUID()}`)).toBeNull();
    // Forgetting what is not there is no error.
    await store().deleteOAuthConsent(ada, clientId);
  });
}

function codeCases({ store, racer, newUser }: SuiteContext): void {
  it("stores an authorization code with every field, refuses a taken hash, answers null for an unknown one", async () => {
    const ada = await newUser();
    const code = newCode(ada, newClient().clientId);
    await store().createOAuthAuthorizationCode(code);
    expect(await store().getOAuthAuthorizationCode(code.codeHash)).toEqual(code);
    const plain = newCode(ada, newClient().clientId, { nonce: null, resources: [], amr: [], aal: 1 });
    await store().createOAuthAuthorizationCode(plain);
    expect(await store().getOAuthAuthorizationCode(plain.codeHash)).toEqual(plain);
    await expectRejected(() => store().createOAuthAuthorizationCode({ ...newCode(ada, code.clientId), codeHash: code.codeHash }));
    expect(await store().getOAuthAuthorizationCode(code.codeHash)).toEqual(code);
    expect(await store().getOAuthAuthorizationCode(hash())).toBeNull();
  });

  it("uses a code once: true, then false, with the first use's time and grant kept", async () => {
    const code = newCode(await newUser(), newClient().clientId);
    await store().createOAuthAuthorizationCode(code);
    const [usedAt, grantId] = [dateIn(0), randomUUID()];
    expect(await store().useOAuthAuthorizationCode(code.codeHash, usedAt, grantId)).toBe(true);
    expect(await store().getOAuthAuthorizationCode(code.codeHash)).toEqual({ ...code, usedAt, grantId });
    expect(await store().useOAuthAuthorizationCode(code.codeHash, dateIn(1000), randomUUID())).toBe(false);
    expect(await store().getOAuthAuthorizationCode(code.codeHash)).toEqual({ ...code, usedAt, grantId });
    expect(await store().useOAuthAuthorizationCode(hash(), usedAt, grantId)).toBe(false);
  });

  it(`lets exactly one of ${RACERS} concurrent uses of a code win, and keeps the winner's grant`, async () => {
    const code = newCode(await newUser(), newClient().clientId);
    await store().createOAuthAuthorizationCode(code);
    const grants = Array.from({ length: RACERS }, () => randomUUID());
    const won: string[] = [];
    const count = await winners(async (i) => {
      const ok = await racer(i).useOAuthAuthorizationCode(code.codeHash, dateIn(i), grants[i] ?? "");
      if (ok) won.push(grants[i] ?? "");
      return ok;
    });
    expect(count).toBe(1);
    expect((await store().getOAuthAuthorizationCode(code.codeHash))?.grantId).toBe(won[0]);
  });
}

function grantCases({ store, racer, newUser }: SuiteContext): void {
  it("stores grants with every field and lists a user's, revoked or not, and only theirs", async () => {
    const [ada, bob] = [await newUser(), await newUser()];
    const clientId = newClient().clientId;
    const grant = newGrant(ada, clientId);
    expect(await store().createOAuthGrant(grant)).toEqual(grant);
    expect(await store().getOAuthGrant(grant.id)).toEqual(grant);
    const once = newGrant(ada, clientId, { refreshable: false, expiresAt: null, generation: 3, revokedAt: dateIn(-100), resources: [] });
    await store().createOAuthGrant(once);
    expect(await store().getOAuthGrant(once.id)).toEqual(once);
    const theirs = newGrant(bob, clientId);
    await store().createOAuthGrant(theirs);
    const byId = <T extends { id: string }>(list: T[]) => [...list].sort((a, b) => a.id.localeCompare(b.id));
    expect(byId(await store().listOAuthGrantsByUser(ada))).toEqual(byId([grant, once]));
    expect(await store().listOAuthGrantsByUser(randomUUID())).toEqual([]);
    expect(await store().getOAuthGrant(randomUUID())).toBeNull();
    await expectRejected(() => store().createOAuthGrant(newGrant(bob, clientId, { id: grant.id })));
    expect(await store().getOAuthGrant(grant.id)).toEqual(grant);
  });

  it("advances a grant one generation from the current one only, and never a revoked grant", async () => {
    const grant = newGrant(await newUser(), newClient().clientId, { generation: 4 });
    await store().createOAuthGrant(grant);
    const usedAt = dateIn(0);
    expect(await store().advanceOAuthGrant(grant.id, 4, usedAt)).toBe(true);
    expect(await store().getOAuthGrant(grant.id)).toEqual({ ...grant, generation: 5, lastUsedAt: usedAt });
    // A stale generation (a refresh token used again) and one from the future change nothing.
    expect(await store().advanceOAuthGrant(grant.id, 4, dateIn(1000))).toBe(false);
    expect(await store().advanceOAuthGrant(grant.id, 6, dateIn(1000))).toBe(false);
    expect(await store().getOAuthGrant(grant.id)).toEqual({ ...grant, generation: 5, lastUsedAt: usedAt });
    const revokedAt = dateIn(2000);
    await store().revokeOAuthGrant(grant.id, revokedAt);
    expect(await store().advanceOAuthGrant(grant.id, 5, dateIn(3000))).toBe(false);
    expect(await store().getOAuthGrant(grant.id)).toEqual({ ...grant, generation: 5, lastUsedAt: usedAt, revokedAt });
    expect(await store().advanceOAuthGrant(randomUUID(), 0, usedAt)).toBe(false);
  });

  it(`lets exactly one of ${RACERS} concurrent advances from one generation win`, async () => {
    const grant = newGrant(await newUser(), newClient().clientId, { generation: 7 });
    await store().createOAuthGrant(grant);
    expect(await winners((i) => racer(i).advanceOAuthGrant(grant.id, 7, dateIn(i)))).toBe(1);
    expect((await store().getOAuthGrant(grant.id))?.generation).toBe(8);
  });

  it("revokes a grant once: a second revocation keeps the first time", async () => {
    const grant = newGrant(await newUser(), newClient().clientId);
    await store().createOAuthGrant(grant);
    const revokedAt = dateIn(-10_000);
    await store().revokeOAuthGrant(grant.id, revokedAt);
    await store().revokeOAuthGrant(grant.id, dateIn(0));
    expect(await store().getOAuthGrant(grant.id)).toEqual({ ...grant, revokedAt });
    // Revoking what is not there is no error.
    await store().revokeOAuthGrant(randomUUID(), revokedAt);
  });

  it("revokes every unrevoked grant of one user, and nothing of another; a revoked one keeps its first time", async () => {
    const [ada, bob] = [await newUser(), await newUser()];
    const clientId = newClient().clientId;
    const [first, second] = [newGrant(ada, clientId), newGrant(ada, newClient().clientId)];
    const earlier = newGrant(ada, clientId, { revokedAt: dateIn(-86_400_000) });
    const theirs = newGrant(bob, clientId);
    for (const grant of [first, second, earlier, theirs]) await store().createOAuthGrant(grant);
    const revokedAt = dateIn(0);
    await store().revokeOAuthGrantsByUser(ada, revokedAt);
    expect(await store().getOAuthGrant(first.id)).toEqual({ ...first, revokedAt });
    expect(await store().getOAuthGrant(second.id)).toEqual({ ...second, revokedAt });
    expect(await store().getOAuthGrant(earlier.id)).toEqual(earlier);
    expect(await store().getOAuthGrant(theirs.id)).toEqual(theirs);
  });
}

function deviceCodeCases({ store, racer, newUser }: SuiteContext): void {
  it("stores a device code with every field; finds it by user code while it lives, by hash always", async () => {
    const clientId = newClient().clientId;
    const code = newDeviceCode(clientId);
    await store().createOAuthDeviceCode(code);
    expect(await store().getOAuthDeviceCode(code.deviceCodeHash)).toEqual(code);
    expect(await store().getOAuthDeviceCodeByUserCode(code.userCode)).toEqual(code);
    const expired = newDeviceCode(clientId, { expiresAt: dateIn(-1000), createdAt: dateIn(-601_000) });
    await store().createOAuthDeviceCode(expired);
    expect(await store().getOAuthDeviceCodeByUserCode(expired.userCode)).toBeNull();
    expect(await store().getOAuthDeviceCode(expired.deviceCodeHash)).toEqual(expired);
    // A live code with the user code of an expired one is the one found.
    const reused = newDeviceCode(clientId, { userCode: expired.userCode });
    await store().createOAuthDeviceCode(reused);
    expect(await store().getOAuthDeviceCodeByUserCode(expired.userCode)).toEqual(reused);
    await expectRejected(() => store().createOAuthDeviceCode(newDeviceCode(clientId, { deviceCodeHash: code.deviceCodeHash })));
    expect(await store().getOAuthDeviceCode(code.deviceCodeHash)).toEqual(code);
    expect(await store().getOAuthDeviceCode(hash())).toBeNull();
    expect(await store().getOAuthDeviceCodeByUserCode("NOSUCHCD")).toBeNull();
  });

  it("changes a device code only from the status expected, and only the fields given", async () => {
    const ada = await newUser();
    const code = newDeviceCode(newClient().clientId);
    await store().createOAuthDeviceCode(code);
    // A poll (slow_down): the status stays, the interval and the poll time change.
    const polledAt = dateIn(0);
    expect(await store().updateOAuthDeviceCode(code.deviceCodeHash, "pending", { interval: 10, lastPolledAt: polledAt })).toBe(true);
    const polled = { ...code, interval: 10, lastPolledAt: polledAt };
    expect(await store().getOAuthDeviceCode(code.deviceCodeHash)).toEqual(polled);
    const approval = { status: "approved" as const, userId: ada, authTime: 1_767_225_600, aal: 2, amr: ["pwd", "otp"] };
    expect(await store().updateOAuthDeviceCode(code.deviceCodeHash, "pending", approval)).toBe(true);
    const approved = { ...polled, ...approval };
    expect(await store().getOAuthDeviceCode(code.deviceCodeHash)).toEqual(approved);
    // From a status it no longer has: refused, nothing changed.
    expect(await store().updateOAuthDeviceCode(code.deviceCodeHash, "pending", { status: "denied", userId: null })).toBe(false);
    expect(await store().getOAuthDeviceCode(code.deviceCodeHash)).toEqual(approved);
    expect(await store().updateOAuthDeviceCode(code.deviceCodeHash, "approved", { status: "used", lastPolledAt: null })).toBe(true);
    expect(await store().getOAuthDeviceCode(code.deviceCodeHash)).toEqual({ ...approved, status: "used", lastPolledAt: null });
    expect(await store().updateOAuthDeviceCode(code.deviceCodeHash, "approved", { status: "used" })).toBe(false);
    expect(await store().updateOAuthDeviceCode(hash(), "pending", { status: "approved" })).toBe(false);
  });

  it(`lets exactly one of ${RACERS} concurrent exchanges of an approved device code win`, async () => {
    const ada = await newUser();
    const code = newDeviceCode(newClient().clientId, { status: "approved", userId: ada, authTime: 1, aal: 1, amr: ["pwd"] });
    await store().createOAuthDeviceCode(code);
    expect(await winners((i) => racer(i).updateOAuthDeviceCode(code.deviceCodeHash, "approved", { status: "used" }))).toBe(1);
    expect((await store().getOAuthDeviceCode(code.deviceCodeHash))?.status).toBe("used");
  });
}

function signingKeyCases({ store }: SuiteContext): void {
  it("lists the signing keys that have not expired, newest first; refuses a taken kid", async () => {
    const oldest = newSigningKey(60 * 86_400_000, 3_600_000);
    const middle = newSigningKey(30 * 86_400_000, 60 * 86_400_000);
    const gone = newSigningKey(90 * 86_400_000, -1000);
    const newest = newSigningKey(1000, 90 * 86_400_000);
    for (const key of [middle, gone, newest, oldest]) await store().createOAuthSigningKey(key);
    const mine = new Set([oldest, middle, gone, newest].map((key) => key.kid));
    const listed = (await store().listOAuthSigningKeys()).filter((key) => mine.has(key.kid));
    expect(listed).toEqual([newest, middle, oldest]);
    await expectRejected(() => store().createOAuthSigningKey({ ...newSigningKey(0, 1000), kid: newest.kid }));
    expect((await store().listOAuthSigningKeys()).find((key) => key.kid === newest.kid)).toEqual(newest);
  });
}

function deletionCases({ store, newUser, deleteUser }: SuiteContext): void {
  // Only a store with users (a database) deletes a user; the in-memory store has none to delete.
  if (!deleteUser) return;
  it("deletes a user's consents, codes, grants and answered device codes with the user, and nothing of another", async () => {
    const [ada, bob] = [await newUser(), await newUser()];
    const client = newClient();
    await store().createOAuthClient(client);
    const rows = (userId: string) => ({
      consent: { userId, clientId: client.clientId, scopes: ["openid"], updatedAt: dateIn(0) },
      code: newCode(userId, client.clientId),
      grant: newGrant(userId, client.clientId),
      device: newDeviceCode(client.clientId, { status: "approved", userId, authTime: 1, aal: 1, amr: ["pwd"] }),
    });
    const [gone, kept] = [rows(ada), rows(bob)];
    for (const { consent, code, grant, device } of [gone, kept]) {
      await store().saveOAuthConsent(consent);
      await store().createOAuthAuthorizationCode(code);
      await store().createOAuthGrant(grant);
      await store().createOAuthDeviceCode(device);
    }
    await deleteUser(ada);
    expect(await store().getOAuthConsent(ada, client.clientId)).toBeNull();
    expect(await store().getOAuthAuthorizationCode(gone.code.codeHash)).toBeNull();
    expect(await store().getOAuthGrant(gone.grant.id)).toBeNull();
    expect(await store().listOAuthGrantsByUser(ada)).toEqual([]);
    expect(await store().getOAuthDeviceCode(gone.device.deviceCodeHash)).toBeNull();
    expect(await store().getOAuthConsent(bob, client.clientId)).toEqual(kept.consent);
    expect(await store().getOAuthAuthorizationCode(kept.code.codeHash)).toEqual(kept.code);
    expect(await store().listOAuthGrantsByUser(bob)).toEqual([kept.grant]);
    expect(await store().getOAuthDeviceCode(kept.device.deviceCodeHash)).toEqual(kept.device);
    // The client is the app's, not the user's.
    expect(await store().getOAuthClient(client.clientId)).toEqual(client);
  });
}
