/** The in-memory SCIM methods against the conformance suite every store meets (`scim-store-suite.ts`). */
import { randomUUID } from "node:crypto";
import { memoryScim } from "../../helpers/memory-scim.js";
import { runScimStoreSuite } from "../../helpers/scim-store-suite.js";

const memory = memoryScim();
runScimStoreSuite({
  name: "in-memory SCIM directory",
  store: () => memory.methods,
  newUser: () => `user-${randomUUID()}`,
  newOrganization: () => `org-${randomUUID()}`,
});
