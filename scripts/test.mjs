#!/usr/bin/env node
// Runs every test (vitest, which also drives the browser tests) and ends with one line
// "N passed, N failed" summing all of them. The exit code is vitest's.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";

const resultsFile = ".test-results/vitest.json";
mkdirSync(".test-results", { recursive: true });
rmSync(resultsFile, { force: true });

const run = spawnSync(
  "npx",
  ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${resultsFile}`, ...process.argv.slice(2)],
  { stdio: "inherit" },
);

let passed = 0;
let failed = 0;
try {
  const report = JSON.parse(readFileSync(resultsFile, "utf8"));
  passed = report.numPassedTests;
  failed = report.numFailedTests + (report.numRuntimeErrorTestSuites ?? 0);
  for (const file of report.testResults ?? []) {
    // A file that fails to load has no assertions but must still count as a failure.
    if (file.status === "failed" && (file.assertionResults ?? []).length === 0) failed += 1;
  }
} catch {
  failed += 1;
}
if (run.status !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(run.status ?? 1);
