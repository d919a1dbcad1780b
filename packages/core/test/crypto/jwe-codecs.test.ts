/**
 * The three JWE session codecs of `src/crypto/` (node:crypto, WebCrypto, jose) stated directly, cheaply
 * (no server, no database): they read each other's tokens and refuse the same tampered, mis-keyed, expired
 * or malformed ones, each for its named reason; and the shared rules of crypto/jwe-rules.ts. Keys and
 * reference tokens are computed here with node:crypto directly, independently of src. Key derivation,
 * digests and password hashes are crypto/primitives.test.ts.
 */
import { createCipheriv, createHmac, randomBytes } from "node:crypto";
import { deflateRawSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { joseDecrypt, joseEncrypt } from "../../src/crypto/jwe-jose.js";
import { nodeJwe } from "../../src/crypto/jwe-node.js";
import { aadLengthBlock, bytesEqual, isPlainObject, issuable, issuedClaims, USE_JOSE } from "../../src/crypto/jwe-rules.js";
import { webCryptoDecrypt, webCryptoEncrypt } from "../../src/crypto/jwe-webcrypto.js";
import { JWTSessionError } from "../../src/errors.js";
import { type AuthjsEnc, authjsKey } from "../helpers/authjs-key.js";

type Enc = AuthjsEnc;
type Claims = Record<string, unknown>;

const secret = "crypto-testsuite-secret-0123456789abcdef";
const oldSecret = "crypto-testsuite-old-secret-abcdefghijkl";
const salt = "authlib.session-token";
const NOW = 1_800_000_000;

const b64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString("base64url");
const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const _hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

/** Auth.js v5's key and kid for (enc, secret, salt). */
const keyOf = (enc: Enc, s = secret, sl = salt) => authjsKey(enc, s, sl);

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
