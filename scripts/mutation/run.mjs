#!/usr/bin/env node
/**
 * `npm run test:mutation [group …]`: runs StrykerJS once per mutation group (scripts/mutation/groups.mjs),
 * one after the other with `CI=true` (fast-check replays its fixed seed), then prints the score of every
 * mutated file and writes it to test-artifacts/mutation/scores.md. Not part of .ci/run: it takes minutes.
 * `npm run test:mutation -- --recorded` runs nothing and prints the table of the incremental records kept
 * on this machine (reports/mutation/<group>.json, each the last run of its group here; ignored by git, so a
 * fresh clone has none and its first run tests every mutant).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { mutationGroups } from "./groups.mjs";
import { scoreTable } from "./scores.mjs";

/** Where Stryker keeps each group's incremental record (stryker.config.mjs `incrementalFile`). */
const RECORDS = "reports/mutation";

/** The JSON report of every group found in `directory`, with the files the group mutates. */
function reportsIn(directory) {
  return mutationGroups.map((g) => ({ file: `${directory}/${g.name}.json`, mutate: g.mutate })).filter(({ file }) => existsSync(file));
}

if (process.argv.includes("--recorded")) {
  const records = reportsIn(RECORDS);
  if (records.length === 0) console.log(`No mutation records in ${RECORDS}/: run \`npm run test:mutation\` to make them.`);
  else console.log(scoreTable(records));
  process.exit(0);
}

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !mutationGroups.some((g) => g.name === name));
if (unknown.length > 0) {
  console.error(`Unknown mutation group(s): ${unknown.join(", ")}. Known: ${mutationGroups.map((g) => g.name).join(", ")}`);
  process.exit(2);
}
const groups = wanted.length > 0 ? mutationGroups.filter((g) => wanted.includes(g.name)) : mutationGroups;

let failed = false;
for (const group of groups) {
  console.log(`\n== mutation group ${group.name}: ${group.mutate.join(", ")}`);
  const run = spawnSync("npx", ["stryker", "run", "stryker.config.mjs"], {
    stdio: "inherit",
    env: { ...process.env, CI: "true", MUTATION_GROUP: group.name },
  });
  if (run.status !== 0) {
    console.error(`mutation group ${group.name} failed (exit ${run.status})`);
    failed = true;
  }
}

const table = scoreTable(reportsIn("test-artifacts/mutation"));
mkdirSync("test-artifacts/mutation", { recursive: true });
writeFileSync("test-artifacts/mutation/scores.md", `${table}\n`);
console.log(`\n${table}`);
process.exit(failed ? 1 : 0);
