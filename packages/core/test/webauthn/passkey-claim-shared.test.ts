/**
 * Used passkey challenges shared by instances through PostgreSQL: two processes claiming the same
 * challenges at the same moment win each exactly once between them, and a verified answer accepted by one
 * `Auth()` instance is refused when replayed to another (each with its own pool, one server). Without the
 * adapter's verification-token methods the memory is per instance: the control case, documented.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { HostedDbAdapter, HostedDbClient } from "@authlib/hosted-db-adapter";
import { afterAll, describe, expect, it } from "vitest";
import { postgresAnswers, randomBranch, testDatabaseURL } from "../../../hosted-db-adapter/test/helpers.js";
import type { AuthError } from "../../src/errors.js";
import Passkey from "../../src/providers/passkey.js";
import type { Adapter } from "../../src/types/adapters.js";
import type { AuthConfig } from "../../src/types/config.js";
import { authClient } from "../helpers/auth-client.js";
import { recordFailures } from "../helpers/failure-log.js";
import { SoftAuthenticator } from "./soft-authenticator.js";

const databaseURL = testDatabaseURL();
const available = await postgresAnswers(databaseURL, "the shared used-challenge tests");
const secret = "passkey-claim-shared-secret-0123456789abcdef";
const ORIGIN = "http://localhost:3000";
const CHALLENGE_COOKIE = "authlib.challenge";
const coreDir = fileURLToPath(new URL("../..", import.meta.url));

function runWorker(branch: string, count: number): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "test/webauthn/used-challenge-worker.ts", databaseURL, branch, String(count)],
      {
        cwd: coreDir,
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(JSON.parse(stdout) as number[]) : reject(new Error(`worker exited ${code}: ${stderr}`)),
    );
  });
}

describe.skipIf(!available)("used passkey challenges shared through PostgreSQL", () => {
  const branch = randomBranch("claims");
  const clients: HostedDbClient[] = [];

  async function instanceClient(): Promise<HostedDbClient> {
    const client = new HostedDbClient({ databaseURL, branch });
    if (clients.length === 0) await client.migrate();
    clients.push(client);
    return client;
  }

  afterAll(async () => {
    const [first] = clients;
    if (first) await first.query(`DROP SCHEMA IF EXISTS "${branch}" CASCADE`);
    await Promise.all(clients.map((client) => client.close()));
  });

  it("two processes claiming the same 300 challenges at once win each exactly once between them", async () => {
    const client = await instanceClient();
    const [a, b] = await Promise.all([runWorker(branch, 300), runWorker(branch, 300)]);
    expect([...a, ...b].sort((x, y) => x - y)).toEqual(Array.from({ length: 300 }, (_, i) => i));
    expect(a.filter((i) => b.includes(i))).toEqual([]);
    const { rows } = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${client.db.authlib_verificationTokens.sqlName} WHERE "identifier" = 'authlib:webauthn-used-challenge'`,
    );
    expect(rows).toEqual([{ n: 300 }]);
  }, 120_000);

  function instance(adapter: Adapter, errors: AuthError[]): AuthConfig {
    return {
      secret,
      trustHost: true,
      adapter,
      providers: [Passkey({})],
      experimental: { enableWebAuthn: true },
      rateLimit: false,
      session: { strategy: "jwt" },
      // `errors`: every failure logged, at its level (a replayed challenge is a warning and a debug line).
      debug: true,
      logger: { ...recordFailures(errors), warn: () => {} },
    };
  }

  it.each([
    ["with the verification-token methods, the second instance refuses the replay", true],
    ["without them (per-instance memory), the second instance accepts it: why they are needed behind a load balancer", false],
  ])("an answer accepted by one instance, replayed to another: %s", async (_, withTokens) => {
    const errors: AuthError[] = [];
    const [adapterA, adapterB] = [HostedDbAdapter(await instanceClient()), HostedDbAdapter(await instanceClient())];
    const strip = (adapter: ReturnType<typeof HostedDbAdapter>): Adapter => {
      const { createVerificationToken: _c, useVerificationToken: _u, ...rest } = adapter;
      return withTokens ? adapter : rest;
    };
    const [configA, configB] = [instance(strip(adapterA), errors), instance(strip(adapterB), errors)];
    const authenticator = new SoftAuthenticator(ORIGIN);
    const browser = authClient(configA, ORIGIN);
    const csrfToken = await browser.csrf();
    const send = (config: AuthConfig, action: string, data: unknown) => {
      // The same browser (cookies) reaching the instance of `config`.
      const at = authClient(config, ORIGIN);
      for (const [name, cookie] of browser.jar.cookies) at.jar.cookies.set(name, cookie);
      return at.send("/auth/callback/passkey", { json: { action, data: JSON.stringify(data), csrfToken } });
    };
    const registerOptions = await (await browser.send("/auth/webauthn-options/passkey?action=register&name=Ada")).json();
    await send(configA, "register", await authenticator.register((registerOptions as { options: any }).options));
    const options = await (await browser.send("/auth/webauthn-options/passkey?action=authenticate")).json();
    const assertion = await authenticator.authenticate((options as { options: any }).options, { counter: 0 });
    const captured = browser.jar.get(CHALLENGE_COOKIE)!;

    expect((await send(configA, "authenticate", assertion)).headers.get("location")).toBe(`${ORIGIN}/`);
    browser.jar.cookies.set(CHALLENGE_COOKIE, { name: CHALLENGE_COOKIE, value: captured, attributes: {} });
    const replay = await send(configB, "authenticate", assertion);
    if (withTokens) {
      expect(replay.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Configuration`);
      expect(errors.map((e) => [e.type, e.message])).toEqual([["InvalidCheck", expect.stringMatching(/answered already/)]]);
    } else {
      expect(replay.headers.get("location")).toBe(`${ORIGIN}/`);
      expect(errors).toEqual([]);
    }
  });
});
