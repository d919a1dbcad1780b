/**
 * The behaviour of `src/crypto/` stated directly, cheaply (no server, no database, small scrypt costs
 * where the API takes them): the three JWE session codecs (node:crypto, WebCrypto, jose) read each
 * other's tokens and refuse the same tampered, mis-keyed, expired or malformed ones, each for its named
 * reason; key derivation and rotation; the synchronous digests and their bounded key caches; the
 * password hash format and its refusals; the cap on concurrent hashes; the runtime lookups that choose a
 * path. Keys and reference values are computed here with node:crypto directly, independently of src.
 */
import { createCipheriv, createHash, createHmac, hkdfSync, randomBytes, scryptSync } from "node:crypto";
import { deflateRawSync } from "node:zlib";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { builtin, nodeCrypto } from "../../src/crypto/builtin.js";
import { ConcurrencyGate } from "../../src/crypto/concurrency-gate.js";
import { deriveEncryptionKey, isSupportedEncryption } from "../../src/crypto/derive-key.js";
import { hmacHex, randomHex, sha256Hex, webCryptoHmacHex, webCryptoSha256Hex } from "../../src/crypto/digest.js";
import { joseDecrypt, joseEncrypt } from "../../src/crypto/jwe-jose.js";
import { nodeJwe } from "../../src/crypto/jwe-node.js";
import { aadLengthBlock, bytesEqual, isPlainObject, issuable, issuedClaims, USE_JOSE } from "../../src/crypto/jwe-rules.js";
import { webCryptoDecrypt, webCryptoEncrypt } from "../../src/crypto/jwe-webcrypto.js";
import { hashPasswordWith, verifyPasswordWith } from "../../src/crypto/password-hash.js";
import { defaultScrypt, nobleScrypt, nodeScrypt, type ScryptFunction, type ScryptParams } from "../../src/crypto/scrypt.js";
import { JWTSessionError, RateLimited } from "../../src/errors.js";

type Enc = "A256CBC-HS512" | "A256GCM";
type Claims = Record<string, unknown>;

const secret = "crypto-behaviour-secret-0123456789abcdef";
const oldSecret = "crypto-behaviour-old-secret-abcdefghijkl";
const salt = "authlib.session-token";
const NOW = 1_800_000_000;

const b64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString("base64url");
const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

/** Auth.js v5's key and kid for (enc, secret, salt), computed here with node:crypto. */
function keyOf(enc: Enc, s = secret, sl = salt): { key: Buffer; kid: string } {
  const length = enc === "A256GCM" ? 32 : 64;
  const key = Buffer.from(hkdfSync("sha256", s, sl, `Auth.js Generated Encryption Key (${sl})`, length));
  const kid = createHash(length === 64 ? "sha512" : "sha256")
    .update(`{"k":"${key.toString("base64url")}","kty":"oct"}`)
    .digest("base64url");
  return { key, kid };
}

/** A token made WITH the key: any header, any plaintext bytes, any encrypted key / IV length. */
function forge(opts: {
  header: Claims | string;
  plaintext: Uint8Array;
  enc?: Enc;
  keySecret?: string;
  encryptedKey?: string;
  ivBytes?: number;
  tagBytes?: number;
}): string {
  const enc = opts.enc ?? "A256CBC-HS512";
  const { key } = keyOf(enc, opts.keySecret ?? secret);
  const h = b64(typeof opts.header === "string" ? opts.header : JSON.stringify(opts.header));
  const aad = Buffer.from(h, "ascii");
  if (enc === "A256GCM") {
    const iv = randomBytes(opts.ivBytes ?? 12);
    const cipher = createCipheriv("aes-256-gcm", key, iv.length > 0 ? iv : Buffer.alloc(12)).setAAD(aad);
    const ct = Buffer.concat([cipher.update(opts.plaintext), cipher.final()]);
    const tag = cipher.getAuthTag().subarray(0, opts.tagBytes ?? 16);
    return [h, opts.encryptedKey ?? "", b64(iv), b64(ct), b64(tag)].join(".");
  }
  const iv = randomBytes(opts.ivBytes ?? 16);
  const cipher = createCipheriv("aes-256-cbc", key.subarray(32), iv.length === 16 ? iv : Buffer.alloc(16));
  const ct = Buffer.concat([cipher.update(opts.plaintext), cipher.final()]);
  const al = Buffer.alloc(8);
  al.writeBigUInt64BE(BigInt(aad.length * 8));
  const tag = createHmac("sha512", key.subarray(0, 32))
    .update(Buffer.concat([aad, iv, ct, al]))
    .digest()
    .subarray(0, opts.tagBytes ?? 32);
  return [h, opts.encryptedKey ?? "", b64(iv), b64(ct), b64(tag)].join(".");
}

const cbcHeader = (extra: Claims = {}, s = secret): Claims => ({
  alg: "dir",
  enc: "A256CBC-HS512",
  kid: keyOf("A256CBC-HS512", s).kid,
  ...extra,
});
const gcmHeader = (extra: Claims = {}, s = secret): Claims => ({ alg: "dir", enc: "A256GCM", kid: keyOf("A256GCM", s).kid, ...extra });

const node = nodeJwe();
/** The three decoders, as `decode` reaches them (a zip token handed to jose by the fast ones). */
const decoders: Record<string, (token: string, secrets: string[]) => Promise<Claims | typeof USE_JOSE>> = {
  node: async (token, secrets) => (node as NonNullable<typeof node>).decrypt(token, secrets, salt),
  webcrypto: (token, secrets) => webCryptoDecrypt(token, secrets, salt),
  jose: (token, secrets) => joseDecrypt(token, secrets, salt),
};

/** What each decoder makes of `token`: its claims, or the error's message and cause (for the fast ones). */
async function verdicts(token: string, secrets: string[] = [secret]) {
  const out: Record<string, unknown> = {};
  for (const [name, decrypt] of Object.entries(decoders)) {
    try {
      out[name] = { claims: await decrypt(token, secrets) };
    } catch (error) {
      expect(error, `${name} rejects with JWTSessionError`).toBeInstanceOf(JWTSessionError);
      const e = error as JWTSessionError;
      out[name] = { message: e.message, ...(name === "jose" ? {} : { cause: (e.cause?.err as Error | undefined)?.message }) };
    }
  }
  return out;
}

/** All three accept `token` with exactly `claims`. */
async function allAccept(token: string, claims: Claims, secrets: string[] = [secret]) {
  const v = await verdicts(token, secrets);
  expect(v).toEqual({ node: { claims }, webcrypto: { claims }, jose: { claims } });
}

const DECRYPT_FAILED = "The token could not be decrypted or has expired.";
/** All three refuse `token`; node and WebCrypto name `reason` as the cause. */
async function allRefuse(token: string, reason: string | undefined, secrets: string[] = [secret], message = DECRYPT_FAILED) {
  const v = await verdicts(token, secrets);
  const fast = { message, cause: reason };
  expect(v).toEqual({ node: fast, webcrypto: fast, jose: { message: expect.any(String) } });
}

describe("JWE session codecs (node:crypto, WebCrypto, jose) agree", () => {
  beforeAll(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(NOW * 1000);
  });
  afterAll(() => vi.useRealTimers());

  it("node:crypto is found and passes its self-test on Node", () => {
    expect(node).toBeDefined();
  });

  it("a token any of the three encoders issues is read by all three decoders, with the same claims", async () => {
    const claims = { sub: "ada", name: "Ada Lovelace ü", roles: ["admin"], iat: NOW, exp: NOW + 60 };
    const byNode = (node as NonNullable<typeof node>).encrypt(claims, secret, salt);
    const byWeb = await webCryptoEncrypt(claims, secret, salt);
    for (const token of [byNode, byWeb]) {
      const [header, encryptedKey] = token.split(".");
      expect(JSON.parse(Buffer.from(header as string, "base64url").toString())).toEqual(cbcHeader());
      expect(encryptedKey).toBe("");
      await allAccept(token, claims);
    }
    const byJose = await joseEncrypt({ sub: "ada" }, secret, salt, NOW, 60);
    expect(JSON.parse(Buffer.from(byJose.split(".")[0] as string, "base64url").toString())).toEqual(cbcHeader());
    const read = (await joseDecrypt(byJose, [secret], salt)) as Claims;
    expect(read).toEqual({ sub: "ada", iat: NOW, exp: NOW + 60, jti: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    await allAccept(byJose, read);
  });

  it("GCM tokens (as Auth.js may issue them) are read by all three", async () => {
    await allAccept(forge({ header: gcmHeader(), plaintext: json({ sub: "gcm" }), enc: "A256GCM" }), { sub: "gcm" });
  });

  it("a tampered header, IV, ciphertext or tag is refused by all three (CBC and GCM)", async () => {
    const cbc = (node as NonNullable<typeof node>).encrypt({ sub: "victim" }, secret, salt);
    const gcm = forge({ header: gcmHeader(), plaintext: json({ sub: "victim" }), enc: "A256GCM" });
    for (const token of [cbc, gcm]) {
      const parts = token.split(".");
      for (const index of [2, 3, 4]) {
        const bytes = Buffer.from(parts[index] as string, "base64url");
        bytes[0] = (bytes[0] as number) ^ 1;
        const tampered = parts.map((p, i) => (i === index ? b64(bytes) : p)).join(".");
        await allRefuse(tampered, "decryption failed");
      }
    }
    // A header changed (still valid JSON, same kid): the AAD no longer matches.
    const [, ...rest] = cbc.split(".");
    await allRefuse([b64(JSON.stringify({ ...cbcHeader(), x: 1 })), ...rest].join("."), "decryption failed");
  });

  it("a tampered CBC IV is caught by the MAC before anything is decrypted", async () => {
    const parts = (node as NonNullable<typeof node>).encrypt({ sub: "victim" }, secret, salt).split(".");
    const iv = Buffer.from(parts[2] as string, "base64url");
    iv[15] = (iv[15] as number) ^ 0x80;
    await allRefuse([parts[0], parts[1], b64(iv), parts[3], parts[4]].join("."), "decryption failed");
  });

  it("key rotation: a token of a rotated-out secret is read while that secret is listed, refused once it is not", async () => {
    const old = await webCryptoEncrypt({ sub: "old" }, oldSecret, salt);
    await allAccept(old, { sub: "old" }, [secret, oldSecret]);
    await allRefuse(old, undefined, [secret], "No secret matches the token's key id.");
    const oldGcm = forge({ header: gcmHeader({}, oldSecret), plaintext: json({ sub: "old" }), enc: "A256GCM", keySecret: oldSecret });
    await allAccept(oldGcm, { sub: "old" }, [secret, oldSecret]);
    // Another salt (another cookie name) derives other keys.
    const otherSalt = (node as NonNullable<typeof node>).encrypt({ sub: "x" }, secret, "other-cookie");
    await allRefuse(otherSalt, undefined, [secret], "No secret matches the token's key id.");
  });

  it("a token without a kid is tried with the current secret only", async () => {
    const { kid: _cbc, ...noKid } = cbcHeader();
    await allAccept(forge({ header: noKid, plaintext: json({ sub: "nokid" }) }), { sub: "nokid" }, [secret, oldSecret]);
    const { kid: _old, ...oldNoKid } = cbcHeader({}, oldSecret);
    await allRefuse(forge({ header: oldNoKid, plaintext: json({ sub: "x" }), keySecret: oldSecret }), "decryption failed", [
      secret,
      oldSecret,
    ]);
    const { kid: _gcm, ...gcmNoKid } = gcmHeader();
    await allAccept(forge({ header: gcmNoKid, plaintext: json({ sub: "g" }), enc: "A256GCM" }), { sub: "g" }, [secret]);
  });

  it("many secrets and salts (more than the key caches hold) each keep their own key", async () => {
    const secrets = Array.from({ length: 135 }, (_, i) => `rotating-secret-${i}-${"x".repeat(24)}`);
    for (let round = 0; round < 2; round++) {
      for (const s of [secrets[0] as string, ...secrets]) {
        const token = (node as NonNullable<typeof node>).encrypt({ s }, s, salt);
        expect((node as NonNullable<typeof node>).decrypt(token, [s], salt)).toEqual({ s });
        const web = await webCryptoEncrypt({ s }, s, salt);
        expect(await webCryptoDecrypt(web, [s], salt)).toEqual({ s });
        expect(await webCryptoDecrypt(token, [s], salt)).toEqual({ s });
      }
    }
    const token = await webCryptoEncrypt({ s: 1 }, secret, "salt-a");
    await expect(webCryptoDecrypt(token, [secret], "salt-b")).rejects.toThrow("No secret matches the token's key id.");
    expect(() => (node as NonNullable<typeof node>).decrypt(token, [secret], "salt-b")).toThrow("No secret matches the token's key id.");
  });

  it("header rules: crit, zip other than DEF, alg other than dir, unknown enc, not a JSON object, not UTF-8", async () => {
    const plaintext = json({ sub: "x" });
    await allRefuse(forge({ header: cbcHeader({ crit: ["exp"] }), plaintext }), "unsupported crit");
    await allRefuse(forge({ header: cbcHeader({ zip: "GZIP" }), plaintext }), "unsupported zip");
    await allRefuse(forge({ header: cbcHeader({ alg: "A256KW" }), plaintext }), "alg is not dir");
    await allRefuse(forge({ header: cbcHeader({ alg: undefined }), plaintext }), "alg is not dir");
    await allRefuse(forge({ header: cbcHeader({ enc: "A128GCM" }), plaintext }), "unsupported enc");
    await allRefuse(forge({ header: "[1,2]", plaintext }), "the protected header is not a JSON object");
    await allRefuse(forge({ header: "null", plaintext }), "the protected header is not a JSON object");
    await allRefuse(forge({ header: "{not json", plaintext }), "the protected header is not JSON");
    const badUtf8 = Buffer.concat([Buffer.from('{"alg":"dir","enc":"A256CBC-HS512","x":"'), Buffer.from([0xff]), Buffer.from('"}')]);
    await allRefuse(
      [b64(badUtf8), "", b64(randomBytes(16)), b64(randomBytes(16)), b64(randomBytes(32))].join("."),
      "the protected header is not JSON",
    );
  });

  it("a compressed (zip: DEF) token is handed to jose, which reads it", async () => {
    const token = forge({ header: cbcHeader({ zip: "DEF" }), plaintext: deflateRawSync(json({ sub: "zipped" })) });
    expect((node as NonNullable<typeof node>).decrypt(token, [secret], salt)).toBe(USE_JOSE);
    expect(await webCryptoDecrypt(token, [secret], salt)).toBe(USE_JOSE);
    await expect(joseDecrypt(token, [secret], salt)).resolves.toEqual({ sub: "zipped" });
  });

  it("part rules: not five canonical base64url parts, an encrypted key with dir, an IV or tag of the wrong length", async () => {
    const good = (node as NonNullable<typeof node>).encrypt({ sub: "x" }, secret, salt);
    const parts = good.split(".");
    await allRefuse(parts.slice(0, 4).join("."), undefined, [secret], "The token is not a compact JWE.");
    await allRefuse(`${good}.`, undefined, [secret], "The token is not a compact JWE.");
    await allRefuse([`${parts[0]}=`, ...parts.slice(1)].join("."), undefined, [secret], "The token is not a compact JWE.");
    await allRefuse(
      [parts[0], parts[1], parts[2], `${parts[3]}!`, parts[4]].join("."),
      undefined,
      [secret],
      "The token is not a compact JWE.",
    );
    const plaintext = json({ sub: "x" });
    await allRefuse(forge({ header: cbcHeader(), plaintext, encryptedKey: b64("key") }), "unexpected encrypted key");
    await allRefuse(forge({ header: cbcHeader(), plaintext, ivBytes: 12 }), "bad IV length");
    await allRefuse(forge({ header: gcmHeader(), plaintext, enc: "A256GCM", ivBytes: 16 }), "bad IV length");
    await allRefuse(forge({ header: cbcHeader(), plaintext, tagBytes: 16 }), "bad tag length");
    await allRefuse(forge({ header: gcmHeader(), plaintext, enc: "A256GCM", tagBytes: 12 }), "bad tag length");
  });

  it("claim rules: a JSON object, numeric times, nbf and exp within the 15 s tolerance", async () => {
    const seal = (claims: unknown) => forge({ header: cbcHeader(), plaintext: json(claims) });
    await allAccept(seal({ exp: NOW - 14, nbf: NOW + 15, iat: NOW }), { exp: NOW - 14, nbf: NOW + 15, iat: NOW });
    await allRefuse(seal({ exp: NOW - 15 }), "expired");
    await allRefuse(seal({ exp: String(NOW + 60) }), "expired");
    await allRefuse(seal({ nbf: NOW + 16 }), "nbf check failed");
    await allRefuse(seal({ nbf: String(NOW) }), "nbf check failed");
    await allRefuse(seal({ iat: String(NOW) }), "iat is not a number");
    await allRefuse(seal([1]), "the claims set is not a JSON object");
    await allRefuse(forge({ header: cbcHeader(), plaintext: Buffer.from("not json") }), "the claims set is not JSON");
    await allRefuse(forge({ header: cbcHeader(), plaintext: Buffer.from([0x7b, 0xff, 0x7d]) }), "the claims set is not JSON");
  });

  it("claims copied into the header (iss, sub, aud) must equal the claims", async () => {
    const seal = (extra: Claims, claims: Claims) => forge({ header: cbcHeader(extra), plaintext: json(claims) });
    await allAccept(seal({ iss: "i", sub: "s", aud: ["a", "b"] }, { iss: "i", sub: "s", aud: ["a", "b"] }), {
      iss: "i",
      sub: "s",
      aud: ["a", "b"],
    });
    await allRefuse(seal({ iss: "i" }, { iss: "j" }), "replicated iss mismatch");
    await allRefuse(seal({ sub: "s" }, { sub: "t" }), "replicated sub mismatch");
    await allRefuse(seal({ aud: ["a"] }, { aud: ["a", "b"] }), "replicated aud mismatch");
    await allRefuse(seal({ aud: "a" }, {}), "replicated aud mismatch");
  });

  it("jose: a failure that is not a JWTSessionError is wrapped in one, with the original as cause", async () => {
    const error = await joseDecrypt("a.b.c", [secret], salt).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JWTSessionError);
    expect((error as Error).message).toBe(DECRYPT_FAILED);
    const cause = (error as JWTSessionError).cause?.err;
    expect(cause).toBeInstanceOf(Error);
    expect(cause).not.toBeInstanceOf(JWTSessionError);
  });

  it("jose encodes iat, exp = now + maxAge and a fresh jti", async () => {
    const a = (await joseDecrypt(await joseEncrypt({ sub: "a" }, secret, salt, NOW - 10, 3600), [secret], salt)) as Claims;
    const b = (await joseDecrypt(await joseEncrypt({ sub: "a" }, secret, salt, NOW - 10, 3600), [secret], salt)) as Claims;
    expect(a).toMatchObject({ sub: "a", iat: NOW - 10, exp: NOW + 3590 });
    expect(a.jti).not.toBe(b.jti);
  });
});

describe("JWE rules (crypto/jwe-rules)", () => {
  it("issuedClaims copies the token and adds iat, exp = now + maxAge and a fresh jti", () => {
    const token = { sub: "u", nested: { a: 1 } };
    const claims = issuedClaims(token, 1000, 60);
    expect(claims).toEqual({ sub: "u", nested: { a: 1 }, iat: 1000, exp: 1060, jti: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(claims.nested).not.toBe(token.nested);
    expect(token).toEqual({ sub: "u", nested: { a: 1 } });
    expect(issuedClaims(token, 1000, 60).jti).not.toBe(claims.jti);
  });

  it("issuable: only plain objects with a finite maxAge and a finite (or non-numeric) nbf", () => {
    expect(issuable({ sub: "u" }, 60)).toBe(true);
    expect(issuable({ nbf: 5 }, 60)).toBe(true);
    expect(issuable({ nbf: "5" }, 60)).toBe(true);
    expect(issuable({ nbf: Number.POSITIVE_INFINITY }, 60)).toBe(false);
    expect(issuable({ sub: "u" }, Number.NaN)).toBe(false);
    expect(issuable({ sub: "u" }, "60")).toBe(false);
    expect(issuable([1], 60)).toBe(false);
    expect(issuable(new Map(), 60)).toBe(false);
  });

  it("isPlainObject: object literals and null-prototype objects only", () => {
    expect(isPlainObject({})).toBe(true);
    expect(isPlainObject(Object.create(null))).toBe(true);
    expect(isPlainObject(Object.create({}))).toBe(false);
    expect(isPlainObject([])).toBe(false);
    expect(isPlainObject(new Date())).toBe(false);
    expect(isPlainObject({ [Symbol.toStringTag]: "Thing" })).toBe(false);
    expect(isPlainObject("x")).toBe(false);
    // A function dressed up as a plain object is still not one.
    const fn = Object.assign(() => {}, { [Symbol.toStringTag]: "Object" });
    Object.setPrototypeOf(fn, null);
    expect(isPlainObject(fn)).toBe(false);
  });

  it("bytesEqual: equal only for the same bytes at the same length", () => {
    expect(bytesEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2]))).toBe(true);
    expect(bytesEqual(new Uint8Array([1, 2]), new Uint8Array([1, 3]))).toBe(false);
    expect(bytesEqual(new Uint8Array([0, 0]), new Uint8Array([0]))).toBe(false);
    expect(bytesEqual(new Uint8Array([0x80]), new Uint8Array([0]))).toBe(false);
  });

  it("aadLengthBlock: the AAD's bit length as 64-bit big-endian, above 2^32 bits too", () => {
    expect([...aadLengthBlock(5)]).toEqual([0, 0, 0, 0, 0, 0, 0, 40]);
    expect([...aadLengthBlock(2 ** 29 + 1)]).toEqual([0, 0, 0, 1, 0, 0, 0, 8]);
  });
});

describe("key derivation (crypto/derive-key)", () => {
  it("derives Auth.js's HKDF key and RFC 7638 kid for both encs; salt and secret both matter", async () => {
    for (const enc of ["A256CBC-HS512", "A256GCM"] as const) {
      const { key, kid } = await deriveEncryptionKey(enc, secret, salt);
      const expected = keyOf(enc);
      expect(hex(key)).toBe(expected.key.toString("hex"));
      expect(kid).toBe(expected.kid);
      expect(hex((await deriveEncryptionKey(enc, secret, "other")).key)).toBe(keyOf(enc, secret, "other").key.toString("hex"));
    }
  });

  it("isSupportedEncryption: exactly the two encs authlib reads", () => {
    expect(isSupportedEncryption("A256CBC-HS512")).toBe(true);
    expect(isSupportedEncryption("A256GCM")).toBe(true);
    expect(isSupportedEncryption("A128GCM")).toBe(false);
    expect(isSupportedEncryption(undefined)).toBe(false);
  });
});

describe("digests (crypto/digest)", () => {
  const reference = (s: string, v: string) => createHmac("sha256", s).update(v, "utf8").digest("hex");

  it("node:crypto and WebCrypto give the reference HMAC and SHA-256 (small bytes keep their leading zero)", async () => {
    for (const [s, v] of [
      ["k", ""],
      ["clé", "välue ✓"],
      ["k2", "x".repeat(300)],
    ] as const) {
      expect(hmacHex(s, v)).toBe(reference(s, v));
      expect(await webCryptoHmacHex(s, v)).toBe(reference(s, v));
      const sha = createHash("sha256").update(v, "utf8").digest("hex");
      expect(sha256Hex(v)).toBe(sha);
      expect(await webCryptoSha256Hex(v)).toBe(sha);
    }
  });

  it("randomHex: that many random bytes as lowercase hex", () => {
    expect(randomHex()).toMatch(/^[0-9a-f]{64}$/);
    expect(randomHex(4)).toMatch(/^[0-9a-f]{8}$/);
    expect(randomHex()).not.toBe(randomHex());
  });

  it("makes the HMAC key once per secret, for at most 16 secrets at a time", async () => {
    // A fresh copy of the module: empty caches.
    vi.resetModules();
    const { hmacHex, webCryptoHmacHex } = await import("../../src/crypto/digest.js");
    const nc = nodeCrypto() as NonNullable<ReturnType<typeof nodeCrypto>>;
    const made = vi.spyOn(nc, "createSecretKey");
    const imported = vi.spyOn(crypto.subtle, "importKey");
    try {
      const secrets = Array.from({ length: 17 }, (_, i) => `digest-cache-${i}`);
      for (const s of secrets.slice(0, 16)) {
        hmacHex(s, "v");
        await webCryptoHmacHex(s, "v");
      }
      expect([made.mock.calls.length, imported.mock.calls.length]).toEqual([16, 16]);
      made.mockClear();
      imported.mockClear();
      for (const s of secrets.slice(0, 16)) {
        expect(hmacHex(s, "v")).toBe(reference(s, "v"));
        expect(await webCryptoHmacHex(s, "v")).toBe(reference(s, "v"));
      }
      expect([made.mock.calls.length, imported.mock.calls.length]).toEqual([0, 0]);
      // The 17th secret empties the cache: the first is made again.
      for (const s of [secrets[16] as string, secrets[0] as string]) {
        expect(hmacHex(s, "v")).toBe(reference(s, "v"));
        expect(await webCryptoHmacHex(s, "v")).toBe(reference(s, "v"));
      }
      expect([made.mock.calls.length, imported.mock.calls.length]).toEqual([2, 2]);
    } finally {
      made.mockRestore();
      imported.mockRestore();
    }
  });
});

describe("scrypt (crypto/scrypt)", () => {
  const vector = {
    params: { N: 16, r: 1, p: 1, dkLen: 64 },
    key: "77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906",
  };

  it("node:crypto's and the portable implementation compute RFC 7914's first vector", async () => {
    const native = nodeScrypt() as ScryptFunction;
    expect(defaultScrypt()).not.toBe(nobleScrypt);
    expect(hex(await native(new Uint8Array(), new Uint8Array(), vector.params))).toBe(vector.key);
    expect(hex(await defaultScrypt()(new Uint8Array(), new Uint8Array(), vector.params))).toBe(vector.key);
    expect(hex(await nobleScrypt(new Uint8Array(), new Uint8Array(), vector.params))).toBe(vector.key);
  });

  it("node:crypto's scrypt is allowed the memory parameters above its 32 MiB default need", async () => {
    const params = { N: 2 ** 15, r: 9, p: 1, dkLen: 16 };
    const expected = scryptSync("pw", "salt", 16, { N: 2 ** 15, r: 9, p: 1, maxmem: 2 ** 28 });
    expect(hex(await (nodeScrypt() as ScryptFunction)(Buffer.from("pw"), Buffer.from("salt"), params))).toBe(expected.toString("hex"));
  });

  it("a failure of node:crypto's scrypt rejects", async () => {
    await expect((nodeScrypt() as ScryptFunction)(Buffer.from("pw"), Buffer.from("s"), { N: 3, r: 1, p: 1, dkLen: 16 })).rejects.toThrow();
  });
});

describe("password hashes (crypto/password-hash)", () => {
  /** A fast stand-in for scrypt (a hash of every input), recording the parameters it was given. */
  function fakeScrypt(output?: (bytes: Uint8Array) => Uint8Array) {
    const calls: ScryptParams[] = [];
    const fn: ScryptFunction = async (password, saltBytes, params) => {
      calls.push(params);
      const digest = createHash("sha512")
        .update(password)
        .update("|")
        .update(saltBytes)
        .update(`|${params.N}|${params.r}|${params.p}`)
        .digest();
      const bytes = new Uint8Array(digest.subarray(0, params.dkLen));
      return output ? output(bytes) : bytes;
    };
    return { fn, calls };
  }
  const hashOf = (scrypt: { fn: ScryptFunction }, password: string, N: number, r: number, p: number, saltText = "saltsaltsaltsalt") =>
    scrypt
      .fn(Buffer.from(password.normalize("NFKC")), Buffer.from(saltText), { N, r, p, dkLen: 64 })
      .then((key) => `scrypt$${N}$${r}$${p}$${b64(saltText)}$${b64(key)}`);

  it("hashes with scrypt N=2^15, r=8, p=1, a fresh 16-byte salt and a 64-byte key, in the documented format", async () => {
    const real = nodeScrypt() as ScryptFunction;
    const hash = await hashPasswordWith(real, "correct horse");
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{86}$/);
    const [, , , , saltText, key] = hash.split("$") as string[];
    const expected = scryptSync("correct horse", Buffer.from(saltText as string, "base64url"), 64, {
      N: 32768,
      r: 8,
      p: 1,
      maxmem: 2 ** 26,
    });
    expect(key).toBe(expected.toString("base64url"));
    const fake = fakeScrypt();
    const [a, b] = [await hashPasswordWith(fake.fn, "pw"), await hashPasswordWith(fake.fn, "pw")];
    expect(a.split("$")[4]).not.toBe(b.split("$")[4]);
    expect(fake.calls).toEqual([
      { N: 32768, r: 8, p: 1, dkLen: 64 },
      { N: 32768, r: 8, p: 1, dkLen: 64 },
    ]);
  });

  it("a hash verifies only its own password (NFKC-normalised), with the parameters written in it", async () => {
    const fake = fakeScrypt();
    const hash = await hashOf(fake, "pässword", 16, 2, 3);
    fake.calls.length = 0;
    expect(await verifyPasswordWith(fake.fn, "pässword", hash)).toBe(true);
    expect(fake.calls).toEqual([{ N: 16, r: 2, p: 3, dkLen: 64 }]);
    expect(await verifyPasswordWith(fake.fn, "passwort", hash)).toBe(false);
    expect(await verifyPasswordWith(fake.fn, "pa\u0308ssword", hash)).toBe(true); // decomposed ä: same after NFKC
    const ligature = await hashOf(fake, "ﬁle", 16, 1, 1);
    expect(await verifyPasswordWith(fake.fn, "file", ligature)).toBe(true);
    // The same password under other parameters: another key.
    expect(await verifyPasswordWith(fake.fn, "pässword", hash.replace("$16$2$3$", "$32$2$3$"))).toBe(false);
    // Real scrypt with small parameters honoured (a cheap hash made elsewhere still verifies).
    const cheap = `scrypt$16$1$1$${b64("NaCl")}$${scryptSync("pw", "NaCl", 64, { N: 16, r: 1, p: 1 }).toString("base64url")}`;
    expect(await verifyPasswordWith(nodeScrypt() as ScryptFunction, "pw", cheap)).toBe(true);
    expect(await verifyPasswordWith(nobleScrypt, "pw", cheap)).toBe(true);
    expect(await verifyPasswordWith(nobleScrypt, "pv", cheap)).toBe(false);
  });

  it("malformed or planted hashes are refused (false) without running scrypt", async () => {
    const fake = fakeScrypt();
    const good = await hashOf(fake, "pw", 16, 1, 1);
    const [, , , , s, k] = good.split("$") as string[];
    const emptySalt = await hashOf(fake, "pw", 16, 1, 1, "");
    fake.calls.length = 0;
    const planted = [
      `bcrypt$16$1$1$${s}$${k}`,
      `scrypt$16$1$1$$${k}`,
      emptySalt,
      `scrypt$16$1$1$${s}$`,
      `scrypt$16$1$1$${s}$${k}$extra`,
      `scrypt$15$1$1$${s}$${k}`, // N not a power of two
      `scrypt$1$1$1$${s}$${k}`, // N = 1
      `scrypt$0$1$1$${s}$${k}`,
      `scrypt$${2 ** 21}$1$1$${s}$${k}`, // N above 2^20
      `scrypt$16$0$1$${s}$${k}`, // r = 0
      `scrypt$16$1$0$${s}$${k}`, // p = 0
      `scrypt$16$1.5$1$${s}$${k}`,
      `scrypt$16$1$${2 ** 53}$${s}$${k}`,
      `scrypt$x$1$1$${s}$${k}`,
      `scrypt$${2 ** 20}$8$2$${s}$${k}`, // 2 GiB of memory
      `scrypt$16$1$1$${s}$${k.slice(0, 43)}`, // a 32-byte key
      `scrypt$16$1$1$${s}$%%%`,
      `scrypt$16$1$1$%%%$${k}`,
      "",
    ];
    for (const hash of planted) expect(await verifyPasswordWith(fake.fn, "pw", hash), hash).toBe(false);
    expect(fake.calls).toEqual([]);
    expect(await verifyPasswordWith(fake.fn, "pw", good)).toBe(true);
  });

  it("the largest parameters allowed (N = 2^20, exactly 1 GiB) are accepted and passed on", async () => {
    const fake = fakeScrypt();
    const atCap = await hashOf(fake, "pw", 2 ** 20, 8, 1);
    expect(await verifyPasswordWith(fake.fn, "pw", atCap)).toBe(true);
    expect(await verifyPasswordWith(fake.fn, "pw", await hashOf(fake, "pw", 2 ** 20, 1, 1))).toBe(true);
  });

  it("a key of the wrong length never verifies, even where its bytes match", async () => {
    const zeros = fakeScrypt((bytes) => new Uint8Array(bytes.length));
    expect(await verifyPasswordWith(zeros.fn, "pw", `scrypt$16$1$1$${b64("salt")}$${b64(new Uint8Array(32))}`)).toBe(false);
    expect(await verifyPasswordWith(zeros.fn, "pw", `scrypt$16$1$1$${b64("salt")}$${b64(new Uint8Array(64))}`)).toBe(true);
  });
});

describe("the cap on concurrent hashes (crypto/concurrency-gate)", () => {
  /** Tasks the test finishes by hand. */
  function probe() {
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const finishers = new Map<number, (fail?: boolean) => void>();
    const task = (id: number) => () => {
      running += 1;
      most = Math.max(most, running);
      started.push(id);
      return new Promise<number>((resolve, reject) => {
        finishers.set(id, (fail) => {
          running -= 1;
          if (fail) reject(new Error(`task ${id} failed`));
          else resolve(id);
        });
      });
    };
    const finish = async (id: number, fail = false) => {
      finishers.get(id)?.(fail);
      await new Promise((r) => setImmediate(r));
    };
    return { task, started, finish, most: () => most };
  }
  const refuse = () => new RateLimited("busy");

  it("runs at most maxRunning at once, queues at most maxQueued in order, refuses the rest at once", async () => {
    const gate = new ConcurrencyGate(2, 2, refuse);
    const p = probe();
    const results = [0, 1, 2, 3, 4].map((id) => gate.run(p.task(id)).catch((e: unknown) => e));
    expect(gate.load).toEqual({ running: 2, queued: 2 });
    expect(p.started).toEqual([0, 1]);
    expect(await results[4]).toBeInstanceOf(RateLimited);
    await p.finish(1);
    expect(p.started).toEqual([0, 1, 2]);
    expect(gate.load).toEqual({ running: 2, queued: 1 });
    // A slot freed and taken again: a new task waits behind the queue (not ahead of it).
    const late = gate.run(p.task(5));
    expect(gate.load).toEqual({ running: 2, queued: 2 });
    await p.finish(0, true);
    expect(await results[0]).toEqual(new Error("task 0 failed"));
    expect(p.started).toEqual([0, 1, 2, 3]);
    await p.finish(2);
    await p.finish(3);
    expect(p.started).toEqual([0, 1, 2, 3, 5]);
    await p.finish(5);
    expect(await Promise.all([results[1], results[2], results[3], late])).toEqual([1, 2, 3, 5]);
    expect(p.most()).toBe(2);
    expect(gate.load).toEqual({ running: 0, queued: 0 });
    // Emptied, it starts at once again.
    const again = gate.run(p.task(6));
    expect(gate.load).toEqual({ running: 1, queued: 0 });
    await p.finish(6);
    expect(await again).toBe(6);
  });

  it("maxQueued 0: nothing waits", async () => {
    const gate = new ConcurrencyGate(1, 0, refuse);
    const p = probe();
    const first = gate.run(p.task(0));
    await expect(gate.run(p.task(1))).rejects.toBeInstanceOf(RateLimited);
    expect(p.started).toEqual([0]);
    await p.finish(0);
    expect(await first).toBe(0);
  });

  it("resize: a larger cap starts waiting tasks at once, a smaller one lets the running finish", async () => {
    const gate = new ConcurrencyGate(1, 5, refuse);
    const p = probe();
    const results = [0, 1, 2, 3].map((id) => gate.run(p.task(id)));
    expect(gate.load).toEqual({ running: 1, queued: 3 });
    gate.resize(3, 5);
    expect(p.started).toEqual([0, 1, 2]);
    expect(gate.load).toEqual({ running: 3, queued: 1 });
    gate.resize(1, 1);
    await expect(gate.run(p.task(9))).rejects.toBeInstanceOf(RateLimited);
    await p.finish(0);
    await p.finish(1);
    expect(p.started).toEqual([0, 1, 2]);
    await p.finish(2);
    expect(p.started).toEqual([0, 1, 2, 3]);
    await p.finish(3);
    expect(await Promise.all(results)).toEqual([0, 1, 2, 3]);
  });
});

describe("runtime lookups (crypto/builtin) and the paths they choose", () => {
  const original = process.getBuiltinModule;
  afterEach(() => {
    process.getBuiltinModule = original;
    vi.resetModules();
  });
  const realCrypto = original.call(process, "node:crypto") as typeof import("node:crypto");

  /** Fresh copies of the crypto modules, loaded under the given getBuiltinModule. */
  async function loadWith(getBuiltinModule: ((id: string) => unknown) | undefined) {
    vi.resetModules();
    (process as { getBuiltinModule?: unknown }).getBuiltinModule = getBuiltinModule;
    return {
      builtin: await import("../../src/crypto/builtin.js"),
      digest: await import("../../src/crypto/digest.js"),
      jwe: await import("../../src/crypto/jwe-node.js"),
      scrypt: await import("../../src/crypto/scrypt.js"),
    };
  }
  const withCrypto = (replace: (real: typeof import("node:crypto")) => unknown) => (id: string) =>
    id === "node:crypto" ? replace(realCrypto) : original.call(process, id as "node:buffer");

  it("on Node: node:crypto is found, looked up once", () => {
    expect(builtin("node:crypto")).toBe(realCrypto);
    expect(nodeCrypto()).toBe(realCrypto);
    (process as { getBuiltinModule?: unknown }).getBuiltinModule = () => undefined;
    expect(nodeCrypto()).toBe(realCrypto);
    expect(builtin("node:crypto")).toBeUndefined();
  });

  it("without getBuiltinModule (an edge runtime): digests on WebCrypto, no node codec, portable scrypt", async () => {
    const m = await loadWith(undefined);
    expect(m.builtin.builtin("node:crypto")).toBeUndefined();
    expect(m.builtin.nodeCrypto()).toBeNull();
    const hmac = m.digest.hmacHex("k", "v");
    expect(hmac).toBeInstanceOf(Promise);
    expect(await hmac).toBe(createHmac("sha256", "k").update("v").digest("hex"));
    const sha = m.digest.sha256Hex("v");
    expect(sha).toBeInstanceOf(Promise);
    expect(await sha).toBe(createHash("sha256").update("v").digest("hex"));
    expect(m.jwe.nodeJwe()).toBeUndefined();
    expect(m.scrypt.nodeScrypt()).toBeUndefined();
    expect(m.scrypt.defaultScrypt()).toBe(m.scrypt.nobleScrypt);
  });

  it("a getBuiltinModule that throws, or returns a module without createHmac or createHash, gives no node:crypto", async () => {
    const throwing = await loadWith(() => {
      throw new Error("no such module");
    });
    expect(throwing.builtin.builtin("node:crypto")).toBeUndefined();
    expect(throwing.builtin.nodeCrypto()).toBeNull();
    for (const missing of ["createHmac", "createHash"]) {
      const m = await loadWith(withCrypto((real) => ({ ...real, [missing]: undefined })));
      expect(m.builtin.nodeCrypto(), missing).toBeNull();
      expect(m.scrypt.nodeScrypt()).toBeUndefined();
    }
  });

  it("a node:crypto without scrypt: the portable one is used", async () => {
    const m = await loadWith(withCrypto((real) => ({ ...real, scrypt: undefined })));
    expect(m.builtin.nodeCrypto()).not.toBeNull();
    expect(m.scrypt.nodeScrypt()).toBeUndefined();
    expect(m.scrypt.defaultScrypt()).toBe(m.scrypt.nobleScrypt);
  });

  it("the node codec is used only with hkdfSync, createSecretKey and node:buffer, and only if its self-test passes", async () => {
    expect((await loadWith(original as (id: string) => unknown)).jwe.nodeJwe()).toBeDefined();
    for (const missing of ["hkdfSync", "createSecretKey"]) {
      const m = await loadWith(withCrypto((real) => ({ ...real, [missing]: undefined })));
      expect(m.jwe.nodeJwe(), missing).toBeUndefined();
    }
    const noBuffer = await loadWith((id) => (id === "node:buffer" ? undefined : original.call(process, id as "node:crypto")));
    expect(noBuffer.jwe.nodeJwe()).toBeUndefined();
    // Decryption that yields other claims than the known answers: extra claims, another subject.
    for (const plaintext of ['{"sub":"self-test","extra":1}', '{"sub":"someone-else"}']) {
      const m = await loadWith(
        withCrypto((real) => ({
          ...real,
          timingSafeEqual: () => true,
          createDecipheriv: () => ({ update: () => Buffer.from(plaintext), final: () => Buffer.alloc(0), setAAD() {}, setAuthTag() {} }),
        })),
      );
      expect(m.jwe.nodeJwe(), plaintext).toBeUndefined();
    }
    // Derivation that differs from Auth.js's: its own tokens round-trip, the known answers do not.
    const m = await loadWith(
      withCrypto((real) => ({
        ...real,
        hkdfSync: (...args: Parameters<typeof hkdfSync>) => real.hkdfSync("sha512", ...(args.slice(1) as [never, never, never, number])),
      })),
    );
    expect(m.jwe.nodeJwe()).toBeUndefined();
  });

  it("WebCrypto codec: a key import that fails is not cached", async () => {
    const spy = vi.spyOn(crypto.subtle, "importKey").mockRejectedValueOnce(new Error("transient"));
    try {
      const fresh = `never-used-secret-${randomHex(8)}`;
      await expect(webCryptoEncrypt({ sub: "x" }, fresh, salt)).rejects.toThrow();
      const token = await webCryptoEncrypt({ sub: "x" }, fresh, salt);
      expect(await webCryptoDecrypt(token, [fresh], salt)).toEqual({ sub: "x" });
    } finally {
      spy.mockRestore();
    }
  });
});
