import { defineConfig } from "vitest/config";

// One runner for the whole repository. Browser tests (Playwright + Debian's Chromium) are vitest files too,
// so `npm test` runs and counts everything.
export default defineConfig({
  test: {
    include: ["packages/*/test/**/*.test.ts", "apps/*/test/**/*.test.ts", "bench/test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: 2,
    environment: "node",
    setupFiles: ["./scripts/vitest-setup.ts"],
    // expect.poll waits for a state (a page's status line, a row gone), never times it: its default of 1 s
    // failed on a loaded 2-core machine while the state came. A wrong state still fails, after 15 s.
    expect: { poll: { timeout: 15_000 } },
  },
});
