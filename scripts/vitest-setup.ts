// Property-based tests explore new random cases on every local run; in CI they replay one fixed seed, so
// a red CI always reproduces. Override with FC_SEED=<n>.
import fc from "fast-check";

const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : process.env.CI ? 20261122 : undefined;
if (seed !== undefined) fc.configureGlobal({ seed });
