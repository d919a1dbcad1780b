/** The in-memory SSO methods against the conformance suite every store meets (`sso-store-suite.ts`). */
import { randomUUID } from "node:crypto";
import { memorySso } from "../helpers/memory-sso.js";
import { runSsoStoreSuite } from "../helpers/sso-store-suite.js";

const memory = memorySso();
runSsoStoreSuite({
  name: "in-memory SSO connections and identities",
  store: () => memory.methods,
  newUser: () => `user-${randomUUID()}`,
  newOrganization: () => `org-${randomUUID()}`,
  deleteUser: (id) => memory.deleteUser(id),
});
