/**
 * The token fast path (node:crypto, and WebCrypto with cached keys) is held to jose: on random payloads,
 * tampered tokens and tokens forged WITH the key (so every header and claim rule is reached past the MAC),
 * `decode` and the WebCrypto decoder accept exactly what the reference accepts, with the same claims, and
 * reject the rest with JWTSessionError. The reference is authlib's previous decoder, written here
 * independently of src: a canonical-base64url check, then jose's `jwtDecrypt` with keys from
 * `@panva/hkdf` (as Auth.js derives them).
 */
import { createCipheriv, createHash, createHmac, randomBytes } from "node:crypto";
import { deflateRawSync } from "node:zlib";
import { decode as authjsDecode, encode as authjsEncode } from "@auth/core/jwt";
import { hkdf } from "@panva/hkdf";
import fc from "fast-check";
import { base64url, jwtDecrypt } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { joseDecrypt } from "../../src/crypto/jwe-jose.js";
import { nodeJwe } from "../../src/crypto/jwe-node.js";
import { USE_JOSE } from "../../src/crypto/jwe-rules.js";
import { webCryptoDecrypt, webCryptoEncrypt } from "../../src/crypto/jwe-webcrypto.js";
import { JWTSessionError } from "../../src/errors.js";
import { decode, encode, getToken } from "../../src/jwt.js";

const secret = "fast-path-test-secret-of-at-least-32-chars";
const otherSecret = "another-secret-entirely-xxxxxxxxxxxxxxxx";
const salt = "authlib.session-token";
type Enc = "A256CBC-HS512" | "A256GCM";

// A fixed clock: claims at exactly now ± 15 s stay on the same side of the boundary for every decoder.
const NOW = 1_800_000_000;
beforeAll(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(NOW * 1000);
});
afterAll(() => vi.useRealTimers());

const keyCache = new Map<string, { key: Uint8Array; kid: string }>();
async function keyOf(enc: Enc, s = secret, sl = salt) {
  const id = `${enc}|${s}|${sl}`;
  const cached = keyCache.get(id);
  if (cached) return cached;
  const length = enc === "A256GCM" ? 32 : 64;
  const key = await hkdf("sha256", s, sl, `Auth.js Generated Encryption Key (${sl})`, length);
  const jwk = `{"k":"${base64url.encode(key)}","kty":"oct"}`;
  const kid = createHash(length === 64 ? "sha512" : "sha256")
    .update(jwk)
    .digest("base64url");
  const entry = { key, kid };
  keyCache.set(id, entry);
  return entry;
}

/** authlib's previous decoder: canonical parts, then jose's jwtDecrypt with the same options. */
async function reference(token: string, secrets: string[]): Promise<Record<string, unknown>> {
  const parts = token.split(".");
  const canonical = parts.length === 5 && parts.every((p) => { try { return base64url.encode(base64url.decode(p)) === p; } catch { return false; } }); // biome-ignore format: one line
  if (!canonical) throw new JWTSessionError("not compact");
  try {
    const { payload } = await jwtDecrypt(
      token,
      async ({ kid, enc }) => {
        if (enc !== "A256CBC-HS512" && enc !== "A256GCM") throw new Error("enc");
        for (const s of secrets) {
          const derived = await keyOf(enc, s);
          if (kid === undefined || derived.kid === kid) return derived.key;
        }
        throw new Error("no kid");
      },
      { clockTolerance: 15, keyManagementAlgorithms: ["dir"], contentEncryptionAlgorithms: ["A256CBC-HS512", "A256GCM"] },
    );
    return payload;
  } catch (error) {
    throw new JWTSessionError("rejected", { cause: error as Error });
  }
}

/** The WebCrypto decoder as `decode` uses it where node:crypto is missing (a zip token goes to jose). */
async function webCryptoDecode(token: string, secrets: string[]) {
  const claims = await webCryptoDecrypt(token, secrets, salt);
  return claims === USE_JOSE ? joseDecrypt(token, secrets, salt) : claims;
}

type Outcome = { accepted: unknown } | { rejected: string };
const outcome = (p: Promise<unknown>): Promise<Outcome> =>
  p.then(
    (accepted) => ({ accepted }),
    (error) => ({ rejected: error instanceof JWTSessionError ? "JWTSessionError" : `unexpected ${String(error)}` }),
  );

/** Every decoder agrees with the reference on `token`; returns the shared outcome. */
async function agree(token: string, secrets: string[] = [secret]): Promise<Outcome> {
  const expected = await outcome(reference(token, secrets));
  expect(await outcome(decode({ token, secret: secrets, salt })), token).toEqual(expected);
  expect(await outcome(webCryptoDecode(token, secrets)), token).toEqual(expected);
  return expected;
}

const b64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString("base64url");

/** A token made WITH the key, independently of src: any header text, any plaintext bytes, any part. */
async function forge(opts: {
  header: string;
  plaintext: Uint8Array;
  enc?: Enc;
  keySecret?: string;
  encryptedKey?: string;
  ivBytes?: number;
}): Promise<string> {
  const enc = opts.enc ?? "A256CBC-HS512";
  const { key } = await keyOf(enc, opts.keySecret ?? secret);
  const h = b64(opts.header);
  const aad = Buffer.from(h, "ascii");
  if (enc === "A256GCM") {
    const iv = randomBytes(opts.ivBytes ?? 12);
    const cipher = createCipheriv("aes-256-gcm", key, iv.length > 0 ? iv : Buffer.alloc(12)).setAAD(aad);
    const ct = Buffer.concat([cipher.update(opts.plaintext), cipher.final()]);
    return [h, opts.encryptedKey ?? "", b64(iv), b64(ct), b64(cipher.getAuthTag())].join(".");
  }
  const iv = randomBytes(opts.ivBytes ?? 16);
  const ivForCipher = iv.length === 16 ? iv : Buffer.alloc(16);
  const cipher = createCipheriv("aes-256-cbc", Buffer.from(key.subarray(32)), ivForCipher);
  const ct = Buffer.concat([cipher.update(opts.plaintext), cipher.final()]);
  const al = Buffer.alloc(8);
  al.writeBigUInt64BE(BigInt(aad.length * 8));
  const tag = createHmac("sha512", Buffer.from(key.subarray(0, 32)))
    .update(Buffer.concat([aad, iv, ct, al]))
    .digest()
    .subarray(0, 32);
  return [h, opts.encryptedKey ?? "", b64(iv), b64(ct), b64(tag)].join(".");
}

const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

const payloadArb = fc.dictionary(
  fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !["iat", "exp", "jti", "nbf", "__proto__"].includes(k)),
  fc.jsonValue({ maxDepth: 3 }),
  { maxKeys: 8 },
);

describe("the node:crypto fast path", () => {
  it("is the path decode takes on Node", () => {
    expect(nodeJwe()).toBeDefined();
  });
});

describe("equivalence with jose on valid tokens", () => {
  it("random payloads issued by encode, the WebCrypto encoder, Auth.js and jose (GCM): same claims everywhere", async () => {
    await fc.assert(
      fc.asyncProperty(payloadArb, fc.constantFrom("ours", "webcrypto", "authjs", "gcm"), async (raw, issuer) => {
        const payload = JSON.parse(JSON.stringify(raw)) as Record<string, unknown>;
        let token: string;
        if (issuer === "ours") token = await encode({ token: payload, secret, salt });
        else if (issuer === "webcrypto") token = await webCryptoEncrypt({ ...payload, iat: NOW, exp: NOW + 60 }, secret, salt);
        else if (issuer === "authjs") token = await authjsEncode({ token: payload, secret, salt });
        else {
          const { kid } = await keyOf("A256GCM");
          token = await forge({
            header: JSON.stringify({ alg: "dir", enc: "A256GCM", kid }),
            plaintext: json({ ...payload, exp: NOW + 60 }),
            enc: "A256GCM",
          });
        }
        const result = await agree(token);
        expect(result).toHaveProperty("accepted");
        const { iat, exp, jti, ...rest } = (result as { accepted: Record<string, unknown> }).accepted;
        expect(rest).toEqual(payload);
      }),
      { numRuns: 1000 },
    );
  });

  it("tokens the fast path issues decode with @auth/core and with jose", async () => {
    await fc.assert(
      fc.asyncProperty(payloadArb, async (raw) => {
        const payload = JSON.parse(JSON.stringify(raw)) as Record<string, unknown>;
        const token = await encode({ token: payload, secret, salt, maxAge: 3600 });
        const theirs = await authjsDecode({ token, secret, salt });
        const { payload: jose } = await jwtDecrypt(token, (await keyOf("A256CBC-HS512")).key, { clockTolerance: 15 });
        expect(theirs).toEqual(jose);
        const { iat, exp, jti, ...rest } = jose;
        expect(rest).toEqual(payload);
        expect([exp, typeof jti]).toEqual([(iat as number) + 3600, "string"]);
      }),
      { numRuns: 300 },
    );
  });
});

describe("equivalence with jose on tampered tokens", () => {
  let token: string;
  let gcm: string;
  beforeAll(async () => {
    token = await encode({ token: { sub: "victim", role: "user" }, secret, salt });
    const { kid } = await keyOf("A256GCM");
    gcm = await forge({
      header: JSON.stringify({ alg: "dir", enc: "A256GCM", kid }),
      plaintext: json({ sub: "victim", exp: NOW + 60 }),
      enc: "A256GCM",
    });
  });

  it("every bit of every decoded byte of every part flipped: all rejected, by everyone", async () => {
    for (const original of [token, gcm]) {
      const parts = original.split(".");
      for (let p = 0; p < 5; p++) {
        const bytes = Buffer.from(parts[p] as string, "base64url");
        for (let i = 0; i < bytes.length; i++) {
          for (let bit = 0; bit < 8; bit++) {
            const flipped = Buffer.from(bytes);
            flipped[i] = (flipped[i] as number) ^ (1 << bit);
            const tampered = parts.map((part, j) => (j === p ? b64(flipped) : part)).join(".");
            expect(await agree(tampered)).toEqual({ rejected: "JWTSessionError" });
          }
        }
      }
    }
  });

  it("any character replaced, inserted or removed; truncation; re-padding; non-canonical and base64 (not url) spellings", async () => {
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ %";
    const edit = fc.oneof(
      fc.tuple(fc.nat(), fc.constantFrom(...alphabet)).map(
        ([i, c]) =>
          (t: string) =>
            t.slice(0, i % t.length) + c + t.slice((i % t.length) + 1),
      ),
      fc.tuple(fc.nat(), fc.constantFrom(...alphabet)).map(
        ([i, c]) =>
          (t: string) =>
            t.slice(0, i % t.length) + c + t.slice(i % t.length),
      ),
      fc.nat().map((i) => (t: string) => t.slice(0, i % t.length) + t.slice((i % t.length) + 1)),
      fc.nat().map((i) => (t: string) => t.slice(0, i % t.length)),
      fc.tuple(fc.nat({ max: 4 }), fc.constantFrom("=", "==")).map(
        ([p, pad]) =>
          (t: string) =>
            t
              .split(".")
              .map((s, j) => (j === p ? s + pad : s))
              .join("."),
      ),
      // The same bytes, another spelling: spare low bits set in a part's last character.
      fc.tuple(fc.nat({ max: 4 }), fc.integer({ min: 1, max: 15 })).map(
        ([p, bits]) =>
          (t: string) =>
            t
              .split(".")
              .map((s, j) => {
                if (j !== p || s.length % 4 === 0) return s;
                const b64url = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
                const mask = s.length % 4 === 2 ? 15 : 3;
                const last = b64url.indexOf(s.at(-1) as string);
                return s.slice(0, -1) + b64url[(last & ~mask) | (bits & mask)];
              })
              .join("."),
      ),
      fc.constant((t: string) => t.replaceAll("-", "+").replaceAll("_", "/")),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("cbc", "gcm"), fc.array(edit, { minLength: 1, maxLength: 3 }), async (which, edits) => {
        const original = which === "cbc" ? token : gcm;
        const tampered = edits.reduce((t, e) => e(t), original);
        fc.pre(tampered !== original && tampered.length > 0);
        await agree(tampered);
        // getToken never throws on it either.
        const got = await getToken({ req: { headers: { cookie: `${salt}=${tampered}` } }, secret, salt });
        if (got !== null) expect(tampered).not.toBe(original);
      }),
      { numRuns: 2000 },
    );
  });

  it("a token of another secret, another salt, or a rotated-out secret", async () => {
    const foreign = await encode({ token: { sub: "x" }, secret: otherSecret, salt });
    expect(await agree(foreign)).toEqual({ rejected: "JWTSessionError" });
    expect(await agree(foreign, [secret, otherSecret])).toHaveProperty("accepted");
    const otherSalt = await encode({ token: { sub: "x" }, secret, salt: "other-salt" });
    expect(await agree(otherSalt)).toEqual({ rejected: "JWTSessionError" });
  });
});

describe("equivalence with jose on tokens forged with the key (every rule past the MAC)", () => {
  const claimValue = fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: -40, max: 40 }).map((d) => NOW + d) },
    { weight: 2, arbitrary: fc.integer({ min: -10_000_000, max: 10_000_000 }).map((d) => NOW + d) },
    { weight: 2, arbitrary: fc.constantFrom("soon", null, true, [NOW], { t: NOW }, NOW + 0.5, NOW - 15, NOW + 15, NOW - 14.5) },
  );
  // Claims and headers start valid and get up to three changes each, so both verdicts are common.
  const claimsArb = fc
    .tuple(
      fc.array(
        fc.oneof(
          fc.tuple(fc.constantFrom("iat", "nbf", "exp"), claimValue),
          fc.tuple(fc.constant("sub"), fc.oneof(fc.constant("u2"), fc.string({ maxLength: 3 }))),
          fc.tuple(fc.constant("iss"), fc.constantFrom("other", undefined)),
          fc.tuple(fc.constant("aud"), fc.constantFrom(["a"], ["a", "b"], ["b", "a"], undefined)),
        ),
        { maxLength: 3 },
      ),
    )
    .map(([changes]) => ({ sub: "u1", iss: "issuer", aud: "a", ...Object.fromEntries(changes) }));
  const kidArb = fc.constantFrom("match", "match", "match", "other-secret", "garbage", "absent", "number");
  const headerChange = fc.oneof(
    fc.tuple(fc.constant("alg"), fc.constantFrom("A256KW", "none", "", "DIR", 1)),
    fc.tuple(fc.constant("enc"), fc.constantFrom("A256CBC-HS512", "A256GCM", "A128CBC-HS256", "A256CBC-HS512 ", null)),
    fc.tuple(fc.constant("crit"), fc.constantFrom(["exp"], [], "zip", ["b64"])),
    fc.tuple(fc.constant("zip"), fc.constantFrom("DEF", "DEF", "GZIP", "")),
    fc.tuple(fc.constantFrom("typ", "cty"), fc.constantFrom("JWT", "JOSE")),
    fc.tuple(fc.constant("iss"), fc.constantFrom("issuer", "other")),
    fc.tuple(fc.constant("sub"), fc.constantFrom("u1", "u2")),
    fc.tuple(fc.constant("aud"), fc.constantFrom("a", ["a"], ["a", "b"])),
  );
  const headerArb = fc.array(headerChange, { maxLength: 3 }).map((changes) => Object.fromEntries(changes) as Record<string, unknown>);

  async function headerText(h: Record<string, unknown>, kid: string, enc: Enc): Promise<string> {
    const header: Record<string, unknown> = { ...h };
    if (kid === "match") header.kid = (await keyOf(enc)).kid;
    else if (kid === "other-secret") header.kid = (await keyOf(enc, otherSecret)).kid;
    else if (kid === "garbage") header.kid = "nope";
    else if (kid === "number") header.kid = 7;
    return JSON.stringify(header);
  }

  it("headers and claims of every kind, CBC and GCM: the same verdict and claims as jose", async () => {
    const verdicts = { accepted: 0, rejected: 0 };
    await fc.assert(
      fc.asyncProperty(headerArb, claimsArb, kidArb, fc.constantFrom<Enc>("A256CBC-HS512", "A256GCM"), async (h, claims, kid, cipher) => {
        const header = { alg: "dir", enc: cipher, ...h };
        const plaintext = header.zip === "DEF" ? deflateRawSync(json(claims)) : json(claims);
        const token = await forge({ header: await headerText(header, kid, cipher), plaintext, enc: cipher });
        verdicts["accepted" in (await agree(token, [secret, otherSecret])) ? "accepted" : "rejected"]++;
      }),
      { numRuns: 2500 },
    );
    // Both sides of every rule were reached (a generator that only made rejects would prove nothing).
    expect(verdicts.accepted).toBeGreaterThan(100);
    expect(verdicts.rejected).toBeGreaterThan(100);
  });

  it("plaintexts that are not a JSON object, not UTF-8, or empty", async () => {
    const { kid } = await keyOf("A256CBC-HS512");
    const header = JSON.stringify({ alg: "dir", enc: "A256CBC-HS512", kid });
    const plaintexts = [
      "",
      "[]",
      "null",
      "1",
      '"s"',
      "{",
      '{"a":1}',
      '{"__proto__":{"admin":true}}',
      '{"a":"\\ud800"}',
      ' {"a":1} ',
      '{"a":1,"a":2}',
    ].map((s) => new TextEncoder().encode(s));
    plaintexts.push(Uint8Array.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d])); // {"a":"<0xff>"}
    plaintexts.push(Uint8Array.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d])); // BOM + {}
    for (const plaintext of plaintexts) await agree(await forge({ header, plaintext }));
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 40 }), async (bytes) => {
        await agree(await forge({ header, plaintext: bytes }));
      }),
      { numRuns: 300 },
    );
  });

  it("headers that are not a JSON object; an encrypted key with dir; IVs of the wrong length", async () => {
    const { kid } = await keyOf("A256CBC-HS512");
    const good = JSON.stringify({ alg: "dir", enc: "A256CBC-HS512", kid });
    const claims = json({ sub: "x" });
    for (const header of ["", "[]", "null", '"dir"', "{", `${good} `, `\ufeff${good}`, good.replace("}", ',"alg":"none"}')]) {
      await agree(await forge({ header, plaintext: claims }));
    }
    expect(await agree(await forge({ header: good, plaintext: claims }))).toHaveProperty("accepted");
    expect(await agree(await forge({ header: good, plaintext: claims, encryptedKey: "AAAA" }))).toEqual({ rejected: "JWTSessionError" });
    for (const ivBytes of [0, 8, 12, 15, 17, 32]) {
      expect(await agree(await forge({ header: good, plaintext: claims, ivBytes }))).toEqual({ rejected: "JWTSessionError" });
    }
    const gcmHeader = JSON.stringify({ alg: "dir", enc: "A256GCM", kid: (await keyOf("A256GCM")).kid });
    for (const ivBytes of [0, 8, 16]) {
      expect(await agree(await forge({ header: gcmHeader, plaintext: claims, enc: "A256GCM", ivBytes }))).toEqual({
        rejected: "JWTSessionError",
      });
    }
    // GCM with the boundary between ciphertext and tag moved: the same bytes, another split.
    const sealed = await forge({ header: gcmHeader, plaintext: claims, enc: "A256GCM" });
    const [h, ek, iv, ct, tag] = sealed.split(".") as [string, string, string, string, string];
    const joined = Buffer.concat([Buffer.from(ct, "base64url"), Buffer.from(tag, "base64url")]);
    const moved = [h, ek, iv, b64(joined.subarray(0, -15)), b64(joined.subarray(-15))].join(".");
    expect(await agree(moved)).toEqual({ rejected: "JWTSessionError" });
  });
});

describe("the node decoder remembers what a header decides (crypto/jwe-node)", () => {
  it("a header seen before gets jose's verdict again, with every other part still checked: more headers than it remembers, twice over", async () => {
    const { kid } = await keyOf("A256CBC-HS512");
    const good = (i: number) => ({ alg: "dir", enc: "A256CBC-HS512", kid, n: i });
    // Accepted and refused headers, more than the memo keeps (64), and one too long to be kept at all.
    const headers = Array.from({ length: 100 }, (_, i) => {
      if (i % 5 === 1) return JSON.stringify({ ...good(i), alg: "none" });
      if (i % 5 === 2) return JSON.stringify({ ...good(i), crit: ["n"] });
      if (i % 5 === 3) return JSON.stringify({ ...good(i), kid: "nope" });
      return JSON.stringify(good(i));
    });
    headers.push(JSON.stringify({ ...good(100), pad: "x".repeat(600) }));
    const claims = json({ sub: "x" });
    const expired = json({ sub: "x", exp: NOW - 60 });
    for (let pass = 0; pass < 2; pass++) {
      for (const [i, header] of headers.entries()) {
        const token = await forge({ header, plaintext: claims });
        const verdict = await agree(token);
        expect(verdict, header).toHaveProperty(i % 5 === 0 || i % 5 === 4 ? "accepted" : "rejected");
        // The same header with a wrong tag, with expired claims, or under a rotated-out key: refused every time.
        const [h, ek, iv, ct, tag] = token.split(".") as [string, string, string, string, string];
        const badTag = Buffer.from(tag, "base64url");
        badTag[0] = (badTag[0] as number) ^ 1;
        expect(await agree([h, ek, iv, ct, b64(badTag)].join("."))).toEqual({ rejected: "JWTSessionError" });
        expect(await agree(await forge({ header, plaintext: expired }))).toEqual({ rejected: "JWTSessionError" });
        expect(await agree(await forge({ header, plaintext: claims, keySecret: otherSecret }))).toEqual({ rejected: "JWTSessionError" });
      }
    }
  });

  it("tokens of several salts and secrets read in turn each get their own key", async () => {
    const salts = [salt, "other-salt", `__Secure-${salt}`];
    const secrets = [secret, otherSecret];
    const tokens = [];
    for (const sl of salts)
      for (const s of secrets) tokens.push({ sl, s, token: await encode({ token: { sub: `${sl}|${s}` }, secret: s, salt: sl }) });
    for (let pass = 0; pass < 3; pass++) {
      for (const { sl, s, token } of tokens) {
        expect((await decode({ token, secret: [otherSecret, secret], salt: sl }))?.sub).toBe(`${sl}|${s}`);
        for (const wrong of salts.filter((x) => x !== sl))
          await expect(decode({ token, secret: [secret, otherSecret], salt: wrong })).rejects.toThrow(JWTSessionError);
      }
    }
  });
});

describe("where node:crypto is missing or broken, decode and encode use WebCrypto", () => {
  const original = process.getBuiltinModule;
  afterEach(() => {
    process.getBuiltinModule = original;
    vi.resetModules();
  });

  /** A fresh copy of src/jwt.ts (and its codec choice) loaded under the given getBuiltinModule. */
  async function loadWith(getBuiltinModule: typeof process.getBuiltinModule | undefined) {
    vi.resetModules();
    (process as { getBuiltinModule?: unknown }).getBuiltinModule = getBuiltinModule;
    const jwt = await import("../../src/jwt.js");
    const codec = await import("../../src/crypto/jwe-node.js");
    const errors = await import("../../src/errors.js");
    return { jwt, fast: codec.nodeJwe() !== undefined, SessionError: errors.JWTSessionError };
  }

  async function roundTrips({ jwt, SessionError }: { jwt: typeof import("../../src/jwt.js"); SessionError: typeof JWTSessionError }) {
    const token = await jwt.encode({ token: { sub: "edge" }, secret, salt });
    expect(await authjsDecode({ token, secret, salt })).toMatchObject({ sub: "edge" });
    expect(await jwt.decode({ token: await authjsEncode({ token: { sub: "them" }, secret, salt }), secret, salt })).toMatchObject({
      sub: "them",
    });
    const gcmHeader = JSON.stringify({ alg: "dir", enc: "A256GCM", kid: (await keyOf("A256GCM")).kid });
    const gcm = await forge({ header: gcmHeader, plaintext: json({ sub: "gcm" }), enc: "A256GCM" });
    expect(await jwt.decode({ token: gcm, secret, salt })).toMatchObject({ sub: "gcm" });
    const flipped = `${token.slice(0, -2)}${token.at(-2) === "A" ? "B" : "A"}${token.at(-1)}`;
    await expect(jwt.decode({ token: flipped, secret, salt })).rejects.toBeInstanceOf(SessionError);
  }

  it("no process.getBuiltinModule (an edge runtime)", async () => {
    const loaded = await loadWith(undefined);
    expect(loaded.fast).toBe(false);
    await roundTrips(loaded);
  });

  it("a node:crypto whose AES-CBC is broken (a partial compatibility layer) fails the self-test and is not used", async () => {
    const broken = ((id: string) => {
      const real = original.call(process, id as "node:crypto") as typeof import("node:crypto");
      if (id !== "node:crypto") return real;
      return { ...real, createDecipheriv: () => ({ update: () => Buffer.alloc(0), final: () => Buffer.from("{}") }) };
    }) as typeof process.getBuiltinModule;
    const loaded = await loadWith(broken);
    expect(loaded.fast).toBe(false);
    await roundTrips(loaded);
  });

  it("a node:crypto that throws on load", async () => {
    const loaded = await loadWith((() => {
      throw new Error("no such module");
    }) as typeof process.getBuiltinModule);
    expect(loaded.fast).toBe(false);
    await roundTrips(loaded);
  });
});
