/**
 * SingleFlight (session/single-flight.ts): callers of one key share a running call, a finished call is
 * reused for a grace period, a failed one is forgotten at once, and at most `maxKeys` keys are kept.
 * Time is a fake `Date` the test moves by hand.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SingleFlight } from "../../src/session/single-flight.js";

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(1_900_000_000_000);
});
afterEach(() => vi.useRealTimers());

describe("single-flight", () => {
  it("callers of a running key share its promise; other keys run on their own", async () => {
    const flights = new SingleFlight<number>(0);
    let runs = 0;
    let release!: (n: number) => void;
    const first = flights.run(
      "a",
      () =>
        new Promise<number>((resolve) => {
          release = resolve;
          runs++;
        }),
    );
    const second = flights.run("a", () => {
      runs++;
      return Promise.resolve(-1);
    });
    const other = flights.run("b", () => {
      runs++;
      return Promise.resolve(2);
    });
    expect(second).toBe(first);
    release(1);
    expect(await Promise.all([first, second, other])).toEqual([1, 1, 2]);
    expect(runs).toBe(2);
  });

  it("a finished call is reused for graceMs, then a new call runs", async () => {
    const flights = new SingleFlight<number>(1000);
    let runs = 0;
    const run = () => Promise.resolve(++runs);
    expect(await flights.run("a", run)).toBe(1);
    vi.setSystemTime(Date.now() + 999);
    expect(await flights.run("a", run)).toBe(1);
    vi.setSystemTime(Date.now() + 1);
    expect(await flights.run("a", run)).toBe(2);
  });

  it("without a grace period a finished call is not reused", async () => {
    const flights = new SingleFlight<number>(0);
    let runs = 0;
    const run = () => Promise.resolve(++runs);
    expect(await flights.run("a", run)).toBe(1);
    expect(await flights.run("a", run)).toBe(2);
  });

  it("a failed call is forgotten at once, even with a grace period", async () => {
    const flights = new SingleFlight<number>(60_000);
    await expect(flights.run("a", () => Promise.reject(new Error("down")))).rejects.toThrow("down");
    expect(await flights.run("a", () => Promise.resolve(7))).toBe(7);
  });

  it("a failure of an older call does not forget the newer call of the same key", async () => {
    // One key at most: "b" pushes the running "a" out, and "a" asked again starts a newer call.
    const flights = new SingleFlight<number>(0, 1);
    let fail!: (e: Error) => void;
    const old = flights.run("a", () => new Promise<number>((_resolve, reject) => (fail = reject)));
    void flights.run("b", () => new Promise<number>(() => {}));
    const newer = flights.run("a", () => new Promise<number>(() => {}));
    fail(new Error("old failed"));
    await expect(old).rejects.toThrow("old failed");
    expect(flights.run("a", () => Promise.resolve(0))).toBe(newer);
  });

  it("at most maxKeys keys are kept: expired ones go first (even when not the oldest), then the oldest", async () => {
    const flights = new SingleFlight<string>(1000, 2);
    const running = flights.run("running", () => new Promise<string>(() => {}));
    await flights.run("done", () => Promise.resolve("done-1"));
    // Exactly graceMs later "done" has expired; "running" (older, still running) has not.
    vi.setSystemTime(Date.now() + 1000);
    const third = flights.run("third", () => new Promise<string>(() => {}));
    expect(flights.run("running", () => Promise.resolve("again"))).toBe(running);
    expect(flights.run("third", () => Promise.resolve("again"))).toBe(third);
    // Full of live keys: the oldest ("running") goes to make room for a fourth.
    const fourth = flights.run("fourth", () => new Promise<string>(() => {}));
    expect(flights.run("third", () => Promise.resolve("again"))).toBe(third);
    expect(flights.run("fourth", () => Promise.resolve("again"))).toBe(fourth);
    expect(await flights.run("running", () => Promise.resolve("new run"))).toBe("new run");
  });

  it("below maxKeys nothing is dropped, not even expired keys' neighbours", async () => {
    const flights = new SingleFlight<string>(1000, 3);
    const a = flights.run("a", () => new Promise<string>(() => {}));
    const b = flights.run("b", () => new Promise<string>(() => {}));
    flights.run("c", () => new Promise<string>(() => {}));
    expect(flights.run("a", () => Promise.resolve("x"))).toBe(a);
    expect(flights.run("b", () => Promise.resolve("x"))).toBe(b);
  });
});
