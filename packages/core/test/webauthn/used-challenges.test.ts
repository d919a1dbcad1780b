/**
 * The used-challenge memory of one instance (webauthn/used-challenges.ts), driven directly with explicit
 * clock values: a challenge is claimed once, stays used until its expiry (and not a millisecond longer),
 * a full memory refuses rather than evicts and names the earliest expiry, and the expiry heap forgets
 * entries in expiry order however they were inserted. Fast: no adapter, no routes (the mutation group's
 * statement; passkey-bounded-state.test.ts states the same limits through the routes at full size).
 */
import { describe, expect, it } from "vitest";
import { MAX_REMEMBERED_CHALLENGES, UsedChallengeMemory } from "../../src/webauthn/used-challenges.js";

const T = 1_000_000;

describe("the used-challenge memory", () => {
  it("holds 50,000 live challenges by default, and any whole number >= 1 when asked", () => {
    expect(MAX_REMEMBERED_CHALLENGES).toBe(50_000);
    expect(new UsedChallengeMemory().capacity).toBe(50_000);
    expect(new UsedChallengeMemory(1).capacity).toBe(1);
    expect(new UsedChallengeMemory(7).capacity).toBe(7);
  });

  it("refuses a capacity that is not a whole number >= 1", () => {
    for (const capacity of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, Number.MAX_SAFE_INTEGER + 1]) {
      expect(() => new UsedChallengeMemory(capacity)).toThrow(new RangeError("The used-challenge capacity must be a whole number >= 1."));
    }
  });

  it("a challenge is claimed once; a second claim finds it used and changes nothing", () => {
    const memory = new UsedChallengeMemory(3);
    expect(memory.size).toBe(0);
    expect(memory.claim("a", T + 100, T)).toEqual({ claimed: true });
    expect(memory.size).toBe(1);
    expect(memory.claim("a", T + 500, T + 1)).toEqual({ claimed: false, reason: "used" });
    expect(memory.claim("b", T + 100, T + 1)).toEqual({ claimed: true });
    expect(memory.size).toBe(2);
    // The second claim of "a" did not extend it: it is forgotten at its first expiry.
    expect(memory.claim("c", T + 1000, T + 100)).toEqual({ claimed: true });
    expect(memory.size).toBe(1);
    expect(memory.claim("a", T + 1000, T + 100)).toEqual({ claimed: true });
  });

  it("stays used until its expiry, and is forgotten at the expiry itself", () => {
    const memory = new UsedChallengeMemory(10);
    memory.claim("a", T + 100, T);
    expect(memory.claim("a", T + 200, T + 99)).toEqual({ claimed: false, reason: "used" });
    expect(memory.size).toBe(1);
    expect(memory.claim("a", T + 200, T + 100)).toEqual({ claimed: true });
    expect(memory.size).toBe(1);
  });

  it("when full of live challenges, refuses a new one until the earliest expiry, evicting none", () => {
    const memory = new UsedChallengeMemory(3);
    memory.claim("late", T + 300, T);
    memory.claim("early", T + 100, T);
    memory.claim("middle", T + 200, T);
    expect(memory.claim("new", T + 400, T + 50)).toEqual({ claimed: false, reason: "full", retryAt: T + 100 });
    expect(memory.size).toBe(3);
    for (const key of ["late", "early", "middle"]) expect(memory.claim(key, T + 400, T + 99)).toEqual({ claimed: false, reason: "used" });
    // At the earliest expiry there is room again, and only "early" was forgotten.
    expect(memory.claim("new", T + 400, T + 100)).toEqual({ claimed: true });
    expect(memory.claim("middle", T + 400, T + 100)).toEqual({ claimed: false, reason: "used" });
    expect(memory.claim("other", T + 400, T + 100)).toEqual({ claimed: false, reason: "full", retryAt: T + 200 });
  });

  it("a memory of one refuses a second challenge until the first expires", () => {
    const memory = new UsedChallengeMemory(1);
    expect(memory.claim("a", T + 10, T)).toEqual({ claimed: true });
    expect(memory.claim("b", T + 10, T + 9)).toEqual({ claimed: false, reason: "full", retryAt: T + 10 });
    expect(memory.claim("b", T + 20, T + 10)).toEqual({ claimed: true });
  });

  it("forgets entries in expiry order, whatever order they were claimed in", () => {
    // A fixed permutation of 0..199 (multiplying by a number prime to 200), with ties on every fifth expiry.
    const count = 200;
    const expiries = Array.from({ length: count }, (_, i) => T + 10 * Math.floor(((i * 73) % count) / 5) + 10);
    const memory = new UsedChallengeMemory(count + 100);
    expiries.forEach((expiry, i) => {
      expect(memory.claim(`k${i}`, expiry, T)).toEqual({ claimed: true });
    });
    const sorted = [...expiries].sort((a, b) => a - b);
    let probes = 0;
    for (let now = T; now <= (sorted.at(-1) as number) + 10; now += 5) {
      // Each probe lives past the end, so the size is exactly the live entries plus the probes.
      memory.claim(`probe-${probes++}`, T + 1_000_000, now);
      const live = sorted.filter((expiry) => expiry > now).length;
      expect(memory.size).toBe(live + probes);
    }
    expect(memory.size).toBe(probes);
  });

  it("when full, names the earliest live expiry however the claims were ordered", () => {
    const count = 64;
    const expiries = Array.from({ length: count }, (_, i) => T + 1000 + ((i * 37) % count) * 10);
    const memory = new UsedChallengeMemory(count);
    for (const [i, expiry] of expiries.entries()) memory.claim(`k${i}`, expiry, T);
    const sorted = [...expiries].sort((a, b) => a - b);
    for (let step = 0; step < count; step++) {
      const now = (sorted[step] as number) - 1;
      // Full: the next room appears at the earliest expiry still remembered.
      expect(memory.claim(`x${step}`, T + 1_000_000, now)).toEqual({ claimed: false, reason: "full", retryAt: sorted[step] });
      // One tick later that entry is forgotten and the same challenge is taken in its place.
      expect(memory.claim(`x${step}`, T + 1_000_000 + step, now + 1)).toEqual({ claimed: true });
      expect(memory.size).toBe(count);
    }
  });
});
