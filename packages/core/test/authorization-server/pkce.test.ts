/**
 * PKCE (features/authorization-server/pkce.ts): the verifier and challenge shapes at their boundaries, the
 * S256 check against RFC 7636's own example, and no `plain` method.
 */
import { createHash } from "node:crypto";
import { beforeEach, describe, expect, it, vi } from "vitest";

type Pkce = typeof import("../../src/features/authorization-server/pkce.js");
let isPkceChallenge: Pkce["isPkceChallenge"];
let isPkceVerifier: Pkce["isPkceVerifier"];
let pkceChallenge: Pkce["pkceChallenge"];
let verifyPkce: Pkce["verifyPkce"];

// The module is loaded afresh in each test: its patterns are module-level constants, which a mutation run
// only sees changed when the module loads within the test that checks them (docs/testing.md).
beforeEach(async () => {
  vi.resetModules();
  ({ isPkceChallenge, isPkceVerifier, pkceChallenge, verifyPkce } = await import("../../src/features/authorization-server/pkce.js"));
});

// RFC 7636 Appendix B.
const RFC_VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
const RFC_CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

describe("isPkceVerifier", () => {
  it.each([
    ["43 characters (the shortest)", "a".repeat(43)],
    ["128 characters (the longest)", "a".repeat(128)],
    ["every unreserved character", `ABCXYZabcxyz0189-._~${"a".repeat(30)}`],
    ["the RFC's example", RFC_VERIFIER],
  ])("accepts %s", (_, value) => {
    expect(isPkceVerifier(value)).toBe(true);
  });

  it.each([
    ["42 characters", "a".repeat(42)],
    ["129 characters", "a".repeat(129)],
    ["a plus", `${"a".repeat(42)}+`],
    ["a slash", `${"a".repeat(42)}/`],
    ["an equals sign", `${"a".repeat(42)}=`],
    ["a space", `${"a".repeat(42)} `],
    ["a newline at the end", `${"a".repeat(43)}\n`],
    ["a non-ASCII letter", `${"a".repeat(42)}é`],
    ["a percent-encoding", `${"a".repeat(40)}%41`],
    ["the empty string", ""],
  ])("refuses %s", (_, value) => {
    expect(isPkceVerifier(value)).toBe(false);
  });

  it.each([[null], [undefined], [43], [["a".repeat(43)]], [{}]])("refuses the non-string %j", (value) => {
    expect(isPkceVerifier(value)).toBe(false);
  });
});

describe("isPkceChallenge", () => {
  it("accepts the RFC's challenge and the challenge of any verifier", async () => {
    expect(isPkceChallenge(RFC_CHALLENGE)).toBe(true);
    for (const verifier of ["a".repeat(43), "~".repeat(128), RFC_VERIFIER.toUpperCase()]) {
      expect(isPkceChallenge(await pkceChallenge(verifier))).toBe(true);
    }
  });

  it.each([
    ["42 characters", RFC_CHALLENGE.slice(0, 42)],
    ["44 characters", `${RFC_CHALLENGE}A`],
    ["padding", `${RFC_CHALLENGE.slice(0, 42)}=`],
    ["standard base64 (+)", `+${RFC_CHALLENGE.slice(1)}`],
    ["standard base64 (/)", `/${RFC_CHALLENGE.slice(1)}`],
    ["a dot (a verifier character, not base64url)", `.${RFC_CHALLENGE.slice(1)}`],
    ["a last character with non-zero padding bits", `${RFC_CHALLENGE.slice(0, 42)}B`],
    ["the empty string", ""],
  ])("refuses %s", (_, value) => {
    expect(isPkceChallenge(value)).toBe(false);
  });

  it("accepts each of the 16 possible last characters, and no other", () => {
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const accepted = [...alphabet].filter((last) => isPkceChallenge(`${"A".repeat(42)}${last}`));
    expect(accepted.join("")).toBe("AEIMQUYcgkosw048");
  });

  it.each([[null], [undefined], [43], [[RFC_CHALLENGE]]])("refuses the non-string %j", (value) => {
    expect(isPkceChallenge(value)).toBe(false);
  });
});

describe("pkceChallenge", () => {
  it("is RFC 7636 Appendix B's S256 challenge", async () => {
    expect(await pkceChallenge(RFC_VERIFIER)).toBe(RFC_CHALLENGE);
  });

  it("is node:crypto's base64url SHA-256 for 300 verifiers (each + and / of base64 replaced)", async () => {
    let several = 0;
    for (let i = 0; i < 300; i++) {
      const verifier = `verifier-${i}-${"x".repeat(40)}`;
      const expected = createHash("sha256").update(verifier).digest("base64url");
      if ((expected.match(/[-_]/g) ?? []).length >= 2) several++;
      expect(await pkceChallenge(verifier)).toBe(expected);
    }
    // The sample has challenges with two or more of them, which a single replacement would miss.
    expect(several).toBeGreaterThan(10);
  });
});

describe("verifyPkce", () => {
  it("accepts the verifier of the challenge (RFC 7636 Appendix B)", async () => {
    expect(await verifyPkce(RFC_VERIFIER, RFC_CHALLENGE)).toBe(true);
  });

  it("accepts verifiers of 43 and 128 characters against their challenges", async () => {
    for (const verifier of ["x".repeat(43), "y".repeat(128)]) {
      expect(await verifyPkce(verifier, await pkceChallenge(verifier))).toBe(true);
    }
  });

  it("refuses a verifier that differs in one character", async () => {
    expect(await verifyPkce(`${RFC_VERIFIER.slice(0, -1)}Y`, RFC_CHALLENGE)).toBe(false);
    expect(await verifyPkce(`e${RFC_VERIFIER.slice(1)}`, RFC_CHALLENGE)).toBe(false);
  });

  it("refuses a challenge that differs in one character", async () => {
    expect(await verifyPkce(RFC_VERIFIER, `${RFC_CHALLENGE.slice(0, -1)}Q`)).toBe(false);
    expect(await verifyPkce(RFC_VERIFIER, `F${RFC_CHALLENGE.slice(1)}`)).toBe(false);
  });

  it("has no plain method: the verifier as its own challenge is refused", async () => {
    expect(await verifyPkce(RFC_VERIFIER, RFC_VERIFIER)).toBe(false);
    const verifier = "A".repeat(43);
    expect(isPkceChallenge(verifier)).toBe(true);
    expect(await verifyPkce(verifier, verifier)).toBe(false);
  });

  it("refuses a malformed verifier even when its hash is the challenge", async () => {
    for (const verifier of ["a".repeat(42), "a".repeat(129), `${"a".repeat(42)}+`]) {
      expect(await verifyPkce(verifier, await pkceChallenge(verifier))).toBe(false);
    }
  });

  it("refuses a challenge with padding even when it is otherwise the verifier's", async () => {
    expect(await verifyPkce(RFC_VERIFIER, `${RFC_CHALLENGE}=`)).toBe(false);
  });

  it.each([
    [null, RFC_CHALLENGE],
    [RFC_VERIFIER, null],
    [undefined, undefined],
    [[RFC_VERIFIER], RFC_CHALLENGE],
  ])("refuses non-strings (%j, %j) without throwing", async (verifier, challenge) => {
    await expect(verifyPkce(verifier, challenge)).resolves.toBe(false);
  });
});
