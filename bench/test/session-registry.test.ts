/**
 * The session registry bench (bench/session-registry.mjs) on a tiny run: 3 users per side, 60 checks per
 * side instead of 100,000, no Redis. It must sign users in for real (the registered sides' tokens carry
 * `sid`, which the setup checks), interleave each registry mode with today (alternating who goes first),
 * make at least the asked number of checks on each side, and print the table `npm run bench` prints. No
 * timing is asserted: only counts, order and shape.
 */
import { describe, expect, it } from "vitest";
import { formatRegistryTable, measureRegistry, registryOperations } from "../session-registry.mjs";

describe("the session registry bench", () => {
  it("measures each registry mode against today, interleaved, with at least the asked checks per side", async () => {
    const { operations, notes, close } = await registryOperations({ users: 3, redisUrl: null });
    try {
      expect(notes).toEqual([]);
      expect(operations.map((o) => o.name)).toEqual(["eventual (memory store)", "strict (memory store)"]);
      // Every check answers the user of the cookie it sent, in rotation.
      const first = await (await operations[0].ours()).json();
      const second = await (await operations[0].ours()).json();
      expect([first.user.email, second.user.email]).toEqual(["user-0@example.com", "user-1@example.com"]);

      const traces: string[][] = [];
      const traced = operations.map((operation) => {
        const trace: string[] = [];
        traces.push(trace);
        const mark = (side: string, fn: () => Promise<Response>) => () => {
          if (trace.at(-1) !== side) trace.push(side);
          return fn();
        };
        return {
          name: operation.name,
          users: operation.users,
          ours: mark("registry", operation.ours),
          theirs: mark("today", operation.theirs),
        };
      });
      const rows = await measureRegistry(traced, { checks: 60, rounds: 3, warmupMs: 1 });

      expect(rows.map((r) => r.operation)).toEqual(["eventual (memory store)", "strict (memory store)"]);
      for (const [i, row] of rows.entries()) {
        expect(row.calls.ours).toBeGreaterThanOrEqual(60);
        expect(row.calls.theirs).toBeGreaterThanOrEqual(60);
        expect(row.ratio).toBeCloseTo(row.ours / row.theirs, 10);
        // Three sizing slices of each side, alternating (6 changes), then per attempt: warm-up registry, today;
        // round 0 registry, today; round 1 today (same side as before: no change), registry; round 2 registry
        // (no change), today. Alternating: 6 changes of side per attempt; in the same order every round, 8.
        expect(traces[i]).toHaveLength(6 + 6 * row.attempts);
        expect(traces[i]?.every((side, k) => side === (k % 2 === 0 ? "registry" : "today"))).toBe(true);
      }

      const lines = formatRegistryTable(rows).split("\n");
      expect(lines[0]).toBe(
        "| JWT session check (Auth() GET /session, 3 users in rotation) | with registry (ops/s) | today, no registry (ops/s) | registry / today |",
      );
      expect(lines[1]).toBe("| --- | ---: | ---: | ---: |");
      expect(lines[2]).toMatch(/^\| eventual \(memory store\) \| [\d,]+ \| [\d,]+ \| \d+\.\d\dx \|$/);
      expect(lines[3]).toMatch(/^\| strict \(memory store\) \| [\d,]+ \| [\d,]+ \| \d+\.\d\dx \|$/);
      expect(lines[4]).toBe("");
      expect(lines[5]).toMatch(
        /^- eventual \(memory store\): [+−]\d+\.\d % time per check over today; CPU per check \d+\.\d µs with the registry, \d+\.\d µs today \([+−]\d+\.\d %\); checks made: [\d,]+ with the registry, [\d,]+ today$/,
      );
      expect(lines[6]).toMatch(/^- strict \(memory store\): /);
      expect(lines).toHaveLength(7);
    } finally {
      await close();
    }
  });

  it("marks a row whose sides made fewer checks than asked", () => {
    const [, , , , line] = formatRegistryTable([
      {
        operation: "strict (Redis)",
        users: 300,
        ours: 9_000,
        theirs: 10_000,
        ratio: 0.9,
        checks: 100_000,
        calls: { ours: 99_000, theirs: 120_000 },
        cpu: { ours: 60, theirs: 40 },
      },
    ]).split("\n");
    expect(line).toBe(
      "- strict (Redis): +11.1 % time per check over today; CPU per check 60.0 µs with the registry, 40.0 µs today (+50.0 %); checks made: 99,000 with the registry, 120,000 today (short of 100,000)",
    );
  });
});
