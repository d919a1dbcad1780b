/**
 * Issue 13's acceptance over HTTP against the built demo (`npm start`'s server, in a child process): 200
 * wrong passwords for one account are refused before `authorize` runs, all but a few, while the demo
 * account signs in normally from the same client. The demo's `authorize` always runs scrypt and answers a
 * rejection with `?error=CredentialsSignin&code=invalid-login`, so that answer counts the calls of
 * `authorize`; a `?error=RateLimited` answer is given before it (core's own test counts the calls with a
 * spy: packages/core/test/rate-limit/rate-limit.test.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEMO_EMAIL, DEMO_PASSWORD } from "../src/server/demo-user";
import { type DemoServer, startDemo } from "./demo-server.js";

let demo: DemoServer;

beforeAll(async () => {
  demo = await startDemo({ AUTH_SECRET: "rate-limit-demo-secret-0123456789abcdef0123456789" });
});

afterAll(async () => {
  await demo?.stop();
});

/** A client with one cookie jar and one CSRF token, reused for every attempt as an attacker would. */
async function client() {
  const csrf = await fetch(`${demo.origin}/auth/csrf`);
  const cookie = csrf.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  return async (email: string, password: string) => {
    const response = await fetch(`${demo.origin}/auth/callback/credentials`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      body: new URLSearchParams({ csrfToken, email, password, callbackUrl: "/profile" }),
    });
    const location = new URL(response.headers.get("location") ?? "/", demo.origin);
    const error = location.searchParams.get("error");
    if (error === "CredentialsSignin") return `CredentialsSignin:${location.searchParams.get("code")}`;
    return error ?? location.pathname;
  };
}

describe("the demo under a password-guessing attack", () => {
  test("200 wrong passwords for one account: at most 10 reach authorize; the demo account still signs in", async () => {
    const attacker = await client();
    const outcomes: Record<string, number> = {};
    for (let i = 0; i < 200; i++) {
      const outcome = await attacker("victim@example.com", `guess-${i}`);
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    }
    const authorizeCalls = outcomes["CredentialsSignin:invalid-login"] ?? 0;
    // Three free failures, then a delay doubling from 1 s, then the lockout at 10: however fast this
    // machine is, no more than 10 reach authorize in the 15-minute window.
    expect(authorizeCalls).toBeGreaterThanOrEqual(3);
    expect(authorizeCalls).toBeLessThanOrEqual(10);
    expect(outcomes).toEqual({ "CredentialsSignin:invalid-login": authorizeCalls, RateLimited: 200 - authorizeCalls });

    // The same client, another account: signs in normally.
    const user = await client();
    expect(await user(DEMO_EMAIL, DEMO_PASSWORD)).toBe("/profile");
  }, 120_000);
});
