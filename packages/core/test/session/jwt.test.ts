import { decode as authjsDecode, encode as authjsEncode } from "@auth/core/jwt";
import { hkdf } from "@panva/hkdf";
import fc from "fast-check";
import { base64url, calculateJwkThumbprint, EncryptJWT } from "jose";
import { afterEach, describe, expect, it, vi } from "vitest";
import { JWTSessionError, MissingSecret } from "../../src/errors.js";
import { CHUNK_SIZE } from "../../src/http/cookie-chunks.js";
import { DEFAULT_MAX_AGE, decode, encode, getToken } from "../../src/jwt.js";

const secret = "a-long-random-test-secret-of-32-chars!";
const salt = "authlib.session-token";

/** A GCM token made independently of our code (HKDF from @panva/hkdf, as Auth.js does). */
async function gcmToken(payload: Record<string, unknown>, s: string, sl: string) {
  const key = await hkdf("sha256", s, sl, `Auth.js Generated Encryption Key (${sl})`, 32);
  const kid = await calculateJwkThumbprint({ kty: "oct", k: base64url.encode(key) }, "sha256");
  return new EncryptJWT(payload).setProtectedHeader({ alg: "dir", enc: "A256GCM", kid }).setIssuedAt().setExpirationTime("1h").encrypt(key);
}

describe("encode / decode", () => {
  it("round-trips a payload and sets iat, exp and jti", async () => {
    const token = await encode({ token: { sub: "42", name: "Ada" }, secret, salt, maxAge: 60 });
    expect(token.split(".")).toHaveLength(5);
    const payload = await decode({ token, secret, salt });
    expect(payload).toMatchObject({ sub: "42", name: "Ada" });
    expect(payload?.exp).toBe((payload?.iat as number) + 60);
    expect(payload?.jti).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("uses dir + A256CBC-HS512 with a kid", async () => {
    const token = await encode({ token: {}, secret, salt });
    const header = JSON.parse(new TextDecoder().decode(base64url.decode(token.split(".")[0] as string)));
    expect(header).toMatchObject({ alg: "dir", enc: "A256CBC-HS512" });
    expect(typeof header.kid).toBe("string");
  });

  it("resolves null for an empty token", async () => {
    expect(await decode({ token: "", secret, salt })).toBeNull();
    expect(await decode({ token: undefined, secret, salt })).toBeNull();
  });

  it("rejects with JWTSessionError for junk, wrong salt and wrong secret", async () => {
    const token = await encode({ token: { sub: "1" }, secret, salt });
    await expect(decode({ token: "not.a.jwe.at.all", secret, salt })).rejects.toBeInstanceOf(JWTSessionError);
    await expect(decode({ token, secret, salt: "other" })).rejects.toBeInstanceOf(JWTSessionError);
    await expect(decode({ token, secret: "another-secret-entirely", salt })).rejects.toBeInstanceOf(JWTSessionError);
  });

  it("a token that is not a string (a JavaScript caller's number or object) is a JWTSessionError, with the underlying error as its cause", async () => {
    for (const token of [123, { split: 1 }]) {
      const error = await decode({ token: token as unknown as string, secret, salt }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(JWTSessionError);
      expect((error as Error).message).toBe("The token could not be decrypted or has expired.");
      expect((error as JWTSessionError).cause?.err).toBeInstanceOf(TypeError);
    }
  });

  it("throws MissingSecret without a secret, telling how to set one; secrets that are not strings do not count", async () => {
    await expect(encode({ token: {}, secret: "", salt })).rejects.toThrow(
      new MissingSecret("A secret is required: set AUTH_SECRET or pass `secret`."),
    );
    await expect(encode({ token: {}, secret: [["x".repeat(40)], 42] as unknown as string[], salt })).rejects.toBeInstanceOf(MissingSecret);
    await expect(encode({ token: {}, secret: [], salt })).rejects.toBeInstanceOf(MissingSecret);
  });

  it("rotates secrets: encodes with the first, decodes with any", async () => {
    const [s1, s2, s3] = ["secret-one-xxxxxxxxxxxxxxxx", "secret-two-xxxxxxxxxxxxxxxx", "secret-three-xxxxxxxxxxxxxx"];
    const t1 = await encode({ token: { n: 1 }, secret: s1, salt });
    const t2 = await encode({ token: { n: 2 }, secret: s2, salt });
    expect(await decode({ token: t1, secret: [s1, s2], salt })).toMatchObject({ n: 1 });
    expect(await decode({ token: t2, secret: [s1, s2], salt })).toMatchObject({ n: 2 });
    const both = await encode({ token: { n: 3 }, secret: [s1, s2], salt });
    await expect(decode({ token: both, secret: s2, salt })).rejects.toThrow(/No secret matches/);
    const t3 = await encode({ token: { n: 4 }, secret: s3, salt });
    await expect(decode({ token: t3, secret: [s1, s2], salt })).rejects.toBeInstanceOf(JWTSessionError);
  });

  it("accepts 15 s of clock skew and no more", async () => {
    const nearlyExpired = await encode({ token: {}, secret, salt, maxAge: -10 });
    expect(await decode({ token: nearlyExpired, secret, salt })).not.toBeNull();
    const expired = await encode({ token: {}, secret, salt, maxAge: -20 });
    await expect(decode({ token: expired, secret, salt })).rejects.toBeInstanceOf(JWTSessionError);
  });

  it("issues tokens valid for 30 days unless maxAge is given", async () => {
    const payload = await decode({ token: await encode({ token: {}, secret, salt }), secret, salt });
    expect((payload?.exp as number) - (payload?.iat as number)).toBe(DEFAULT_MAX_AGE);
    expect(DEFAULT_MAX_AGE).toBe(30 * 24 * 60 * 60);
  });

  it("skips empty secrets in a list: the first non-empty one encrypts, any listed one decrypts", async () => {
    const token = await encode({ token: { n: 1 }, secret: ["", secret], salt });
    expect(await decode({ token, secret, salt })).toMatchObject({ n: 1 });
    expect(await decode({ token, secret: ["", secret], salt })).toMatchObject({ n: 1 });
    await expect(decode({ token, secret: [""], salt })).rejects.toBeInstanceOf(MissingSecret);
  });

  it("a payload jose cannot issue is refused as jose refuses it", async () => {
    await expect(encode({ token: {}, secret, salt, maxAge: Number.NaN })).rejects.toThrow();
  });

  it("decodes A256GCM tokens", async () => {
    const token = await gcmToken({ sub: "gcm" }, secret, salt);
    expect(await decode({ token, secret, salt })).toMatchObject({ sub: "gcm" });
  });
});

describe("interoperability with @auth/core/jwt", () => {
  it("decodes a token issued by Auth.js", async () => {
    const token = await authjsEncode({ token: { sub: "7", email: "a@b.c", custom: [1, { x: true }] }, secret, salt });
    const ours = await decode({ token, secret, salt });
    const theirs = await authjsDecode({ token, secret, salt });
    expect(ours).toEqual(theirs);
  });

  it("issues tokens Auth.js decodes", async () => {
    const token = await encode({ token: { sub: "8", name: "Grace" }, secret, salt });
    expect(await authjsDecode({ token, secret, salt })).toEqual(await decode({ token, secret, salt }));
  });

  it("agrees on A256GCM tokens", async () => {
    const token = await gcmToken({ sub: "gcm" }, secret, salt);
    expect(await authjsDecode({ token, secret, salt })).toEqual(await decode({ token, secret, salt }));
  });

  it("agrees on rotated secret arrays in both directions", async () => {
    const rotated = ["new-secret-xxxxxxxxxxxxxxxxxxxx", secret];
    const fromThem = await authjsEncode({ token: { sub: "old" }, secret, salt });
    expect(await decode({ token: fromThem, secret: rotated, salt })).toMatchObject({ sub: "old" });
    const fromUs = await encode({ token: { sub: "new" }, secret: rotated, salt });
    expect(await authjsDecode({ token: fromUs, secret: rotated, salt })).toMatchObject({ sub: "new" });
    await expect(authjsDecode({ token: fromUs, secret, salt })).rejects.toThrow();
  });
});

describe("properties", () => {
  const payloadArb = fc.dictionary(
    fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !["iat", "exp", "jti", "__proto__"].includes(k)),
    fc.jsonValue({ maxDepth: 3 }),
    { maxKeys: 8 },
  );

  it("encode/decode round-trips arbitrary JSON payloads", async () => {
    await fc.assert(
      fc.asyncProperty(payloadArb, async (payload) => {
        const normalised = JSON.parse(JSON.stringify(payload));
        const token = await encode({ token: normalised, secret, salt });
        const { iat, exp, jti, ...rest } = (await decode({ token, secret, salt })) as Record<string, unknown>;
        expect(rest).toEqual(normalised);
      }),
      { numRuns: 60 },
    );
  });

  it("any single-character change in a token makes getToken return null", async () => {
    const token = await encode({ token: { sub: "victim" }, secret, salt });
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=!%";
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: token.length - 1 }), fc.constantFrom(...alphabet), async (index, replacement) => {
        fc.pre(token[index] !== replacement);
        const tampered = token.slice(0, index) + replacement + token.slice(index + 1);
        const req = { headers: { cookie: `${salt}=${tampered}` } };
        expect(await getToken({ req, secret, salt })).toBeNull();
      }),
      { numRuns: 300 },
    );
  });

  it("expired tokens give null", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 16, max: 10_000_000 }), async (age) => {
        const token = await encode({ token: { sub: "x" }, secret, salt, maxAge: -age });
        expect(await getToken({ req: { headers: { authorization: `Bearer ${token}` } }, secret, salt })).toBeNull();
      }),
      { numRuns: 40 },
    );
  });

  it("a token for another salt gives null", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s !== salt),
        async (otherSalt) => {
          const token = await encode({ token: { sub: "x" }, secret, salt: otherSalt });
          expect(await getToken({ req: { headers: { cookie: `${salt}=${token}` } }, secret, salt })).toBeNull();
        },
      ),
      { numRuns: 40 },
    );
  });

  it("Bearer headers with malformed percent-encoding give null, raw or not", async () => {
    const malformed = fc.oneof(
      fc.constantFrom("%", "%A", "%ZZ", "%E0%A4%A", "abc%", "%%"),
      fc.tuple(fc.stringMatching(/^[A-Za-z0-9._~-]{0,10}$/), fc.constantFrom("%", "%G1", "%1")).map(([a, b]) => a + b),
    );
    await fc.assert(
      fc.asyncProperty(malformed, async (value) => {
        const req = { headers: { authorization: `Bearer ${value}` } };
        expect(await getToken({ req, secret })).toBeNull();
        expect(await getToken({ req, secret, raw: true })).toBeNull();
      }),
    );
  });
});

describe("getToken", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("reads the session cookie, with the cookie name as salt", async () => {
    const token = await encode({ token: { sub: "c" }, secret, salt: "authlib.session-token" });
    const req = new Request("http://localhost/", { headers: { cookie: `other=1; authlib.session-token=${token}` } });
    expect(await getToken({ req, secret })).toMatchObject({ sub: "c" });
    expect(await getToken({ req, secret, raw: true })).toBe(token);
  });

  it("reassembles chunked cookies and refuses a chunk set with a gap or chunks of the wrong size", async () => {
    const token = await encode({ token: { sub: "big", blob: "x".repeat(6000) }, secret, salt });
    // Chunks as authlib writes them (http/cookie-chunks.ts): every chunk but the last is CHUNK_SIZE long.
    const a = token.slice(0, CHUNK_SIZE);
    const b = token.slice(CHUNK_SIZE, 2 * CHUNK_SIZE);
    const c = token.slice(2 * CHUNK_SIZE);
    expect(c.length).toBeGreaterThan(0);
    const headers = { cookie: `${salt}.1=${b}; ${salt}.0=${a}; ${salt}.2=${c}` };
    expect(await getToken({ req: { headers }, secret })).toMatchObject({ sub: "big" });
    const gap = { cookie: `${salt}.0=${a}; ${salt}.2=${c}` };
    expect(await getToken({ req: { headers: gap }, secret })).toBeNull();
    // The same bytes split elsewhere: not a set authlib wrote (a chunk was replaced or planted).
    const resplit = { cookie: `${salt}.0=${token.slice(0, 3000)}; ${salt}.1=${token.slice(3000, 6000)}; ${salt}.2=${token.slice(6000)}` };
    expect(await getToken({ req: { headers: resplit }, secret })).toBeNull();
  });

  it("reads a URL-encoded Bearer token", async () => {
    const token = await encode({ token: { sub: "b" }, secret, salt });
    const req = { headers: new Headers({ authorization: `Bearer ${encodeURIComponent(token)}` }) };
    expect(await getToken({ req, secret })).toMatchObject({ sub: "b" });
  });

  it("uses the __Host- cookie name when AUTHLIB_URL is https, the plain one otherwise", async () => {
    const secureSalt = "__Host-authlib.session-token";
    const token = await encode({ token: { sub: "s" }, secret, salt: secureSalt });
    const req = { headers: { cookie: `${secureSalt}=${token}` } };
    vi.stubEnv("AUTHLIB_URL", "https://app.example.com");
    expect(await getToken({ req, secret })).toMatchObject({ sub: "s" });
    vi.stubEnv("AUTHLIB_URL", "http://localhost:3000");
    expect(await getToken({ req, secret })).toBeNull();
    expect(await getToken({ req, secret, secureCookie: true })).toMatchObject({ sub: "s" });
  });

  it("never reads the former __Secure- name by itself (a sibling subdomain can plant it), only when named as cookieName", async () => {
    const legacy = "__Secure-authlib.session-token";
    const token = await encode({ token: { sub: "planted" }, secret, salt: legacy });
    const req = { headers: { cookie: `${legacy}=${token}` } };
    vi.stubEnv("AUTHLIB_URL", "https://app.example.com");
    expect(await getToken({ req, secret })).toBeNull();
    expect(await getToken({ req, secret, secureCookie: true })).toBeNull();
    vi.stubEnv("AUTHLIB_URL", "");
    vi.stubEnv("AUTH_URL", "");
    expect(await getToken({ req, secret })).toBeNull();
    expect(await getToken({ req, secret, cookieName: legacy })).toMatchObject({ sub: "planted" });
  });

  it("takes the scheme from Auth.js's AUTH_URL when AUTHLIB_URL is unset; AUTHLIB_URL wins", async () => {
    const secureSalt = "__Host-authlib.session-token";
    const token = await encode({ token: { sub: "a" }, secret, salt: secureSalt });
    const req = { headers: { cookie: `${secureSalt}=${token}` } };
    vi.stubEnv("AUTHLIB_URL", "");
    vi.stubEnv("AUTH_URL", "https://app.example.com/auth");
    expect(await getToken({ req, secret })).toMatchObject({ sub: "a" });
    vi.stubEnv("AUTH_URL", "http://localhost:3000/auth");
    expect(await getToken({ req, secret })).toBeNull();
    vi.stubEnv("AUTHLIB_URL", "https://app.example.com");
    expect(await getToken({ req, secret })).toMatchObject({ sub: "a" });
  });

  it("defaults the secret to AUTH_SECRET and throws MissingSecret without one", async () => {
    const token = await encode({ token: { sub: "e" }, secret, salt });
    const req = { headers: { cookie: `${salt}=${token}` } };
    vi.stubEnv("AUTH_SECRET", secret);
    expect(await getToken({ req })).toMatchObject({ sub: "e" });
    vi.stubEnv("AUTH_SECRET", "");
    await expect(getToken({ req })).rejects.toBeInstanceOf(MissingSecret);
  });

  it("uses a custom cookie name, salt and decoder", async () => {
    const req = { headers: { cookie: "my-cookie=plain-value" } };
    const decoder = vi.fn(async ({ token }: { token?: string }) => ({ sub: token }));
    expect(await getToken({ req, secret, cookieName: "my-cookie", decode: decoder })).toEqual({ sub: "plain-value" });
    expect(decoder).toHaveBeenCalledWith({ token: "plain-value", secret, salt: "my-cookie" });
  });

  it("returns null without a token, and logs no token value when one is rejected", async () => {
    expect(await getToken({ req: { headers: {} }, secret })).toBeNull();
    const logger = { debug: vi.fn() };
    const bogus = "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2Q0JDLUhTNTEyIn0..AAAA.BBBB.CCCC";
    expect(await getToken({ req: { headers: { cookie: `${salt}=${bogus}` } }, secret, logger })).toBeNull();
    expect(JSON.stringify(logger.debug.mock.calls)).not.toContain("BBBB");
  });

  it("reads headers given as a record: any key case, a cookie array joined as one Cookie header", async () => {
    const token = await encode({ token: { sub: "rec" }, secret, salt });
    expect(await getToken({ req: { headers: { Cookie: ["theme=dark", `${salt}=${token}`] } }, secret })).toMatchObject({ sub: "rec" });
    expect(await getToken({ req: { headers: { COOKIE: `${salt}=${token}` } }, secret })).toMatchObject({ sub: "rec" });
    expect(await getToken({ req: { headers: { Authorization: `Bearer ${token}` } }, secret })).toMatchObject({ sub: "rec" });
    expect(await getToken({ req: { headers: { authorization: [`Bearer ${token}`, "Bearer other"] } }, secret })).toBeNull();
  });

  it("takes only the Bearer scheme with a value; the session cookie wins over a Bearer header", async () => {
    const token = await encode({ token: { sub: "bearer" }, secret, salt });
    const cookieToken = await encode({ token: { sub: "cookie" }, secret, salt });
    for (const authorization of [`Basic ${token}`, `bearer ${token}`, "Bearer ", "Bearer"]) {
      expect(await getToken({ req: { headers: { authorization } }, secret })).toBeNull();
    }
    const both = { authorization: `Bearer ${token}`, cookie: `${salt}=${cookieToken}` };
    expect(await getToken({ req: { headers: both }, secret })).toMatchObject({ sub: "cookie" });
  });

  it("returns the raw token without any secret configured", async () => {
    vi.stubEnv("AUTH_SECRET", "");
    const req = { headers: { cookie: `${salt}=not-even-a-jwe` } };
    expect(await getToken({ req, raw: true })).toBe("not-even-a-jwe");
    await expect(getToken({ req })).rejects.toBeInstanceOf(MissingSecret);
  });

  it("a secret passed in wins over AUTH_SECRET", async () => {
    vi.stubEnv("AUTH_SECRET", "the-environment-secret-0123456789abcdef");
    const token = await encode({ token: { sub: "param" }, secret, salt });
    expect(await getToken({ req: { headers: { cookie: `${salt}=${token}` } }, secret })).toMatchObject({ sub: "param" });
  });

  it("without a configured URL, the session cookie present decides, salted with its own name; __Host- first", async () => {
    vi.stubEnv("AUTHLIB_URL", "");
    vi.stubEnv("AUTH_URL", "");
    for (const name of ["__Host-authlib.session-token", "authlib.session-token"]) {
      const token = await encode({ token: { sub: name }, secret, salt: name });
      expect(await getToken({ req: { headers: { cookie: `${name}=${token}` } }, secret })).toMatchObject({ sub: name });
    }
    const host = await encode({ token: { sub: "host" }, secret, salt: "__Host-authlib.session-token" });
    const plain = await encode({ token: { sub: "plain" }, secret, salt: "authlib.session-token" });
    const cookie = `authlib.session-token=${plain}; __Host-authlib.session-token=${host}`;
    expect(await getToken({ req: { headers: { cookie } }, secret })).toMatchObject({ sub: "host" });
    expect(await getToken({ req: { headers: { cookie } }, secret, secureCookie: false })).toMatchObject({ sub: "plain" });
  });

  it("a Bearer token without a session cookie is salted with the plain cookie name unless told otherwise", async () => {
    vi.stubEnv("AUTHLIB_URL", "");
    vi.stubEnv("AUTH_URL", "");
    const token = await encode({ token: { sub: "api" }, secret, salt: "authlib.session-token" });
    expect(await getToken({ req: { headers: { authorization: `Bearer ${token}` } }, secret })).toMatchObject({ sub: "api" });
    const custom = await encode({ token: { sub: "api2" }, secret, salt: "api-salt" });
    const req = { headers: { authorization: `Bearer ${custom}` } };
    expect(await getToken({ req, secret, salt: "api-salt" })).toMatchObject({ sub: "api2" });
  });

  it("reports a rejected token at debug level, by error name only", async () => {
    const debug = vi.fn();
    const forged = await encode({ token: { sub: "x" }, secret: "some-other-secret-0123456789abcdef", salt });
    expect(await getToken({ req: { headers: { cookie: `${salt}=${forged}` } }, secret, logger: { debug } })).toBeNull();
    expect(debug).toHaveBeenCalledWith("getToken: token rejected (JWTSessionError)");
  });

  it("throws a TypeError naming req without req or without headers", async () => {
    // @ts-expect-error req is required
    await expect(getToken({ secret })).rejects.toThrow(new TypeError("getToken: pass `req` (a Request or an object with `headers`)."));
    // @ts-expect-error headers are required
    await expect(getToken({ req: {}, secret })).rejects.toThrow(/pass `req`/);
  });

  it("an empty secret passed in is MissingSecret, telling how to set one", async () => {
    const req = { headers: { cookie: `${salt}=anything` } };
    await expect(getToken({ req, secret: "" })).rejects.toThrow(
      new MissingSecret("getToken needs a secret: set AUTH_SECRET or pass `secret`."),
    );
  });

  it("a logger without debug is fine", async () => {
    const req = { headers: { cookie: `${salt}=not-a-token` } };
    expect(await getToken({ req, secret, logger: {} as { debug: () => void } })).toBeNull();
  });

  it("a URL that merely contains https: later is not https", async () => {
    const secureSalt = "__Host-authlib.session-token";
    const token = await encode({ token: { sub: "h" }, secret, salt: secureSalt });
    vi.stubEnv("AUTHLIB_URL", "http://localhost:3000/https://");
    expect(await getToken({ req: { headers: { cookie: `${secureSalt}=${token}` } }, secret })).toBeNull();
  });
});
