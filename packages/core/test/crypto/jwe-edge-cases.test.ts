/**
 * The JWE session codecs' edge cases (the main rules are jwe-codecs.test.ts): jose passes a key-id
 * mismatch through by name, a header without `aud` leaves the claims' `aud` alone, one spelling per
 * token, a strict UTF-8 decoder, bounded key caches that still derive each key once, and a node:crypto
 * codec used only when it reads every known answer (found once per process).
 */
import { createCipheriv, createHmac, randomBytes } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { nodeCrypto } from "../../src/crypto/builtin.js";
import { joseDecrypt } from "../../src/crypto/jwe-jose.js";
import { nodeJwe } from "../../src/crypto/jwe-node.js";
import { webCryptoDecrypt, webCryptoEncrypt } from "../../src/crypto/jwe-webcrypto.js";
import { JWTSessionError } from "../../src/errors.js";
import { authjsKey } from "../helpers/authjs-key.js";

const secret = "jwe-testsuite-secret-0123456789abcdefgh";
const salt = "authlib.session-token";
const b64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString("base64url");

/** Auth.js v5's CBC key and kid, computed with node:crypto (helpers/authjs-key.ts). */
const cbcKey = (s = secret) => authjsKey("A256CBC-HS512", s, salt);

/** A CBC token made with the key, with any header and claims. */
function forge(header: Record<string, unknown>, claims: unknown): string {
  const { key } = cbcKey();
  const h = b64(JSON.stringify(header));
  const iv = randomBytes(16);
  const cipher = createCipheriv("aes-256-cbc", key.subarray(32), iv);
  const ct = Buffer.concat([cipher.update(JSON.stringify(claims)), cipher.final()]);
  const al = Buffer.alloc(8);
  al.writeBigUInt64BE(BigInt(h.length * 8));
  const tag = createHmac("sha512", key.subarray(0, 32))
    .update(Buffer.concat([Buffer.from(h), iv, ct, al]))
    .digest()
    .subarray(0, 32);
  return [h, "", b64(iv), b64(ct), b64(tag)].join(".");
}

const codec = nodeJwe() as NonNullable<ReturnType<typeof nodeJwe>>;
const decoders = {
  node: async (token: string) => codec.decrypt(token, [secret], salt),
  webcrypto: (token: string) => webCryptoDecrypt(token, [secret], salt),
  jose: (token: string) => joseDecrypt(token, [secret], salt),
};

describe("the three decoders on more rules", () => {
  it("a token of an unknown key id: every decoder, jose included, says no secret matches", async () => {
    const token = codec.encrypt({ sub: "x" }, "some-other-secret-0123456789abcdefghij", salt);
    for (const [name, decrypt] of Object.entries(decoders)) {
      const error = await decrypt(token).catch((e: unknown) => e);
      expect(error, name).toBeInstanceOf(JWTSessionError);
      expect((error as Error).message, name).toBe("No secret matches the token's key id.");
    }
  });

  it("a header without aud accepts whatever aud the claims carry", async () => {
    const token = forge({ alg: "dir", enc: "A256CBC-HS512", kid: cbcKey().kid }, { sub: "x", aud: ["a", "b"] });
    for (const [name, decrypt] of Object.entries(decoders)) {
      expect(await decrypt(token), name).toEqual({ sub: "x", aud: ["a", "b"] });
    }
  });

  it("another spelling of the same bytes (unused low bits of the last character set) is not a compact JWE", async () => {
    const parts = codec.encrypt({ sub: "x" }, secret, salt).split(".");
    const iv = parts[2] as string; // 16 bytes: 22 characters, the last one with 4 unused bits
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const respelled = `${iv.slice(0, -1)}${alphabet[alphabet.indexOf(iv.at(-1) as string) ^ 1]}`;
    expect(Buffer.from(respelled, "base64url")).toEqual(Buffer.from(iv, "base64url"));
    const token = [parts[0], parts[1], respelled, parts[3], parts[4]].join(".");
    // jose alone is lenient here; decode reaches it only for a zip token the fast decoders handed over.
    for (const name of ["node", "webcrypto"] as const) {
      const error = await decoders[name](token).catch((e: unknown) => e);
      expect(error, name).toBeInstanceOf(JWTSessionError);
      expect((error as Error).message, name).toBe("The token is not a compact JWE.");
    }
  });
});

describe("module state", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.resetModules();
  });

  it("headers and claims that are not UTF-8 are refused, never read with replacement characters", async () => {
    vi.resetModules(); // a fresh copy of the rules (the decoder is made when the module loads)
    const rules = await import("../../src/crypto/jwe-rules.js");
    const bad = Buffer.concat([Buffer.from('{"alg":"dir","enc":"A256GCM","x":"'), Buffer.from([0xff]), Buffer.from('"}')]);
    const refusal = (() => {
      try {
        rules.checkHeader(bad);
      } catch (error) {
        return (error as JWTSessionError).cause?.err?.message;
      }
    })();
    expect(refusal).toBe("the protected header is not JSON");
    expect(() => rules.checkClaims({}, Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]))).toThrow(
      "The token could not be decrypted or has expired.",
    );
  });

  it("node:crypto codec: each key derived once, at most 128 kept (the oldest dropped first)", () => {
    const derive = vi.spyOn(nodeCrypto() as NonNullable<ReturnType<typeof nodeCrypto>>, "hkdfSync");
    const secrets = Array.from({ length: 200 }, (_, i) => `node-cache-${i}-${"y".repeat(20)}`);
    const use = (s: string) => expect(codec.decrypt(codec.encrypt({ s }, s, salt), [s], salt)).toEqual({ s });
    for (const s of secrets) use(s);
    expect(derive).toHaveBeenCalledTimes(200);
    derive.mockClear();
    for (const s of secrets.slice(72)) use(s); // the last 128: all kept
    expect(derive).toHaveBeenCalledTimes(0);
    use(secrets[71] as string); // dropped: derived again, dropping the oldest kept
    expect(derive).toHaveBeenCalledTimes(1);
    use(secrets[73] as string);
    expect(derive).toHaveBeenCalledTimes(1);
    use(secrets[72] as string);
    expect(derive).toHaveBeenCalledTimes(2);
  });

  it("WebCrypto codec: each key derived once, at most 128 kept (the oldest dropped first)", async () => {
    const derive = vi.spyOn(crypto.subtle, "deriveBits");
    const secrets = Array.from({ length: 200 }, (_, i) => `web-cache-${i}-${"z".repeat(20)}`);
    const use = async (s: string) => expect(await webCryptoDecrypt(await webCryptoEncrypt({ s }, s, salt), [s], salt)).toEqual({ s });
    for (const s of secrets) await use(s);
    expect(derive).toHaveBeenCalledTimes(200);
    derive.mockClear();
    for (const s of secrets.slice(72)) await use(s);
    expect(derive).toHaveBeenCalledTimes(0);
    await use(secrets[71] as string);
    expect(derive).toHaveBeenCalledTimes(1);
    await use(secrets[73] as string);
    expect(derive).toHaveBeenCalledTimes(1);
    await use(secrets[72] as string);
    expect(derive).toHaveBeenCalledTimes(2);
  });

  it("the node:crypto codec is looked up once per process", async () => {
    vi.resetModules();
    const { nodeJwe: fresh } = await import("../../src/crypto/jwe-node.js");
    const found = fresh();
    expect(found).toBeDefined();
    vi.spyOn(process, "getBuiltinModule").mockReturnValue(undefined);
    expect(fresh()).toBe(found);
  });

  it("a node:crypto whose AES-GCM gives other claims (CBC right) fails the self-test: every known answer must read", async () => {
    vi.resetModules();
    const original = process.getBuiltinModule;
    const real = original.call(process, "node:crypto") as typeof import("node:crypto");
    const partial = {
      ...real,
      createDecipheriv: (algorithm: string, ...rest: unknown[]) =>
        algorithm === "aes-256-gcm"
          ? { update: () => Buffer.from('{"sub":"someone-else"}'), final: () => Buffer.alloc(0), setAAD() {}, setAuthTag() {} }
          : (real.createDecipheriv as (...args: unknown[]) => unknown)(algorithm, ...rest),
    };
    vi.spyOn(process, "getBuiltinModule").mockImplementation(((id: string) =>
      id === "node:crypto" ? partial : original.call(process, id as "node:buffer")) as typeof process.getBuiltinModule);
    const { nodeJwe: fresh } = await import("../../src/crypto/jwe-node.js");
    expect(fresh()).toBeUndefined();
  });
});
