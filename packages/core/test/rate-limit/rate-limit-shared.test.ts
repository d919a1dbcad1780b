/**
 * Issue 13's acceptance: two `Auth()` instances (two configuration objects, as two processes behind a load
 * balancer have) that share one store enforce one limit between them: the credentials lockout and the
 * per-mailbox email limit hold across both, on Redis and, separately, on PostgreSQL
 * (`hostedDbRateLimitStore`). Each instance has its own store object (its own Redis connection, its own pg
 * pool), so nothing is shared but the server. With a memory store per instance the same traffic gets
 * twice the attempts through: the control case that shows the test can fail.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Credentials from "../../src/providers/credentials.js";
import Email from "../../src/providers/email.js";
import { memoryRateLimitStore, type RateLimitStore } from "../../src/rate-limit/store.js";
import type { Adapter } from "../../src/types/adapters.js";
import type { AuthConfig } from "../../src/types/config.js";
import { authClient } from "../helpers/auth-client.js";
import { closeSharedPglite, freshDatabase } from "../helpers/database.js";
import { storeKinds } from "../helpers/store-kinds.js";

const secret = "shared-rate-limit-secret-0123456789abcdef";
const FAILURES_BEFORE_LOCKOUT = 4;
const MAILS_PER_MAILBOX = 2;

// Redis and PostgreSQL: the stores instances share (each `open()` is one instance's own connection).
const kinds = (await storeKinds()).filter((kind) => kind.name !== "memory");

/**
 * One instance: its own configuration object (so its own resolved state and default memory store), the
 * given store, a credentials provider whose `authorize` records calls, and an email provider that records
 * mails; the adapter (the app's database) is shared, as instances of one app share it.
 */
function instance(store: RateLimitStore, adapter: Adapter, calls: string[], mails: string[]): AuthConfig {
  return {
    secret,
    trustHost: true,
    adapter,
    session: { strategy: "jwt" },
    providers: [
      Credentials({
        credentials: { email: { type: "email" }, password: { type: "password" } },
        authorize: async ({ email }) => {
          calls.push(String(email));
          return null;
        },
      }),
      Email({ sendVerificationRequest: async ({ identifier }) => void mails.push(identifier) }),
    ],
    rateLimit: {
      store,
      credentials: { freeFailures: FAILURES_BEFORE_LOCKOUT, lockoutFailures: FAILURES_BEFORE_LOCKOUT },
      email: { mailboxMax: MAILS_PER_MAILBOX },
    },
  };
}

/** Where a credentials POST or an email request through `config` sent the browser: an error code or a path. */
async function attempt(config: AuthConfig, path: string, form: Record<string, string>): Promise<string> {
  const client = authClient(config);
  const csrfToken = await client.csrf();
  const response = await client.send(path, { form: { csrfToken, callbackUrl: "/", ...form } });
  const location = new URL(response.headers.get("location") ?? "", "http://localhost:3000");
  return location.searchParams.get("error") ?? location.pathname;
}

/** Alternates `count` requests between the two instances, A first. */
async function alternate(configs: [AuthConfig, AuthConfig], count: number, path: string, form: Record<string, string>) {
  const outcomes: string[] = [];
  for (let i = 0; i < count; i++) outcomes.push(await attempt(configs[i % 2] as AuthConfig, path, form));
  return outcomes;
}

let adapter: Adapter;
beforeAll(async () => {
  adapter = (await freshDatabase()).adapter;
});
afterAll(async () => {
  for (const kind of kinds) if (kind.available) await kind.close();
  await closeSharedPglite();
});

for (const kind of kinds) {
  describe.skipIf(!kind.available)(`two Auth() instances sharing the ${kind.name} store`, () => {
    it("lock an account after the failures both of them saw, and neither runs authorize for it afterwards", async () => {
      const calls: string[] = [];
      const account = `victim-${randomUUID()}@example.com`;
      const pair: [AuthConfig, AuthConfig] = [
        instance(await kind.open(), adapter, calls, []),
        instance(await kind.open(), adapter, calls, []),
      ];
      const outcomes = await alternate(pair, 12, "/auth/callback/credentials", { email: account, password: "guess" });
      expect(calls.filter((c) => c === account)).toHaveLength(FAILURES_BEFORE_LOCKOUT);
      expect(outcomes.slice(0, FAILURES_BEFORE_LOCKOUT)).toEqual(Array(FAILURES_BEFORE_LOCKOUT).fill("CredentialsSignin"));
      expect(outcomes.slice(FAILURES_BEFORE_LOCKOUT)).toEqual(Array(12 - FAILURES_BEFORE_LOCKOUT).fill("RateLimited"));
      // Another account is not affected on either instance.
      expect(await attempt(pair[1], "/auth/callback/credentials", { email: `other-${randomUUID()}@example.com`, password: "x" })).toBe(
        "CredentialsSignin",
      );
    });

    it("send at most the per-mailbox number of mails between them, whatever spelling of the mailbox each is asked", async () => {
      const mails: string[] = [];
      const pair: [AuthConfig, AuthConfig] = [
        instance(await kind.open(), adapter, [], mails),
        instance(await kind.open(), adapter, [], mails),
      ];
      const local = `bomb${randomUUID().slice(0, 8)}`;
      const spellings = [`${local}@gmail.com`, `${local.toUpperCase()}+1@gmail.com`, `${local}+2@googlemail.com`, `${local}@GMAIL.com`];
      const outcomes: string[] = [];
      for (const [i, email] of spellings.entries())
        outcomes.push(await attempt(pair[i % 2] as AuthConfig, "/auth/signin/email", { email }));
      expect(mails).toHaveLength(MAILS_PER_MAILBOX);
      expect(outcomes.filter((o) => o === "RateLimited")).toHaveLength(spellings.length - MAILS_PER_MAILBOX);
    });
  });
}

describe("control: one memory store per instance", () => {
  it("lets twice the failures through, which is why several instances must share a store", async () => {
    const calls: string[] = [];
    const account = `victim-${randomUUID()}@example.com`;
    const pair: [AuthConfig, AuthConfig] = [
      instance(memoryRateLimitStore(), adapter, calls, []),
      instance(memoryRateLimitStore(), adapter, calls, []),
    ];
    await alternate(pair, 12, "/auth/callback/credentials", { email: account, password: "guess" });
    expect(calls.filter((c) => c === account)).toHaveLength(2 * FAILURES_BEFORE_LOCKOUT);
  });
});
