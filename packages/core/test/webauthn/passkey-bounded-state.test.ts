/**
 * What the passkey routes make the server keep, and for how long (issue 26): options requests store
 * nothing (the challenge travels sealed in a cookie bound to the browser, its purpose and its expiry);
 * a used-challenge record is written only for an answer that verified, and kept until the challenge
 * expires, so a replay inside that window is refused — in the database (hosted-db adapter on PGlite) and
 * in an instance's memory (an adapter without verification-token methods), however many other
 * challenges were used meanwhile.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { type AuthError, RateLimited } from "../../src/errors.js";
import { decode, encode } from "../../src/jwt.js";
import { instanceFor } from "../../src/kernel/auth.js";
import { resolvedConfigOf } from "../../src/kernel/instance.js";
import Passkey from "../../src/providers/passkey.js";
import type { Adapter } from "../../src/types/adapters.js";
import type { AuthConfig } from "../../src/types/config.js";
import type { InternalOptions } from "../../src/types/internal.js";
import { usedChallengeKey, usedChallengeMemory } from "../../src/webauthn/challenge-store.js";
import { MAX_REMEMBERED_CHALLENGES, UsedChallengeMemory } from "../../src/webauthn/used-challenges.js";
import { authClient } from "../helpers/auth-client.js";
import { closeSharedPglite, freshDatabase, sharedPglite } from "../helpers/database.js";
import { recordFailures } from "../helpers/failure-log.js";
import { memoryAdapter } from "../helpers/memory-adapter.js";
import { SoftAuthenticator } from "./soft-authenticator.js";

const secret = "passkey-bounded-state-secret-0123456789abcdef";
const ORIGIN = "http://localhost:3000";
const CHALLENGE_COOKIE = "authlib.challenge";
const USED_CHALLENGE = "authlib:webauthn-used-challenge";

beforeAll(async () => {
  await sharedPglite().waitReady;
});
afterAll(closeSharedPglite);
afterEach(() => {
  vi.useRealTimers();
});

type Client = ReturnType<typeof authClient>;

function appConfig(adapter: Adapter, errors: AuthError[]): AuthConfig {
  return {
    secret,
    trustHost: true,
    adapter,
    providers: [Passkey({})],
    experimental: { enableWebAuthn: true },
    // The per-address limits would stop a flood from one address long before any state matters; what is
    // measured here is what the server keeps when requests do get through (many addresses).
    rateLimit: false,
    session: { strategy: "jwt" },
    // `errors`: every failure logged, at its level (a replayed challenge is a warning and a debug line).
    debug: true,
    logger: { ...recordFailures(errors), warn: () => {} },
  };
}

async function options(client: Client, action: "register" | "authenticate", query: Record<string, string> = {}) {
  const response = await client.send(`/auth/webauthn-options/passkey?${new URLSearchParams({ action, ...query })}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { options: any }).options;
}

function post(client: Client, action: string, data: unknown, csrfToken: string) {
  return client.send("/auth/callback/passkey", { json: { action, data: JSON.stringify(data), csrfToken } });
}

/** Rows per table of a branch, every table included. */
async function rowCounts(db: Awaited<ReturnType<typeof freshDatabase>>): Promise<Record<string, number>> {
  const { rows } = await db.client.query<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name",
    [db.client.branch],
  );
  const counts: Record<string, number> = {};
  for (const { table_name } of rows) {
    const result = await db.client.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${db.client.branch}"."${table_name}"`);
    counts[table_name] = Number(result.rows[0]?.n);
  }
  return counts;
}

function location(response: Response): string | null {
  return response.headers.get("location");
}

/** The browser puts a captured challenge cookie back (what an attacker holding it would send). */
function putBack(client: Client, value: string): void {
  client.jar.cookies.set(CHALLENGE_COOKIE, { name: CHALLENGE_COOKIE, value, attributes: {} });
}

describe("passkey options store nothing", () => {
  it("10,000 anonymous options requests add no row to any table; only a verified answer writes one", async () => {
    const db = await freshDatabase();
    const errors: AuthError[] = [];
    const config = appConfig(db.adapter, errors);
    const authenticator = new SoftAuthenticator(ORIGIN);
    // A registered user first, so the count starts from rows that exist.
    const owner = authClient(config, ORIGIN);
    const registration = await authenticator.register(await options(owner, "register", { name: "Ada" }));
    expect(location(await post(owner, "register", registration, await owner.csrf()))).toBe(`${ORIGIN}/`);
    const before = await rowCounts(db);
    expect(before.authlib_users).toBe(1);

    for (let i = 0; i < 10_000; i++) {
      // A new anonymous browser each time, both ceremonies.
      const client = authClient(config, ORIGIN);
      if (i % 2 === 0) await options(client, "authenticate");
      else await options(client, "register", { name: `Visitor ${i}` });
      expect(client.jar.get(CHALLENGE_COOKIE)).toBeTruthy();
    }
    expect(await rowCounts(db)).toEqual(before);
    expect(errors).toEqual([]);

    // The counting sees a write: a verified sign-in leaves exactly one used-challenge row, and the record
    // of the JWT session it began (the adapter keeps session records).
    const visitor = authClient(config, ORIGIN);
    const assertion = await authenticator.authenticate(await options(visitor, "authenticate"));
    expect(location(await post(visitor, "authenticate", assertion, await visitor.csrf()))).toBe(`${ORIGIN}/`);
    expect(await rowCounts(db)).toEqual({
      ...before,
      authlib_verificationTokens: before.authlib_verificationTokens! + 1,
      authlib_session_records: before.authlib_session_records! + 1,
    });
  }, 300_000);
});

describe("a verified answer is accepted once", () => {
  it("in the database: a replay (counter 0, cookie put back) is refused, also when two copies arrive at once", async () => {
    const db = await freshDatabase();
    const errors: AuthError[] = [];
    const config = appConfig(db.adapter, errors);
    const authenticator = new SoftAuthenticator(ORIGIN);
    const owner = authClient(config, ORIGIN);
    const registration = await authenticator.register(await options(owner, "register", { name: "Ada" }));
    await post(owner, "register", registration, await owner.csrf());

    const victim = authClient(config, ORIGIN);
    const csrfToken = await victim.csrf();
    const request = await options(victim, "authenticate");
    const assertion = await authenticator.authenticate(request, { counter: 0 });
    const captured = victim.jar.get(CHALLENGE_COOKIE)!;
    const both = await Promise.all([
      post(victim, "authenticate", assertion, csrfToken),
      post(victim, "authenticate", assertion, csrfToken),
    ]);
    expect(both.map(location).sort()).toEqual([`${ORIGIN}/`, `${ORIGIN}/auth/error?error=Configuration`]);
    expect(errors.map((e) => [e.type, e.message])).toEqual([["InvalidCheck", expect.stringMatching(/answered already/)]]);
    // One record, under a hash of the challenge, kept past the last moment the sealed challenge opens
    // (its exp + decode's 15 s clock tolerance) by a minute for a database clock running ahead.
    const { exp } = (await decode<{ exp: number }>({ token: captured, secret, salt: CHALLENGE_COOKIE }))!;
    const record = await db.client.db.authlib_verificationTokens.findFirst({
      identifier: USED_CHALLENGE,
      token: await usedChallengeKey(request.challenge),
    });
    expect(record?.expires?.getTime()).toBe((exp + 15 + 60) * 1000);

    await victim.send("/auth/signout", { form: { csrfToken } });
    putBack(victim, captured);
    expect(location(await post(victim, "authenticate", assertion, csrfToken))).toBe(`${ORIGIN}/auth/error?error=Configuration`);
    expect(errors.map((e) => e.type)).toEqual(["InvalidCheck", "InvalidCheck"]);
    expect(await victim.session()).toBeNull();
  });

  it("in an instance's memory (no token methods): a replay after 10,000 other used challenges is still refused", async () => {
    const memory = memoryAdapter();
    const errors: AuthError[] = [];
    const config = appConfig(memory.adapter, errors);
    const authenticator = new SoftAuthenticator(ORIGIN);

    const victim = authClient(config, ORIGIN);
    const victimCsrf = await victim.csrf();
    const registration = await authenticator.register(await options(victim, "register", { name: "Ada" }));
    await post(victim, "register", registration, victimCsrf);
    await victim.send("/auth/signout", { form: { csrfToken: victimCsrf } });
    const assertion = await authenticator.authenticate(await options(victim, "authenticate"), { counter: 0 });
    const captured = victim.jar.get(CHALLENGE_COOKIE)!;
    expect(location(await post(victim, "authenticate", assertion, victimCsrf))).toBe(`${ORIGIN}/`);
    await victim.send("/auth/signout", { form: { csrfToken: victimCsrf } });

    // Someone with a passkey of their own signs in 10,000 times: 10,000 other used challenges.
    const attacker = authClient(config, ORIGIN);
    const attackerKey = new SoftAuthenticator(ORIGIN);
    const attackerCsrf = await attacker.csrf();
    await post(attacker, "register", await attackerKey.register(await options(attacker, "register", { name: "Eve" })), attackerCsrf);
    for (let i = 0; i < 10_000; i++) {
      const answer = await attackerKey.authenticate(await options(attacker, "authenticate"));
      const response = await post(attacker, "authenticate", answer, attackerCsrf);
      if (location(response) !== `${ORIGIN}/`) throw new Error(`sign-in ${i} failed: ${location(response)}`);
    }
    expect(errors).toEqual([]);

    putBack(victim, captured);
    expect(location(await post(victim, "authenticate", assertion, victimCsrf))).toBe(`${ORIGIN}/auth/error?error=Configuration`);
    expect(errors.map((e) => [e.type, e.message])).toEqual([["InvalidCheck", expect.stringMatching(/answered already/)]]);
    expect(await victim.session()).toBeNull();
  }, 600_000);
});

describe("an instance's used-challenge memory (webauthn/used-challenges.ts)", () => {
  it("keeps an entry until its challenge expires, whatever the order of expiries, then lets it go", () => {
    const memory = new UsedChallengeMemory(3);
    expect(memory.claim("late", 3_000, 0)).toEqual({ claimed: true });
    expect(memory.claim("early", 1_000, 0)).toEqual({ claimed: true });
    expect(memory.claim("early", 1_000, 999)).toEqual({ claimed: false, reason: "used" });
    // At its expiry the entry is gone (the challenge itself is refused from then on).
    expect(memory.claim("early", 2_000, 1_000)).toEqual({ claimed: true });
    expect(memory.claim("late", 3_000, 2_999)).toEqual({ claimed: false, reason: "used" });
    // "early" (re-claimed until 2,000) expired before 2,999: only "late" is left.
    expect(memory.size).toBe(1);
  });

  it("full of live entries: a new claim is refused until the earliest expires; no live entry is evicted", () => {
    const memory = new UsedChallengeMemory(3);
    for (const [key, expires] of [
      ["a", 5_000],
      ["b", 2_000],
      ["c", 9_000],
    ] as const)
      memory.claim(key, expires, 0);
    expect(memory.claim("d", 9_000, 1_000)).toEqual({ claimed: false, reason: "full", retryAt: 2_000 });
    for (const key of ["a", "b", "c"]) expect(memory.claim(key, 9_000, 1_000)).toEqual({ claimed: false, reason: "used" });
    expect(memory.claim("d", 9_000, 2_000)).toEqual({ claimed: true });
    expect(memory.claim("b", 9_000, 2_000)).toEqual({ claimed: false, reason: "full", retryAt: 5_000 });
    for (const key of ["a", "c", "d"]) expect(memory.claim(key, 9_000, 2_000)).toEqual({ claimed: false, reason: "used" });
  });

  it("a flood of 20,000 claims over a capacity of 1,000 stores 1,000 and refuses the rest, with the first entry kept", () => {
    const memory = new UsedChallengeMemory(1_000);
    const results = Array.from({ length: 20_000 }, (_, i) => memory.claim(`k${i}`, 60_000 + i, 0));
    expect(results.filter((r) => r.claimed)).toHaveLength(1_000);
    expect(memory.size).toBe(1_000);
    expect(memory.claim("k0", 60_000, 1)).toEqual({ claimed: false, reason: "used" });
  });

  it("refuses a capacity that is not a whole number >= 1", () => {
    for (const capacity of [0, -1, 1.5, Number.NaN]) expect(() => new UsedChallengeMemory(capacity)).toThrow(RangeError);
  });

  it("through the routes, a full memory refuses a verified answer with RateLimited and evicts nothing", async () => {
    const memory = memoryAdapter();
    const errors: AuthError[] = [];
    const config = appConfig(memory.adapter, errors);
    const authenticator = new SoftAuthenticator(ORIGIN);
    const client = authClient(config, ORIGIN);
    const csrfToken = await client.csrf();
    await post(client, "register", await authenticator.register(await options(client, "register", { name: "Ada" })), csrfToken);
    await client.send("/auth/signout", { form: { csrfToken } });
    // The instance's memory fills up with live used challenges (as MAX_REMEMBERED_CHALLENGES verified answers would).
    const used = usedChallengeMemory(resolvedConfigOf(instanceFor(config)).options as InternalOptions);
    const expires = Date.now() + 10 * 60 * 1000;
    for (let i = used.size; i < MAX_REMEMBERED_CHALLENGES; i++) expect(used.claim(`flood-${i}`, expires).claimed).toBe(true);

    const assertion = await authenticator.authenticate(await options(client, "authenticate"));
    const refused = await post(client, "authenticate", assertion, csrfToken);
    expect(location(refused)).toBe(`${ORIGIN}/auth/signin?error=RateLimited`);
    // A refusal to try later, like the per-client limits: not logged as an error (a warning, its line at debug).
    // (recordFailures gives an error logged at error as it is, a RateLimited instance; at debug, a plain AuthError.)
    expect(errors.map((e) => e.type)).toEqual(["RateLimited"]);
    expect(errors[0]).not.toBeInstanceOf(RateLimited);
    expect(await client.session()).toBeNull();
    expect(used.size).toBe(MAX_REMEMBERED_CHALLENGES);
    expect(used.claim(`flood-${MAX_REMEMBERED_CHALLENGES - 1}`, expires)).toEqual({ claimed: false, reason: "used" });
  });

  it("through the routes, a replay just before the sealed challenge stops being accepted is still refused", async () => {
    const memory = memoryAdapter();
    const errors: AuthError[] = [];
    const config = appConfig(memory.adapter, errors);
    const authenticator = new SoftAuthenticator(ORIGIN);
    const victim = authClient(config, ORIGIN);
    const csrfToken = await victim.csrf();
    await post(victim, "register", await authenticator.register(await options(victim, "register", { name: "Ada" })), csrfToken);
    await victim.send("/auth/signout", { form: { csrfToken } });
    const assertion = await authenticator.authenticate(await options(victim, "authenticate"), { counter: 0 });
    const captured = victim.jar.get(CHALLENGE_COOKIE)!;
    expect(location(await post(victim, "authenticate", assertion, csrfToken))).toBe(`${ORIGIN}/`);
    await victim.send("/auth/signout", { form: { csrfToken } });
    // 15 minutes and 10 seconds later: past `exp`, inside the 15 s clock tolerance, so the cookie still opens.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + (15 * 60 + 10) * 1000 });
    putBack(victim, captured);
    expect(location(await post(victim, "authenticate", assertion, csrfToken))).toBe(`${ORIGIN}/auth/error?error=Configuration`);
    expect(errors.map((e) => [e.type, e.message])).toEqual([["InvalidCheck", expect.stringMatching(/answered already/)]]);
  });
});

describe("the sealed challenge", () => {
  async function flow() {
    const db = await freshDatabase();
    const errors: AuthError[] = [];
    const config = appConfig(db.adapter, errors);
    const authenticator = new SoftAuthenticator(ORIGIN);
    const owner = authClient(config, ORIGIN);
    await post(owner, "register", await authenticator.register(await options(owner, "register", { name: "Ada" })), await owner.csrf());
    const client = authClient(config, ORIGIN);
    const csrfToken = await client.csrf();
    const body = await options(client, "authenticate");
    const assertion = await authenticator.authenticate(body, { counter: 0 });
    return { db, errors, config, client, csrfToken, assertion, sealed: client.jar.get(CHALLENGE_COOKIE)! };
  }

  async function usedRows(db: Awaited<ReturnType<typeof freshDatabase>>): Promise<number> {
    return (await db.client.db.authlib_verificationTokens.filter({ identifier: USED_CHALLENGE })).length;
  }

  it("tampered with: refused as InvalidCheck, nothing recorded", async () => {
    const app = await flow();
    const before = await usedRows(app.db);
    const index = Math.floor(app.sealed.length / 2);
    const flipped = app.sealed.slice(0, index) + (app.sealed[index] === "A" ? "B" : "A") + app.sealed.slice(index + 1);
    putBack(app.client, flipped);
    expect(location(await post(app.client, "authenticate", app.assertion, app.csrfToken))).toBe(`${ORIGIN}/auth/error?error=Configuration`);
    expect(app.errors.map((e) => [e.type, e.message])).toEqual([["InvalidCheck", expect.stringMatching(/could not be read/)]]);
    expect(await usedRows(app.db)).toBe(before);
  });

  it("expired (answered after its 15 minutes and the 15 s clock tolerance): refused as InvalidCheck, nothing recorded", async () => {
    const app = await flow();
    const before = await usedRows(app.db);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + (15 * 60 + 16) * 1000 });
    putBack(app.client, app.sealed);
    expect(location(await post(app.client, "authenticate", app.assertion, app.csrfToken))).toBe(`${ORIGIN}/auth/error?error=Configuration`);
    expect(app.errors.map((e) => [e.type, e.message])).toEqual([["InvalidCheck", expect.stringMatching(/could not be read/)]]);
    vi.useRealTimers();
    expect(await usedRows(app.db)).toBe(before);
  });

  it("from another browser: refused as InvalidCheck, nothing recorded, the owner's answer still works", async () => {
    const app = await flow();
    const before = await usedRows(app.db);
    const other = authClient(app.config, ORIGIN);
    putBack(other, app.sealed);
    expect(location(await post(other, "authenticate", app.assertion, await other.csrf()))).toBe(`${ORIGIN}/auth/error?error=Configuration`);
    expect(app.errors.map((e) => [e.type, e.message])).toEqual([["InvalidCheck", expect.stringMatching(/another browser/)]]);
    expect(await usedRows(app.db)).toBe(before);
    expect(location(await post(app.client, "authenticate", app.assertion, app.csrfToken))).toBe(`${ORIGIN}/`);
    expect(await usedRows(app.db)).toBe(before + 1);
  });

  it("sealed with the secret for another purpose: refused as InvalidCheck", async () => {
    const app = await flow();
    // Every field of a challenge, but not its purpose mark (and no browser binding).
    const payload = { provider: "passkey", action: "authenticate", challenge: "c2VhbGVkLWVsc2V3aGVyZQ" };
    putBack(app.client, await encode({ token: payload, secret, salt: CHALLENGE_COOKIE, maxAge: 60 }));
    expect(location(await post(app.client, "authenticate", app.assertion, app.csrfToken))).toBe(`${ORIGIN}/auth/error?error=Configuration`);
    expect(app.errors.map((e) => [e.type, e.message])).toEqual([["InvalidCheck", expect.stringMatching(/could not be parsed/)]]);
  });
});
