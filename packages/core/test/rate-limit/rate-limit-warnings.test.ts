/**
 * Issue 26: deployments where the limits do not hold as the app thinks are said, once per
 * configuration, through `Auth()`:
 * - `rate-limit-behind-proxy`: requests carry `X-Forwarded-For` / `Forwarded` and the app reads no client
 *   address from them, so every client counts under the proxy's address;
 * - `rate-limit-memory-store`: production without a shared store.
 * `authlib doctor` reports the same (cli-doctor.test.ts).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { Auth } from "../../src/kernel/auth.js";
import Credentials from "../../src/providers/credentials.js";
import type { RateLimitConfig } from "../../src/rate-limit/config.js";
import { memoryRateLimitStore } from "../../src/rate-limit/store.js";
import type { AuthConfig, WarningCode } from "../../src/types/config.js";
import { authClient } from "../helpers/auth-client.js";

const secret = "rate-limit-warnings-secret-0123456789abcdef";

afterEach(() => {
  vi.unstubAllEnvs();
});

/** A credentials app that records its warnings. */
function app(rateLimit: RateLimitConfig | false | undefined, extra: Partial<AuthConfig> = {}) {
  const warnings: WarningCode[] = [];
  const config: AuthConfig = {
    secret,
    url: "http://localhost:3000",
    providers: [Credentials({ credentials: { email: { type: "email" }, password: { type: "password" } }, authorize: () => null })],
    ...(rateLimit === undefined ? {} : { rateLimit }),
    logger: { warn: (code) => void warnings.push(code), error: () => {}, debug: () => {} },
    ...extra,
  };
  return { config, warnings, limitWarnings: () => warnings.filter((code) => code.startsWith("rate-limit-")) };
}

/** A failed credentials sign-in through `config`, with `headers` and the connection address of a proxy. */
async function attempt(config: AuthConfig, headers: Record<string, string> = {}) {
  const client = authClient(config, "http://localhost:3000", "10.0.0.1");
  const csrfToken = await client.csrf();
  return client.send("/auth/callback/credentials", { form: { csrfToken, email: "a@example.com", password: "x" }, headers });
}

describe("rate-limit-behind-proxy", () => {
  it("is logged once per configuration when requests carry X-Forwarded-For or Forwarded and no clientAddress is set", async () => {
    const first = app({ store: memoryRateLimitStore() });
    await attempt(first.config);
    expect(first.limitWarnings()).toEqual([]);
    await attempt(first.config, { "x-forwarded-for": "198.51.100.1" });
    await attempt(first.config, { "x-forwarded-for": "198.51.100.2" });
    await attempt(first.config, { forwarded: "for=198.51.100.3" });
    expect(first.limitWarnings()).toEqual(["rate-limit-behind-proxy"]);

    // Another configuration object has its own "once".
    const second = app({ store: memoryRateLimitStore() });
    await attempt(second.config, { forwarded: "for=198.51.100.3;proto=https" });
    expect(second.limitWarnings()).toEqual(["rate-limit-behind-proxy"]);
  });

  it("is not logged when the app reads the client address itself, or the limits are off", async () => {
    const reading = app({ store: memoryRateLimitStore(), clientAddress: (request) => request.headers.get("x-forwarded-for") ?? undefined });
    await attempt(reading.config, { "x-forwarded-for": "198.51.100.1" });
    expect(reading.limitWarnings()).toEqual([]);
    const off = app(false);
    await attempt(off.config, { "x-forwarded-for": "198.51.100.1" });
    expect(off.limitWarnings()).toEqual([]);
  });

  it("the built-in logger's line names the fix and links its troubleshooting entry", async () => {
    const lines: string[] = [];
    vi.spyOn(console, "warn").mockImplementation((line: string) => void lines.push(line));
    const { config } = app({ store: memoryRateLimitStore() }, { logger: undefined });
    await attempt(config, { "x-forwarded-for": "198.51.100.1" });
    await vi.waitFor(() => expect(lines).toHaveLength(1));
    expect(lines[0]).toContain("[authlib][warn][rate-limit-behind-proxy]");
    expect(lines[0]).toContain("rateLimit.clientAddress");
    expect(lines[0]).toContain("docs/troubleshooting.md#rate-limit-behind-proxy");
  });
});

describe("rate-limit-memory-store", () => {
  it("is logged once per configuration in production without a store", async () => {
    vi.stubEnv("NODE_ENV", "production");
    const memory = app(undefined);
    await attempt(memory.config);
    await attempt(memory.config);
    expect(memory.limitWarnings()).toEqual(["rate-limit-memory-store"]);
    const configured = app({ credentials: { lockoutFailures: 5 } });
    await attempt(configured.config);
    expect(configured.limitWarnings()).toEqual(["rate-limit-memory-store"]);
  });

  it("is not logged with a shared store, with the limits off, or outside production", async () => {
    vi.stubEnv("NODE_ENV", "production");
    const shared = app({ store: memoryRateLimitStore() });
    await attempt(shared.config);
    const off = app(false);
    await attempt(off.config);
    vi.stubEnv("NODE_ENV", "development");
    const development = app(undefined);
    await attempt(development.config);
    expect([...shared.limitWarnings(), ...off.limitWarnings(), ...development.limitWarnings()]).toEqual([]);
  });
});

it("a request the limits do not apply to resolves nothing and says nothing", async () => {
  vi.stubEnv("NODE_ENV", "production");
  const { config, limitWarnings } = app(undefined);
  const response = await Auth(
    new Request("http://localhost:3000/auth/providers", { headers: { "x-forwarded-for": "198.51.100.1" } }),
    config,
  );
  expect(response.status).toBe(200);
  expect(limitWarnings()).toEqual([]);
});
