/**
 * Test fixture: ONE app with the admin feature in its own process, over HTTP, on the hosted-db adapter at
 * `DATABASE_URL` / `BRANCH`, with `STRATEGY` sessions (`jwt`: registered in the adapter's session records,
 * trusted for `BOUND` seconds between registry reads; `database`). The credentials provider signs in any
 * stored user by their address (`username`). Started by `two-instances.test.ts`; answers every `{ id }`
 * with `{ id, origin }`; closes on `{ close: true }`.
 */
import { HostedDbAdapter, HostedDbClient } from "../../../hosted-db-adapter/src/index.js";
import { createAuth } from "../../src/kernel/instance.js";
import Credentials from "../../src/providers/credentials.js";
import type { AuthConfig } from "../../src/types/config.js";
import { startNodeServer } from "../helpers/node-server.js";

function setting(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`server-process: ${name} is not set`);
  return value;
}

const database = new HostedDbClient({ databaseURL: setting("DATABASE_URL"), branch: setting("BRANCH") });
const adapter = HostedDbAdapter(database);
const strategy = setting("STRATEGY") === "database" ? "database" : "jwt";
const config: AuthConfig = {
  secret: setting("AUTH_SECRET"),
  trustHost: true,
  adapter,
  session: strategy === "jwt" ? { strategy, revalidateAfter: Number(setting("BOUND")) } : { strategy },
  providers: [
    Credentials({
      credentials: { username: {} },
      authorize: async ({ username }) => (typeof username === "string" ? await adapter.getUserByEmail(username) : null),
    }),
  ],
  admin: { roles: ["admin"] },
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
