/**
 * The per-file mutation score table (Markdown) from StrykerJS JSON reports. Score = (killed + timeout) /
 * (killed + timeout + survived + no coverage): mutants that do not compile, error at run time or are
 * ignored as equivalent (a note of equivalent-mutants.mjs, or a short `// Stryker disable` comment pointing at
 * one) are not valid mutants and are not counted.
 */
import { readFileSync } from "node:fs";

const DETECTED = new Set(["Killed", "Timeout"]);
const UNDETECTED = new Set(["Survived", "NoCoverage"]);

/** Counts of one file's mutants by what became of them. */
function countsOf(mutants) {
  const counts = { detected: 0, undetected: 0, ignored: 0, invalid: 0 };
  for (const { status } of mutants) {
    if (DETECTED.has(status)) counts.detected++;
    else if (UNDETECTED.has(status)) counts.undetected++;
    else if (status === "Ignored") counts.ignored++;
    else counts.invalid++;
  }
  return counts;
}

/**
 * The Markdown table of the mutated files in `reports` (Stryker JSON reports, each with the files its group
 * mutates now: a record may still hold a file that has since moved to another group), worst score first.
 */
export function scoreTable(reports) {
  const rows = [];
  for (const { file, mutate } of reports) {
    const report = JSON.parse(readFileSync(file, "utf8"));
    for (const [path, { mutants }] of Object.entries(report.files)) {
      if (!mutate.includes(path)) continue;
      const c = countsOf(mutants);
      const valid = c.detected + c.undetected;
      rows.push({ path: path.replace(/^packages\/core\/src\//, ""), score: valid === 0 ? 100 : (100 * c.detected) / valid, ...c });
    }
  }
  rows.sort((a, b) => a.score - b.score || a.path.localeCompare(b.path));
  const lines = [
    "| file (packages/core/src/) | score | killed + timeout | survived + no coverage | ignored (static, or disabled with a reason) | not compiling / runtime error |",
    "| --- | ---: | ---: | ---: | ---: | ---: |",
    ...rows.map((r) => `| ${r.path} | ${r.score.toFixed(1)} % | ${r.detected} | ${r.undetected} | ${r.ignored} | ${r.invalid} |`),
  ];
  const total = rows.reduce((t, r) => ({ detected: t.detected + r.detected, undetected: t.undetected + r.undetected }), {
    detected: 0,
    undetected: 0,
  });
  const valid = total.detected + total.undetected;
  lines.push(
    `| **all** | **${valid === 0 ? "100.0" : ((100 * total.detected) / valid).toFixed(1)} %** | ${total.detected} | ${total.undetected} | | |`,
  );
  return lines.join("\n");
}
