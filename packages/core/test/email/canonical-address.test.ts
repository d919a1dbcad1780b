/**
 * One canonical address (issue 44): the account lookup (`normalizeEmail`) and every limit keyed by an
 * address (the credentials lockout through `accountOf`, the mail limits through `deliveryMailbox`) read an
 * address the same way, so no spelling of it is a fresh count for the same account.
 *
 * The oracle is a table we did not write: the `tr46` package's UTS #46 mapping table. Every code point it
 * calls "ignored" or "mapped" is put in the local part and in the domain of a plain address; the variant
 * must land on the same lookup address and the same limit keys as the plain address with the mapping
 * written out (or both be refused). Where the runtime's own IDNA table (Node's ICU, behind `new URL`, which
 * converts every domain) is of another Unicode version than tr46's, the runtime's mapping (decoded by `punycode.js`)
 * is the plain address, and those code points are counted. The attack through a variant is
 * canonical-address-attack.test.ts.
 */
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { canonicalAccountName, canonicalText, InvalidEmailAddress, normalizeEmail } from "../../src/address/normalize.js";
import Credentials from "../../src/providers/credentials.js";
import { resolveRateLimits } from "../../src/rate-limit/config.js";
import { accountOf } from "../../src/rate-limit/credentials.js";
import { limitKey } from "../../src/rate-limit/limiter.js";
import { deliveryMailbox } from "../../src/rate-limit/mailbox.js";
import type { ResolvedCredentialsLimits } from "../../src/types/rate-limit.js";

const require = createRequire(import.meta.url);
const punycode = require("punycode.js") as { toUnicode(domain: string): string };
/** tr46's table: `[codePoint | [first, last], status, mapping?]`; status 1 is mapped, 7 ignored. */
const table = require("tr46/lib/mappingTable.json") as Array<[number | [number, number], number, string?]>;
const MAPPED = 1;
const IGNORED = 7;

const options = { secret: ["canonical-address-test-secret-0123456789"] };
const provider = Credentials({
  credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
  authorize: () => null,
});
const settings = (resolveRateLimits({}) as { credentials: ResolvedCredentialsLimits }).credentials;

/** What the account lookup reads `address` as, or "refused". */
function lookup(address: string): string {
  try {
    return normalizeEmail(address);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidEmailAddress);
    return "refused";
  }
}

/**
 * What the limits key `address` by: the lockout's account name and the mail limits' mailbox. A store key
 * is a keyed hash of exactly that (`limitKey`), so equal names are equal keys; {@link limitKeysOf} shows it.
 */
function limitNamesOf(address: string): string {
  const account = accountOf(provider, settings, { email: address, password: "x" }) as string;
  return `${account} ${deliveryMailbox(address)}`;
}

/** The store keys an attempt or a mail for `address` counts under: the lockout's and the mailbox's. */
async function limitKeysOf(address: string): Promise<string[]> {
  const account = accountOf(provider, settings, { email: address, password: "x" }) as string;
  return [
    await limitKey(options, "cred:acct", `${provider.id}:${account}`),
    await limitKey(options, "email:mbox", deliveryMailbox(address)),
  ];
}

/** Every code point tr46 maps or ignores, with what it maps to ("" when ignored). */
function* mappedAndIgnored(): Generator<{ codePoint: number; status: number; mapping: string }> {
  for (const [range, status, mapping] of table) {
    if (status !== MAPPED && status !== IGNORED) continue;
    const [first, last] = Array.isArray(range) ? range : [range, range];
    for (let codePoint = first; codePoint <= last; codePoint++) yield { codePoint, status, mapping: mapping ?? "" };
  }
}

/**
 * The runtime's own UTS #46 mapping of `char` between two `x`s, as the URL parser applies it to every
 * domain (in NFC: a combining mark may join the first `x`), or `undefined` when it refuses it. Its
 * punycode is decoded by `punycode.js` (mailparser's), not by the runtime.
 */
function runtimeMapping(char: string): string | undefined {
  try {
    return punycode.toUnicode(new URL(`http://x${char}x`).hostname);
  } catch {
    return undefined;
  }
}

describe("the canonical address over every UTS #46 ignored and mapped code point (oracle: tr46)", () => {
  it("a variant in the local part or the domain lands on the plain address's lookup and limit keys", async () => {
    let pairs = 0;
    let accepted = 0;
    const newerThanRuntime: number[] = [];
    const otherVersion: string[] = [];
    for (const { codePoint, status, mapping } of mappedAndIgnored()) {
      const char = String.fromCodePoint(codePoint);
      // A code point the runtime's Unicode has not assigned yet: neither NFKC nor IDNA of this runtime knows it.
      if (/\p{Cn}/u.test(char)) {
        newerThanRuntime.push(codePoint);
        continue;
      }
      let plainText = mapping;
      const runtime = runtimeMapping(char);
      if (status === MAPPED && runtime !== undefined && runtime !== `x${mapping}x`.normalize("NFC")) {
        otherVersion.push(`U+${codePoint.toString(16).toUpperCase()} tr46 ${JSON.stringify(mapping)} runtime ${JSON.stringify(runtime)}`);
        plainText = runtime.slice(1, -1);
      }
      for (const [variant, plain] of [
        [`vic${char}tim@example.com`, `vic${plainText}tim@example.com`],
        [`victim@exa${char}mple.com`, `victim@exa${plainText}mple.com`],
      ] as const) {
        pairs++;
        const expected = lookup(plain);
        const got = lookup(variant);
        if (got !== expected) expect.fail(`U+${codePoint.toString(16)} in ${JSON.stringify(variant)}: ${got}, plain ${expected}`);
        if (expected === "refused") continue;
        accepted++;
        if (limitNamesOf(variant) !== limitNamesOf(plain))
          expect.fail(`U+${codePoint.toString(16)} in ${JSON.stringify(variant)}: other limit keys`);
        // The store keys themselves, for one code point in fifty (each is two keyed hashes).
        if (accepted % 50 === 0) expect(await limitKeysOf(variant)).toEqual(await limitKeysOf(plain));
      }
    }
    // The whole table was walked: thousands of variants, most of them addresses that exist.
    expect(pairs).toBeGreaterThan(13_000);
    expect(accepted).toBeGreaterThan(6_500);
    // Code points newer than this runtime's Unicode are few (they are refused, never a fresh key) …
    expect(newerThanRuntime.length).toBeLessThan(200);
    // … and so are the mappings that changed between the runtime's IDNA version and tr46's (ẞ, the final sigmas).
    expect(otherVersion.length).toBeLessThan(20);
  }, 120_000);

  it("the reported cases: variation selectors, U+034F, U+180B–U+180D, soft hyphen, fullwidth letters", () => {
    for (const variant of [
      "victim@e\uFE00xample.com",
      "victim@e\u034Fxample.com",
      "victim@e\u180Bx\u180Ca\u180Dmple.com",
      "vic\u00ADtim@example.com",
      "vic\uFE0Ftim@example.com",
      "\u200Bvictim@example.com",
      "ＶＩＣＴＩＭ@ＥＸＡＭＰＬＥ.ＣＯＭ",
      "vi\u{E0101}ctim@example.com",
      "victim@exa\u3164mple.com",
    ]) {
      expect(normalizeEmail(variant), variant).toBe("victim@example.com");
      expect(canonicalAccountName(variant), variant).toBe("victim@example.com");
      expect(deliveryMailbox(variant), variant).toBe("victim@example.com");
    }
  });
});

describe("canonicalText and canonicalAccountName", () => {
  it("maps login names the same way as addresses, and keeps what is not an address", () => {
    expect(canonicalText("  Ａｄｍｉｎ\u00AD  ")).toBe("admin");
    expect(canonicalText("ad\uFE0Fmin")).toBe("admin");
    expect(canonicalText("K\u212A")).toBe("kk");
    expect(canonicalText("maẞ")).toBe("mass");
    // Non-ASCII that stays non-ASCII is kept (and lower-cased), whatever the runtime's parser says of it.
    expect(canonicalText("ÄBC")).toBe("äbc");
    expect(canonicalText("שלום")).toBe("שלום");
    expect(canonicalText("a\u200Db")).toBe("a\u200Db");
    // ASCII is never sent through the parser: URL syntax stays as typed.
    expect(canonicalText("a/b?c#d%41")).toBe("a/b?c#d%41");
    expect(canonicalText("a\u3002b")).toBe("a.b");
    expect(canonicalAccountName(" Admin\u00AD ")).toBe("admin");
    expect(canonicalAccountName("Bob@Example.COM")).toBe("bob@example.com");
    expect(canonicalAccountName("bob@bücher.de")).toBe("bob@xn--bcher-kva.de");
    expect(canonicalAccountName("not an address@x")).toBe("not an address@x");
    // Past 1,024 characters a text is keyed as typed (NFKC, lower case), unmapped: the cost of mapping is
    // bounded, and such a text is never an address.
    const long = `Ｂob\u00AD${"é".repeat(1020)}`;
    expect(long).toHaveLength(1024);
    expect(canonicalText(long)).toBe(`bob${"é".repeat(1020)}`);
    expect(canonicalText(`  ${long}x `)).toBe(`bob\u00AD${"é".repeat(1020)}x`);
    expect(() => normalizeEmail(`victim@e${"\uFE00".repeat(1100)}xample.com`)).toThrow("Email address too long.");
    expect(normalizeEmail(`victim@e${"\uFE00".repeat(1000)}xample.com`)).toBe("victim@example.com");
  });

  it("the joiners stay (UTS #46 deviations) and are refused; so are bidi-breaking and ASCII URL syntax", () => {
    for (const bad of [
      "vic\u200Dtim@example.com",
      "victim@exa\u200Cmple.com",
      "victim@exa%6dple.com",
      "victim@exa/mple.com",
      "victim@exa#mple.com",
      "victim@exa?mple.com",
      "victim@exa\u2100mple.com",
      "victim@",
      "victim@\u00AD",
      "\u00AD",
      "vic tim@example.com",
    ]) {
      expect(() => normalizeEmail(bad), bad).toThrow(InvalidEmailAddress);
    }
    expect(() => normalizeEmail(" ")).toThrow("Missing email address.");
    expect(() => normalizeEmail(42)).toThrow("Missing email address.");
    expect(() => normalizeEmail(`${"a".repeat(250)}@example.com`)).toThrow("Email address too long.");
    // The bounds themselves: 254 characters in all, 64 in the local part.
    const longest = `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(57)}.com`;
    expect(longest).toHaveLength(254);
    expect(normalizeEmail(longest)).toBe(longest);
    expect(() => normalizeEmail(`a${longest}`)).toThrow("Email address too long.");
    expect(normalizeEmail(`${"a".repeat(64)}@example.com`)).toBe(`${"a".repeat(64)}@example.com`);
    expect(() => normalizeEmail(`${"a".repeat(65)}@example.com`)).toThrow("Invalid email address format.");
    expect(() => normalizeEmail("@example.com")).toThrow("Invalid email address format.");
    expect(() => normalizeEmail("a@b@example.com")).toThrow("Invalid email address format.");
    expect(() => normalizeEmail("a..b@example.com")).toThrow("Invalid email address format.");
    expect(() => normalizeEmail("victim@exa%6dple.com")).toThrow("Invalid email domain.");
    expect(() => normalizeEmail("victim@exa\u202Emple.com")).toThrow("Invalid email address format.");
    expect(() => normalizeEmail("victim@a-.com")).toThrow("Invalid email domain.");
    expect(() => normalizeEmail("victim@localhost")).toThrow("Invalid email domain.");
    expect(() => normalizeEmail("victim@example.123")).toThrow("Invalid email domain.");
  });
});
