/**
 * The TOTP primitives against RFC 6238 Appendix B (every vector, all three hashes), base32 against
 * RFC 4648's vectors, the ±1 step window, the `otpauth://` URI, and the recovery codes' forms.
 */
import * as OTPAuth from "otpauth";
import { describe, expect, test } from "vitest";
import { base32Decode, base32Encode } from "../../src/features/two-factor/base32.js";
import {
  hashRecoveryCode,
  matchingRecoveryHash,
  newRecoveryCodes,
  RECOVERY_CODE_COUNT,
  typedRecoveryCode,
} from "../../src/features/two-factor/recovery-codes.js";
import { hotp, matchingStep, otpauthUri, stepAt, totpAt } from "../../src/features/two-factor/totp.js";

const ascii = (text: string) => new TextEncoder().encode(text);
/** RFC 6238 Appendix B: the seeds (the SHA-1 seed repeated to the hash's length). */
const seeds = {
  "SHA-1": ascii("12345678901234567890"),
  "SHA-256": ascii("12345678901234567890123456789012"),
  "SHA-512": ascii("1234567890123456789012345678901234567890123456789012345678901234"),
} as const;

/** RFC 6238 Appendix B, Table: time (s), then the 8-digit TOTP for SHA-1, SHA-256, SHA-512. */
const vectors: Array<[number, string, string, string]> = [
  [59, "94287082", "46119246", "90693936"],
  [1111111109, "07081804", "68084774", "25091201"],
  [1111111111, "14050471", "67062674", "99943326"],
  [1234567890, "89005924", "91819424", "93441116"],
  [2000000000, "69279037", "90698825", "38618901"],
  [20000000000, "65353130", "77737706", "47863826"],
];

describe("RFC 6238 Appendix B", () => {
  test.each(vectors)("T = %i s", async (time, sha1, sha256, sha512) => {
    expect(await totpAt(seeds["SHA-1"], time, 8, "SHA-1")).toBe(sha1);
    expect(await totpAt(seeds["SHA-256"], time, 8, "SHA-256")).toBe(sha256);
    expect(await totpAt(seeds["SHA-512"], time, 8, "SHA-512")).toBe(sha512);
  });

  test("the steps of the table (T0 = 0, X = 30)", () => {
    expect(stepAt(59)).toBe(1);
    expect(stepAt(1111111109)).toBe(0x023523ec);
    expect(stepAt(20000000000)).toBe(0x27bc86aa);
  });

  test("RFC 4226 Appendix D: HOTP of counters 0 to 9", async () => {
    const expected = ["755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"];
    const got = await Promise.all(expected.map((_, counter) => hotp(seeds["SHA-1"], counter)));
    expect(got).toEqual(expected);
  });
});

describe("base32 (RFC 4648 section 10)", () => {
  const table: Array<[string, string]> = [
    ["", ""],
    ["f", "MY"],
    ["fo", "MZXQ"],
    ["foo", "MZXW6"],
    ["foob", "MZXW6YQ"],
    ["fooba", "MZXW6YTB"],
    ["foobar", "MZXW6YTBOI"],
  ];
  test.each(table)("%j ↔ %s", (text, encoded) => {
    expect(base32Encode(ascii(text))).toBe(encoded);
    expect(new TextDecoder().decode(base32Decode(encoded))).toBe(text);
  });

  test("decoding ignores case, spaces and padding; refuses other characters", () => {
    expect(new TextDecoder().decode(base32Decode("mzxw 6ytb oi======"))).toBe("foobar");
    expect(base32Decode("MZXW1")).toBeUndefined();
    expect(base32Decode("MZ-XW")).toBeUndefined();
  });

  test("a random secret survives the round trip", () => {
    const bytes = crypto.getRandomValues(new Uint8Array(20));
    expect(base32Decode(base32Encode(bytes))).toEqual(bytes);
  });
});

describe("the window of a code", () => {
  const key = crypto.getRandomValues(new Uint8Array(20));
  const now = 1_800_000_015;

  test("the current step and one either side are accepted; two away are not", async () => {
    const step = stepAt(now);
    for (const offset of [-1, 0, 1]) expect(await matchingStep(key, await hotp(key, step + offset), now)).toBe(step + offset);
    for (const offset of [-2, 2]) expect(await matchingStep(key, await hotp(key, step + offset), now)).toBeUndefined();
  });

  test("an independent implementation's code (otpauth) is accepted", async () => {
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(base32Encode(key)), algorithm: "SHA1", digits: 6, period: 30 });
    const code = totp.generate({ timestamp: now * 1000 });
    expect(await matchingStep(key, code, now)).toBe(stepAt(now));
    expect(await matchingStep(key, "000000", now)).toBe(code === "000000" ? stepAt(now) : undefined);
  });
});

describe("otpauth URI", () => {
  test("the label and parameters an authenticator app reads, escaped", () => {
    const uri = otpauthUri({ secret: "JBSWY3DPEHPK3PXP", issuer: "Acme & Co", account: "ada+test@example.com" });
    const parsed = OTPAuth.URI.parse(uri) as OTPAuth.TOTP;
    expect(parsed).toBeInstanceOf(OTPAuth.TOTP);
    expect(parsed.issuer).toBe("Acme & Co");
    expect(parsed.label).toBe("ada+test@example.com");
    expect(parsed.secret.base32).toBe("JBSWY3DPEHPK3PXP");
    expect([parsed.algorithm, parsed.digits, parsed.period]).toEqual(["SHA1", 6, 30]);
    expect(uri.startsWith("otpauth://totp/Acme%20%26%20Co:ada%2Btest%40example.com?")).toBe(true);
  });
});

describe("recovery codes", () => {
  test("ten distinct codes of the form xxxxx-xxxxx without look-alike characters", () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of codes) expect(code).toMatch(/^[a-hjkmnp-z2-9]{5}-[a-hjkmnp-z2-9]{5}$/);
  });

  test("typed forms: case, spaces and the dash do not matter; other characters or lengths are no code", () => {
    expect(typedRecoveryCode(" ABCDE-fghjk ")).toBe("abcdefghjk");
    expect(typedRecoveryCode("abcde fghjk")).toBe("abcdefghjk");
    expect(typedRecoveryCode("abcde-fghj")).toBeUndefined();
    expect(typedRecoveryCode("abcde-fghj1")).toBeUndefined();
    expect(typedRecoveryCode("abcde-fghjko")).toBeUndefined();
  });

  test("a hash matches its code for its user under any of the secrets, never another user's", async () => {
    const hashes = [
      await hashRecoveryCode("old-secret", "user-1", "abcdefghjk"),
      await hashRecoveryCode("old-secret", "user-1", "zzzzz22222"),
    ];
    expect(await matchingRecoveryHash(["new-secret", "old-secret"], "user-1", "abcdefghjk", hashes)).toBe(hashes[0]);
    expect(await matchingRecoveryHash(["new-secret", "old-secret"], "user-2", "abcdefghjk", hashes)).toBeUndefined();
    expect(await matchingRecoveryHash(["new-secret"], "user-1", "abcdefghjk", hashes)).toBeUndefined();
    expect(await matchingRecoveryHash(["old-secret"], "user-1", "abcdefghjm", hashes)).toBeUndefined();
  });
});
