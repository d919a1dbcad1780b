/**
 * Test fixture: ONE authorization server in its own process, over HTTP, on the hosted-db adapter at
 * `DATABASE_URL` / `BRANCH`, with a protected API at `/api/me` that checks access tokens with
 * `protectResource` (revocation asked of the store through `auth.api.isGrantRevoked`, at most once per grant
 * per `BOUND` seconds). Started by `two-instances.test.ts` as `node --import tsx server-process.ts`. The
 * credentials provider signs in `USER_ID` (who must exist in the database). Answers every `{ id }` with
 * `{ id, origin }`; closes on `{ close: true }`.
 */
import { HostedDbAdapter, HostedDbClient } from "../../../hosted-db-adapter/src/index.js";
import { createAuth } from "../../src/kernel/instance.js";
import Credentials from "../../src/providers/credentials.js";
import { protectResource, resourceErrorResponse, revocationWithin } from "../../src/resource/index.js";
import type { AuthConfig } from "../../src/types/config.js";
import { startNodeServer } from "../helpers/node-server.js";

function setting(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`server-process: ${name} is not set`);
  return value;
}

const database = new HostedDbClient({ databaseURL: setting("DATABASE_URL"), branch: setting("BRANCH") });
const userId = setting("USER_ID");
const resource = setting("RESOURCE");
const config: AuthConfig = {
  secret: setting("AUTH_SECRET"),
  trustHost: true,
  adapter: HostedDbAdapter(database),
  session: { strategy: "jwt" },
  providers: [
    Credentials({ authorize: (credentials) => (credentials.username === "ada" ? { id: userId, email: "ada@example.com" } : null) }),
  ],
  authorizationServer: {
    issuer: setting("ISSUER"),
    resources: [resource],
    clients: [
      { clientId: "web", clientSecret: setting("CLIENT_SECRET"), name: "Web", redirectUris: ["https://app.example/callback"] },
      {
        clientId: "signed",
        name: "Signed",
        redirectUris: ["https://app.example/callback"],
        tokenEndpointAuthMethod: "private_key_jwt",
        jwks: [JSON.parse(setting("CLIENT_JWK"))],
      },
    ],
  },
  logger: { error: (error) => console.error(error), warn: () => {}, debug: () => {} },
};
const auth = createAuth(config);
const revocation = revocationWithin({ isRevoked: (grantId) => auth.api.isGrantRevoked(grantId) }, Number(setting("BOUND")));
const issuer = setting("ISSUER");

// The issuer is a name both instances share; each publishes the shared keys at its own address.
const server = await startNodeServer((request) => auth.handler(request), {
  fallback: async (request) => {
    try {
      const caller = await protectResource(request, { issuer, resource, revocation, jwksUri: `${server.origin}/auth/oauth2/jwks` });
      return Response.json({ userId: caller.userId });
    } catch (error) {
      return resourceErrorResponse(error, { resource });
    }
  },
});

process.on("message", async (message: { id?: number; close?: true }) => {
  if (message.close) {
    await server.close();
    await database.close();
    process.exit(0);
  }
  process.send?.({ id: message.id, origin: server.origin });
});
process.send?.({ ready: true });
