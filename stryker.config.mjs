// @ts-check
/**
 * Mutation testing (StrykerJS) of the code that decides who is signed in: `npm run test:mutation`.
 * Not part of .ci/run (too slow for every push); run it before resolving an issue that touches these
 * files, and record the scores in docs/testing.md. Incremental: only mutants whose code or covering
 * tests changed since the recorded run are tested again (the record is committed, see docs/testing.md).
 */

/** The files mutated. Grow this list as the trust-boundary and limits work lands (docs/testing.md). */
const mutatedFiles = [
  "packages/core/src/http/csrf.ts",
  "packages/core/src/http/redirect.ts",
  "packages/core/src/http/cookie-chunks.ts",
  "packages/core/src/jwt.ts",
  "packages/core/src/email/normalize.ts",
  "packages/core/src/oauth/checks.ts",
  "packages/core/src/crypto/compare.ts",
  "packages/core/src/actions/link-account.ts",
  "packages/core/src/actions/email.ts",
];

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  mutate: mutatedFiles,
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutation.config.ts", related: false },
  checkers: ["typescript"],
  tsconfigFile: "packages/core/tsconfig.json",
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  coverageAnalysis: "perTest",
  ignoreStatic: true,
  concurrency: 1,
  timeoutMS: 30_000,
  incremental: true,
  incrementalFile: "reports/mutation/stryker-incremental.json",
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: "test-artifacts/mutation/index.html" },
  jsonReporter: { fileName: "test-artifacts/mutation/mutation.json" },
  // The sandbox copies the repository; core's own node_modules (its preact) must come along.
  ignorePatterns: ["apps", "bench", "consumer", "docs", "test-artifacts", "reports", "!packages/core/node_modules"],
  tempDirName: ".stryker-tmp",
  cleanTempDir: true,
};
