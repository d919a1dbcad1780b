/**
 * The key format (`features/api-keys/key-format.ts`): `<prefix>_<16 id><32 secret><6 checksum>`, base62, the
 * checksum a CRC-32 (zlib's) of the rest. Every single-character change, a cut, a swap of two characters, a
 * foreign prefix is refused by the pure parse; through `verifyApiKey` such a key is refused before the store
 * is read (the adapter's `getApiKey` spied: no call).
 */
import { crc32 as zlibCrc32 } from "node:zlib";
import { describe, expect, it, vi } from "vitest";
import {
  checksumText,
  crc32,
  formatKey,
  isKeyId,
  newKey,
  parseKey,
  randomBase62,
  startOf,
} from "../../src/features/api-keys/key-format.js";
import { apiKeysApp } from "./helpers.js";

const BASE62 = /^[0-9A-Za-z]+$/;

describe("the key format", () => {
  it('CRC-32 is zlib\'s (the check value of "123456789" and random texts)', () => {
    expect(crc32("123456789")).toBe(0xcbf43926);
    expect(crc32("")).toBe(0);
    for (let i = 0; i < 50; i++) {
      const text = `acme_${randomBase62(48)}é`;
      expect(crc32(text)).toBe(zlibCrc32(Buffer.from(text, "utf8")));
    }
  });

  it("a new key is prefix, 16 id, 32 secret and a 6-character checksum, all base62, and parses back to its parts", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const made = newKey("acme");
      expect(made.key).toMatch(/^acme_[0-9A-Za-z]{54}$/);
      expect(made.key.slice(5, 21)).toBe(made.id);
      expect(made.key.slice(21, 53)).toBe(made.secret);
      expect(parseKey("acme", made.key)).toEqual({ id: made.id, secret: made.secret });
      expect(isKeyId(made.id)).toBe(true);
      seen.add(made.id);
    }
    expect(seen.size).toBe(200);
    expect(checksumText(0)).toBe("000000");
    expect(checksumText(0xffffffff)).toMatch(BASE62);
    expect(checksumText(0xffffffff)).toHaveLength(6);
  });

  it("every alphabet character appears in random ids (no character left out, none stuck)", () => {
    const counts = new Map<string, number>();
    for (const char of randomBase62(62 * 200)) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // 200 expected each: far from 0 and from 400 (a biased modulo would give the first 8 characters ~1.25×).
    for (const count of counts.values()) expect(count).toBeGreaterThan(100);
  });

  it("favours no character: the first 8 of the alphabet (where bytes 248 to 255 would fall) get their share, no more", () => {
    const counts = new Map<string, number>();
    // 248,000 characters, drawn as 40 texts (each draw asks for twice its length in random bytes, at most 64 KiB).
    for (let i = 0; i < 40; i++) for (const char of randomBase62(62 * 100)) counts.set(char, (counts.get(char) ?? 0) + 1);
    // 4000 expected for each character (standard deviation ~63); a byte 248 taken would give "0" ~4980,
    // all eight bytes from 248 up would give the first 8 characters ~38,750 together (32,000 expected).
    expect(counts.get("0")).toBeGreaterThan(3510);
    expect(counts.get("0")).toBeLessThan(4490);
    const firstEight = [..."01234567"].reduce((sum, char) => sum + (counts.get(char) ?? 0), 0);
    expect(firstEight).toBeLessThan(35_000);
    expect(firstEight).toBeGreaterThan(29_000);
  });

  it("refuses every single-character change, swaps of neighbours, cuts, additions and another prefix", () => {
    const { key } = newKey("acme");
    for (let i = 0; i < key.length; i++) {
      for (const replacement of ["0", "a", "Z", "_", "-", " "]) {
        if (key[i] === replacement) continue;
        const changed = key.slice(0, i) + replacement + key.slice(i + 1);
        expect(parseKey("acme", changed), `position ${i} → ${replacement}`).toBeUndefined();
      }
      if (i + 1 < key.length && key[i] !== key[i + 1]) {
        const swapped = key.slice(0, i) + key[i + 1] + key[i] + key.slice(i + 2);
        expect(parseKey("acme", swapped), `swap at ${i}`).toBeUndefined();
      }
    }
    expect(parseKey("acme", key.slice(0, -1))).toBeUndefined();
    expect(parseKey("acme", `${key}0`)).toBeUndefined();
    expect(parseKey("acme", ` ${key}`.trim().toUpperCase())).toBeUndefined();
    expect(parseKey("other", key)).toBeUndefined();
    expect(parseKey("acm", key)).toBeUndefined();
    // The same body under another prefix: the checksum covers the prefix.
    expect(parseKey("acmf", `acmf${key.slice(4)}`)).toBeUndefined();
    // A well-formed key of another app (its own checksum) is not this app's.
    const parts = parseKey("acme", key) as { id: string; secret: string };
    expect(parseKey("acme", formatKey("beta", parts))).toBeUndefined();
    expect(parseKey("acme", "")).toBeUndefined();
  });
});

describe("the checksum, the characters and the public id", () => {
  it("the checksum is the CRC-32 in base62, most significant digit first, zero-padded to 6", () => {
    expect(checksumText(61)).toBe("00000z");
    expect(checksumText(62)).toBe("000010");
    expect(checksumText(3843)).toBe("0000zz");
    expect(checksumText(123_456_789)).toBe("08M0kX");
    expect(checksumText(0xffffffff)).toBe("4gfFC3");
    // A key is its text and that checksum: a scanner can recompute it from the key alone.
    expect(formatKey("acme", { id: "A".repeat(16), secret: "B".repeat(32) })).toBe(`acme_${"A".repeat(16)}${"B".repeat(32)}0a3Bm5`);
  });

  it("refuses a key whose checksum is right but whose body is not all base62, wherever the odd character sits", () => {
    const id = "A".repeat(16);
    const secret = "B".repeat(32);
    for (const [what, parts] of [
      ["first", { id: `-${id.slice(1)}`, secret }],
      ["middle", { id, secret: `${secret.slice(0, 10)}.${secret.slice(11)}` }],
      ["last before the checksum", { id, secret: `${secret.slice(0, -1)}_` }],
    ] as const) {
      const key = formatKey("acme", parts);
      expect(key, what).toHaveLength(5 + 54);
      expect(parseKey("acme", key), what).toBeUndefined();
    }
    expect(parseKey("acme", formatKey("acme", { id, secret }))).toEqual({ id, secret });
  });

  it("a public id is 16 base62 characters, nothing else; a list shows the prefix and its first 4", () => {
    expect(isKeyId("AbCd0123456789xy")).toBe(true);
    expect(isKeyId("AbCd0123456789x")).toBe(false);
    expect(isKeyId("AbCd0123456789xyz")).toBe(false);
    expect(isKeyId("AbCd01234567-9xy")).toBe(false);
    expect(isKeyId("-bCd0123456789xy")).toBe(false);
    expect(isKeyId("AbCd0123456789x-")).toBe(false);
    expect(isKeyId(1234567890123456)).toBe(false);
    expect(isKeyId(undefined)).toBe(false);
    expect(startOf("acme", "AbCd0123456789xy")).toBe("acme_AbCd");
  });
});

describe("the format's constants", () => {
  it("hold in a module loaded afresh: 54 base62 characters after the prefix, nothing else parses", async () => {
    // The alphabet, the body's length and the base62 pattern are module constants, and the module may load
    // with a request: loaded here, afresh, the values this test states are the ones it runs with.
    vi.resetModules();
    const fresh = await import("../../src/features/api-keys/key-format.js");
    const made = fresh.newKey("acme");
    expect(made.key).toMatch(/^acme_[0-9A-Za-z]{54}$/);
    expect(fresh.parseKey("acme", made.key)).toEqual({ id: made.id, secret: made.secret });
    expect(fresh.isKeyId(made.id)).toBe(true);
    expect(fresh.isKeyId("AbCd01234567-9xy")).toBe(false);
    expect(fresh.isKeyId("-bCd0123456789xy")).toBe(false);
    const id = "A".repeat(16);
    expect(fresh.parseKey("acme", fresh.formatKey("acme", { id, secret: `${"B".repeat(10)}.${"B".repeat(21)}` }))).toBeUndefined();
    expect(fresh.formatKey("acme", { id, secret: "B".repeat(32) })).toBe(`acme_${id}${"B".repeat(32)}0a3Bm5`);
  });
});

describe("a malformed key through verifyApiKey", () => {
  it("is refused with InvalidApiKey before any store read", async () => {
    const app = apiKeysApp();
    const ada = await app.signedUp("ada@example.com");
    const { key } = await app.auth.api.createApiKey(app.as(ada), { name: "CI" });
    const reads = () => app.keys.calls.filter((name) => name === "getApiKey").length;
    const before = reads();
    const last = key.at(-1) === "0" ? "1" : "0";
    const bad = [
      `${key.slice(0, -1)}${last}`,
      `${key.slice(0, 10)}${key[10] === "x" ? "y" : "x"}${key.slice(11)}`,
      key.slice(0, -2),
      `beta${key.slice(4)}`,
      "acme_",
      "not a key at all",
      `${key}.`,
      "x".repeat(10_000),
    ];
    for (const candidate of bad)
      await expect(app.auth.api.verifyApiKey(app.bearing(candidate)), candidate.slice(0, 20)).rejects.toMatchObject({
        type: "InvalidApiKey",
      });
    await expect(app.auth.api.verifyApiKey(new Request(`http://localhost:3000/x`))).rejects.toMatchObject({ type: "InvalidApiKey" });
    expect(reads()).toBe(before);
    // The key itself is accepted, with one read.
    expect((await app.auth.api.verifyApiKey(app.bearing(key))).userId).toBe(ada.userId);
    expect(reads()).toBe(before + 1);
  }, 60_000);
});
