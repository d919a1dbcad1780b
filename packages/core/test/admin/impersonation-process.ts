/**
 * Test fixture: ONE app with the admin feature in its own process, over HTTP, on the hosted-db adapter at
 * `DATABASE_URL` / `BRANCH` (sessions of `STRATEGY`, their records in the database; the audit trail in
 * the database too). The credentials provider signs in any stored user by email (password "x"); the admin
 * is `admin@example.com`. Started by `impersonation-instances.test.ts`; answers every `{ id }` with
 * `{ id, origin }`, closes on `{ close: true }`.
 */
import { HostedDbAdapter, HostedDbClient, hostedDbAuditStore } from "../../../hosted-db-adapter/src/index.js";
import { createAuth } from "../../src/kernel/instance.js";
import Credentials from "../../src/providers/credentials.js";
import type { AuthConfig, SessionStrategy } from "../../src/types/config.js";
import { startNodeServer } from "../helpers/node-server.js";

function setting(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`impersonation-process: ${name} is not set`);
  return value;
}

const database = new HostedDbClient({ databaseURL: setting("DATABASE_URL"), branch: setting("BRANCH") });
const adapter = HostedDbAdapter(database);
const config: AuthConfig = {
  secret: setting("AUTH_SECRET"),
  trustHost: true,
  adapter,
  session: { strategy: setting("STRATEGY") as SessionStrategy },
  providers: [
    Credentials({
      authorize: async ({ email, password }) => {
        if (password !== "x" || typeof email !== "string") return null;
        const user = await adapter.getUserByEmail(email);
        return user ? { id: user.id, email: user.email } : null;
      },
    }),
  ],
  admin: { isAdmin: (user) => user.email === "admin@example.com" },
  audit: { store: hostedDbAuditStore(database) },
  logger: { error: (error) => console.error(error), warn: () => {}, debug: () => {} },
};
const auth = createAuth(config);
const server = await startNodeServer((request) => auth.handler(request));

process.on("message", async (message: { id?: number; close?: true }) => {
  if (message.close) {
    await server.close();
    await database.close();
    process.exit(0);
  }
  process.send?.({ id: message.id, origin: server.origin });
});
process.send?.({ ready: true });
