/**
 * The benchmark harness (bench/harness.mjs) on two trivial functions, a couple of rounds: it must keep
 * interleaving (both sides run, alternating who goes first), keep taking medians, and keep printing the
 * table `npm run bench` prints. No timing is asserted: only counts, order and shape.
 */
import { describe, expect, it } from "vitest";
import { formatHttpTable, formatTable, interleave, median } from "../harness.mjs";
import { alternate } from "../http.mjs";

describe("the benchmark harness", () => {
  it("alternates the sides every round after warming both up, and reports one row per operation", async () => {
    const trace: string[] = [];
    let last = "";
    const mark = (side: string) => () => {
      if (side !== last) trace.push(side);
      last = side;
    };
    const rows = await interleave(
      [
        { name: "sync pair", ours: mark("ours"), theirs: mark("theirs") },
        { name: "async pair", ours: async () => mark("ours")(), theirs: async () => mark("theirs")() },
      ],
      { rounds: 3, sliceMs: 2, warmupMs: 1 },
    );
    // Per operation the slices are: warm-up ours, theirs; round 0 ours, theirs; round 1 theirs, ours; round 2
    // ours, theirs. The trace records changes of side, so back-to-back slices of one side (round 0's theirs
    // and round 1's theirs) collapse: 6 entries. Without alternation there would be 8.
    const perOperation = ["ours", "theirs", "ours", "theirs", "ours", "theirs"];
    expect(trace).toEqual([...perOperation, ...perOperation]);
    expect(rows.map((r) => r.operation)).toEqual(["sync pair", "async pair"]);
    for (const row of rows) {
      expect(row.ours).toBeGreaterThan(0);
      expect(row.theirs).toBeGreaterThan(0);
      expect(row.ratio).toBeCloseTo(row.ours / (row.theirs as number), 10);
      // Every measured slice makes at least one call; the warm-up's are not counted.
      expect(row.calls?.ours).toBeGreaterThanOrEqual(3);
      expect(row.calls?.theirs).toBeGreaterThanOrEqual(3);
      expect(row.cpu?.ours).toBeGreaterThanOrEqual(0);
      expect(row.cpu?.theirs).toBeGreaterThanOrEqual(0);
    }
  });

  it("counts the calls of the measured rounds only, per side", async () => {
    let ours = 0;
    let theirs = 0;
    const [row] = await interleave([{ name: "counted", ours: () => void ours++, theirs: () => void theirs++ }], {
      rounds: 2,
      sliceMs: 1,
      warmupMs: 1,
    });
    // Each side's total is its warm-up calls plus the measured ones: the warm-up made at least one.
    expect(row?.calls?.ours).toBeGreaterThanOrEqual(2);
    expect(row?.calls?.ours).toBeLessThan(ours);
    expect(row?.calls?.theirs).toBeGreaterThanOrEqual(2);
    expect(row?.calls?.theirs).toBeLessThan(theirs);
  });

  it("with a floor, rotates three sides (each goes first in turn) and reports ours / floor", async () => {
    const firsts: string[] = [];
    let current = "";
    const mark = (side: string) => () => {
      if (side !== current) firsts.push(side);
      current = side;
    };
    const [row] = await interleave([{ name: "with floor", ours: mark("ours"), theirs: mark("theirs"), floor: mark("floor") }], {
      rounds: 3,
      sliceMs: 2,
      warmupMs: 1,
    });
    // Warm-up ours, theirs, floor; round 0 ours, theirs, floor; round 1 theirs, floor, ours; round 2 floor,
    // ours, theirs: no side runs twice in a row, so all 12 slices are changes of side. Alternating (reversing)
    // instead of rotating would run the floor twice in a row after round 0 and leave theirs always second.
    expect(firsts).toEqual(["ours", "theirs", "floor", "ours", "theirs", "floor", "theirs", "floor", "ours", "floor", "ours", "theirs"]);
    expect(row?.floor).toBeGreaterThan(0);
    expect(row?.floorRatio).toBeCloseTo((row?.ours as number) / (row?.floor as number), 10);
    expect(row?.calls?.floor).toBeGreaterThanOrEqual(3);
    expect(row?.ratio).toBeCloseTo((row?.ours as number) / (row?.theirs as number), 10);
  });

  it("leaves the ratio empty when the reference has no equivalent", async () => {
    const [row] = await interleave([{ name: "ours only", ours: () => undefined, theirs: null }], { rounds: 1, sliceMs: 1, warmupMs: 1 });
    expect(row.theirs).toBeNull();
    expect(row.ratio).toBeNull();
    expect(row.calls?.ours).toBeGreaterThanOrEqual(1);
    expect(row.calls?.theirs).toBeNull();
  });

  it("renames the first four columns when asked", () => {
    const [head] = formatTable([{ operation: "x", ours: 2, theirs: 1, ratio: 2 }], {
      operation: "check",
      ours: "with (ops/s)",
      theirs: "without (ops/s)",
      ratio: "with / without",
    }).split("\n");
    expect(head).toBe("| check | with (ops/s) | without (ops/s) | with / without |");
  });

  it("renames the floor's columns when asked", () => {
    const [head] = formatTable([{ operation: "x", ours: 2, theirs: 1, ratio: 2, floor: 2, floorRatio: 1 }], {
      floor: "least (ops/s)",
      floorRatio: "ours / least",
    }).split("\n");
    expect(head).toBe("| operation | ours (ops/s) | theirs (ops/s) | ratio | least (ops/s) | ours / least |");
  });

  it("prints a Markdown table: operation, ours, theirs, ratio", () => {
    const table = formatTable([
      { operation: "decode", ours: 12_345.6, theirs: 1_234.5, ratio: 10.0004 },
      { operation: "ours only", ours: 10, theirs: null, ratio: null, note: "no reference" },
    ]).split("\n");
    expect(table[0]).toBe("| operation | ours (ops/s) | theirs (ops/s) | ratio |");
    expect(table[1]).toBe("| --- | ---: | ---: | ---: |");
    expect(table[2]).toBe("| decode | 12,346 | 1,235 | 10.00x |");
    expect(table[3]).toBe("| ours only (no reference) | 10 | – | – |");
    expect(table).toHaveLength(4);
  });

  it("adds the floor's columns when a row has a floor, empty for the rows without one", () => {
    const table = formatTable([
      { operation: "decode", ours: 12_345.6, theirs: 1_234.5, ratio: 10.0004 },
      { operation: "5,000 users", ours: 6_000, theirs: 500, ratio: 12, floor: 10_000, floorRatio: 0.6 },
    ]).split("\n");
    expect(table[0]).toBe("| operation | ours (ops/s) | theirs (ops/s) | ratio | floor (ops/s) | ours / floor |");
    expect(table[1]).toBe("| --- | ---: | ---: | ---: | ---: | ---: |");
    expect(table[2]).toBe("| decode | 12,346 | 1,235 | 10.00x | – | – |");
    expect(table[3]).toBe("| 5,000 users | 6,000 | 500 | 12.00x | 10,000 | 0.60x |");
    expect(table).toHaveLength(4);
  });

  it("prints the HTTP table: route, req/s, ratio, p50 / p99, then peak RSS", () => {
    const lines = formatHttpTable({
      rows: [{ route: "GET /auth/session", ours: { rps: 2000, p50: 4, p99: 9 }, theirs: { rps: 800, p50: 11, p99: 20 }, ratio: 2.5 }],
      rss: { ours: 150.4, theirs: null },
      connections: 10,
      duration: 5,
      rounds: 3,
    }).split("\n");
    expect(lines).toContain("| route | ours req/s | theirs req/s | ratio | ours p50 / p99 (ms) | theirs p50 / p99 (ms) |");
    expect(lines).toContain("| GET /auth/session | 2,000 | 800 | 2.50x | 4 / 9 | 11 / 20 |");
    expect(lines.at(-1)).toBe("Peak RSS of the server process: ours 150 MB, theirs n/a.");
  });

  it("takes medians of odd and even counts and refuses an empty list", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(() => median([])).toThrow();
  });
});

describe("alternate (the HTTP runs)", () => {
  it("warms every side once, then rotates which side goes first, and refuses a run with errors", async () => {
    const calls: string[] = [];
    const result = (side: string) => ({ side, errors: 0, non2xx: 0 });
    const samples = await alternate(["on", "off", "least"], {
      rounds: 3,
      warm: async (side: string) => calls.push(`warm ${side}`),
      measure: async (side: string) => {
        calls.push(side);
        return result(side);
      },
    });
    expect(calls).toEqual(["warm on", "warm off", "warm least", "on", "off", "least", "off", "least", "on", "least", "on", "off"]);
    expect(samples.least.map((sample: { side: string }) => sample.side)).toEqual(["least", "least", "least"]);
    const failing = alternate(["on"], { rounds: 1, warm: async () => {}, measure: async () => ({ errors: 1, non2xx: 0 }) });
    await expect(failing).rejects.toThrow("on: 1 errors, 0 non-2xx answers");
  });
});
