/**
 * The rate limits' rules, driven directly and cheaply (no HTTP server, no password hashing, no database):
 * the credentials limits per account (free failures, a doubling delay, a lockout that refused attempts
 * never lengthen) and per client address, the sign-in mail limits per mailbox and per client, the
 * settings and their validation, the client address buckets and the keys the limits count under.
 * `rate-limit.test.ts` and `rate-limit-email-passkey.test.ts` show the same rules end to end through
 * `Auth()`; this file states them one by one. Time is a fake `Date` the test moves by hand.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AuthError, RateLimited } from "../../src/errors.js";
import { defaultCookies } from "../../src/http/cookies.js";
import { rateLimitsOf } from "../../src/kernel/features.js";
import Credentials from "../../src/providers/credentials.js";
import type { CredentialsConfig } from "../../src/providers/types.js";
import { clientBucket, defaultClientAddress } from "../../src/rate-limit/client-address.js";
import { type RateLimitConfig, type ResolvedCredentialsLimits, resolveRateLimits } from "../../src/rate-limit/config.js";
import { accountOf, authorizeLimited } from "../../src/rate-limit/credentials.js";
import { countVerificationMail } from "../../src/rate-limit/email.js";
import {
  clientAddressOf,
  countClientRequest,
  countRequest,
  isOver,
  limitKey,
  limitsOf,
  refusal,
  storeOf,
} from "../../src/rate-limit/limiter.js";
import { memoryRateLimitStore, type RateLimitStore } from "../../src/rate-limit/store.js";
import type { AuthConfig } from "../../src/types/config.js";
import type { InternalOptions, RequestInternal } from "../../src/types/internal.js";

const secret = "rate-limit-testsuite-secret-0123456789abcdef";
const START = Date.UTC(2026, 0, 1);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(START);
});
afterEach(() => {
  vi.useRealTimers();
});

/** Moves the fake clock on by `ms`. */
function advance(ms: number) {
  vi.setSystemTime(Date.now() + ms);
}

/** A store that records every call it passes on to a memory store. */
function recordingStore() {
  const inner = memoryRateLimitStore();
  const calls: string[] = [];
  const store: RateLimitStore = {
    increment(key, windowMs) {
      calls.push(`increment ${key} ${windowMs}`);
      return inner.increment(key, windowMs);
    },
    get(key) {
      calls.push(`get ${key}`);
      return inner.get(key);
    },
    reset(key) {
      calls.push(`reset ${key}`);
      return inner.reset(key);
    },
  };
  return { store, calls };
}

/** The per-configuration options the limiter reads, with the debug lines it writes. */
function optionsFor(config: RateLimitConfig | false | undefined) {
  const debug: Array<[string, unknown]> = [];
  const options = {
    secret: [secret],
    logger: { debug: (message: string, metadata?: unknown) => void debug.push([message, metadata]), warn: () => {}, error: () => {} },
    rateLimits: { config },
    cookies: defaultCookies(false),
  } as unknown as InternalOptions;
  return { options, debug };
}

/** A request that came on a connection from `connectionAddress`. */
function requestFrom(connectionAddress?: string, headers: Record<string, string> = {}): RequestInternal {
  const request = new Request("http://localhost:3000/auth/callback/credentials", { method: "POST", headers });
  return { request, connectionAddress, headers: request.headers, cookies: {} } as unknown as RequestInternal;
}

/** A credentials app: `authorize` accepts the password "right" (no hashing) and records who it ran for. */
function credentialsApp(config: RateLimitConfig = {}, provider: Partial<CredentialsConfig> = {}) {
  const { options, debug } = optionsFor({ store: memoryRateLimitStore(), ...config });
  const calls: string[] = [];
  const credentials = Credentials({
    credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
    authorize: ({ email, password }) => {
      calls.push(String(email));
      return password === "right" ? { id: String(email) } : null;
    },
    ...provider,
  });
  /** Tries to sign in; returns the outcome, and the refusal when there was one. */
  async function signIn(email: string, password = "wrong", address: string | null = "192.0.2.1") {
    try {
      const user = await authorizeLimited(options, requestFrom(address ?? undefined), credentials, { email, password });
      return { outcome: user ? "signed-in" : "wrong", error: undefined };
    } catch (error) {
      if (error instanceof RateLimited) return { outcome: "refused", error };
      throw error;
    }
  }
  /** `address` null: no client address is known. */
  const outcome = async (email: string, password?: string, address?: string | null) => (await signIn(email, password, address)).outcome;
  const callsFor = (email: string) => calls.filter((c) => c === email).length;
  return { options, debug, calls, callsFor, signIn, outcome, provider: credentials };
}

const VICTIM = "victim@example.com";
const TOO_MANY_FOR_ACCOUNT = "Too many failed sign-ins for this account; try again later.";
const TOO_SOON_FOR_ACCOUNT = "Sign-in attempts for this account are coming too fast; wait a moment.";
const TOO_MANY_FROM_CLIENT = "Too many failed sign-ins from this client; try again later.";

describe("credentials sign-in per account", () => {
  it("answers three failures at once, then makes each next attempt wait 1 s, 2 s, 4 s … and tells how long", async () => {
    const app = credentialsApp();
    expect(await app.outcome(VICTIM)).toBe("wrong");
    expect(await app.outcome(VICTIM)).toBe("wrong");
    expect(await app.outcome(VICTIM)).toBe("wrong");
    for (let failures = 3; failures < 10; failures++) {
      const wait = 1000 * 2 ** (failures - 3);
      advance(wait - 1);
      const early = await app.signIn(VICTIM);
      expect(early.outcome).toBe("refused");
      expect(early.error?.message).toBe(TOO_SOON_FOR_ACCOUNT);
      expect(early.error?.retryAfter).toBe(1);
      advance(1);
      expect(await app.outcome(VICTIM)).toBe("wrong");
      // Right after a failure the whole next delay is still ahead (after the 10th, the lockout: below).
      if (failures < 9) expect((await app.signIn(VICTIM)).error?.retryAfter).toBe(2 * (wait / 1000));
    }
    expect(app.callsFor(VICTIM)).toBe(10);
  });

  it("locks the account after 10 failures until 15 minutes after the first, even for the right password", async () => {
    const app = credentialsApp();
    // One failure every 70 s (longer than every delay before the 10th failure).
    for (let i = 0; i < 10; i++) {
      expect(await app.outcome(VICTIM)).toBe("wrong");
      advance(70_000);
    }
    // 760 s after the first failure (the last delay, 128 s, is over): locked for 140 s more.
    advance(60_000);
    const locked = await app.signIn(VICTIM, "right");
    expect(locked.outcome).toBe("refused");
    expect(locked.error?.message).toBe(TOO_MANY_FOR_ACCOUNT);
    expect(locked.error?.retryAfter).toBe(140);
    advance(140_000 - 1);
    expect(await app.outcome(VICTIM, "right")).toBe("refused");
    advance(1);
    expect(await app.outcome(VICTIM, "right")).toBe("signed-in");
    expect(app.callsFor(VICTIM)).toBe(11);
  });

  it("refused attempts write nothing: they neither lengthen the lockout nor count towards it", async () => {
    const { store, calls } = recordingStore();
    const app = credentialsApp({ store, credentials: { freeFailures: 2 } });
    await app.outcome(VICTIM);
    await app.outcome(VICTIM);
    const written = calls.length;
    for (let i = 0; i < 5; i++) expect(await app.outcome(VICTIM)).toBe("refused");
    expect(calls.slice(written).every((call) => call.startsWith("get "))).toBe(true);
  });

  it("counts the account in a window of lockoutWindowSeconds and lets the delay grow only up to it", async () => {
    const { store, calls } = recordingStore();
    const app = credentialsApp({
      store,
      credentials: { freeFailures: 1, initialDelaySeconds: 4, lockoutWindowSeconds: 5, lockoutFailures: 50 },
    });
    const windows = () => calls.filter((call) => /^increment authlib:cred:(acct|wait):/.test(call)).map((call) => call.split(" ")[2]);
    expect(await app.outcome(VICTIM)).toBe("wrong");
    // The count's window, then the first delay: initialDelaySeconds.
    expect(windows()).toEqual(["5000", "4000"]);
    advance(4000);
    expect(await app.outcome(VICTIM)).toBe("wrong");
    // 4 s · 2 = 8 s would outlast the 5 s window: the delay is the window.
    expect(windows().slice(2)).toEqual(["5000", "5000"]);
    advance(5000);
    // The count's window has ended: the account starts over, with the first delay.
    expect(await app.outcome(VICTIM)).toBe("wrong");
    expect(windows().slice(4)).toEqual(["5000", "4000"]);
  });

  it("keeps doubling a tiny delay at most 40 times", async () => {
    const { store, calls } = recordingStore();
    const app = credentialsApp({
      store,
      credentials: { freeFailures: 1, initialDelaySeconds: 1e-12, lockoutFailures: 100, lockoutWindowSeconds: 1e6 },
    });
    for (let i = 0; i < 45; i++) {
      expect(await app.outcome(VICTIM)).toBe("wrong");
      advance(2000);
    }
    const waits = calls.filter((call) => call.startsWith("increment authlib:cred:wait:")).map((call) => Number(call.split(" ")[2]));
    expect(waits[0]).toBeCloseTo(1e-9);
    expect(waits[40]).toBeCloseTo(1e-9 * 2 ** 40);
    expect(waits[44]).toBeCloseTo(1e-9 * 2 ** 40);
  });

  it("attempts sent at the same moment never get past the lockout count together", async () => {
    const app = credentialsApp({ credentials: { freeFailures: 100, lockoutFailures: 3 } });
    const outcomes = await Promise.all(Array.from({ length: 6 }, () => app.signIn(VICTIM)));
    expect(app.callsFor(VICTIM)).toBe(3);
    const refused = outcomes.filter((o) => o.outcome === "refused");
    expect(refused).toHaveLength(3);
    for (const { error } of refused) expect(error?.message).toBe(TOO_MANY_FOR_ACCOUNT);
  });

  it("attempts sent at the same moment cannot all claim the delay: one goes through", async () => {
    const app = credentialsApp({ credentials: { freeFailures: 1 } });
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => app.signIn(VICTIM)));
    expect(app.callsFor(VICTIM)).toBe(1);
    const refused = outcomes.filter((o) => o.outcome === "refused");
    expect(refused).toHaveLength(4);
    for (const { error } of refused) expect(error?.message).toBe(TOO_SOON_FOR_ACCOUNT);
  });

  it("a success clears the account's count and its delay", async () => {
    const app = credentialsApp();
    expect(await app.outcome(VICTIM)).toBe("wrong");
    expect(await app.outcome(VICTIM)).toBe("wrong");
    // The third attempt starts the delay, and succeeds.
    expect(await app.outcome(VICTIM, "right")).toBe("signed-in");
    for (let i = 0; i < 3; i++) expect(await app.outcome(VICTIM)).toBe("wrong");
    expect(await app.outcome(VICTIM)).toBe("refused");
  });

  it("counts each account apart, the same account under any case, width or surrounding space", async () => {
    const app = credentialsApp({ credentials: { freeFailures: 2, clientFailures: 1000 } });
    expect(await app.outcome(VICTIM)).toBe("wrong");
    expect(await app.outcome(" ＶＩＣＴＩＭ@Example.COM ")).toBe("wrong");
    expect(await app.outcome(VICTIM)).toBe("refused");
    expect(await app.outcome("bystander@example.com")).toBe("wrong");
    expect(await app.outcome("bystander@example.com")).toBe("wrong");
  });

  it("each credentials provider counts its own accounts", async () => {
    const app = credentialsApp({ credentials: { freeFailures: 1 } });
    const other = Credentials({ ...app.provider, id: "staff" });
    expect(await app.outcome(VICTIM)).toBe("wrong");
    expect(await app.outcome(VICTIM)).toBe("refused");
    await expect(authorizeLimited(app.options, requestFrom("192.0.2.1"), other, { email: VICTIM, password: "wrong" })).resolves.toBeNull();
  });

  it("an authorize that throws counts as a failure, and its error reaches the caller unchanged", async () => {
    const boom = new Error("database down");
    const app = credentialsApp(
      { credentials: { clientFailures: 1 } },
      {
        authorize: () => {
          throw boom;
        },
      },
    );
    await expect(app.signIn("a@example.com")).rejects.toBe(boom);
    expect((await app.signIn("b@example.com")).error?.message).toBe(TOO_MANY_FROM_CLIENT);
  });
});

describe("credentials sign-in without limits", () => {
  it("rateLimit.credentials: false, or every limit off, lets every attempt reach authorize", async () => {
    const app = credentialsApp({ credentials: false });
    for (let i = 0; i < 15; i++) expect(await app.outcome(VICTIM)).toBe("wrong");
    expect(await app.outcome(VICTIM, "right")).toBe("signed-in");
    expect(app.callsFor(VICTIM)).toBe(16);

    const off = optionsFor(false);
    for (let i = 0; i < 15; i++) {
      await expect(
        authorizeLimited(off.options, requestFrom("192.0.2.1"), app.provider, { email: VICTIM, password: "wrong" }),
      ).resolves.toBeNull();
    }
    expect(app.callsFor(VICTIM)).toBe(31);
  });
});

describe("credentials sign-in per client address", () => {
  it("refuses a client at clientFailures failures, unheard, until clientWindowSeconds after its first failure", async () => {
    const app = credentialsApp({ credentials: { clientFailures: 2, clientWindowSeconds: 60 } });
    expect(await app.outcome("a@example.com")).toBe("wrong");
    advance(10_000);
    expect(await app.outcome("b@example.com")).toBe("wrong");
    const refused = await app.signIn("c@example.com", "right");
    expect(refused.outcome).toBe("refused");
    expect(refused.error?.message).toBe(TOO_MANY_FROM_CLIENT);
    expect(refused.error?.retryAfter).toBe(50);
    expect(app.callsFor("c@example.com")).toBe(0);
    // Another address is another client.
    expect(await app.outcome("c@example.com", "right", "192.0.2.2")).toBe("signed-in");
    advance(50_000 - 1);
    expect(await app.outcome("c@example.com", "right")).toBe("refused");
    advance(1);
    expect(await app.outcome("c@example.com", "right")).toBe("signed-in");
  });

  it("counts failures only: signing in successfully never uses up the client's allowance", async () => {
    const app = credentialsApp({ credentials: { clientFailures: 2 } });
    for (let i = 0; i < 5; i++) expect(await app.outcome(`user-${i}@example.com`, "right")).toBe("signed-in");
    expect(await app.outcome("a@example.com")).toBe("wrong");
    expect(await app.outcome("b@example.com", "right")).toBe("signed-in");
  });

  it("counts an IPv6 client by its /64 and an IPv4-mapped address as its IPv4 address", async () => {
    const app = credentialsApp({ credentials: { clientFailures: 2 } });
    expect(await app.outcome("a@example.com", "wrong", "2001:db8:1:2::1")).toBe("wrong");
    expect(await app.outcome("b@example.com", "wrong", "2001:db8:1:2::ffff")).toBe("wrong");
    expect(await app.outcome("c@example.com", "right", "2001:db8:1:2:3:4:5:6")).toBe("refused");
    expect(await app.outcome("c@example.com", "right", "2001:db8:1:3::1")).toBe("signed-in");

    expect(await app.outcome("a@example.com", "wrong", "198.51.100.7")).toBe("wrong");
    expect(await app.outcome("b@example.com", "wrong", "::ffff:198.51.100.7")).toBe("wrong");
    expect(await app.outcome("c@example.com", "right", "198.51.100.7")).toBe("refused");
  });

  it("without a client address, skips the per-client limit and says so once (debug), the per-account limit holds", async () => {
    const { store, calls } = recordingStore();
    const app = credentialsApp({ store, credentials: { clientFailures: 1 } });
    for (let i = 0; i < 4; i++) expect(await app.outcome(`user-${i}@example.com`, "wrong", null)).toBe("wrong");
    const said = app.debug.filter(([message]) => message.includes("no client address"));
    expect(said).toEqual([
      [
        "rate-limit: no client address is known for a request, so per-client limits are off for it. Pass the connection address (Auth's third argument) or set rateLimit.clientAddress.",
        undefined,
      ],
    ]);
    for (let i = 0; i < 3; i++) expect(await app.outcome(VICTIM, "wrong", null)).toBe("wrong");
    expect(await app.outcome(VICTIM, "wrong", null)).toBe("refused");
    // No client key is read or written, not even one for "no address".
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) expect(call).toMatch(/^(get|increment|reset) authlib:cred:(acct|wait):[0-9a-f]{32}( |$)/);
  });

  it("an address of only spaces is no address", async () => {
    const app = credentialsApp({ credentials: { clientFailures: 1 } });
    for (let i = 0; i < 3; i++) expect(await app.outcome(`user-${i}@example.com`, "wrong", "   ")).toBe("wrong");
  });

  it("never reads X-Forwarded-For unless rateLimit.clientAddress does", async () => {
    const { options } = optionsFor({});
    const limits = limitsOf(options) as Exclude<ReturnType<typeof limitsOf>, false>;
    const forwarded = requestFrom("192.0.2.9", { "x-forwarded-for": "203.0.113.1" });
    expect(defaultClientAddress(forwarded.request, forwarded.connectionAddress)).toBe("192.0.2.9");
    expect(clientAddressOf(options, limits, forwarded)).toBe("192.0.2.9");

    const seen: unknown[] = [];
    const custom = optionsFor({
      clientAddress: (request, connection) => {
        seen.push(connection);
        return request.headers.get("x-forwarded-for") ?? undefined;
      },
    });
    const customLimits = limitsOf(custom.options) as Exclude<ReturnType<typeof limitsOf>, false>;
    expect(clientAddressOf(custom.options, customLimits, forwarded)).toBe("203.0.113.1");
    expect(seen).toEqual(["192.0.2.9"]);
  });
});

describe("the account an attempt is for", () => {
  const limits = resolveRateLimits({}) as { credentials: ResolvedCredentialsLimits };
  const settings = limits.credentials;
  const provider = (credentials: CredentialsConfig["credentials"]) => Credentials({ credentials, authorize: () => null });

  it("is the first credential that is not a password, NFKC-normalised, trimmed and lower-cased", () => {
    const p = provider({ pin: { type: "password" }, login: { type: "text" }, email: { type: "email" } });
    expect(accountOf(p, settings, { pin: "1234", login: " ＡＤＭＩＮ ", email: "x@example.com" })).toBe("admin");
  });

  it("falls back to email, then username, and is none when none of them is a non-empty string", () => {
    const passwordOnly = provider({ secret: { type: "password" } });
    expect(accountOf(passwordOnly, settings, { secret: "s", email: "A@Example.com", username: "u" })).toBe("a@example.com");
    expect(accountOf(passwordOnly, settings, { secret: "s", email: "  ", username: "Bob" })).toBe("bob");
    expect(accountOf(passwordOnly, settings, { secret: "s", email: 42, username: ["x"] })).toBeUndefined();
    expect(accountOf(passwordOnly, settings, { secret: "s", undefined: "mallory" })).toBeUndefined();
    const noFields = Credentials({ authorize: () => null });
    expect(accountOf(noFields, settings, { username: "Carol" })).toBe("carol");
    const named = provider({ login: { type: "text" } });
    expect(accountOf(named, settings, { login: "", email: "e@example.com" })).toBe("e@example.com");
  });

  it("is what rateLimit.credentials.identifier returns, as it is; none when that is not a non-empty string", () => {
    const p = provider({ email: { type: "email" } });
    const choose = (identifier: (c: Record<string, unknown>) => string | undefined) =>
      (resolveRateLimits({ credentials: { identifier } }) as { credentials: ResolvedCredentialsLimits }).credentials;
    expect(
      accountOf(
        p,
        choose((c) => `tenant:${String(c.tenant)}`),
        { tenant: "T1", email: "x@example.com" },
      ),
    ).toBe("tenant:T1");
    expect(
      accountOf(
        p,
        choose(() => ""),
        { email: "x@example.com" },
      ),
    ).toBeUndefined();
    expect(
      accountOf(
        p,
        choose(() => 7 as unknown as string),
        { email: "x@example.com" },
      ),
    ).toBeUndefined();
  });

  it("with no account, only the per-client limit applies", async () => {
    const app = credentialsApp({ credentials: { freeFailures: 1, clientFailures: 3, identifier: () => undefined } });
    expect(await app.outcome(VICTIM, "right")).toBe("signed-in");
    for (let i = 0; i < 3; i++) expect(await app.outcome(VICTIM)).toBe("wrong");
    expect(await app.outcome(VICTIM)).toBe("refused");
  });

  it("a credential field declared without details counts as a name, and a provider without fields falls back", () => {
    const loose = { ...provider({ password: { type: "password" } }), credentials: { login: undefined, password: { type: "password" } } };
    expect(accountOf(loose as unknown as CredentialsConfig, settings, { login: "Dora", email: "e@example.com" })).toBe("dora");
    const none = { ...provider({}), credentials: undefined } as unknown as CredentialsConfig;
    expect(accountOf(none, settings, { email: "E@Example.com" })).toBe("e@example.com");
  });
});

describe("the settings", () => {
  // The features' sections (here the second factor's, as the instance passes them).
  const features = rateLimitsOf({ providers: [] } as unknown as AuthConfig);
  it("default to 3 free failures, 1 s doubling, 10 failures in 15 min, 50 failures per client in 15 min, 5/30 mails and 10/30 codes in 15 min, 30 passkey and 60 session requests a minute, 10 second-factor codes per user and 30 per client in 15 min", () => {
    expect(resolveRateLimits(undefined, features)).toEqual({
      store: undefined,
      clientAddress: undefined,
      credentials: {
        freeFailures: 3,
        initialDelaySeconds: 1,
        lockoutFailures: 10,
        lockoutWindowSeconds: 900,
        clientFailures: 50,
        clientWindowSeconds: 900,
        identifier: undefined,
      },
      email: { mailboxMax: 5, clientMax: 30, codeMailboxMax: 10, codeClientMax: 30, windowSeconds: 900 },
      passkey: { max: 30, windowSeconds: 60 },
      sessionUpdate: { max: 60, windowSeconds: 60 },
      features: { twoFactor: { userMax: 10, clientMax: 30, windowSeconds: 900 } },
      saidNoClientAddress: false,
      saidBehindProxy: false,
    });
    expect(resolveRateLimits({}, features)).toEqual(resolveRateLimits(undefined, features));
  });

  it("keep what is given over the defaults, and false switches one limit, or all of them, off", () => {
    const store = memoryRateLimitStore();
    const clientAddress = () => "x";
    const identifier = () => "y";
    const resolved = resolveRateLimits(
      {
        store,
        clientAddress,
        credentials: { freeFailures: 1, initialDelaySeconds: 0.5, identifier },
        email: false,
        passkey: { max: 2 },
        sessionUpdate: { windowSeconds: 1.5 },
        twoFactor: { userMax: 4 },
      },
      features,
    );
    expect(resolved).toEqual({
      store,
      clientAddress,
      credentials: {
        freeFailures: 1,
        initialDelaySeconds: 0.5,
        lockoutFailures: 10,
        lockoutWindowSeconds: 900,
        clientFailures: 50,
        clientWindowSeconds: 900,
        identifier,
      },
      email: false,
      passkey: { max: 2, windowSeconds: 60 },
      sessionUpdate: { max: 60, windowSeconds: 1.5 },
      features: { twoFactor: { userMax: 4, clientMax: 30, windowSeconds: 900 } },
      saidNoClientAddress: false,
      saidBehindProxy: false,
    });
    expect(resolveRateLimits({ credentials: false, passkey: false, sessionUpdate: false, twoFactor: false }, features)).toMatchObject({
      credentials: false,
      passkey: false,
      sessionUpdate: false,
      features: { twoFactor: false },
    });
    expect(resolveRateLimits(false)).toBe(false);
  });

  it("refuse a count that is not a whole number of at least 1, naming the setting", () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
      expect(() => resolveRateLimits({ credentials: { lockoutFailures: bad } })).toThrow(
        new AuthError("rateLimit.credentials.lockoutFailures must be a whole number of at least 1."),
      );
    }
    expect(() => resolveRateLimits({ email: { mailboxMax: 0 } })).toThrow(
      "rateLimit.email.mailboxMax must be a whole number of at least 1.",
    );
    expect(() => resolveRateLimits({ passkey: { max: 0 } })).toThrow("rateLimit.passkey.max must be a whole number of at least 1.");
    expect(() => resolveRateLimits({ sessionUpdate: { max: -2 } })).toThrow(
      "rateLimit.sessionUpdate.max must be a whole number of at least 1.",
    );
    expect(() => resolveRateLimits({ credentials: { lockoutFailures: "5" as unknown as number } })).toThrow(AuthError);
    expect(resolveRateLimits({ credentials: { lockoutFailures: 1 } })).toMatchObject({ credentials: { lockoutFailures: 1 } });
  });

  it("refuse a duration that is not a positive number of seconds, naming the setting", () => {
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => resolveRateLimits({ credentials: { clientWindowSeconds: bad } })).toThrow(
        new AuthError("rateLimit.credentials.clientWindowSeconds must be a positive number of seconds."),
      );
    }
    expect(() => resolveRateLimits({ email: { windowSeconds: 0 } })).toThrow(
      "rateLimit.email.windowSeconds must be a positive number of seconds.",
    );
    expect(() => resolveRateLimits({ sessionUpdate: { windowSeconds: -1 } })).toThrow(
      "rateLimit.sessionUpdate.windowSeconds must be a positive number of seconds.",
    );
    expect(resolveRateLimits({ passkey: { windowSeconds: 0.001 } })).toMatchObject({ passkey: { windowSeconds: 0.001 } });
  });

  it("are resolved once per configuration, with one memory store made on first use", () => {
    const { options } = optionsFor(undefined);
    const limits = limitsOf(options);
    expect(limits).not.toBe(false);
    expect(limitsOf(options)).toBe(limits);
    const store = storeOf(limits as Exclude<typeof limits, false>);
    expect(storeOf(limits as Exclude<typeof limits, false>)).toBe(store);
    expect(limitsOf(optionsFor(false).options)).toBe(false);

    const configured = memoryRateLimitStore();
    expect(storeOf(limitsOf(optionsFor({ store: configured }).options) as Exclude<typeof limits, false>)).toBe(configured);
  });
});

describe("keys, counts and refusals", () => {
  it("a key is authlib:<scope>:<32 hex characters> of a keyed hash: one per scope, identifier and secret", async () => {
    const key = await limitKey({ secret: [secret] }, "cred:acct", "credentials:alice");
    expect(key).toMatch(/^authlib:cred:acct:[0-9a-f]{32}$/);
    expect(await limitKey({ secret: [secret] }, "cred:acct", "credentials:alice")).toBe(key);
    const others = [
      await limitKey({ secret: [secret] }, "cred:acct", "credentials:bob"),
      await limitKey({ secret: [`${secret}-2`] }, "cred:acct", "credentials:alice"),
      (await limitKey({ secret: [secret] }, "cred:wait", "credentials:alice")).replace("cred:wait", "cred:acct"),
    ];
    for (const other of others) expect(other).not.toBe(key);
    expect(key).not.toContain("alice");
  });

  it("countRequest lets max requests through per window and refuses the next, with when to come back", async () => {
    const { options, debug } = optionsFor({});
    const store = memoryRateLimitStore();
    const limit = { max: 2, windowSeconds: 30 };
    await countRequest(options, store, "email:mbox", "m", limit, "no more");
    advance(10_000);
    await countRequest(options, store, "email:mbox", "m", limit, "no more");
    const refused = await countRequest(options, store, "email:mbox", "m", limit, "no more").catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RateLimited);
    const key = await limitKey(options, "email:mbox", "m");
    expect(refused).toMatchObject({ message: "no more", retryAfter: 20, cause: { key, retryAfter: 20 } });
    expect(debug).toEqual([["rate-limit: refused", { key, retryAfter: 20 }]]);
    await countRequest(options, store, "email:mbox", "other", limit, "no more");
    advance(20_000);
    await countRequest(options, store, "email:mbox", "m", limit, "no more");
  });

  it("a refusal says at least 1 s, rounded up, and no Retry-After when the end is not a time", () => {
    const { options } = optionsFor({});
    expect(refusal(options, "k", Date.now() + 1500, "m").retryAfter).toBe(2);
    expect(refusal(options, "k", Date.now() - 5000, "m").retryAfter).toBe(1);
    expect(refusal(options, "k", Date.now(), "m").retryAfter).toBe(1);
    const endless = refusal(options, "k", Number.POSITIVE_INFINITY, "m");
    expect(endless).toBeInstanceOf(RateLimited);
    expect(endless.retryAfter).toBeUndefined();
  });

  it("a window is over a limit from max hits on, and no window is never over", () => {
    expect(isOver(null, 1)).toBe(false);
    expect(isOver({ count: 2, resetAt: 0 }, 3)).toBe(false);
    expect(isOver({ count: 3, resetAt: 0 }, 3)).toBe(true);
    expect(isOver({ count: Number.POSITIVE_INFINITY, resetAt: 0 }, 3)).toBe(true);
  });

  it("a store that fails closed (an app's own store answering an infinite count) refuses the client", async () => {
    // The built-in stores never do (the memory store evicts instead); a store of the app's own may.
    const closed = { count: Number.POSITIVE_INFINITY, resetAt: Date.now() + 60_000 };
    const full: RateLimitStore = { increment: async () => ({ ...closed }), get: async () => ({ ...closed }), reset: async () => {} };
    const app = credentialsApp({ store: full });
    expect(await app.outcome(VICTIM)).toBe("refused");
    expect(app.calls).toEqual([]);
  });

  it("countClientRequest counts per client address with the scope's message, and skips when off or unknown", async () => {
    const { store, calls } = recordingStore();
    const { options } = optionsFor({ store, passkey: { max: 1 }, sessionUpdate: false });
    const from = requestFrom("192.0.2.5");
    const messages: Record<string, string> = {
      "email:ip": "Too many sign-in mails requested from this client; try again later.",
      "passkey:ip": "Too many passkey requests from this client; try again later.",
      "session:ip": "Too many session updates from this client; try again later.",
      "cred:ip": "Too many requests from this client; try again later.",
    };
    for (const [scope, message] of Object.entries(messages)) {
      const count = () => countClientRequest(options, from, scope as "email:ip", () => ({ max: 1, windowSeconds: 60 }));
      await count();
      const refused = await count().catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(RateLimited);
      expect(refused).toMatchObject({ message, retryAfter: 60 });
    }
    calls.length = 0;
    await countClientRequest(options, from, "session:ip", (limits) => limits.sessionUpdate);
    await countClientRequest(options, requestFrom(undefined), "passkey:ip", (limits) => limits.passkey);
    await countClientRequest(optionsFor(false).options, from, "passkey:ip", () => ({ max: 1, windowSeconds: 60 }));
    expect(calls).toEqual([]);
    await countClientRequest(options, requestFrom("192.0.2.6"), "passkey:ip", (limits) => limits.passkey);
    expect(calls).toEqual([`increment ${await limitKey(options, "passkey:ip", "192.0.2.6")} 60000`]);
  });
});

describe("sign-in mails", () => {
  const TOO_MANY_FOR_MAILBOX = "Too many sign-in mails for this address; try again later.";

  function mailApp(config: RateLimitConfig | false = {}) {
    const { store, calls } = recordingStore();
    const { options } = optionsFor(config === false ? false : { store, ...config });
    const ask = (identifier: string, address: string, providerLimit?: Parameters<typeof countVerificationMail>[3]) =>
      countVerificationMail(options, requestFrom(address), identifier, providerLimit).then(
        () => "sent",
        (error: unknown) => (error instanceof RateLimited ? error.message : Promise.reject(error)),
      );
    return { ask, calls, options };
  }

  it("count per delivery mailbox: case, +tags, Gmail's dots and googlemail.com are one mailbox", async () => {
    const app = mailApp({ email: { mailboxMax: 2 } });
    expect(await app.ask("bomb+1@gmail.com", "192.0.2.1")).toBe("sent");
    expect(await app.ask("b.o.m.b@googlemail.com", "192.0.2.2")).toBe("sent");
    expect(await app.ask("bomb+x@gmail.com", "192.0.2.3")).toBe(TOO_MANY_FOR_MAILBOX);
    expect(await app.ask("someone.else@gmail.com", "192.0.2.3")).toBe("sent");
  });

  it("count per client address, whatever the mailbox, in windowSeconds", async () => {
    const app = mailApp({ email: { clientMax: 2, windowSeconds: 60 } });
    expect(await app.ask("a1@example.com", "198.51.100.1")).toBe("sent");
    expect(await app.ask("a2@example.com", "198.51.100.1")).toBe("sent");
    expect(await app.ask("a3@example.com", "198.51.100.1")).toBe("Too many sign-in mails requested from this client; try again later.");
    expect(await app.ask("a3@example.com", "198.51.100.2")).toBe("sent");
    advance(60_000);
    expect(await app.ask("a4@example.com", "198.51.100.1")).toBe("sent");
  });

  it("default to 5 mails per mailbox and 30 per client in 15 minutes", async () => {
    const app = mailApp();
    for (let i = 0; i < 5; i++) expect(await app.ask("inbox@example.com", `192.0.2.${i}`)).toBe("sent");
    expect(await app.ask("inbox@example.com", "192.0.2.99")).toBe(TOO_MANY_FOR_MAILBOX);
    for (let i = 0; i < 30; i++) expect(await app.ask(`user-${i}@example.com`, "198.51.100.9")).toBe("sent");
    expect(await app.ask("last@example.com", "198.51.100.9")).not.toBe("sent");
    advance(900_000 - 1);
    expect(await app.ask("inbox@example.com", "192.0.2.100")).toBe(TOO_MANY_FOR_MAILBOX);
    advance(1);
    expect(await app.ask("inbox@example.com", "192.0.2.100")).toBe("sent");
  });

  it("an email provider's own rateLimit overrides the per-mailbox limit, its window and its store", async () => {
    const app = mailApp({ email: { mailboxMax: 5, windowSeconds: 900 } });
    const limit = { max: 1, windowSeconds: 60 };
    expect(await app.ask("one@example.com", "192.0.2.1", limit)).toBe("sent");
    expect(await app.ask("One+2@example.com", "192.0.2.2", limit)).toBe(TOO_MANY_FOR_MAILBOX);
    advance(60_000);
    expect(await app.ask("one@example.com", "192.0.2.3", limit)).toBe("sent");

    const own = recordingStore();
    const apart = mailApp();
    expect(await apart.ask("two@example.com", "192.0.2.4", { store: own.store })).toBe("sent");
    expect(own.calls).toEqual([`increment ${await limitKey(apart.options, "email:mbox", "two@example.com")} 900000`]);
    expect(apart.calls).toEqual([`increment ${await limitKey(apart.options, "email:ip", "192.0.2.4")} 900000`]);
  });

  it("false on the provider switches the per-mailbox limit off for it (the per-client one stays)", async () => {
    const app = mailApp({ email: { mailboxMax: 1, clientMax: 3 } });
    for (let i = 0; i < 3; i++) expect(await app.ask("many@example.com", `192.0.2.${20 + i}`, false)).toBe("sent");
    expect(app.calls.every((call) => call.includes("email:ip"))).toBe(true);
    for (let i = 0; i < 2; i++) await app.ask("x@example.com", "192.0.2.20", false);
    expect(await app.ask("y@example.com", "192.0.2.20", false)).not.toBe("sent");
  });

  it("rateLimit: false or rateLimit.email: false count nothing", async () => {
    const off = mailApp(false);
    for (let i = 0; i < 8; i++) expect(await off.ask("same@example.com", "192.0.2.1")).toBe("sent");
    const emailOff = mailApp({ email: false });
    for (let i = 0; i < 8; i++) expect(await emailOff.ask("same@example.com", "192.0.2.1")).toBe("sent");
    expect(emailOff.calls).toEqual([]);
  });
});

describe("client address buckets", () => {
  it("trim and lower-case what they are given", () => {
    expect(clientBucket("  203.0.113.7 ")).toBe("203.0.113.7");
    expect(clientBucket(" Tenant-7 ")).toBe("tenant-7");
    expect(clientBucket(" 2001:DB8:A:B::1 ")).toBe("2001:db8:a:b::/64");
  });

  it("expand :: to the missing zero groups wherever it stands", () => {
    expect(clientBucket("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(clientBucket("2001:db8::")).toBe("2001:db8:0:0::/64");
    expect(clientBucket("::")).toBe("0:0:0:0::/64");
    expect(clientBucket("1:2:3:4:5:6::7")).toBe("1:2:3:4::/64");
    expect(clientBucket("1:2:3:4:5:6:7:8")).toBe("1:2:3:4::/64");
    expect(clientBucket("0001:0db8:00a0:0000::1")).toBe("1:db8:a0:0::/64");
  });

  it("map an IPv4-mapped address, in any spelling, to its IPv4 address, and nothing else", () => {
    expect(clientBucket("0:0:0:0:0:ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(clientBucket("::ffff:0.0.0.0")).toBe("0.0.0.0");
    expect(clientBucket("::ffff:255.255.255.255")).toBe("255.255.255.255");
    expect(clientBucket("::FFFF:C0A8:0101")).toBe("192.168.1.1");
    expect(clientBucket("[::ffff:10.1.2.3]")).toBe("10.1.2.3");
    // Not mapped: a nonzero group before ffff, or something else than ffff.
    expect(clientBucket("1::ffff:203.0.113.7")).toBe("1:0:0:0::/64");
    expect(clientBucket("::fffe:203.0.113.7")).toBe("0:0:0:0::/64");
    expect(clientBucket("::1:0:ffff:203.0.113.7")).toBe("0:0:0:1::/64");
  });

  it("take a dotted IPv4 tail as two groups of an IPv6 address", () => {
    expect(clientBucket("2001:db8:1:2:3:4:1.2.3.4")).toBe("2001:db8:1:2::/64");
    expect(clientBucket("64:ff9b::192.0.2.33")).toBe("64:ff9b:0:0::/64");
  });

  it("leave a malformed address as given (lower-cased)", () => {
    for (const malformed of [
      "1:2:3:4:5:6:7",
      "1:2:3:4:5:6:7:8:9",
      "1:2:3:4::5:6:7:8",
      "1:::2",
      "12345::1",
      "xa::1",
      "ax::1",
      "g::1",
      "::ffff:1.2.3",
      "::ffff:1.2.3.4.5",
      "::ffff:1.2.3.256",
      "::ffff:1.2.-3.4",
      "::ffff:1.2.3.x",
      "::ffff:1.2.3.4.",
      "1:2:3:4:5:6:7:1.2.3.4",
      "[2001:db8::1",
      "2001:db8::1]",
    ]) {
      expect(clientBucket(malformed)).toBe(malformed);
    }
    expect(clientBucket("[2001:DB8::1")).toBe("[2001:db8::1");
  });

  it("drop the zone of a link-local address", () => {
    expect(clientBucket("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(clientBucket("[fe80::2%25en0]")).toBe("fe80:0:0:0::/64");
  });
});
