/** The in-memory API-key methods against the conformance suite every store meets (`api-key-store-suite.ts`). */
import { randomUUID } from "node:crypto";
import { runApiKeyStoreSuite } from "../helpers/api-key-store-suite.js";
import { memoryApiKeys } from "../helpers/memory-api-keys.js";

const memory = memoryApiKeys();
runApiKeyStoreSuite({
  name: "in-memory API keys",
  store: () => memory.methods,
  newUser: () => `user-${randomUUID()}`,
  deleteUser: (id) => memory.deleteUser(id),
});
