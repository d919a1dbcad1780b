/**
 * Everything about environment variables, in one import: reading them (`env/read.ts`) and applying them
 * to a configuration (`env/defaults.ts`, home of `setEnvDefaults`). Code inside core imports the part it
 * needs; this module keeps the names where the entry points and apps found them.
 *
 * @module env
 */
export { DEFAULT_BASE_PATH, type EnvWarnings, setEnvDefaults } from "./env/defaults.js";
export { type EnvSource, parseBooleanEnv, processEnv, providerEnvPrefix, readCanonicalUrlEnv, readEnv, readList } from "./env/read.js";
