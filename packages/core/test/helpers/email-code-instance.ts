/**
 * Test fixture: ONE authlib instance with email sign-in and second factors in its own process, for the
 * tests across instances (`email/email-code-processes.test.ts`, `two-factor/two-factor-processes.test.ts`). Started as `node --import tsx
 * email-code-instance.ts` with its settings in the environment: `AUTH_SECRET`, `SMTP_PORT` (the test's
 * SMTP server on 127.0.0.1), `DATABASE_URL` / `BRANCH` (the hosted-db adapter), and `STORE`: `redis`
 * (`REDIS_URL`, `REDIS_PREFIX`) or `postgres` (`hostedDbRateLimitStore` on the same database). With
 * `PASSWORD=1` it has the Password() provider too (`rate-limit-new-device-processes.test.ts`).
 *
 * Over the IPC channel it answers `{ id, method, path, cookie, form, clientAddress }` (a browser's request,
 * `form` posted URL-encoded, from `clientAddress`, 203.0.113.10 unless given) with `{ id, status, location, setCookies, body }` (each Set-Cookie as `{ name, value }`, the
 * body as text).
 */
import { createClient } from "redis";
import { HostedDbAdapter, HostedDbClient, hostedDbRateLimitStore } from "../../../hosted-db-adapter/src/index.js";
import { createAuth } from "../../src/kernel/instance.js";
import Nodemailer from "../../src/providers/nodemailer.js";
import Password from "../../src/providers/password.js";
import { redisRateLimitStore } from "../../src/rate-limit/redis.js";
import { parseSetCookie } from "./auth-client.js";

/** A request from the test: a browser's, with its Cookie header. */
export interface InstanceRequest {
  method: "GET" | "POST";
  path: string;
  cookie: string;
  form?: Record<string, string>;
  /** The connection address the request comes from (default 203.0.113.10). */
  clientAddress?: string;
}

/** The instance's answer. */
export interface InstanceAnswer {
  status: number;
  location: string | null;
  setCookies: Array<{ name: string; value: string }>;
  body: string;
}

function setting(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`email-code-instance: ${name} is not set`);
  return value;
}

const ORIGIN = "http://localhost:3000";
const database = new HostedDbClient({ databaseURL: setting("DATABASE_URL"), branch: setting("BRANCH") });
const redis = setting("STORE") === "redis" ? await createClient({ url: setting("REDIS_URL") }).connect() : undefined;
const store = redis ? redisRateLimitStore({ client: redis, prefix: setting("REDIS_PREFIX") }) : hostedDbRateLimitStore(database);

const auth = createAuth({
  secret: setting("AUTH_SECRET"),
  url: ORIGIN,
  adapter: HostedDbAdapter(database),
  session: { strategy: "jwt" },
  providers: [
    Nodemailer({ server: { host: "127.0.0.1", port: Number(setting("SMTP_PORT")), secure: false, ignoreTLS: true } }),
    ...(process.env.PASSWORD === "1" ? [Password()] : []),
  ],
  rateLimit: { store },
  twoFactor: {},
  logger: { error: () => {}, warn: () => {} },
});

async function answer(request: InstanceRequest): Promise<InstanceAnswer> {
  const headers = new Headers({ cookie: request.cookie });
  let body: string | undefined;
  if (request.form) {
    headers.set("content-type", "application/x-www-form-urlencoded");
    body = new URLSearchParams(request.form).toString();
  }
  const response = await auth.handler(new Request(new URL(request.path, ORIGIN), { method: request.method, headers, body }), {
    clientAddress: request.clientAddress ?? "203.0.113.10",
  });
  const setCookies = response.headers.getSetCookie().map((header) => {
    const { name, value } = parseSetCookie(header);
    return { name, value };
  });
  return { status: response.status, location: response.headers.get("location"), setCookies, body: await response.text() };
}

process.on("message", async (message: ({ id: number } & InstanceRequest) | { close: true }) => {
  if ("close" in message) {
    await database.close();
    redis?.destroy();
    process.disconnect();
    return;
  }
  process.send?.({ id: message.id, ...(await answer(message)) });
});
process.send?.({ ready: true });
