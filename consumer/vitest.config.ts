import { defineConfig } from "vitest/config";

// The consumer test (`npm run test:consumer`): the packed packages in a fresh Qwik City app. One app,
// made once by the global setup, shared by the files, which run one after the other (2 cores).
export default defineConfig({
  test: {
    include: ["consumer/**/*.test.ts"],
    globalSetup: ["consumer/setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: "forks",
    maxWorkers: 1,
    fileParallelism: false,
    environment: "node",
  },
});
