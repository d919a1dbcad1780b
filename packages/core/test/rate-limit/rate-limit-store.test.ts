/**
 * The memory rate-limit store's bounds (issues 13 and 26): when full it drops ended windows first, then
 * the least recently used window of the lightest weight class (hits in powers of two), so flooding it
 * with fresh keys cannot reset a victim's count, and it never fails closed: a new client or account
 * always gets a window. Also the pieces the limits key on: the
 * delivery-canonical mailbox and the client address bucket.
 */
import { describe, expect, it } from "vitest";
import { clientBucket } from "../../src/rate-limit/client-address.js";
import { deliveryMailbox } from "../../src/rate-limit/mailbox.js";
import { memoryRateLimitStore } from "../../src/rate-limit/store.js";

/** A clock the test moves by hand. */
function manualClock(start = 1_700_000_000_000) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe("memoryRateLimitStore", () => {
  it("counts hits in a window, opens a new one after it ends, reads without counting, and resets", async () => {
    const clock = manualClock();
    const store = memoryRateLimitStore({ now: clock.now });
    expect(await store.increment("k", 1000)).toEqual({ count: 1, resetAt: clock.now() + 1000 });
    expect(await store.increment("k", 5000)).toEqual({ count: 2, resetAt: clock.now() + 1000 });
    expect(await store.get("k")).toEqual({ count: 2, resetAt: clock.now() + 1000 });
    expect(await store.get("k")).toEqual({ count: 2, resetAt: clock.now() + 1000 });
    clock.advance(1000);
    expect(await store.get("k")).toBeNull();
    expect(await store.increment("k", 1000)).toEqual({ count: 1, resetAt: clock.now() + 1000 });
    await store.reset("k");
    expect(await store.get("k")).toBeNull();
  });

  it("returns copies: changing a returned window changes nothing in the store", async () => {
    const store = memoryRateLimitStore();
    const window = await store.increment("k", 60_000);
    window.count = 0;
    expect((await store.get("k"))?.count).toBe(1);
  });

  it("when full, drops ended windows before anything live", async () => {
    const clock = manualClock();
    const store = memoryRateLimitStore({ maxKeys: 3, now: clock.now });
    await store.increment("short", 100);
    await store.increment("victim", 60_000);
    await store.increment("victim", 60_000);
    await store.increment("quiet", 60_000);
    clock.advance(100);
    expect(await store.increment("fresh", 60_000)).toMatchObject({ count: 1 });
    expect(await store.get("quiet")).toMatchObject({ count: 1 });
    expect(await store.get("victim")).toMatchObject({ count: 2 });
    expect(await store.get("fresh")).toMatchObject({ count: 1 });
  });

  it("a flood of fresh keys never resets a key with more than one hit (an over-limit victim stays over)", async () => {
    const store = memoryRateLimitStore({ maxKeys: 10 });
    for (let i = 0; i < 12; i++) await store.increment("victim", 60_000);
    for (let i = 0; i < 1000; i++) await store.increment(`attacker-${i}`, 60_000);
    expect(await store.get("victim")).toMatchObject({ count: 12 });
    // The flood only displaced its own single-hit keys: the latest one is held, the first long gone.
    expect(await store.get("attacker-999")).toMatchObject({ count: 1 });
    expect(await store.get("attacker-0")).toBeNull();
  });

  it("holds 100,000 keys by default, and makes room beyond that", async () => {
    const store = memoryRateLimitStore();
    for (let i = 0; i < 100_000; i++) await store.increment(`key-${i}`, 60_000);
    expect(await store.get("key-0")).toMatchObject({ count: 1 });
    await store.increment("one-more", 60_000);
    // key-0 was just read, so key-1 is the least recently used.
    expect(await store.get("key-1")).toBeNull();
    expect(await store.get("key-0")).toMatchObject({ count: 1 });
    expect(await store.get("key-2")).toMatchObject({ count: 1 });
    expect(await store.get("one-more")).toMatchObject({ count: 1 });
  });

  it("never fails closed: when every held key has 2+ hits, a new key still gets a window, and the bound holds", async () => {
    const clock = manualClock();
    const store = memoryRateLimitStore({ maxKeys: 2, now: clock.now });
    for (const key of ["a", "b"]) {
      await store.increment(key, 1000);
      await store.increment(key, 1000);
    }
    // The old store answered { count: Infinity }: every new client or account refused.
    expect(await store.increment("new", 1000)).toEqual({ count: 1, resetAt: clock.now() + 1000 });
    expect(await store.get("new")).toMatchObject({ count: 1 });
    // "a" was the least recently used of the lightest class; "b" stays. Two keys held, as bounded.
    expect(await store.get("a")).toBeNull();
    expect(await store.get("b")).toMatchObject({ count: 2 });
    for (let i = 0; i < 50; i++) {
      const key = `flood-${i}`;
      await store.increment(key, 1000);
      await store.increment(key, 1000);
      expect((await store.increment(`single-${i}`, 1000)).count).toBe(1);
    }
  });

  it("a lockout is never dropped before its window ends while lighter windows are held, even by a flood of 2-hit keys", async () => {
    const clock = manualClock();
    const store = memoryRateLimitStore({ maxKeys: 5, now: clock.now });
    for (let i = 0; i < 10; i++) await store.increment("locked-account", 60_000);
    for (let i = 0; i < 500; i++) {
      await store.increment(`client-${i}`, 60_000);
      await store.increment(`client-${i}`, 60_000);
      await store.increment(`fresh-${i}`, 60_000);
    }
    expect(await store.get("locked-account")).toMatchObject({ count: 10 });
    clock.advance(60_000);
    expect(await store.get("locked-account")).toBeNull();
  });

  it("drops the least recently used of a class: a key that was read or counted lately stays", async () => {
    const clock = manualClock();
    const store = memoryRateLimitStore({ maxKeys: 3, now: clock.now });
    for (const key of ["old", "middle", "young"]) await store.increment(key, 60_000);
    await store.get("old");
    await store.increment("newcomer", 60_000);
    expect(await store.get("middle")).toBeNull();
    expect(await store.get("old")).toMatchObject({ count: 1 });
    await store.increment("young", 60_000);
    await store.increment("another", 60_000);
    // "young" moved to a heavier class with its second hit: the lightest class's oldest goes.
    expect(await store.get("young")).toMatchObject({ count: 2 });
    expect(await store.get("newcomer")).toBeNull();
  });

  it("between sweeps, an ended window met first goes before a live one of a lighter class", async () => {
    const clock = manualClock();
    const store = memoryRateLimitStore({ maxKeys: 2, now: clock.now });
    await store.increment("quiet", 60_000);
    await store.increment("busy", 500);
    await store.increment("busy", 500);
    // A sweep now (the store is full) finds nothing ended and drops the quiet key.
    await store.increment("first", 60_000);
    expect(await store.get("quiet")).toBeNull();
    clock.advance(500);
    // Less than a second since the sweep: no sweep, but "busy" has ended and goes before "first".
    await store.increment("second", 60_000);
    expect(await store.get("first")).toMatchObject({ count: 1 });
    expect(await store.get("second")).toMatchObject({ count: 1 });
  });

  /** A full store (maxKeys 2) swept at its start time: "a" dropped, "b" (a minute) and "c" (`cMs`) kept, filed in that order. */
  async function sweptAtStart(cMs: number) {
    const clock = manualClock();
    const start = clock.now();
    const store = memoryRateLimitStore({ maxKeys: 2, now: clock.now });
    await store.increment("a", 60_000);
    await store.increment("b", 60_000);
    await store.increment("c", cMs);
    expect(await store.get("a")).toBeNull();
    return { store, clock, start };
  }

  it("a second after the last sweep, a full store sweeps again: every ended window goes, even one behind a live one", async () => {
    // "c" ends exactly at the sweep: an ended window, though the oldest of its class ("b") is live.
    const { store, clock, start } = await sweptAtStart(1000);
    clock.advance(1000);
    expect(clock.now()).toBe(start + 1000);
    await store.increment("d", 60_000);
    expect(await store.get("b")).toMatchObject({ count: 1 });
    expect(await store.get("d")).toMatchObject({ count: 1 });
  });

  it("less than a second after the last sweep, only the oldest window of each class is looked at (the sweep's cost is bounded)", async () => {
    // "c" has ended, but it is behind the live "b" in their class: without a sweep, "b" is the one that goes.
    const { store, clock } = await sweptAtStart(100);
    clock.advance(999);
    await store.increment("d", 60_000);
    expect(await store.get("b")).toBeNull();
    expect(await store.get("d")).toMatchObject({ count: 1 });
  });

  it("refuses a bound that is not a whole number of at least 1, saying which; a bound of 1 holds one key", async () => {
    for (const maxKeys of [0, -1, 1.5, Number.NaN]) expect(() => memoryRateLimitStore({ maxKeys })).toThrow(RangeError);
    expect(() => memoryRateLimitStore({ maxKeys: 0 })).toThrow("maxKeys must be a whole number of at least 1, got 0");
    const single = memoryRateLimitStore({ maxKeys: 1 });
    await single.increment("one", 60_000);
    await single.increment("two", 60_000);
    expect(await single.get("one")).toBeNull();
    expect(await single.get("two")).toMatchObject({ count: 1 });
  });
});

describe("deliveryMailbox", () => {
  it("gives one mailbox for case, +tags and Gmail's dots, and googlemail.com as gmail.com", () => {
    for (const address of ["Bomb+1@Gmail.com", "b.o.m.b@googlemail.com", "bomb+x@gmail.com", "BOMB@GMAIL.COM", " b.omb+y+z@gmail.com "]) {
      expect(deliveryMailbox(address)).toBe("bomb@gmail.com");
    }
  });

  it("keeps dots where the provider does not ignore them, cuts +tags everywhere", () => {
    expect(deliveryMailbox("Jane.Doe+news@Example.com")).toBe("jane.doe@example.com");
    expect(deliveryMailbox("jane.doe@example.com")).not.toBe(deliveryMailbox("janedoe@example.com"));
    // A local part that is all tag is a mailbox of its own, not an empty one.
    expect(deliveryMailbox("+news@example.com")).toBe("+news@example.com");
  });

  it("returns an identifier that is not an address as it is (an app's own normalizeIdentifier)", () => {
    expect(deliveryMailbox("user-42")).toBe("user-42");
  });
});

describe("clientBucket", () => {
  it("keeps IPv4, maps IPv4-mapped IPv6 to IPv4, groups IPv6 by /64", () => {
    expect(clientBucket("203.0.113.7")).toBe("203.0.113.7");
    expect(clientBucket("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(clientBucket("::ffff:cb00:7107")).toBe("203.0.113.7");
    expect(clientBucket("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(clientBucket("2001:DB8:1:2:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(clientBucket("[2001:db8:1:2::9]")).toBe("2001:db8:1:2::/64");
    expect(clientBucket("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(clientBucket("::1")).toBe("0:0:0:0::/64");
  });

  it("leaves anything else (an app's own client id, a malformed address) as given", () => {
    expect(clientBucket("tenant-7/user-3")).toBe("tenant-7/user-3");
    expect(clientBucket("1:2:3")).toBe("1:2:3");
    expect(clientBucket("1::2::3")).toBe("1::2::3");
  });
});
