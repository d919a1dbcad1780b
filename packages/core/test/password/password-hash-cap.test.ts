/**
 * The cap on concurrent password hashes (issue 13): at most `maxConcurrent` scrypt runs at once, at most
 * `maxQueued` more wait in order, the rest are refused at once with `RateLimited`. Counted, not timed.
 */
import { afterEach, describe, expect, it } from "vitest";
import { ConcurrencyGate } from "../../src/crypto/concurrency-gate.js";
import { AuthError, RateLimited } from "../../src/errors.js";
import { hashPassword, passwordHashLoad, setPasswordHashLimits, verifyPassword } from "../../src/password.js";

afterEach(() => setPasswordHashLimits());

/** A task the test finishes by hand, recording how many tasks ran at once. */
function probe() {
  let running = 0;
  let most = 0;
  const order: number[] = [];
  const finishers: Array<() => void> = [];
  const task = (id: number) => () => {
    running += 1;
    most = Math.max(most, running);
    order.push(id);
    return new Promise<number>((resolve) => {
      finishers.push(() => {
        running -= 1;
        resolve(id);
      });
    });
  };
  return { task, finishers, order, most: () => most };
}

describe("ConcurrencyGate", () => {
  it("runs at most maxRunning at once, starts the waiting ones first in first out, refuses beyond the queue", async () => {
    const gate = new ConcurrencyGate(2, 3, () => new RateLimited("busy"));
    const p = probe();
    const results = Array.from({ length: 7 }, (_, id) => gate.run(p.task(id)).catch((error: unknown) => error));
    expect(gate.load).toEqual({ running: 2, queued: 3 });
    // Finish tasks one at a time until every admitted one has run.
    while (p.finishers.length > 0) {
      p.finishers.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    const settled = await Promise.all(results);
    expect(settled.slice(0, 5)).toEqual([0, 1, 2, 3, 4]);
    expect(settled.slice(5).every((e) => e instanceof RateLimited)).toBe(true);
    expect(p.order).toEqual([0, 1, 2, 3, 4]);
    expect(p.most()).toBe(2);
    expect(gate.load).toEqual({ running: 0, queued: 0 });
  });

  it("frees the slot of a task that fails", async () => {
    const gate = new ConcurrencyGate(1, 1, () => new RateLimited("busy"));
    await expect(gate.run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await gate.run(async () => "next")).toBe("next");
  });

  it("a larger cap starts waiting tasks at once", async () => {
    const gate = new ConcurrencyGate(1, 5, () => new RateLimited("busy"));
    const p = probe();
    const results = Array.from({ length: 3 }, (_, id) => gate.run(p.task(id)));
    expect(gate.load).toEqual({ running: 1, queued: 2 });
    gate.resize(3, 5);
    expect(gate.load).toEqual({ running: 3, queued: 0 });
    for (const finish of p.finishers.splice(0)) finish();
    expect(await Promise.all(results)).toEqual([0, 1, 2]);
  });
});

describe("hashPassword / verifyPassword", () => {
  it("run at most 2 real scrypt hashes at once by default; every hash still verifies", async () => {
    const hashes = Array.from({ length: 6 }, (_, i) => hashPassword(`password-${i}`));
    expect(passwordHashLoad()).toEqual({ running: 2, queued: 4 });
    // Sampled each time a hash finishes (the gate test above counts exactly).
    let most = 0;
    const done = hashes.map((hash) =>
      hash.then((value) => {
        most = Math.max(most, passwordHashLoad().running);
        return value;
      }),
    );
    const stored = await Promise.all(done);
    expect(most).toBeLessThanOrEqual(2);
    expect(passwordHashLoad()).toEqual({ running: 0, queued: 0 });
    expect(await Promise.all(stored.map((hash, i) => verifyPassword(`password-${i}`, hash)))).toEqual(Array(6).fill(true));
  });

  it("refuse beyond the queue at once with RateLimited (no hash runs for them)", async () => {
    const hash = await hashPassword("secret");
    setPasswordHashLimits({ maxConcurrent: 1, maxQueued: 3 });
    const results = await Promise.all(Array.from({ length: 10 }, () => verifyPassword("secret", hash).catch((error: unknown) => error)));
    expect(results.filter((r) => r === true)).toHaveLength(4);
    const refused = results.filter((r) => r instanceof RateLimited) as RateLimited[];
    expect(refused).toHaveLength(6);
    expect(refused[0]?.retryAfter).toBe(1);
  });

  it("setPasswordHashLimits refuses counts that make no sense", () => {
    expect(() => setPasswordHashLimits({ maxConcurrent: 0 })).toThrow(AuthError);
    expect(() => setPasswordHashLimits({ maxQueued: -1 })).toThrow(AuthError);
    expect(() => setPasswordHashLimits({ maxConcurrent: 1.5 })).toThrow(AuthError);
  });
});
