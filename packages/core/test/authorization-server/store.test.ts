/**
 * The authorization server's store conformance suite on the in-memory methods the other authorization
 * server tests use, so that they keep the rules the hosted database keeps (the same suite runs on PGlite and
 * PostgreSQL in packages/hosted-db-adapter/test/authorization-server.test.ts). The in-memory methods hold
 * no users: deleting a user (the adapter's job) is checked on the database only.
 */
import { randomUUID } from "node:crypto";
import { runAuthorizationServerStoreSuite } from "../helpers/authorization-server-store-suite.js";
import { memoryAuthorizationServer } from "../helpers/memory-authorization-server.js";

let server = memoryAuthorizationServer();

runAuthorizationServerStoreSuite({
  name: "memoryAuthorizationServer()",
  setup: () => {
    server = memoryAuthorizationServer();
  },
  store: () => server.methods,
  newUser: () => randomUUID(),
});
