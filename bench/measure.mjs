// Shared helpers for the benchmarks: run each contender in the same process, interleaved, and print
// ops/s and the ratio against the reference library.
import { Bench } from "tinybench";

/**
 * Runs `tasks` ({ name: fn }) with tinybench and prints a table with ops/s, the median latency and the
 * ratio of each task to `baseline`.
 */
export async function compare(title, tasks, { baseline, time = 1500 } = {}) {
  const bench = new Bench({ time, warmupTime: 300 });
  for (const [name, fn] of Object.entries(tasks)) bench.add(name, fn);
  await bench.run();
  const rows = bench.tasks.map((task) => ({ name: task.name, hz: task.result.throughput.mean, p50: task.result.latency.p50 }));
  const base = rows.find((r) => r.name === baseline)?.hz;
  console.log(`\n## ${title}\n`);
  console.log("| task | ops/s | median (µs) | vs reference |");
  console.log("|---|---:|---:|---:|");
  for (const r of rows) {
    const ratio = base ? `${(r.hz / base).toFixed(2)}x` : "";
    console.log(`| ${r.name} | ${Math.round(r.hz).toLocaleString("en")} | ${(r.p50 * 1000).toFixed(1)} | ${ratio} |`);
  }
  return rows;
}
