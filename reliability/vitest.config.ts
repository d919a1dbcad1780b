import { defineConfig } from "vitest/config";

// The reliability tests (`npm run test:reliability`): a load test and a fault test of `Auth()` over
// node:http with database sessions on real PostgreSQL servers. Kept out of the default `include`, so
// `npm test` does not run them; the files run one after the other (2 cores, and they measure latency).
export default defineConfig({
  test: {
    include: ["reliability/**/*.test.ts"],
    testTimeout: 180_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: 1,
    fileParallelism: false,
    environment: "node",
  },
});
