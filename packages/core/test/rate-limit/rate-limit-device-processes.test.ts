/**
 * Device cookies across instances, as deployed: two app processes (`helpers/credentials-server.mjs`,
 * the built core) behind nothing, sharing a Redis or a PostgreSQL rate-limit store and the secret. An
 * attacker's failures spread over both lock the account for unknown browsers on both, while the owner's
 * browser, known from a sign-in on the first process, signs in on the second. Run `npm run build` first.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { HostedDbClient } from "@authlib/hosted-db-adapter";
import { createClient } from "redis";
import { afterAll, describe, expect, it } from "vitest";
import { dropBranch, randomBranch, testDatabaseURL } from "../../../hosted-db-adapter/test/helpers.js";
import { CookieJar } from "../helpers/auth-client.js";
import { storeKinds } from "../helpers/store-kinds.js";

const SERVER = fileURLToPath(new URL("../helpers/credentials-server.mjs", import.meta.url));
const LOCKOUT = 5;
const secret = "device-processes-secret-0123456789abcdef012";
const redisURL = process.env.AUTHLIB_TEST_REDIS_URL || "redis://127.0.0.1:6379";
const available = Object.fromEntries((await storeKinds()).map((kind) => [kind.name, kind.available]));

const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill();
});

/** Starts one app process with `env`; resolves to its origin once it listens. */
function startInstance(env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, [SERVER], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let errors = "";
    child.stderr?.on("data", (chunk) => {
      errors += chunk;
    });
    child.stdout?.once("data", (chunk) => resolve(`http://127.0.0.1:${String(chunk).trim()}`));
    child.once("exit", (code) => reject(new Error(`the app process exited (${code}): ${errors}`)));
  });
}

/** A browser: its cookie jar, signing in on whichever instance it is pointed at. */
function browser() {
  const jar = new CookieJar();
  async function signIn(origin: string, email: string, password: string): Promise<string> {
    const csrf = await fetch(`${origin}/auth/csrf`, { headers: { cookie: jar.header() } });
    jar.apply(csrf);
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const response = await fetch(`${origin}/auth/callback/credentials`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.header() },
      body: new URLSearchParams({ csrfToken, email, password, callbackUrl: "/welcome" }),
    });
    jar.apply(response);
    const location = new URL(response.headers.get("location") ?? "", origin);
    return location.searchParams.get("error") ?? (location.pathname === "/welcome" ? "signed-in" : `status ${response.status}`);
  }
  return { jar, signIn };
}

/** The scenario, on two processes started with `storeEnv`. */
async function scenario(storeEnv: Record<string, string>) {
  const owner = `owner-${randomUUID()}@example.com`;
  const env = { ...storeEnv, SECRET: secret, OWNER_EMAIL: owner, OWNER_PASSWORD: "right", LOCKOUT: String(LOCKOUT) };
  const [first, second] = await Promise.all([startInstance(env), startInstance(env)]);
  const origins = [first, second];

  const laptop = browser();
  expect(await laptop.signIn(first, owner, "right")).toBe("signed-in");

  const attacker = browser();
  const outcomes: string[] = [];
  for (let i = 0; i < 4 * LOCKOUT; i++) outcomes.push(await attacker.signIn(origins[i % 2] as string, owner, `guess-${i}`));
  // The two processes counted together: LOCKOUT failures in all, then refusals.
  expect(outcomes.filter((o) => o === "CredentialsSignin")).toHaveLength(LOCKOUT);
  expect(outcomes.slice(LOCKOUT)).toEqual(Array(3 * LOCKOUT).fill("RateLimited"));
  expect(await browser().signIn(second, owner, "right")).toBe("RateLimited");
  expect(await laptop.signIn(second, owner, "right")).toBe("signed-in");
}

describe("device cookies across two app processes", () => {
  it.skipIf(!available.Redis)(
    "sharing Redis: the owner's known browser signs in on the other process while the account is locked",
    async () => {
      const prefix = `authlib-test-${randomUUID()}:`;
      try {
        await scenario({ STORE: "redis", REDIS_URL: redisURL, REDIS_PREFIX: prefix });
      } finally {
        const client = createClient({ url: redisURL });
        await client.connect();
        for (const key of await client.keys(`${prefix}*`)) await client.del(key);
        client.destroy();
      }
    },
    30_000,
  );

  it.skipIf(!available.PostgreSQL)(
    "sharing PostgreSQL: the owner's known browser signs in on the other process while the account is locked",
    async () => {
      const branch = randomBranch("rl_device");
      const client = new HostedDbClient({ databaseURL: testDatabaseURL(), branch });
      await client.migrate();
      try {
        await scenario({ STORE: "postgres", DATABASE_URL: testDatabaseURL(), BRANCH: branch });
      } finally {
        await dropBranch(client, branch);
        await client.close();
      }
    },
    30_000,
  );
});
