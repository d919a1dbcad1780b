/**
 * The organization store conformance suite on the in-memory methods the other organization tests use, so
 * that they keep the rules the hosted database keeps (the same suite runs on PGlite and PostgreSQL in
 * packages/hosted-db-adapter/test/organizations.test.ts). The in-memory methods hold no users: deleting a
 * user (the adapter's job) is checked on the database only.
 */
import { randomUUID } from "node:crypto";
import { memoryOrganizations } from "../helpers/memory-organizations.js";
import { runOrganizationStoreSuite } from "../helpers/organization-store-suite.js";

let orgs = memoryOrganizations();

runOrganizationStoreSuite({
  name: "memoryOrganizations()",
  setup: () => {
    orgs = memoryOrganizations();
  },
  store: () => orgs.methods,
  newUser: () => randomUUID(),
});
