/**
 * OpenTelemetry over the passkey flows (the software authenticator, PGlite): registration, sign-in, a
 * replayed assertion, the options requests, and the per-client limit of the options route refusing. The
 * request spans with provider `passkey` and their outcomes, the limit's decision steps, the sign-in metric,
 * and no credential id, challenge, public key, name or cookie in any span or metric.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Passkey from "../../src/providers/passkey.js";
import { memoryRateLimitStore } from "../../src/rate-limit/store.js";
import type { AuthConfig } from "../../src/types.js";
import { authClient } from "../helpers/auth-client.js";
import { closeSharedPglite, freshDatabase } from "../helpers/database.js";
import { SoftAuthenticator } from "../webauthn/soft-authenticator.js";
import { registerInMemorySdk } from "./otel-sdk.js";

const sdk = registerInMemorySdk();
const ORIGIN = "http://localhost:3000";
const handled: string[] = ["Ada Lovelace", "passkey-telemetry-secret-0123456789abcdef"];

type Client = ReturnType<typeof authClient>;

async function options(client: Client, action: string, query: Record<string, string> = {}) {
  const response = await client.send(`/auth/webauthn-options/passkey?${new URLSearchParams({ action, ...query })}`);
  return { status: response.status, options: ((await response.json()) as { options?: Record<string, unknown> }).options };
}

async function post(client: Client, action: string, data: unknown) {
  const body = JSON.stringify(data);
  handled.push(body);
  return client.send("/auth/callback/passkey", { json: { action, data: body, csrfToken: await client.csrf() } });
}

beforeAll(async () => {
  const db = await freshDatabase();
  const config: AuthConfig = {
    secret: handled[1] as string,
    trustHost: true,
    adapter: db.adapter,
    providers: [Passkey({})],
    experimental: { enableWebAuthn: true },
    rateLimit: { store: memoryRateLimitStore(), passkey: { max: 6 } },
    logger: { error: () => {}, warn: () => {} },
  };
  const authenticator = new SoftAuthenticator(ORIGIN);
  const registering = authClient(config, ORIGIN, "198.51.100.7");
  const registration = await options(registering, "register", { name: "Ada Lovelace" });
  handled.push(String(registration.options?.challenge));
  expect((await post(registering, "register", await authenticator.register(registration.options))).status).toBe(302);

  sdk.spans.reset();
  const client = authClient(config, ORIGIN, "198.51.100.8");
  const assertion = await authenticator.authenticate((await options(client, "authenticate")).options);
  expect((await post(client, "authenticate", assertion)).status).toBe(302);
  expect(await client.session()).not.toBeNull();
  for (const cookie of client.jar.cookies.values()) handled.push(cookie.value);
  // The same assertion again, from another browser: its challenge is not this browser's.
  await post(authClient(config, ORIGIN, "198.51.100.9"), "authenticate", assertion);
  // The options route's per-client limit: the same client asks until it is refused.
  const asking = authClient(config, ORIGIN, "203.0.113.50");
  let status = 200;
  for (let i = 0; i < 8 && status === 200; i++) status = (await options(asking, "authenticate")).status;
  expect(status).toBe(429);
}, 120_000);
afterAll(async () => {
  await closeSharedPglite();
  await sdk.shutdown();
});

describe("passkeys", () => {
  it("registration is done, the sign-in is a span and a metric of provider `passkey`; the replay fails", async () => {
    const callbacks = sdk
      .finished()
      .filter((span) => span.name === "POST /auth/callback/:provider")
      .map((span) => [span.attributes["authlib.provider"], span.attributes["authlib.outcome"]]);
    expect(callbacks).toEqual([
      ["passkey", "success"],
      ["passkey", "failure"],
    ]);
    const points = await sdk.collect();
    const attempts = points.filter((p) => p.name === "authlib.sign_in.attempts" && p.attributes["authlib.provider"] === "passkey");
    expect(attempts.find((p) => p.attributes["authlib.outcome"] === "success")?.value).toBeGreaterThanOrEqual(1);
    expect(attempts.find((p) => p.attributes["authlib.outcome"] === "failure")?.value).toBeGreaterThanOrEqual(1);
  });

  it("the options route's limit decides under each request, and its refusal is counted", async () => {
    const spans = sdk.finished();
    const decisions = spans.filter(
      (span) => span.name === "authlib.rate_limit" && span.attributes["authlib.rate_limit.rule"] === "passkey:ip",
    );
    expect(decisions.map((span) => span.attributes["authlib.outcome"])).toContain("refused");
    const refusedRequest = spans.find(
      (span) => span.name === "GET /auth/webauthn-options/:provider" && span.attributes["authlib.outcome"] === "refused",
    );
    expect(refusedRequest?.attributes["error.type"]).toBe("RateLimited");
    const refusals = (await sdk.collect()).filter((p) => p.name === "authlib.rate_limit.refusals");
    expect(refusals.some((p) => p.attributes["authlib.provider"] === "passkey")).toBe(true);
  });

  it("no credential, challenge, name, address or cookie in any span or metric", async () => {
    const text = await sdk.everyText();
    for (const value of handled) {
      for (const part of value.split(/[",:{}[\]]/).filter((p) => p.length >= 12)) expect(text.includes(part), part.slice(0, 8)).toBe(false);
    }
    for (const address of ["198.51.100", "203.0.113"]) expect(text).not.toContain(address);
  });
});
