/**
 * The memory rate-limit store's bounds (issue 13): when full it drops ended windows first, then a window
 * with a single hit, and never a key with more hits, so flooding it with fresh keys cannot reset a
 * victim's count; with nothing to drop, a new key fails closed. Also the pieces the limits key on: the
 * delivery-canonical mailbox and the client address bucket.
 */
import { describe, expect, it } from "vitest";
import { clientBucket } from "../src/rate-limit/client-address.js";
import { deliveryMailbox } from "../src/rate-limit/mailbox.js";
import { memoryRateLimitStore } from "../src/rate-limit/store.js";

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
    expect(await store.get("key-0")).toBeNull();
    expect(await store.get("key-1")).toMatchObject({ count: 1 });
    expect(await store.get("one-more")).toMatchObject({ count: 1 });
  });

  it("fails closed when every held key is live with more than one hit: the new key counts as over every limit", async () => {
    const clock = manualClock();
    const store = memoryRateLimitStore({ maxKeys: 2, now: clock.now });
    for (const key of ["a", "b"]) {
      await store.increment(key, 1000);
      await store.increment(key, 1000);
    }
    const refused = await store.increment("new", 1000);
    expect(refused).toEqual({ count: Number.POSITIVE_INFINITY, resetAt: clock.now() + 1000 });
    expect(await store.get("new")).toBeNull();
    expect(await store.get("a")).toMatchObject({ count: 2 });
    // Room comes back when windows end.
    clock.advance(1000);
    expect(await store.increment("new", 1000)).toMatchObject({ count: 1 });
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
