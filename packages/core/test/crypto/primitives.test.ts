/**
 * The rest of `src/crypto/` stated directly, cheaply (no server, small scrypt costs where the API takes
 * them): key derivation, the synchronous digests and their bounded key caches, scrypt, the password hash
 * format and its refusals, the cap on concurrent hashes, and the runtime lookups that choose a path.
 * Reference values are computed here with node:crypto directly, independently of src. The JWE codecs are
 * crypto/jwe-codecs.test.ts.
 */
import { createHash, createHmac, type hkdfSync, scryptSync } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { builtin, nodeCrypto } from "../../src/crypto/builtin.js";
import { ConcurrencyGate } from "../../src/crypto/concurrency-gate.js";
import { deriveEncryptionKey, isSupportedEncryption } from "../../src/crypto/derive-key.js";
import { hmacHex, randomHex, sha256Hex, webCryptoHmacHex, webCryptoSha256Hex } from "../../src/crypto/digest.js";
import { webCryptoDecrypt, webCryptoEncrypt } from "../../src/crypto/jwe-webcrypto.js";
import { hashPasswordWith, verifyPasswordWith } from "../../src/crypto/password-hash.js";
import { defaultScrypt, nobleScrypt, nodeScrypt, type ScryptFunction, type ScryptParams } from "../../src/crypto/scrypt.js";
import { RateLimited } from "../../src/errors.js";
import { type AuthjsEnc, authjsKey } from "../helpers/authjs-key.js";

type Enc = AuthjsEnc;

const secret = "crypto-primitives-secret-0123456789abcdef";
const salt = "authlib.session-token";

const b64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString("base64url");
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

/** Auth.js v5's key and kid for (enc, secret, salt). */
const keyOf = (enc: Enc, s = secret, sl = salt) => authjsKey(enc, s, sl);

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
