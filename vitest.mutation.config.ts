/**
 * The vitest configuration StrykerJS runs (`npm run test:mutation`, stryker.config.mjs): the repository's
 * own settings, limited to the core test files that reach the code deciding who is signed in, so each
 * mutant runs only a few files (and never the browser, packaging or benchmark tests).
 */
import { defineConfig, mergeConfig } from "vitest/config";
import base from "./vitest.config.js";

/** The test files that exercise the mutated files (see docs/testing.md, which file covers what). */
export const mutationTestFiles = [
  "packages/core/test/auth-flow.test.ts",
  "packages/core/test/redirect.test.ts",
  "packages/core/test/cookie-chunks.test.ts",
  "packages/core/test/planted-cookies.test.ts",
  "packages/core/test/jwt.test.ts",
  "packages/core/test/jwt-fast-path.test.ts",
  "packages/core/test/digest.test.ts",
  "packages/core/test/compare.test.ts",
  "packages/core/test/email-signin.test.ts",
  "packages/core/test/identity.test.ts",
  "packages/core/test/oauth-auth.test.ts",
  "packages/core/test/origin.test.ts",
  "packages/core/test/oauth/units.test.ts",
  "packages/core/test/oauth/checks.test.ts",
  "packages/core/test/oauth/callback-negatives.test.ts",
  "packages/core/test/oauth/oidc-flow.test.ts",
];

export default mergeConfig(base, defineConfig({ test: { include: mutationTestFiles, maxWorkers: 1 } }));
