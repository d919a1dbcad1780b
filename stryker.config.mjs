// @ts-check
/**
 * StrykerJS settings for one mutation group (scripts/mutation/groups.mjs, chosen by `MUTATION_GROUP`);
 * `npm run test:mutation` (scripts/mutation/run.mjs) runs every group and writes the score table.
 * Incremental: only mutants whose code or covering tests changed since the recorded run are tested
 * again. The records are local (reports/mutation/, ignored by git, see docs/testing.md): without one, the
 * group's run tests every mutant and writes it.
 */
import { currentGroup } from "./scripts/mutation/groups.mjs";

const group = currentGroup();

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  mutate: group.mutate,
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutation.config.ts", related: false },
  checkers: ["typescript"],
  // The equivalent mutants' notes (scripts/mutation/equivalent-mutants.mjs), applied by their ignorer.
  plugins: ["@stryker-mutator/*", "./scripts/mutation/equivalent-ignorer.mjs"],
  ignorers: ["equivalent-mutants"],
  tsconfigFile: "packages/core/tsconfig.json",
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  coverageAnalysis: "perTest",
  ignoreStatic: true,
  concurrency: 1,
  timeoutMS: 10_000,
  incremental: true,
  incrementalFile: `reports/mutation/${group.name}.json`,
  reporters: ["clear-text", "progress-append-only", "html", "json"],
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  htmlReporter: { fileName: `test-artifacts/mutation/${group.name}.html` },
  jsonReporter: { fileName: `test-artifacts/mutation/${group.name}.json` },
  // The sandbox copies the repository; core's own node_modules (its preact) must come along.
  // Other groups' sandboxes (.stryker-tmp) and everything outside core are left out of the copy.
  ignorePatterns: [".stryker-tmp", "apps", "bench", "consumer", "docs", "test-artifacts", "reports", "!packages/core/node_modules"],
  symlinkNodeModules: true,
  tempDirName: `.stryker-tmp/${group.name}`,
  cleanTempDir: true,
};
