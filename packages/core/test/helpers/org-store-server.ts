/**
 * One organization store shared by instances in several processes, until the hosted-db adapter has the
 * organization methods: the in-memory methods (`memory-organizations.ts`) behind a small HTTP server in the
 * test's process, and an adapter in each instance's process that calls it (`storeClient`). Every call is a
 * round trip, as a database's would be; rows cross as JSON with their dates kept (`{ $date }`).
 *
 * Users are made up from their ids (`user-ada` is ada@example.com, proven), as the instances' Credentials
 * provider signs them in.
 */
import { createServer, type Server } from "node:http";
import { organizationMethods } from "../../src/features/organizations/store.js";
import type { AdapterUser } from "../../src/types/adapters.js";
import type { OrganizationAdapterMethods } from "../../src/types/organizations.js";
import { type MemoryOrganizations, memoryOrganizations } from "./memory-organizations.js";

/** The methods the store answers: the organization ones, and the two user reads organizations make. */
export type SharedStoreMethods = Required<OrganizationAdapterMethods> & {
  getUser(id: string): Promise<AdapterUser | null>;
  getUserByEmail(email: string): Promise<AdapterUser | null>;
};

function encode(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key, encoded) {
    const original = this[key];
    return original instanceof Date ? { $date: original.toISOString() } : encoded;
  });
}

function decode(text: string): unknown {
  return JSON.parse(text, (_key, value) =>
    value && typeof value === "object" && typeof value.$date === "string" ? new Date(value.$date) : value,
  );
}

/** `user-<name>` as the Credentials provider of the instances signs them in. */
function madeUpUser(id: string): AdapterUser | null {
  if (!id.startsWith("user-")) return null;
  const name = id.slice(5);
  return { id, name, email: `${name}@example.com`, emailVerified: new Date(0) };
}

/** The store's server: `url` for the instances, `orgs` for the test to look at or set up. */
export async function startStoreServer(): Promise<{ url: string; orgs: MemoryOrganizations; close(): Promise<void> }> {
  const orgs = memoryOrganizations();
  const methods: Record<string, (...args: unknown[]) => unknown> = {
    ...(orgs.methods as unknown as Record<string, (...args: unknown[]) => unknown>),
    getUser: (id) => madeUpUser(id as string),
    getUserByEmail: (email) => madeUpUser(`user-${String(email).split("@")[0]}`),
  };
  const server: Server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on("end", async () => {
      const { method, args } = decode(body) as { method: string; args: unknown[] };
      try {
        const call = methods[method];
        if (!call) throw new Error(`no method ${method}`);
        const value = await call(...args);
        response.writeHead(200, { "content-type": "application/json" }).end(encode({ value: value ?? null }));
      } catch (error) {
        response.writeHead(500, { "content-type": "application/json" }).end(encode({ error: (error as Error).message }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/`,
    orgs,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The adapter methods of an instance, each a call to the store at `url`. */
export function storeClient(url: string): SharedStoreMethods {
  const call =
    (method: string) =>
    async (...args: unknown[]) => {
      const response = await fetch(url, { method: "POST", body: encode({ method, args }) });
      const answer = decode(await response.text()) as { value?: unknown; error?: string };
      if (answer.error !== undefined) throw new Error(answer.error);
      return answer.value;
    };
  // A plain object with every method by name: the instance wraps its adapter method by method.
  return Object.fromEntries(organizationMethods.map((name) => [name, call(name)])) as unknown as SharedStoreMethods;
}
