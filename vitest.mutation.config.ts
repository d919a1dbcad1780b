/**
 * The vitest configuration StrykerJS runs (`npm run test:mutation`, stryker.config.mjs): the repository's
 * own settings, with `include` replaced (not merged) by the test files of the mutation group being run
 * (scripts/mutation/groups.mjs).
 */
import { defineConfig } from "vitest/config";
import { currentGroup } from "./scripts/mutation/groups.mjs";
import base from "./vitest.config.js";

export default defineConfig({ ...base, test: { ...base.test, include: currentGroup().tests, maxWorkers: 1 } });
