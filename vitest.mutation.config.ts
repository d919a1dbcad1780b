/**
 * The vitest configuration StrykerJS runs (`npm run test:mutation`, stryker.config.mjs): the repository's
 * own settings, limited to the test files of the mutation group being run (scripts/mutation/groups.mjs).
 */
import { defineConfig, mergeConfig } from "vitest/config";
import { currentGroup } from "./scripts/mutation/groups.mjs";
import base from "./vitest.config.js";

export default mergeConfig(base, defineConfig({ test: { include: currentGroup().tests, maxWorkers: 1 } }));
