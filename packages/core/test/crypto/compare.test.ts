/**
 * Constant-time string equality (crypto/compare.ts), used for CSRF tokens, MACs and flow bindings: it
 * must say "equal" for equal strings only, whatever their lengths and wherever they differ.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { timingSafeEqual } from "../../src/crypto/compare.js";

describe("timingSafeEqual", () => {
  it.each([
    ["", ""],
    ["a", "a"],
    ["token|mac", "token|mac"],
    ["ünïcødé ✓", "ünïcødé ✓"],
  ])("%j equals %j", (a, b) => {
    expect(timingSafeEqual(a, b)).toBe(true);
  });

  it.each([
    ["", "a"],
    ["a", ""],
    ["abc", "abd"],
    ["xbc", "abc"],
    ["abc", "abcabc"],
    ["abcabc", "abc"],
    ["aa", "a"],
    ["a", "aa"],
    ["é", "e\u0301"],
  ])("%j differs from %j", (a, b) => {
    expect(timingSafeEqual(a, b)).toBe(false);
  });

  it("agrees with === on arbitrary strings, including one being a repetition of the other", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        expect(timingSafeEqual(a, b)).toBe(a === b);
        expect(timingSafeEqual(a, a.repeat(2))).toBe(a === "");
      }),
    );
  });
});
