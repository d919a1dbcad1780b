/**
 * The sealed WebAuthn challenge cookie (webauthn/challenge.ts), driven directly: what `sealChallenge` writes
 * (cookie name and attributes, the sealed purpose, browser binding and 15-minute expiry), and every reason
 * `openChallenge` refuses a cookie (missing, tampered with, another secret or purpose, no challenge or
 * expiry, another provider, ceremony or browser, a registration without a valid subject), each with its
 * own message. Fast: real encryption, no routes, no adapter (the mutation group's statement; the routes
 * state the same through Auth() in passkey-routes.test.ts and passkey-negative.test.ts).
 */
import { describe, expect, it, vi } from "vitest";
import { nodeJwe } from "../../src/crypto/jwe-node.js";
import { CLOCK_TOLERANCE } from "../../src/crypto/jwe-rules.js";
import { InvalidCheck } from "../../src/errors.js";
import { CHECK_COOKIE_MAX_AGE, resolveCookies } from "../../src/http/cookies.js";
import { decode, encode } from "../../src/jwt.js";
import type { CookiesOptions } from "../../src/types/config.js";
import type { InternalOptions, RequestInternal } from "../../src/types/internal.js";
import { type ChallengeClaims, clearChallenge, openChallenge, sealChallenge } from "../../src/webauthn/challenge.js";

const secret = "challenge-unit-secret-0123456789abcdef";
const BROWSER = "a".repeat(64);
const PURPOSE = "authlib.webauthn-challenge";
const NAME = "authlib.challenge";

/** The options `sealChallenge` and `openChallenge` read: the secret and the resolved cookies. */
function optionsWith(overrides: Partial<CookiesOptions> = {}, key = secret): InternalOptions {
  return { secret: key, cookies: resolveCookies(false, overrides) } as unknown as InternalOptions;
}
const options = optionsWith();

function requestWith(cookies: Record<string, string | undefined>): RequestInternal {
  return { cookies } as unknown as RequestInternal;
}

const subject = { id: "user-1", userName: "Ada", displayName: "Ada", signedIn: false };
const registerClaims: ChallengeClaims = { provider: "passkey", action: "register", challenge: "chal-reg", user: subject };
const authenticateClaims: ChallengeClaims = { provider: "passkey", action: "authenticate", challenge: "chal-auth" };

async function opened(
  claims: ChallengeClaims,
  expected: { provider?: string; action?: "register" | "authenticate"; binding?: string } = {},
) {
  const cookie = await sealChallenge(options, claims, BROWSER);
  return openChallenge(options, requestWith({ [cookie.name]: cookie.value }), {
    provider: expected.provider ?? claims.provider,
    action: expected.action ?? claims.action,
    binding: expected.binding ?? BROWSER,
  });
}

/** A cookie holding exactly `payload`, sealed like a challenge (same secret and salt), without the `exp` encode adds. */
function sealedRaw(payload: Record<string, unknown>): string {
  const jwe = nodeJwe();
  if (!jwe) throw new Error("node:crypto is required");
  return jwe.encrypt(payload, secret, NAME);
}

async function refusal(cookie: string | undefined, action: "register" | "authenticate" = "authenticate"): Promise<InvalidCheck> {
  const error = await openChallenge(options, requestWith({ [NAME]: cookie }), { provider: "passkey", action, binding: BROWSER }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InvalidCheck);
  return error as InvalidCheck;
}

const UNPARSED = "The WebAuthn challenge cookie value could not be parsed.";
const NO_SUBJECT = "The WebAuthn challenge cookie does not say who is registering.";

describe("sealChallenge", () => {
  it("writes the challenge cookie for 15 minutes, sealed with its purpose, the browser binding and an expiry", async () => {
    const before = Math.floor(Date.now() / 1000);
    const cookie = await sealChallenge(options, registerClaims, BROWSER);
    expect(cookie.name).toBe(NAME);
    expect(cookie.options).toEqual({ httpOnly: true, sameSite: "lax", path: "/", secure: false, maxAge: CHECK_COOKIE_MAX_AGE });
    const payload = await decode<Record<string, unknown>>({ token: cookie.value, secret, salt: NAME });
    expect(payload).toMatchObject({ ...registerClaims, purpose: PURPOSE, browser: BROWSER });
    expect(payload?.exp).toBeGreaterThanOrEqual(before + CHECK_COOKIE_MAX_AGE);
    expect(payload?.exp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + CHECK_COOKIE_MAX_AGE);
    // Sealed under the cookie's name: read under another salt, it does not open.
    await expect(decode({ token: cookie.value, secret, salt: "authlib.state" })).rejects.toThrow();
  });

  it("seals under the fixed purpose, also in a module loaded afresh", async () => {
    // Loaded inside the test, so the purpose constant is evaluated under the test's conditions (a mutation
    // run only sees a module-level constant change when the module loads within the test that checks it).
    vi.resetModules();
    const fresh = await import("../../src/webauthn/challenge.js");
    const cookie = await fresh.sealChallenge(options, authenticateClaims, BROWSER);
    const payload = await decode<Record<string, unknown>>({ token: cookie.value, secret, salt: NAME });
    expect(payload?.purpose).toBe("authlib.webauthn-challenge");
  });

  it("keeps 15 minutes when the app's cookie options name no maxAge, and the app's own attributes", async () => {
    const custom = optionsWith({ webauthnChallenge: { name: "my.challenge", options: { httpOnly: true, sameSite: "strict", path: "/" } } });
    // resolveCookies merges the defaults (maxAge included); drop it to see sealChallenge supply its own.
    const { maxAge: _dropped, ...withoutMaxAge } = custom.cookies.webauthnChallenge.options;
    const bare = {
      ...custom,
      cookies: { ...custom.cookies, webauthnChallenge: { name: "my.challenge", options: withoutMaxAge } },
    } as InternalOptions;
    const cookie = await sealChallenge(bare, authenticateClaims, BROWSER);
    expect(cookie.name).toBe("my.challenge");
    expect(cookie.options).toEqual({ ...withoutMaxAge, maxAge: CHECK_COOKIE_MAX_AGE });
    const withMaxAge = {
      ...custom,
      cookies: { ...custom.cookies, webauthnChallenge: { name: "my.challenge", options: { ...withoutMaxAge, maxAge: 60 } } },
    } as InternalOptions;
    expect((await sealChallenge(withMaxAge, authenticateClaims, BROWSER)).options.maxAge).toBe(60);
  });

  it("clearChallenge deletes the cookie under its name and attributes", () => {
    expect(clearChallenge(options)).toEqual({
      name: NAME,
      value: "",
      options: { httpOnly: true, sameSite: "lax", path: "/", secure: false, maxAge: 0 },
    });
  });
});

describe("openChallenge", () => {
  it("gives back the claims and when the challenge stops being accepted (exp + clock tolerance, in ms)", async () => {
    const cookie = await sealChallenge(options, registerClaims, BROWSER);
    const payload = await decode<{ exp: number }>({ token: cookie.value, secret, salt: NAME });
    const claims = await openChallenge(options, requestWith({ [NAME]: cookie.value }), {
      provider: "passkey",
      action: "register",
      binding: BROWSER,
    });
    expect(claims).toEqual({ ...registerClaims, expiresAt: ((payload?.exp as number) + CLOCK_TOLERANCE) * 1000 });
    const auth = await opened(authenticateClaims);
    expect(auth).toEqual({ ...authenticateClaims, user: undefined, expiresAt: expect.any(Number) });
    expect(auth.expiresAt % 1000).toBe(0);
  });

  it("refuses a missing cookie", async () => {
    for (const value of [undefined, ""]) {
      const error = await refusal(value);
      expect(error.message).toBe("The WebAuthn challenge cookie was missing (expired, or used already). Start again.");
    }
  });

  it("refuses a tampered cookie, or one sealed with another secret, naming the cause", async () => {
    const cookie = await sealChallenge(options, authenticateClaims, BROWSER);
    const tampered = `${cookie.value.slice(0, -2)}${cookie.value.endsWith("AA") ? "BA" : "AA"}`;
    const other = await sealChallenge(optionsWith({}, "another-secret-0123456789abcdef0123456789"), authenticateClaims, BROWSER);
    for (const value of [tampered, other.value, "not-a-jwe"]) {
      const error = await refusal(value);
      expect(error.message).toBe("The WebAuthn challenge cookie could not be read (tampered with, expired or sealed with another secret).");
      expect(error.cause?.err).toBeInstanceOf(Error);
    }
  });

  it("refuses another sealed value (same secret and salt) that is not a challenge", async () => {
    const base = { provider: "passkey", action: "authenticate", challenge: "c", browser: BROWSER };
    const notChallenge = await encode({ token: { ...base, purpose: "authlib.something-else" }, secret, salt: NAME });
    expect((await refusal(notChallenge)).message).toBe(UNPARSED);
    const noPurpose = await encode({ token: base, secret, salt: NAME });
    expect((await refusal(noPurpose)).message).toBe(UNPARSED);
  });

  it("refuses a cookie without a challenge string", async () => {
    const base = { provider: "passkey", action: "authenticate", purpose: PURPOSE, browser: BROWSER };
    for (const challenge of [undefined, "", 42]) {
      const value = await encode({ token: { ...base, challenge }, secret, salt: NAME });
      expect((await refusal(value)).message).toBe(UNPARSED);
    }
  });

  it("refuses a cookie without an expiry (its used-challenge record would have no end)", async () => {
    const base = { provider: "passkey", action: "authenticate", purpose: PURPOSE, browser: BROWSER, challenge: "c" };
    expect((await refusal(sealedRaw(base))).message).toBe(UNPARSED);
    // The same payload with an expiry opens: the missing expiry alone was refused.
    const exp = Math.floor(Date.now() / 1000) + 60;
    expect(
      await openChallenge(options, requestWith({ [NAME]: sealedRaw({ ...base, exp }) }), {
        provider: "passkey",
        action: "authenticate",
        binding: BROWSER,
      }),
    ).toEqual({
      provider: "passkey",
      action: "authenticate",
      challenge: "c",
      user: undefined,
      expiresAt: (exp + CLOCK_TOLERANCE) * 1000,
    });
  });

  it("refuses a challenge made for another provider or ceremony, naming what it was made for", async () => {
    for (const [claims, expected] of [
      [authenticateClaims, { provider: "other-passkey" }],
      [authenticateClaims, { action: "register" as const }],
      [registerClaims, { action: "authenticate" as const }],
    ] as const) {
      const error = await opened(claims, expected).then(
        () => undefined,
        (e: unknown) => e as InvalidCheck,
      );
      expect(error).toBeInstanceOf(InvalidCheck);
      expect(error?.message).toBe("The WebAuthn challenge cookie belongs to another provider or ceremony.");
      expect(error?.cause).toEqual({ provider: claims.provider, action: claims.action });
    }
  });

  it("refuses a challenge made in another browser or session", async () => {
    for (const binding of ["b".repeat(64), ""]) {
      await expect(opened(authenticateClaims, { binding })).rejects.toThrow(
        new InvalidCheck("The WebAuthn challenge cookie was made in another browser or session. Start again."),
      );
    }
  });

  it("refuses a registration challenge that does not say who is registering", async () => {
    const bad: unknown[] = [
      undefined,
      null,
      "user-1",
      { ...subject, id: "" },
      { ...subject, id: 1 },
      { ...subject, userName: undefined },
      { ...subject, displayName: 1 },
      { ...subject, signedIn: "false" },
      { userName: subject.userName, displayName: subject.displayName, signedIn: false },
      // The shape of challenges sealed before issue 28 (an email beside the name): refused, start again.
      { id: "user-1", email: "ada@example.com", name: "Ada", signedIn: false },
    ];
    for (const user of bad) {
      const value = await encode({
        token: { provider: "passkey", action: "register", challenge: "c", purpose: PURPOSE, browser: BROWSER, user },
        secret,
        salt: NAME,
      });
      const error = await refusal(value, "register");
      expect(error.message).toBe(NO_SUBJECT);
    }
    // A signed-in subject is a subject, and so is one with empty names (the route never makes one, the shape allows it).
    for (const user of [
      { ...subject, signedIn: true },
      { id: "u", userName: "", displayName: "", signedIn: false },
    ]) {
      expect((await opened({ ...registerClaims, user })).user).toEqual(user);
    }
  });
});
