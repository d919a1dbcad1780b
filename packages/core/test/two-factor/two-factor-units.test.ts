/**
 * The second factor's parts driven directly (the two-factor-units mutation group's statement): the sealed
 * factor row and secrets rotation, the pending cookie (its attributes, lifetime, browser binding, tampering),
 * the session's assurance and its cookie bound to its session token, step-up's boundaries and messages, and
 * the code limits (the 5th try, single use). Real encryption and the in-memory adapter; no server.
 */
import { describe, expect, test, vi } from "vitest";
import { MissingAdapterMethods, RateLimited, RecentSignInRequired, SessionRequired, TwoFactorExpired } from "../../src/errors.js";
import { base32Decode, base32Encode } from "../../src/features/two-factor/base32.js";
import { twoFactorFeature } from "../../src/features/two-factor/feature.js";
import {
  clearPending,
  openPending,
  PENDING_MAX_AGE,
  type PendingSignIn,
  pendingOrExpired,
  sealPending,
} from "../../src/features/two-factor/pending.js";
import { claimCodeUse, clearSecondFactorTries, countSecondFactorTry } from "../../src/features/two-factor/rate-limit.js";
import { factorRowOf, openFactor, removeFactor, storeFactor, totpFactorOf, twoFactorStore } from "../../src/features/two-factor/record.js";
import { hashRecoveryCode, matchingRecoveryHash } from "../../src/features/two-factor/recovery-codes.js";
import { hotp, matchingStep, TOTP_STEP_SECONDS } from "../../src/features/two-factor/totp.js";
import { resolveCookies } from "../../src/http/cookies.js";
import { failureCookies } from "../../src/http/error-response.js";
import { decode, encode } from "../../src/jwt.js";
import { builtInCookies } from "../../src/kernel/features.js";
import { memoryRateLimitStore, type RateLimitStore } from "../../src/rate-limit/store.js";
import { assuranceIn, firstFactorMethod, singleFactor, withAssurance } from "../../src/session/assurance.js";
import { clearAssurance, openAssurance, sealAssurance } from "../../src/session/assurance-cookie.js";
import { meetsRequirement, requireRecentSignIn } from "../../src/session/recent-auth.js";
import { isSecondFactorRow, SECOND_FACTOR_PROVIDER } from "../../src/sign-in/second-factor-row.js";
import type { InternalOptions, RequestInternal } from "../../src/types/internal.js";
import { memoryAdapter } from "../helpers/memory-adapter.js";

const SECRET = "two-factor-unit-secret-0123456789abcdef";
const OLD = "two-factor-unit-old-secret-0123456789ab";

function optionsWith(extra: Record<string, unknown> = {}): InternalOptions {
  return {
    secret: [SECRET],
    cookies: resolveCookies(false, {}, builtInCookies),
    csrfToken: "csrf-1",
    config: {},
    rateLimits: { config: undefined },
    logger: { debug: () => {}, warn: () => {}, error: () => {} },
    ...extra,
  } as unknown as InternalOptions;
}
function requestWith(cookies: Record<string, string | undefined> = {}, connectionAddress = "192.0.2.1"): RequestInternal {
  const request = new Request("http://localhost:3000/auth/two-factor", { method: "POST" });
  return { request, connectionAddress, headers: request.headers, cookies } as unknown as RequestInternal;
}
const jar = (cookies: Array<{ name: string; value: string }>) => Object.fromEntries(cookies.map((c) => [c.name, c.value]));

describe("base32 edges", () => {
  test("every leftover bit count encodes and decodes back", () => {
    for (let length = 1; length <= 10; length++) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 37 + 255) & 0xff);
      expect(base32Decode(base32Encode(bytes))).toEqual(bytes);
    }
    expect(base32Encode(Uint8Array.of(0xff))).toBe("74");
    expect(base32Encode(Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0xff))).toBe("77777777");
    expect(base32Decode("77777777")).toEqual(Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0xff));
    expect(base32Decode("74")).toEqual(Uint8Array.of(0xff));
    expect(base32Decode("7")).toEqual(new Uint8Array(0));
    expect(base32Decode("\tmy\n")).toEqual(Uint8Array.of(0x66));
  });
});

describe("codes that more than one candidate matches", () => {
  test("a TOTP code of two steps in the window is the earlier step", async () => {
    // Found by scanning RFC 6238's SHA-1 seed: steps 61331809 and 61331811 share the code 768734.
    const key = new TextEncoder().encode("12345678901234567890");
    expect(await hotp(key, 61331809)).toBe("768734");
    expect(await hotp(key, 61331811)).toBe("768734");
    expect(await matchingStep(key, "768734", 61331810 * TOTP_STEP_SECONDS)).toBe(61331809);
  });

  test("a recovery code stored under two secrets matches the hash of the first secret that opens it", async () => {
    const underOld = await hashRecoveryCode(OLD, "u", "abcdefghjk");
    const underNew = await hashRecoveryCode(SECRET, "u", "abcdefghjk");
    expect(await matchingRecoveryHash([SECRET, OLD], "u", "abcdefghjk", [underOld, underNew])).toBe(underNew);
    expect(await matchingRecoveryHash([OLD, SECRET], "u", "abcdefghjk", [underNew, underOld])).toBe(underOld);
  });
});

describe("the factor's row", () => {
  test("the row is told apart by its provider", () => {
    expect(SECOND_FACTOR_PROVIDER).toBe("authlib-2fa");
    expect(isSecondFactorRow({ provider: "authlib-2fa" })).toBe(true);
    expect(isSecondFactorRow({ provider: "github" })).toBe(false);
  });

  test("an adapter without the accounts methods is refused, naming them", () => {
    expect(() => twoFactorStore(optionsWith())).toThrow(MissingAdapterMethods);
    expect(() => twoFactorStore(optionsWith())).toThrow(
      "Second factors live in the adapter's accounts; it needs these methods: getUser, linkAccount, listAccountsByUserId, updateAccount, unlinkAccount.",
    );
    const { adapter } = memoryAdapter();
    const { unlinkAccount: _, ...partial } = adapter;
    expect(() => twoFactorStore(optionsWith({ adapter: partial }))).toThrow(/it needs these methods: unlinkAccount\.$/);
    expect(twoFactorStore(optionsWith({ adapter }))).toBe(adapter);
  });

  test("stored sealed, updated in place, opened under an old secret after rotation, gone under a removed one", async () => {
    const memory = memoryAdapter();
    const oldOptions = optionsWith({ secret: [OLD], adapter: memory.adapter });
    const store = twoFactorStore(oldOptions);
    const user = await memory.adapter.createUser?.({ id: "u1", email: "u1@example.com", emailVerified: null });
    const userId = user?.id ?? "u1";
    await memory.adapter.linkAccount?.({ provider: "github", providerAccountId: "g1", userId, type: "oauth", access_token: "gh" });
    expect(await totpFactorOf(oldOptions, store, userId)).toBeNull();

    await storeFactor(oldOptions, store, userId, { secret: "JBSWY3DPEHPK3PXP", confirmed: false, recovery: [] });
    const rows = memory.accounts.filter((a) => a.provider === SECOND_FACTOR_PROVIDER);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ providerAccountId: userId, userId, type: "credentials" });
    expect(rows[0]?.access_token).not.toContain("JBSWY3DPEHPK3PXP");
    expect((await factorRowOf(store, userId))?.provider).toBe(SECOND_FACTOR_PROVIDER);

    await storeFactor(oldOptions, store, userId, { secret: "JBSWY3DPEHPK3PXP", confirmed: true, recovery: ["h1", "h2"] });
    expect(memory.accounts.filter((a) => a.provider === SECOND_FACTOR_PROVIDER)).toHaveLength(1);
    const factor = { secret: "JBSWY3DPEHPK3PXP", confirmed: true, recovery: ["h1", "h2"] };
    expect(await totpFactorOf(oldOptions, store, userId)).toEqual(factor);

    const rotated = optionsWith({ secret: [SECRET, OLD], adapter: memory.adapter });
    expect(await totpFactorOf(rotated, store, userId)).toEqual(factor);
    const removed = optionsWith({ secret: [SECRET], adapter: memory.adapter });
    expect(await totpFactorOf(removed, store, userId)).toBeNull();

    await removeFactor(store, userId);
    expect(memory.accounts.filter((a) => a.provider === SECOND_FACTOR_PROVIDER)).toHaveLength(0);
    expect(memory.accounts.filter((a) => a.provider === "github")).toHaveLength(1);
    expect(await factorRowOf(store, userId)).toBeNull();
    await removeFactor(store, userId);
    expect(memory.accounts).toHaveLength(1);
  });

  test("a row whose sealed value is gone is still the row: storing updates it, turning off removes it", async () => {
    const memory = memoryAdapter();
    const options = optionsWith({ adapter: memory.adapter });
    const store = twoFactorStore(options);
    await memory.adapter.linkAccount?.({ provider: SECOND_FACTOR_PROVIDER, providerAccountId: "u2", userId: "u2", type: "credentials" });
    expect((await factorRowOf(store, "u2"))?.providerAccountId).toBe("u2");
    expect(await totpFactorOf(options, store, "u2")).toBeNull();
    await storeFactor(options, store, "u2", { secret: "S", confirmed: true, recovery: [] });
    expect(memory.accounts.filter((a) => a.provider === SECOND_FACTOR_PROVIDER)).toHaveLength(1);
    expect(await totpFactorOf(options, store, "u2")).toEqual({ secret: "S", confirmed: true, recovery: [] });
    await removeFactor(store, "u2");
    expect(memory.accounts).toHaveLength(0);
  });

  test("a row that is not a well-formed sealed factor opens to null", async () => {
    const options = optionsWith();
    const row = (access_token: string | undefined) =>
      ({ provider: SECOND_FACTOR_PROVIDER, providerAccountId: "u", userId: "u", type: "credentials", access_token }) as never;
    const sealed = (token: Record<string, unknown>) => encode({ token, secret: SECRET, salt: "authlib.two-factor", maxAge: 60 });
    expect(await openFactor(options, null)).toBeNull();
    expect(await openFactor(options, row(undefined))).toBeNull();
    expect(await openFactor(options, row("not-a-jwe"))).toBeNull();
    expect(await openFactor(options, row(await sealed({ recovery: [] })))).toBeNull();
    expect(await openFactor(options, row(await sealed({ secret: "S", recovery: "h" })))).toBeNull();
    expect(await openFactor(options, row(await sealed({ secret: "S", confirmed: "yes", recovery: ["h", 3, null] })))).toEqual({
      secret: "S",
      confirmed: false,
      recovery: ["h"],
    });
    const otherSalt = await encode({ token: { secret: "S", recovery: [] }, secret: SECRET, salt: "other", maxAge: 60 });
    expect(await openFactor(options, row(otherSalt))).toBeNull();
  });
});

const pending: PendingSignIn = {
  id: "pending-1",
  userId: "u1",
  method: "pwd",
  callbackUrl: "http://localhost:3000/home",
  result: {
    user: { id: "u1", email: "u1@example.com", emailVerified: "2026-01-01T00:00:00.000Z" as unknown as Date },
    account: { provider: "password", providerAccountId: "u1", type: "credentials" },
    isNewUser: false,
  },
};

describe("the pending cookie", () => {
  test("sealed into the two-factor cookie for the default 10 minutes, opened back in the same browser", async () => {
    const options = optionsWith();
    expect(PENDING_MAX_AGE).toBe(600);
    const cookies = await sealPending(options, requestWith(), pending);
    expect(cookies).toHaveLength(1);
    expect(cookies[0]?.name).toBe("authlib.two-factor");
    expect(cookies[0]?.options).toMatchObject({ maxAge: 600, httpOnly: true, sameSite: "lax", path: "/" });
    expect(cookies[0]?.value).not.toContain("u1@example.com");
    const opened = await openPending(options, requestWith(jar(cookies)));
    expect(opened).toEqual({
      ...pending,
      result: { ...pending.result, user: { ...pending.result.user, emailVerified: new Date("2026-01-01T00:00:00.000Z") } },
    });
    expect(opened?.result.user.emailVerified).toBeInstanceOf(Date);
  });

  test("pendingMaxAge sets the cookie's and the seal's lifetime: past it the state opens to nothing", async () => {
    const options = optionsWith({ config: { twoFactor: { pendingMaxAge: 120 } } });
    const cookies = await sealPending(options, requestWith(), pending);
    expect(cookies[0]?.options.maxAge).toBe(120);
    vi.useFakeTimers({ now: Date.now() + 119_000, toFake: ["Date"] });
    try {
      expect(await openPending(options, requestWith(jar(cookies)))).toBeDefined();
      vi.setSystemTime(Date.now() + 60_000);
      expect(await openPending(options, requestWith(jar(cookies)))).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });

  test("another browser, a tampered cookie, another secret or no CSRF token open to nothing", async () => {
    const options = optionsWith();
    const cookies = await sealPending(options, requestWith(), pending);
    const value = cookies[0]?.value as string;
    expect(await openPending(optionsWith({ csrfToken: "csrf-2" }), requestWith(jar(cookies)))).toBeUndefined();
    expect(await openPending(optionsWith({ csrfToken: "" }), requestWith(jar(cookies)))).toBeUndefined();
    const tampered = `${value.slice(0, -4)}${value.slice(-4) === "AAAA" ? "BBBB" : "AAAA"}`;
    expect(await openPending(options, requestWith({ "authlib.two-factor": tampered }))).toBeUndefined();
    expect(await openPending(optionsWith({ secret: [OLD] }), requestWith(jar(cookies)))).toBeUndefined();
    expect(await openPending(options, requestWith())).toBeUndefined();
    const noCsrf = optionsWith({ csrfToken: "" });
    const unbound = await sealPending(noCsrf, requestWith(), pending);
    expect(await openPending(noCsrf, requestWith(jar(unbound)))).toBeUndefined();
  });

  test("a browser without a CSRF token gets one first, and the pending sign-in opens with that token only", async () => {
    const noCsrf = optionsWith({ csrfToken: "" });
    const cookies = await sealPending(noCsrf, requestWith(), pending);
    expect(cookies.map((c) => c.name)).toEqual(["authlib.csrf-token", "authlib.two-factor"]);
    const [token, mac] = String(cookies[0]?.value).split("|");
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(mac).toMatch(/^[0-9a-f]+$/);
    const minted = optionsWith({ csrfToken: token });
    expect((await openPending(minted, requestWith(jar(cookies))))?.id).toBe("pending-1");
    expect(await openPending(optionsWith(), requestWith(jar(cookies)))).toBeUndefined();
  });

  test("a sealed value missing any field opens to nothing", async () => {
    const options = optionsWith();
    const browser = await (await import("../../src/http/flow-binding.js")).bindingOf("csrf-1", "");
    const full = { ...pending, browser } as Record<string, unknown>;
    const seal = (token: Record<string, unknown>) =>
      encode({ token, secret: SECRET, salt: "authlib.two-factor", maxAge: 60 }).then((v) => requestWith({ "authlib.two-factor": v }));
    expect(await openPending(options, await seal(full))).toBeDefined();
    for (const field of ["id", "userId", "method", "callbackUrl", "result", "browser"]) {
      const { [field]: _, ...rest } = full;
      expect(await openPending(options, await seal(rest)), field).toBeUndefined();
      expect(await openPending(options, await seal({ ...rest, [field]: 7 })), field).toBeUndefined();
    }
    expect(await openPending(options, await seal({ ...full, result: { user: null } }))).toBeUndefined();
    expect(await openPending(options, await seal({ ...full, result: { user: "u1" } }))).toBeUndefined();
    const minimal = await openPending(
      options,
      await seal({ ...full, result: { user: { id: "u1", emailVerified: null }, isNewUser: "yes" } }),
    );
    expect(minimal?.result).toEqual({ user: { id: "u1", emailVerified: null }, account: null, isNewUser: false });
    expect(minimal?.result).not.toHaveProperty("profile");
    const withProfile = await openPending(
      options,
      await seal({ ...full, result: { user: { id: "u1" }, profile: { sub: "s" }, isNewUser: true } }),
    );
    expect(withProfile?.result).toEqual({ user: { id: "u1" }, account: null, isNewUser: true, profile: { sub: "s" } });
  });

  test("pendingOrExpired: TwoFactorExpired with its message, carrying the cookies that clear the state", async () => {
    const options = optionsWith();
    const request = requestWith({ "authlib.two-factor": "garbage" });
    const error = await pendingOrExpired(options, request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TwoFactorExpired);
    expect((error as Error).message).toBe(
      "No sign-in waits for a second step in this browser (it expired, or began elsewhere): sign in again.",
    );
    const cleared = failureCookies(error);
    expect(cleared).toHaveLength(1);
    expect(cleared[0]).toMatchObject({ name: "authlib.two-factor", value: "" });
    expect(cleared[0]?.options.maxAge).toBe(0);
    expect(clearPending(options, request)).toEqual(cleared);
    const cookies = await sealPending(options, requestWith(), pending);
    expect((await pendingOrExpired(options, requestWith(jar(cookies)))).id).toBe("pending-1");
  });
});

describe("assurance", () => {
  test("the first factor's method of each account type, pwd for unknown ones", () => {
    expect(firstFactorMethod({ type: "credentials" })).toBe("pwd");
    expect(firstFactorMethod({ type: "email" })).toBe("email");
    expect(firstFactorMethod({ type: "oauth" })).toBe("fed");
    expect(firstFactorMethod({ type: "oidc" })).toBe("fed");
    expect(firstFactorMethod({ type: "webauthn" })).toBe("hwk");
    expect(firstFactorMethod({ type: "constructor" as never })).toBe("pwd");
    expect(firstFactorMethod({ type: "custom" as never })).toBe("pwd");
    expect(firstFactorMethod(null)).toBe("pwd");
  });

  test("a single factor now, at level 1", () => {
    const before = Math.floor(Date.now() / 1000);
    const assurance = singleFactor("email");
    expect(assurance.amr).toEqual(["email"]);
    expect(assurance.aal).toBe(1);
    expect(Number.isInteger(assurance.authTime)).toBe(true);
    expect(assurance.authTime).toBeGreaterThanOrEqual(before);
    expect(assurance.authTime).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
  });

  test("assuranceIn takes only well-formed claims", () => {
    const amr = ["pwd", "otp"];
    expect(assuranceIn({ authTime: 5, amr, aal: 2, other: 1 })).toEqual({ authTime: 5, amr, aal: 2 });
    expect(assuranceIn({ authTime: 5, amr, aal: 2 })?.amr).toBe(amr);
    expect(assuranceIn({ authTime: 5, amr: [], aal: 1 })).toEqual({ authTime: 5, amr: [], aal: 1 });
    expect(assuranceIn(null)).toBeUndefined();
    expect(assuranceIn(undefined)).toBeUndefined();
    expect(assuranceIn({ authTime: "5", amr, aal: 1 })).toBeUndefined();
    expect(assuranceIn({ authTime: Number.NaN, amr, aal: 1 })).toBeUndefined();
    expect(assuranceIn({ authTime: Number.POSITIVE_INFINITY, amr, aal: 1 })).toBeUndefined();
    expect(assuranceIn({ authTime: 5, amr: "pwd", aal: 1 })).toBeUndefined();
    expect(assuranceIn({ authTime: 5, amr: ["pwd", 2], aal: 1 })).toBeUndefined();
    expect(assuranceIn({ authTime: 5, amr, aal: 3 })).toBeUndefined();
    expect(assuranceIn({ authTime: 5, amr, aal: 0 })).toBeUndefined();
    expect(assuranceIn({ authTime: 5, amr, aal: "2" })).toBeUndefined();
  });

  test("withAssurance adds the fields, and gives the claims back unchanged when they hold them", () => {
    const amr = ["pwd"];
    const claims = { sub: "u", authTime: 5, amr, aal: 1 as const };
    // Without an assurance of authlib's, a token holds none, whatever a callback put in it.
    expect(withAssurance(claims, undefined)).toEqual({ sub: "u" });
    for (const forged of [{ authTime: 5 }, { amr }, { aal: 2 }])
      expect(withAssurance({ sub: "u", ...forged }, undefined)).toEqual({ sub: "u" });
    const plain = { sub: "u" };
    expect(withAssurance(plain, undefined)).toBe(plain);
    expect(withAssurance(claims, { authTime: 5, amr, aal: 1 })).toBe(claims);
    for (const assurance of [
      { authTime: 6, amr, aal: 1 as const },
      { authTime: 5, amr: ["pwd"], aal: 1 as const },
      { authTime: 5, amr, aal: 2 as const },
    ]) {
      const merged = withAssurance(claims, assurance);
      expect(merged).not.toBe(claims);
      expect(merged).toEqual({ sub: "u", ...assurance });
    }
  });
});

describe("the assurance cookie of a database session", () => {
  const assurance = { authTime: 1_800_000_000, amr: ["pwd", "otp"], aal: 2 as const };

  test("sealed until the session's expiry, read only with its own session token", async () => {
    const options = optionsWith();
    const expires = new Date(Date.now() + 3_600_000);
    const cookie = await sealAssurance(options, "token-a", { assurance, activeOrganizationId: "org-1" }, expires);
    expect(cookie.name).toBe("authlib.session-assurance");
    expect(cookie.options).toMatchObject({ expires, httpOnly: true, sameSite: "lax", path: "/" });
    expect(cookie.value).not.toContain("otp");
    // Bound by 128 bits of a hash of its token, never the token itself.
    const claims = await decode<Record<string, unknown>>({ token: cookie.value, secret: SECRET, salt: cookie.name });
    expect(claims?.session).toMatch(/^[0-9a-f]{32}$/);
    const request = requestWith({ [cookie.name]: cookie.value });
    expect(await openAssurance(options, request, "token-a")).toEqual({ assurance, activeOrganizationId: "org-1" });
    expect(await openAssurance(options, request, "token-b")).toEqual({});
    expect((await openAssurance(optionsWith({ secret: [OLD] }), request, "token-a")).assurance).toBeUndefined();
    expect((await openAssurance(optionsWith({ secret: [OLD, SECRET] }), request, "token-a")).assurance).toEqual(assurance);
    expect((await openAssurance(options, requestWith({ [cookie.name]: `${cookie.value}x` }), "token-a")).assurance).toBeUndefined();
    expect((await openAssurance(options, requestWith(), "token-a")).assurance).toBeUndefined();
    // The seal ends with the session: a minute after its expiry it no longer opens.
    vi.useFakeTimers({ now: Date.now() + 3_600_000 + 120_000, toFake: ["Date"] });
    try {
      expect((await openAssurance(options, request, "token-a")).assurance).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });

  test("a session already past its expiry still gets a seal of at least a second; malformed claims give nothing", async () => {
    const options = optionsWith();
    const cookie = await sealAssurance(options, "t", { assurance }, new Date(Date.now() - 60_000));
    expect((await openAssurance(options, requestWith({ [cookie.name]: cookie.value }), "t")).assurance).toEqual(assurance);
    const bad = await encode({ token: { authTime: 1, amr: ["pwd"], aal: 9 }, secret: SECRET, salt: cookie.name, maxAge: 60 });
    expect((await openAssurance(options, requestWith({ [cookie.name]: bad }), "t")).assurance).toBeUndefined();
  });

  test("cleared by an expired cookie of the same name and attributes", () => {
    const [cleared] = clearAssurance(optionsWith());
    expect(cleared).toMatchObject({ name: "authlib.session-assurance", value: "" });
    expect(cleared?.options).toMatchObject({ maxAge: 0, httpOnly: true, path: "/" });
  });
});

describe("step-up", () => {
  const now = () => Math.floor(Date.now() / 1000);

  test("meetsRequirement: the age is inclusive, the level at least the one asked", () => {
    vi.useFakeTimers({ now: 1_800_000_000_000, toFake: ["Date"] });
    try {
      const at = (age: number, aal: 1 | 2) => ({ authTime: now() - age, amr: ["pwd"], aal });
      expect(meetsRequirement(undefined, { maxAge: 600 })).toBe(false);
      expect(meetsRequirement(at(600, 1), { maxAge: 600 })).toBe(true);
      expect(meetsRequirement(at(601, 1), { maxAge: 600 })).toBe(false);
      expect(meetsRequirement(at(0, 1), { maxAge: 600, aal: 2 })).toBe(false);
      expect(meetsRequirement(at(0, 2), { maxAge: 600, aal: 2 })).toBe(true);
      expect(meetsRequirement(at(0, 2), { maxAge: 600, aal: 1 })).toBe(true);
      expect(meetsRequirement(at(0, 2), { maxAge: 600 })).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  function optionsFor(current: { userId: string; assurance?: { authTime: number; amr: string[]; aal: 1 | 2 } } | null) {
    return optionsWith({ sessionStrategy: { currentAssurance: async () => current } });
  }
  const refusal = (options: InternalOptions, requirement: { maxAge: number; aal?: 1 | 2 }) =>
    requireRecentSignIn(options, requestWith(), requirement).then(
      () => undefined,
      (e: unknown) => e as RecentSignInRequired,
    );

  test("requireRecentSignIn: SessionRequired, the messages of a too-old and a too-weak sign-in, and the user when met", async () => {
    const signedOut = await requireRecentSignIn(optionsFor(null), requestWith(), { maxAge: 60 }).catch((e: unknown) => e);
    expect(signedOut).toBeInstanceOf(SessionRequired);
    expect((signedOut as Error).message).toBe("Sign in first: the request has no session.");

    const old = await refusal(optionsFor({ userId: "u", assurance: { authTime: now() - 3600, amr: ["pwd"], aal: 2 } }), { maxAge: 600 });
    expect(old).toBeInstanceOf(RecentSignInRequired);
    expect(old?.message).toBe("Sign in again to continue: this needs a sign-in in the last 10 minutes.");
    expect([old?.maxAge, old?.aal]).toEqual([600, 1]);

    const short = await refusal(optionsFor({ userId: "u" }), { maxAge: 20 });
    expect(short?.message).toBe("Sign in again to continue: this needs a sign-in in the last 1 minutes.");
    const ninety = await refusal(optionsFor({ userId: "u" }), { maxAge: 150, aal: 1 });
    expect(ninety?.message).toBe("Sign in again to continue: this needs a sign-in in the last 3 minutes.");

    const weak = await refusal(optionsFor({ userId: "u", assurance: { authTime: now(), amr: ["pwd"], aal: 1 } }), { maxAge: 600, aal: 2 });
    expect(weak?.message).toBe("Sign in again with your second factor to continue.");
    expect([weak?.maxAge, weak?.aal]).toEqual([600, 2]);
    const unknown = await refusal(optionsFor({ userId: "u" }), { maxAge: 600, aal: 2 });
    expect(unknown?.message).toBe("Sign in again with your second factor to continue.");

    const assurance = { authTime: now(), amr: ["pwd", "otp"], aal: 2 as const };
    expect(await requireRecentSignIn(optionsFor({ userId: "u", assurance }), requestWith(), { maxAge: 600, aal: 2 })).toEqual({
      userId: "u",
      assurance,
    });
  });
});

describe("the code limits", () => {
  test("without rateLimit: the pending sign-in's tries still count (in this configuration's memory), single use holds", async () => {
    const options = optionsWith({ rateLimits: { config: false } });
    const attempt = { userId: "u", pendingId: "p1", lifetimeSeconds: 600 };
    const counts: number[] = [];
    for (let i = 0; i < 5; i++) counts.push(await countSecondFactorTry(options, requestWith(), attempt));
    expect(counts).toEqual([1, 2, 3, 4, 5]);
    expect(await countSecondFactorTry(options, requestWith(), { ...attempt, pendingId: "p2" })).toBe(1);
    expect(await countSecondFactorTry(options, requestWith(), { userId: "u", lifetimeSeconds: 600 })).toBe(1);
    expect(await countSecondFactorTry(optionsWith({ rateLimits: { config: false } }), requestWith(), attempt)).toBe(1);

    expect(await claimCodeUse(options, "u", "step-1", 90)).toBe(true);
    expect(await claimCodeUse(options, "u", "step-1", 90)).toBe(false);
    expect(await claimCodeUse(options, "v", "step-1", 90)).toBe(true);
    expect(await claimCodeUse(options, "u", "step-2", 90)).toBe(true);
    await clearSecondFactorTries(options, "u");
  });

  test("the pending count lasts the pending sign-in's lifetime; a claimed code its given seconds", async () => {
    vi.useFakeTimers({ now: 1_800_000_000_000, toFake: ["Date"] });
    try {
      const options = optionsWith({ rateLimits: { config: false } });
      const attempt = { userId: "u", pendingId: "p1", lifetimeSeconds: 60 };
      expect(await countSecondFactorTry(options, requestWith(), attempt)).toBe(1);
      vi.setSystemTime(1_800_000_000_000 + 59_000);
      expect(await countSecondFactorTry(options, requestWith(), attempt)).toBe(2);
      vi.setSystemTime(1_800_000_000_000 + 61_000);
      expect(await countSecondFactorTry(options, requestWith(), attempt)).toBe(1);
      expect(await claimCodeUse(options, "u", "c", 30)).toBe(true);
      vi.setSystemTime(1_800_000_000_000 + 61_000 + 29_000);
      expect(await claimCodeUse(options, "u", "c", 30)).toBe(false);
      vi.setSystemTime(1_800_000_000_000 + 61_000 + 31_000);
      expect(await claimCodeUse(options, "u", "c", 30)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  test("rateLimit.twoFactor: the user's limit throws RateLimited with its message; a correct code clears it", async () => {
    const options = optionsWith({
      rateLimits: { config: { twoFactor: { userMax: 3, clientMax: 100, windowSeconds: 900 } }, features: twoFactorFeature.rateLimits },
    });
    const attempt = (pendingId: string) => ({ userId: "u", pendingId, lifetimeSeconds: 600 });
    expect(await countSecondFactorTry(options, requestWith(), attempt("p1"))).toBe(1);
    expect(await countSecondFactorTry(options, requestWith(), attempt("p2"))).toBe(1);
    expect(await countSecondFactorTry(options, requestWith(), attempt("p3"))).toBe(1);
    const error = await countSecondFactorTry(options, requestWith(), attempt("p4")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimited);
    expect((error as Error).message).toBe("Too many codes tried for this account; try again later.");
    expect(await countSecondFactorTry(options, requestWith(), { ...attempt("p1"), userId: "v" })).toBe(2);
    await clearSecondFactorTries(options, "u");
    expect(await countSecondFactorTry(options, requestWith(), attempt("p5"))).toBe(1);
  });

  test("rateLimit.twoFactor: the client's limit counts every code from one address, whoever's", async () => {
    const options = optionsWith({
      rateLimits: { config: { twoFactor: { userMax: 100, clientMax: 2, windowSeconds: 900 } }, features: twoFactorFeature.rateLimits },
    });
    const attempt = (userId: string) => ({ userId, pendingId: `p-${userId}`, lifetimeSeconds: 600 });
    expect(await countSecondFactorTry(options, requestWith({}, "192.0.2.7"), attempt("a"))).toBe(1);
    expect(await countSecondFactorTry(options, requestWith({}, "192.0.2.7"), attempt("b"))).toBe(1);
    await expect(countSecondFactorTry(options, requestWith({}, "192.0.2.7"), attempt("c"))).rejects.toBeInstanceOf(RateLimited);
    expect(await countSecondFactorTry(options, requestWith({}, "198.51.100.9"), attempt("c"))).toBe(1);
  });

  test("rateLimit.twoFactor off: no user limit, the pending count still holds, and clearing asks the store nothing", async () => {
    const calls: string[] = [];
    const inner = memoryRateLimitStore();
    const store: RateLimitStore = {
      increment(key, windowMs) {
        calls.push(`increment ${key.split(":")[1]}`);
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
    const options = optionsWith({ rateLimits: { config: { store, twoFactor: false } } });
    for (let i = 1; i <= 20; i++)
      expect(await countSecondFactorTry(options, requestWith(), { userId: "u", pendingId: `p${i}`, lifetimeSeconds: 60 })).toBe(1);
    expect(calls).toEqual(Array.from({ length: 20 }, () => "increment 2fa"));
    await clearSecondFactorTries(options, "u");
    expect(calls).toHaveLength(20);
  });
});
