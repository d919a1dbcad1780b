/**
 * Rate limits applied by default (issue 13), through `Auth()`: credentials sign-in per account (free
 * failures, a growing delay, a lockout) and per client address, over a real node:http server where the
 * address matters; X-Forwarded-For ignored unless the app's `clientAddress` reads it; session updates
 * answered 429 with Retry-After; `rateLimit: false`; a malformed setting is a configuration error. Time is the
 * memory store's injected clock, never the wall clock.
 */
import { afterEach, describe, expect, it } from "vitest";
import { Auth } from "../../src/kernel/auth.js";
import { hashPassword, verifyPassword } from "../../src/password.js";
import Credentials from "../../src/providers/credentials.js";
import type { RateLimitConfig } from "../../src/rate-limit/config.js";
import { memoryRateLimitStore } from "../../src/rate-limit/store.js";
import type { AuthConfig } from "../../src/types/config.js";
import { authClient, CookieJar } from "../helpers/auth-client.js";
import { type NodeServer, startNodeServer } from "../helpers/node-server.js";

const secret = "rate-limit-test-secret-0123456789abcdef";
const VICTIM = "victim@example.com";
const BYSTANDER = "bystander@example.com";
const PASSWORDS: Record<string, string> = { [VICTIM]: "correct horse", [BYSTANDER]: "battery staple" };
const hashes = Promise.all(Object.entries(PASSWORDS).map(async ([email, password]) => [email, await hashPassword(password)] as const)).then(
  (entries) => new Map(entries),
);

/** A clock the memory store reads; the test moves it. */
function manualClock() {
  let now = Date.now();
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

/** A credentials app whose `authorize` checks real scrypt hashes and records every call. */
function credentialsApp(rateLimit: RateLimitConfig | false = {}, overrides: Partial<AuthConfig> = {}) {
  const clock = manualClock();
  const calls: string[] = [];
  const signIns: string[] = [];
  const logs: string[] = [];
  const config: AuthConfig = {
    secret,
    trustHost: true,
    providers: [
      Credentials({
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize({ email, password }) {
          calls.push(String(email));
          const hash = (await hashes).get(String(email));
          return hash && (await verifyPassword(String(password), hash)) ? { id: String(email), email: String(email) } : null;
        },
      }),
    ],
    rateLimit: rateLimit === false ? false : { store: memoryRateLimitStore({ now: clock.now }), ...rateLimit },
    events: { signIn: ({ user }) => void signIns.push(String(user.email)) },
    logger: {
      error: (error) =>
        void logs.push(`error ${error.name}: ${error.message} ${(error.cause as { err?: Error } | undefined)?.err?.message ?? ""}`),
      warn: (code) => void logs.push(`warn ${code}`),
      debug: (message, metadata) => void logs.push(`debug ${message} ${JSON.stringify(metadata ?? "")}`),
    },
    ...overrides,
  };
  const callsFor = (email: string) => calls.filter((c) => c === email).length;
  return { config, clock, calls, callsFor, signIns, logs };
}

/** What a credentials POST ended in: signed in, refused credentials, or a rate-limit refusal. */
function outcome(response: Response): "signed-in" | "CredentialsSignin" | "RateLimited" | string {
  const location = new URL(response.headers.get("location") ?? "", "http://x");
  return location.searchParams.get("error") ?? (location.pathname === "/welcome" ? "signed-in" : `status ${response.status}`);
}

/** A browser-like client over real HTTP: one cookie jar, one CSRF token (as an attacker would reuse it). */
function httpClient(server: NodeServer) {
  const jar = new CookieJar();
  let token: string | undefined;
  async function csrf() {
    if (token) return token;
    const response = await fetch(`${server.origin}/auth/csrf`);
    jar.apply(response);
    token = ((await response.json()) as { csrfToken: string }).csrfToken;
    return token;
  }
  async function signIn(email: string, password: string, headers: Record<string, string> = {}) {
    const body = new URLSearchParams({ csrfToken: await csrf(), email, password, callbackUrl: "/welcome" });
    const response = await fetch(`${server.origin}/auth/callback/credentials`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.header(), ...headers },
      body,
    });
    jar.apply(response);
    return outcome(response);
  }
  return { signIn, csrf, jar };
}

const servers: NodeServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function serve(config: AuthConfig) {
  const server = await startNodeServer((request, { remoteAddress }) => Auth(request, config, { clientAddress: remoteAddress }));
  servers.push(server);
  return server;
}

function tally(outcomes: string[]) {
  const counts: Record<string, number> = {};
  for (const o of outcomes) counts[o] = (counts[o] ?? 0) + 1;
  return counts;
}

describe("credentials sign-in, limited by default", () => {
  it("200 wrong passwords for one account over HTTP: all but 3 refused before authorize; another account still signs in", async () => {
    const app = credentialsApp();
    const server = await serve(app.config);
    const attacker = httpClient(server);
    const outcomes: string[] = [];
    for (let i = 0; i < 200; i++) outcomes.push(await attacker.signIn(VICTIM, `guess-${i}`));

    // Three free failures; the third starts a 1 s delay, and the clock stands still.
    expect(app.callsFor(VICTIM)).toBe(3);
    expect(tally(outcomes)).toEqual({ CredentialsSignin: 3, RateLimited: 197 });

    // Same client address, another account: its sign-in works normally.
    const bystander = httpClient(server);
    expect(await bystander.signIn(BYSTANDER, PASSWORDS[BYSTANDER] as string)).toBe("signed-in");
    expect(bystander.jar.cookies.has("authlib.session-token")).toBe(true);
    expect(app.signIns).toEqual([BYSTANDER]);
    // No log line names the account, and refusals are warnings, not errors.
    expect(app.logs.join("\n")).not.toContain(VICTIM);
    expect(app.logs.filter((line) => line === "warn rate-limited")).toHaveLength(197);
    expect(app.logs.some((line) => line.includes("RateLimited"))).toBe(false);
  });

  it("the delay doubles with each failure, 10 failures lock the account (even for the right password) until the window ends", async () => {
    const app = credentialsApp();
    const server = await serve(app.config);
    const client = httpClient(server);
    for (let i = 0; i < 3; i++) expect(await client.signIn(VICTIM, "wrong")).toBe("CredentialsSignin");
    // After failure n (n ≥ 3) the next attempt waits 2^(n-3) s: not a moment less.
    for (let failures = 3; failures < 10; failures++) {
      const wait = 1000 * 2 ** (failures - 3);
      app.clock.advance(wait - 1);
      expect(await client.signIn(VICTIM, "wrong")).toBe("RateLimited");
      app.clock.advance(1);
      expect(await client.signIn(VICTIM, "wrong")).toBe("CredentialsSignin");
    }
    expect(app.callsFor(VICTIM)).toBe(10);

    // Locked: waiting out the last delay does not help, nor does the right password; nothing runs.
    app.clock.advance(10 * 60_000);
    expect(await client.signIn(VICTIM, PASSWORDS[VICTIM] as string)).toBe("RateLimited");
    // Refusals during the lockout do not make it longer: it ends 15 min after the first failure.
    const elapsed = 10 * 60_000 + (2 ** 7 - 1) * 1000;
    app.clock.advance(15 * 60_000 - elapsed - 1);
    expect(await client.signIn(VICTIM, PASSWORDS[VICTIM] as string)).toBe("RateLimited");
    expect(app.callsFor(VICTIM)).toBe(10);
    app.clock.advance(1);
    expect(await client.signIn(VICTIM, PASSWORDS[VICTIM] as string)).toBe("signed-in");
    expect(app.callsFor(VICTIM)).toBe(11);
    expect(app.signIns).toEqual([VICTIM]);
  });

  it("attempts sent at the same moment cannot slip past the delay together", async () => {
    const app = credentialsApp();
    const server = await serve(app.config);
    const client = httpClient(server);
    await client.csrf();
    const outcomes = await Promise.all(Array.from({ length: 30 }, (_, i) => client.signIn(VICTIM, `parallel-${i}`)));
    // Three free attempts and the claim of the first delay: at most one more than the free ones.
    expect(app.callsFor(VICTIM)).toBeLessThanOrEqual(3);
    expect(tally(outcomes).RateLimited).toBeGreaterThanOrEqual(27);
  });

  it("a success clears the account's failures, not the client's; the client limit counts by Auth's third argument", async () => {
    const app = credentialsApp({ credentials: { clientFailures: 5 } });
    const from = (address: string) => {
      const client = authClient(app.config, "http://localhost:3000", address);
      return async (email: string, password: string) => {
        const csrfToken = await client.csrf();
        const form = { csrfToken, email, password, callbackUrl: "/welcome" };
        return outcome(await client.send("/auth/callback/credentials", { form }));
      };
    };
    const a = from("198.51.100.7");
    expect(await a(VICTIM, "wrong")).toBe("CredentialsSignin");
    expect(await a(VICTIM, "wrong")).toBe("CredentialsSignin");
    expect(await a(VICTIM, PASSWORDS[VICTIM] as string)).toBe("signed-in");
    // The account starts over: three free failures again, no delay yet.
    for (let i = 0; i < 3; i++) expect(await a(VICTIM, "wrong")).toBe("CredentialsSignin");
    // The client has failed 5 times: even another account's right password is refused, unheard.
    const calls = app.calls.length;
    expect(await a(BYSTANDER, PASSWORDS[BYSTANDER] as string)).toBe("RateLimited");
    expect(app.calls.length).toBe(calls);
    // Another address is another client (and an IPv4-mapped IPv6 address the same as its IPv4 one).
    expect(await from("198.51.100.8")(BYSTANDER, PASSWORDS[BYSTANDER] as string)).toBe("signed-in");
    expect(await from("::ffff:198.51.100.7")(BYSTANDER, PASSWORDS[BYSTANDER] as string)).toBe("RateLimited");
    // The client's window ends 15 minutes after its first failure.
    app.clock.advance(15 * 60_000);
    expect(await a(BYSTANDER, PASSWORDS[BYSTANDER] as string)).toBe("signed-in");
  });

  it("ignores X-Forwarded-For by default: an attacker rotating it is still one client", async () => {
    const app = credentialsApp({ credentials: { clientFailures: 5 } });
    const server = await serve(app.config);
    const attacker = httpClient(server);
    const outcomes: string[] = [];
    for (let i = 0; i < 8; i++) {
      outcomes.push(await attacker.signIn(`user-${i}@example.com`, "guess", { "x-forwarded-for": `203.0.113.${i}` }));
    }
    expect(outcomes).toEqual([...Array(5).fill("CredentialsSignin"), ...Array(3).fill("RateLimited")]);
  });

  it("rateLimit.clientAddress decides the address (here: a proxy's header), given the connection address", async () => {
    const seen: Array<[string | null, string | undefined]> = [];
    const app = credentialsApp({
      credentials: { clientFailures: 5 },
      clientAddress: (request, connectionAddress) => {
        seen.push([request.headers.get("x-real-ip"), connectionAddress]);
        return request.headers.get("x-real-ip") ?? connectionAddress;
      },
    });
    const server = await serve(app.config);
    const client = httpClient(server);
    const outcomes: string[] = [];
    for (let i = 0; i < 8; i++) outcomes.push(await client.signIn(`user-${i}@example.com`, "guess", { "x-real-ip": `203.0.113.${i}` }));
    expect(outcomes).toEqual(Array(8).fill("CredentialsSignin"));
    expect(seen[0]).toEqual(["203.0.113.0", "127.0.0.1"]);
    // One address failing 5 times is refused.
    for (let i = 0; i < 5; i++) await client.signIn(`other-${i}@example.com`, "guess", { "x-real-ip": "203.0.113.99" });
    expect(await client.signIn(BYSTANDER, PASSWORDS[BYSTANDER] as string, { "x-real-ip": "203.0.113.99" })).toBe("RateLimited");
  });

  it("with no client address known, per-client limits are skipped (and said once at debug), per-account limits hold", async () => {
    const app = credentialsApp({ credentials: { clientFailures: 2 } }, { debug: true });
    const client = authClient(app.config);
    const signIn = async (email: string) => {
      const form = { csrfToken: await client.csrf(), email, password: "wrong", callbackUrl: "/welcome" };
      return outcome(await client.send("/auth/callback/credentials", { form }));
    };
    for (let i = 0; i < 6; i++) expect(await signIn(`user-${i}@example.com`)).toBe("CredentialsSignin");
    expect(app.logs.filter((line) => line.includes("no client address"))).toHaveLength(1);
    for (let i = 0; i < 3; i++) expect(await signIn(VICTIM)).toBe("CredentialsSignin");
    expect(await signIn(VICTIM)).toBe("RateLimited");
    // The debug line of a refusal names the hashed key only.
    const refused = app.logs.find((line) => line.startsWith("debug rate-limit: refused"));
    expect(refused).toMatch(/authlib:cred:wait:[0-9a-f]{32}/);
  });

  it("a 1 MB identifier becomes a short hashed key", async () => {
    const keys: string[] = [];
    const store = memoryRateLimitStore();
    const app = credentialsApp({
      store: {
        increment(key, windowMs) {
          keys.push(key);
          return store.increment(key, windowMs);
        },
        get(key) {
          keys.push(key);
          return store.get(key);
        },
        reset: (key) => store.reset(key),
      },
    });
    const client = authClient(app.config, "http://localhost:3000", "192.0.2.1");
    const form = { csrfToken: await client.csrf(), email: "a".repeat(60_000), password: "x", callbackUrl: "/welcome" };
    expect(outcome(await client.send("/auth/callback/credentials", { form }))).toBe("CredentialsSignin");
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) expect(key).toMatch(/^authlib:cred:(acct|wait|ip):[0-9a-f]{32}$/);
  });
});

describe("session updates", () => {
  it("answer 429 with Retry-After past the per-client limit; other clients go on", async () => {
    const app = credentialsApp({ sessionUpdate: { max: 2, windowSeconds: 30 } });
    const client = authClient(app.config, "http://localhost:3000", "192.0.2.10");
    const update = async (address?: string) => {
      const csrfToken = await client.csrf();
      return client.send("/auth/session", { json: { csrfToken, data: { name: "x" } }, clientAddress: address });
    };
    expect((await update()).status).toBe(200);
    expect((await update()).status).toBe(200);
    const refused = await update();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(30);
    // Like the update's other refusals (400, 413): no session in the body.
    expect(await refused.json()).toBeNull();
    expect((await update("192.0.2.11")).status).toBe(200);
    // Reading the session is never limited.
    expect((await client.send("/auth/session")).status).toBe(200);
  });
});

describe("rateLimit: false", () => {
  it("switches every limit off", async () => {
    const app = credentialsApp(false);
    const client = authClient(app.config, "http://localhost:3000", "192.0.2.20");
    for (let i = 0; i < 15; i++) {
      const form = { csrfToken: await client.csrf(), email: VICTIM, password: "wrong", callbackUrl: "/welcome" };
      expect(outcome(await client.send("/auth/callback/credentials", { form }))).toBe("CredentialsSignin");
    }
    expect(app.callsFor(VICTIM)).toBe(15);
    for (let i = 0; i < 65; i++) {
      const response = await client.send("/auth/session", { json: { csrfToken: await client.csrf(), data: {} } });
      expect(response.status).toBe(200);
    }
  });

  it("one limit can be switched off alone", async () => {
    const app = credentialsApp({ credentials: false });
    const client = authClient(app.config, "http://localhost:3000", "192.0.2.21");
    for (let i = 0; i < 12; i++) {
      const form = { csrfToken: await client.csrf(), email: VICTIM, password: "wrong", callbackUrl: "/welcome" };
      expect(outcome(await client.send("/auth/callback/credentials", { form }))).toBe("CredentialsSignin");
    }
  });
});

describe("a malformed rateLimit setting", () => {
  it("fails every request a limit applies to as a configuration error (logged), never runs unlimited, never crashes", async () => {
    const app = credentialsApp({ credentials: { lockoutFailures: 0 } });
    const client = authClient(app.config, "http://localhost:3000", "192.0.2.30");
    const form = { csrfToken: await client.csrf(), email: VICTIM, password: "wrong", callbackUrl: "/welcome" };
    const response = await client.send("/auth/callback/credentials", { form });
    expect(response.headers.get("location")).toBe("http://localhost:3000/auth/error?error=Configuration");
    expect(app.calls).toEqual([]);
    expect(app.logs.some((line) => line.includes("rateLimit.credentials.lockoutFailures must be a whole number"))).toBe(true);
    // Routes no limit applies to go on.
    expect((await client.send("/auth/session")).status).toBe(200);
  });
});
