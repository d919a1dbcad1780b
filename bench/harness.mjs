// The interleaving harness: ours and the reference run in the same process, in alternating time slices,
// so a noisy neighbour, a GC pause or CPU throttling hits both sides alike. Running each library in one
// block (what tinybench's Bench does) let machine noise decide ratios by ±30 %.

/** Median of a non-empty list of numbers (the mean of the two middle values for an even count). */
export function median(values) {
  if (values.length === 0) throw new Error("median of an empty list");
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Calls `fn` back to back (awaiting each call, so async work is counted whole) for about `ms`
 * milliseconds, at least once, and returns the throughput in calls per second. With `tally`, adds the
 * number of calls made to `tally.calls` (a bench that must make a given number of calls counts them there)
 * and the process's CPU time over the slice to `tally.cpuMicros` (user + system, µs: on a busy machine it
 * moves less than wall-clock time, which counts the time other processes held the CPU).
 */
export async function slice(fn, ms, tally) {
  const cpuStart = tally ? process.cpuUsage() : undefined;
  const start = performance.now();
  const end = start + ms;
  let calls = 0;
  let now = start;
  do {
    await fn();
    calls += 1;
    now = performance.now();
  } while (now < end);
  if (tally) {
    const cpu = process.cpuUsage(cpuStart);
    tally.calls += calls;
    tally.cpuMicros = (tally.cpuMicros ?? 0) + cpu.user + cpu.system;
  }
  return (calls * 1000) / (now - start);
}

/**
 * Measures each operation's sides interleaved: a warm-up slice of each, then `rounds` rounds of one
 * slice per side, the order rotating every round (with two sides: the side that goes first alternates).
 * Reports the median throughput of each side over the rounds and the ratio ours / theirs (above 1: ours
 * is faster), and, for an operation with a `floor` (the least work any implementation must do), the
 * ratio ours / floor (1 would mean the library costs nothing on top of it). Each row also has `calls`:
 * how many calls of each side the measured rounds made (warm-up not counted), and `cpu`: the process's
 * CPU time per call of ours and theirs (µs) over those rounds.
 *
 * @param {Array<{ name: string, ours: () => unknown, theirs?: (() => unknown) | null, floor?: (() => unknown) | null, note?: string }>} operations
 *   `theirs` may be absent when the reference has no equivalent; the row then has no ratio.
 * @param {{ rounds?: number, sliceMs?: number, warmupMs?: number, onRow?: (row: Row) => void }} [options]
 * @returns {Promise<Row[]>}
 * @typedef {{ operation: string, ours: number, theirs: number | null, ratio: number | null, floor?: number, floorRatio?: number, note?: string, calls?: { ours: number, theirs: number | null, floor?: number }, cpu?: { ours: number, theirs: number | null } }} Row
 */
export async function interleave(operations, { rounds = 9, sliceMs = 200, warmupMs = 300, onRow } = {}) {
  const rows = [];
  for (const { name, ours, theirs, floor, note } of operations) {
    const sides = [ours, theirs, floor].filter(Boolean);
    for (const fn of sides) await slice(fn, warmupMs);
    const samples = sides.map(() => []);
    const tallies = sides.map(() => ({ calls: 0, cpuMicros: 0 }));
    for (let round = 0; round < rounds; round++) {
      // Round r starts with side r mod n: every side goes first (and last) as often as the others.
      const order = sides.map((_, i) => (i + round) % sides.length);
      for (const i of order) samples[i].push(await slice(sides[i], sliceMs, tallies[i]));
    }
    const [oursHz, ...rest] = samples.map(median);
    const [oursCalls, ...restCalls] = tallies.map((t) => t.calls);
    const theirsHz = theirs ? rest.shift() : null;
    const calls = { ours: oursCalls, theirs: theirs ? restCalls.shift() : null };
    // CPU time per call (µs) of ours and theirs, over the measured rounds.
    const cpuPerCall = (i) => tallies[i].cpuMicros / tallies[i].calls;
    const cpu = { ours: cpuPerCall(0), theirs: theirs ? cpuPerCall(1) : null };
    const row = { operation: name, ours: oursHz, theirs: theirsHz, ratio: theirsHz ? oursHz / theirsHz : null, note, calls, cpu };
    if (floor) {
      row.floor = rest.shift();
      row.floorRatio = oursHz / row.floor;
      calls.floor = restCalls.shift();
    }
    rows.push(row);
    onRow?.(row);
  }
  return rows;
}

const number = (value, digits = 0) =>
  value === null || value === undefined
    ? "–"
    : value.toLocaleString("en", { maximumFractionDigits: digits, minimumFractionDigits: digits });

/**
 * The rows as a Markdown table: operation | ours (ops/s) | theirs (ops/s) | ratio, and, when a row has a
 * floor, two more columns: floor (ops/s) | ours / floor (empty for the rows without one). `headings`
 * renames the columns for a bench whose sides are not ours, the reference's and a floor.
 *
 * @param {Row[]} rows
 * @param {{ operation?: string, ours?: string, theirs?: string, ratio?: string, floor?: string, floorRatio?: string }} [headings]
 */
export function formatTable(rows, headings = {}) {
  const withFloor = rows.some((row) => row.floor !== undefined);
  const { operation = "operation", ours = "ours (ops/s)", theirs = "theirs (ops/s)", ratio = "ratio" } = headings;
  const { floor: floorHeading = "floor (ops/s)", floorRatio: floorRatioHeading = "ours / floor" } = headings;
  const head = [`| ${operation} | ${ours} | ${theirs} | ${ratio} |`, "| --- | ---: | ---: | ---: |"];
  const lines = withFloor ? [`${head[0]} ${floorHeading} | ${floorRatioHeading} |`, `${head[1]} ---: | ---: |`] : head;
  const ratioOf = (value) => (value === null || value === undefined ? "–" : `${value.toFixed(2)}x`);
  for (const row of rows) {
    const name = row.note ? `${row.operation} (${row.note})` : row.operation;
    const floor = withFloor ? ` ${number(row.floor)} | ${ratioOf(row.floorRatio)} |` : "";
    lines.push(`| ${name} | ${number(row.ours)} | ${number(row.theirs)} | ${ratioOf(row.ratio)} |${floor}`);
  }
  return lines.join("\n");
}

/**
 * The HTTP run (bench/http.mjs) as a Markdown table: route, req/s of each side, ratio, p50 / p99 of each
 * side; then the peak RSS of each server.
 */
export function formatHttpTable({ rows, rss, connections, duration, rounds }) {
  const f = (n, d = 0) => n.toLocaleString("en", { maximumFractionDigits: d, minimumFractionDigits: d });
  const lines = [
    `autocannon, ${connections} connections, ${duration} s per run, median of ${rounds} runs per app (alternating)`,
    "",
    "| route | ours req/s | theirs req/s | ratio | ours p50 / p99 (ms) | theirs p50 / p99 (ms) |",
    "| --- | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.route} | ${f(r.ours.rps)} | ${f(r.theirs.rps)} | ${r.ratio.toFixed(2)}x | ${r.ours.p50} / ${r.ours.p99} | ${r.theirs.p50} / ${r.theirs.p99} |`,
    );
  }
  const mb = (v) => (v === null ? "n/a" : `${f(v)} MB`);
  lines.push("", `Peak RSS of the server process: ours ${mb(rss.ours)}, theirs ${mb(rss.theirs)}.`);
  return lines.join("\n");
}
