/**
 * The JWT strategy's cache of decoded session tokens (session/token-cache.ts). Through `Auth()`, the
 * attacks: serve a tampered, expired or other-secret token from the cache, or make a callback's in-place
 * edit leak into the next request, each tried the way a browser would after the genuine token was read (so
 * it is in the cache); the `jwt` and `session` callbacks run on every read. Then the cache driven directly:
 * one decode per token, expiry, the bound on entries, one cache per secret set.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { decode, encode, type JWT } from "../../src/jwt.js";
import Credentials from "../../src/providers/credentials.js";
import { decodeCached, TOKEN_CACHE_MAX_ENTRIES, TokenCache } from "../../src/session/token-cache.js";
import type { AuthConfig } from "../../src/types/config.js";
import { authClient } from "../helpers/auth-client.js";

const secret = "token-cache-test-secret-0123456789abcdef";
const otherSecret = "token-cache-other-secret-fedcba9876543210";
const COOKIE = "authlib.session-token";

/** One cache per secret set, as one instance keeps one (its own, in `options.instanceState`). */
const caches = new WeakMap<readonly string[], TokenCache>();
function cacheFor(secrets: readonly string[]): TokenCache {
  let cache = caches.get(secrets);
  if (!cache) {
    cache = new TokenCache(secrets);
    caches.set(secrets, cache);
  }
  return cache;
}

function setup(overrides: Partial<AuthConfig> = {}) {
  const calls = { jwt: 0, session: 0 };
  const errors: string[] = [];
  const pushType = (metadata: unknown) => {
    const type = (metadata as { type?: string } | undefined)?.type;
    if (type) errors.push(type);
  };
  const config: AuthConfig = {
    secret,
    trustHost: true,
    providers: [Credentials({ credentials: { username: {} }, authorize: (c) => ({ id: "u1", name: String(c.username) }) })],
    callbacks: {
      jwt({ token }) {
        calls.jwt++;
        return token;
      },
      session({ session }) {
        calls.session++;
        return session;
      },
    },
    // `errors`: every failure logged, at its level (a tampered cookie is a warning and a line at debug).
    debug: true,
    logger: { error: (error) => errors.push(error.name), debug: (_line, metadata) => void pushType(metadata) },
    ...overrides,
  };
  return { config, calls, errors, client: authClient(config) };
}

async function signIn(client: ReturnType<typeof authClient>) {
  const csrfToken = await client.csrf();
  const response = await client.send("/auth/callback/credentials", { form: { csrfToken, username: "ada" } });
  expect(response.status).toBe(302);
  const token = client.jar.get(COOKIE);
  expect(token).toBeTruthy();
  return token as string;
}

/** `GET /session` with exactly `cookie` as the session cookie (not the jar's). */
async function sessionWith(client: ReturnType<typeof authClient>, cookie: string) {
  const response = await client.send("/auth/session", { headers: { cookie: `${COOKIE}=${encodeURIComponent(cookie)}` } });
  return { response, body: (await response.json()) as Record<string, any> | null };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("the decoded-token cache of JWT sessions", () => {
  it("runs the jwt and session callbacks on every read, cached or not", async () => {
    const { client, calls } = setup();
    await signIn(client);
    const before = { ...calls };
    for (let i = 0; i < 5; i++) expect((await client.session())?.user.name).toBe("ada");
    expect(calls.jwt - before.jwt).toBe(5);
    expect(calls.session - before.session).toBe(5);
  });

  it("a callback that revokes the token is obeyed on a cached read", async () => {
    let revoked = false;
    const { client } = setup({ callbacks: { jwt: ({ token }) => (revoked ? null : token) } });
    const token = await signIn(client);
    expect((await sessionWith(client, token)).body?.user.name).toBe("ada");
    revoked = true;
    const { body, response } = await sessionWith(client, token);
    expect(body).toBeNull();
    expect(response.setCookies.some((c) => c.name === COOKIE && c.attributes.maxAge === 0)).toBe(true);
  });

  it("every tampered variant of a cached token (each character changed, truncated, extended) is refused", async () => {
    const { client, errors } = setup();
    const token = await signIn(client);
    expect((await sessionWith(client, token)).body?.user.name).toBe("ada");
    const variants = new Set<string>([token.slice(0, -1), `${token}A`, token.slice(1), `${token}.`]);
    // One flipped character in each of the five JWE parts and at both ends.
    for (const index of [0, 5, token.indexOf(".") + 1, token.lastIndexOf(".") - 1, token.lastIndexOf(".") + 1, token.length - 1]) {
      const c = token[index] as string;
      variants.add(token.slice(0, index) + (c === "A" ? "B" : "A") + token.slice(index + 1));
    }
    variants.delete(token);
    for (const variant of variants) {
      errors.length = 0;
      const { body } = await sessionWith(client, variant);
      expect(body, variant).toBeNull();
      expect(errors).toContain("JWTSessionError");
    }
    // The genuine token still reads.
    expect((await sessionWith(client, token)).body?.user.name).toBe("ada");
  });

  it("a cached token is refused once it has expired", async () => {
    const { client } = setup({ session: { maxAge: 60 } });
    const token = await signIn(client);
    expect((await sessionWith(client, token)).body?.user.name).toBe("ada");
    // Two minutes on: past `exp` and past decode's clock tolerance.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 120_000 });
    const { body, response } = await sessionWith(client, token);
    expect(body).toBeNull();
    expect(response.setCookies.some((c) => c.name === COOKIE && c.attributes.maxAge === 0)).toBe(true);
  });

  it("a token cached under one secret is not served to a configuration with another secret", async () => {
    const first = setup();
    const token = await signIn(first.client);
    expect((await sessionWith(first.client, token)).body?.user.name).toBe("ada");
    // The same app after its secret was replaced (not rotated: the old one is gone).
    const replaced = setup({ secret: otherSecret });
    const { body } = await sessionWith(replaced.client, token);
    expect(body).toBeNull();
    expect(replaced.errors).toContain("JWTSessionError");
    // Rotated (the old secret still listed): the token stays valid.
    const rotated = setup({ secret: [otherSecret, secret] });
    expect((await sessionWith(rotated.client, token)).body?.user.name).toBe("ada");
  });

  it("a secret array changed in place empties its cache", async () => {
    const secrets = [secret];
    const token = await encode({ token: { sub: "u1", name: "ada" }, secret, salt: COOKIE });
    let decodes = 0;
    const read = () =>
      decodeCached(cacheFor(secrets), secrets, COOKIE, token, () => {
        decodes++;
        return decode({ token, secret: secrets, salt: COOKIE });
      });
    expect((await read())?.payload.name).toBe("ada");
    expect((await read())?.payload.name).toBe("ada");
    expect(decodes).toBe(1);
    secrets[0] = otherSecret;
    await expect(read()).rejects.toThrow();
    expect(decodes).toBe(2);
  });

  it("a callback editing the token in place does not change what the next read of the same cookie sees", async () => {
    const seen: unknown[] = [];
    const { client } = setup({
      callbacks: {
        jwt({ token }) {
          seen.push(token.visits);
          token.visits = ((token.visits as number | undefined) ?? 0) + 1;
          return token;
        },
      },
    });
    const token = await signIn(client);
    seen.length = 0;
    for (let i = 0; i < 3; i++) {
      const { response } = await sessionWith(client, token);
      // The edit is a change: the cookie is re-issued each time.
      expect(response.setCookies.some((c) => c.name === COOKIE && c.value !== "")).toBe(true);
    }
    expect(seen).toEqual([1, 1, 1]);
  });

  it("a token cached under one cookie name is decoded again (and refused) when it arrives under another", async () => {
    const secrets = [secret];
    const token = await encode({ token: { sub: "u1" }, secret, salt: COOKIE });
    const decodeUnder = (salt: string) => () => decode({ token, secret, salt });
    expect((await decodeCached(cacheFor(secrets), secrets, COOKIE, token, decodeUnder(COOKIE)))?.payload.sub).toBe("u1");
    // The same string under the __Secure- name: its key is another, so it is refused, not served from the cache.
    await expect(
      decodeCached(cacheFor(secrets), secrets, `__Secure-${COOKIE}`, token, decodeUnder(`__Secure-${COOKIE}`)),
    ).rejects.toThrow();
    // And the entry under the first name is still served without decoding.
    const cached = await decodeCached(cacheFor(secrets), secrets, COOKIE, token, () => {
      throw new Error("decoded again");
    });
    expect(cached?.payload.sub).toBe("u1");
  });

  it("a forged token ending like a cached one (its tag copied) is decoded and refused; the genuine one stays cached", async () => {
    const secrets = [secret];
    const token = await encode({ token: { sub: "u1" }, secret, salt: COOKIE });
    await decodeCached(cacheFor(secrets), secrets, COOKIE, token, () => decode({ token, secret, salt: COOKIE }));
    const parts = token.split(".");
    const otherCiphertext = (await encode({ token: { sub: "admin" }, secret, salt: COOKIE })).split(".")[3] as string;
    const forged = [parts[0], parts[1], parts[2], otherCiphertext, parts[4]].join(".");
    expect(forged.slice(-40)).toBe(token.slice(-40));
    let decodes = 0;
    const refused = decodeCached(cacheFor(secrets), secrets, COOKIE, forged, () => {
      decodes++;
      return decode({ token: forged, secret, salt: COOKIE });
    });
    await expect(refused).rejects.toThrow();
    expect(decodes).toBe(1);
    const cached = await decodeCached(cacheFor(secrets), secrets, COOKIE, token, () => {
      throw new Error("decoded again");
    });
    expect(cached?.payload.sub).toBe("u1");
  });

  it("is bounded and only remembers successful decodes", async () => {
    const secrets = [secret];
    const cache = cacheFor(secrets);
    for (let i = 0; i < TOKEN_CACHE_MAX_ENTRIES + 50; i++) {
      await decodeCached(cacheFor(secrets), secrets, COOKIE, `token-${i}`, () => ({
        sub: String(i),
        exp: Math.floor(Date.now() / 1000) + 60,
      }));
    }
    expect(cache.size).toBe(TOKEN_CACHE_MAX_ENTRIES);
    await expect(
      decodeCached(cacheFor(secrets), secrets, COOKIE, "bad", () => {
        throw new Error("refused");
      }),
    ).rejects.toThrow("refused");
    let decodes = 0;
    await decodeCached(cacheFor(secrets), secrets, COOKIE, "none", () => {
      decodes++;
      return null;
    });
    await decodeCached(cacheFor(secrets), secrets, COOKIE, "none", () => {
      decodes++;
      return null;
    });
    expect(decodes).toBe(2);
  });
});

describe("the decoded-token cache, driven directly", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(1_900_000_000_000);
  });
  const seconds = () => Math.floor(Date.now() / 1000);
  const advance = (s: number) => vi.setSystemTime(Date.now() + s * 1000);
  const DAY = 24 * 60 * 60;
  const salt = "cache-salt";
  const decoder = (payload: JWT | null) => {
    const calls = { n: 0 };
    return {
      calls,
      decode: () => {
        calls.n++;
        return payload;
      },
    };
  };

  it("a token decoded once is served from the cache as a fresh copy; the pristine copy is untouched", async () => {
    const secrets = ["s-1"];
    const { calls, decode: d } = decoder({ sub: "u", nested: { a: 1 }, exp: seconds() + 60 });
    const first = await decodeCached(cacheFor(secrets), secrets, salt, "tok", d);
    (first?.payload.nested as { a: number }).a = 2;
    const second = await decodeCached(cacheFor(secrets), secrets, salt, "tok", d);
    expect(calls.n).toBe(1);
    expect(second?.payload).toEqual({ sub: "u", nested: { a: 1 }, exp: seconds() + 60 });
    expect(second?.pristine).toEqual(second?.payload);
    expect(second?.payload).not.toBe(second?.pristine);
    (second?.payload.nested as { a: number }).a = 3;
    expect(((await decodeCached(cacheFor(secrets), secrets, salt, "tok", d))?.payload.nested as { a: number } | undefined)?.a).toBe(1);
  });

  it("the key is salt and token: another salt or another token is decoded again", async () => {
    const secrets = ["s-2"];
    const { calls, decode: d } = decoder({ sub: "u" });
    await decodeCached(cacheFor(secrets), secrets, salt, "tok", d);
    await decodeCached(cacheFor(secrets), secrets, "other-salt", "tok", d);
    await decodeCached(cacheFor(secrets), secrets, salt, "tok2", d);
    await decodeCached(cacheFor(secrets), secrets, `${salt}\u0000tok`, "", d);
    expect(calls.n).toBe(4);
  });

  it("an entry is served only before its exp; a token without exp stays", async () => {
    const secrets = ["s-3"];
    const expiring = decoder({ sub: "u", exp: seconds() + 10 });
    await decodeCached(cacheFor(secrets), secrets, salt, "exp", expiring.decode);
    advance(9);
    await decodeCached(cacheFor(secrets), secrets, salt, "exp", expiring.decode);
    expect(expiring.calls.n).toBe(1);
    advance(1);
    await decodeCached(cacheFor(secrets), secrets, salt, "exp", expiring.decode);
    expect(expiring.calls.n).toBe(2);
    const forever = decoder({ sub: "u" });
    await decodeCached(cacheFor(secrets), secrets, salt, "forever", forever.decode);
    advance(10 * 365 * DAY);
    await decodeCached(cacheFor(secrets), secrets, salt, "forever", forever.decode);
    expect(forever.calls.n).toBe(1);
  });

  it("failures and non-object payloads are never cached", async () => {
    const secrets = ["s-4"];
    const none = decoder(null);
    expect(await decodeCached(cacheFor(secrets), secrets, salt, "n", none.decode)).toBeNull();
    expect(await decodeCached(cacheFor(secrets), secrets, salt, "n", none.decode)).toBeNull();
    expect(none.calls.n).toBe(2);
    const odd = decoder("text" as unknown as JWT);
    expect(await decodeCached(cacheFor(secrets), secrets, salt, "t", odd.decode)).toEqual({ payload: "text", pristine: "text" });
    await decodeCached(cacheFor(secrets), secrets, salt, "t", odd.decode);
    expect(odd.calls.n).toBe(2);
    expect(cacheFor(secrets).size).toBe(0);
  });

  it("a payload that cannot be copied (a cycle) is handed out without a pristine copy and not cached", async () => {
    const secrets = ["s-5"];
    const cyclic: JWT = { sub: "u" };
    cyclic.self = cyclic;
    const { calls, decode: d } = decoder(cyclic);
    const read = await decodeCached(cacheFor(secrets), secrets, salt, "c", d);
    expect(read?.payload).toBe(cyclic);
    expect(read?.pristine).toBeUndefined();
    await decodeCached(cacheFor(secrets), secrets, salt, "c", d);
    expect(calls.n).toBe(2);
  });

  it("tokens over 8 KB are not cached; 8 KB ones are", async () => {
    const secrets = ["s-6"];
    const { calls, decode: d } = decoder({ sub: "u" });
    const long = "x".repeat(8 * 1024 + 1);
    await decodeCached(cacheFor(secrets), secrets, salt, long, d);
    await decodeCached(cacheFor(secrets), secrets, salt, long, d);
    expect(calls.n).toBe(2);
    const limit = "y".repeat(8 * 1024);
    await decodeCached(cacheFor(secrets), secrets, salt, limit, d);
    await decodeCached(cacheFor(secrets), secrets, salt, limit, d);
    expect(calls.n).toBe(3);
  });

  it("keeps at most TOKEN_CACHE_MAX_ENTRIES, dropping the least recently used", async () => {
    const secrets = ["s-7"];
    const { calls, decode: d } = decoder({ sub: "u" });
    for (let i = 0; i < TOKEN_CACHE_MAX_ENTRIES; i++) await decodeCached(cacheFor(secrets), secrets, salt, `t${i}`, d);
    expect(cacheFor(secrets).size).toBe(TOKEN_CACHE_MAX_ENTRIES);
    await decodeCached(cacheFor(secrets), secrets, salt, "t0", d); // t0 is now the most recent, t1 the least
    await decodeCached(cacheFor(secrets), secrets, salt, "t0", d);
    const before = calls.n;
    await decodeCached(cacheFor(secrets), secrets, salt, "extra", d);
    expect(cacheFor(secrets).size).toBe(TOKEN_CACHE_MAX_ENTRIES);
    await decodeCached(cacheFor(secrets), secrets, salt, "t0", d);
    expect(calls.n).toBe(before + 1);
    await decodeCached(cacheFor(secrets), secrets, salt, "t1", d);
    expect(calls.n).toBe(before + 2);
    // Re-storing a key that is present does not evict another entry.
    const again = decoder({ sub: "v" });
    const cache = cacheFor(secrets);
    cache.set(salt, "t2", { sub: "v" });
    expect(cache.size).toBe(TOKEN_CACHE_MAX_ENTRIES);
    expect(again.calls.n).toBe(0);
  });

  it("the cache of a secret array is emptied when its secrets change, and kept while they do not", async () => {
    const secrets = ["s-8a", "s-8b"];
    const { calls, decode: d } = decoder({ sub: "u" });
    await decodeCached(cacheFor(secrets), secrets, salt, "tok", d);
    await decodeCached(cacheFor(secrets), secrets, salt, "tok", d);
    expect(calls.n).toBe(1);
    secrets[1] = "s-8c";
    await decodeCached(cacheFor(secrets), secrets, salt, "tok", d);
    expect(calls.n).toBe(2);
    await decodeCached(cacheFor(secrets), secrets, salt, "tok", d);
    expect(calls.n).toBe(2);
    expect(cacheFor(["s-8a", "s-8c"]).size).toBe(0);
  });

  it("a cache is filled under the secrets it was made with; a secret set that shrinks to a prefix empties it", () => {
    const cache = new TokenCache(["s-10a", "s-10b"]);
    cache.set(salt, "tok", { sub: "u" });
    cache.useSecrets(["s-10a", "s-10b"]);
    expect(cache.size).toBe(1);
    cache.useSecrets(["s-10a"]);
    expect(cache.size).toBe(0);
  });

  it("entries are found by the token's last 32 characters: a newer token ending alike replaces the older", () => {
    const cache = new TokenCache(["s-11"]);
    const tail = "T".repeat(32);
    const older = `${"x".repeat(40)}${tail}`;
    const newer = `${"y".repeat(40)}${tail}`;
    cache.set(salt, older, { sub: "old" });
    cache.set(salt, newer, { sub: "new" });
    expect(cache.size).toBe(1);
    expect(cache.get(salt, older, 0)).toBeUndefined();
    expect(cache.get(salt, newer, 0)).toEqual({ sub: "new" });
    // Tokens ending differently (a character of the last 32) are two entries.
    cache.set(salt, `${"x".repeat(40)}U${"T".repeat(31)}`, { sub: "other" });
    expect(cache.size).toBe(2);
  });

  it("secrets that join to the same text are still another secret set", async () => {
    const secrets = ["s-9a", "b"];
    const { calls, decode: d } = decoder({ sub: "u" });
    await decodeCached(cacheFor(secrets), secrets, salt, "tok", d);
    secrets[0] = "s-9";
    secrets[1] = "ab";
    await decodeCached(cacheFor(secrets), secrets, salt, "tok", d);
    expect(calls.n).toBe(2);
  });
});
