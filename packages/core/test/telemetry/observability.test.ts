/**
 * OpenTelemetry traces and metrics, and the audit trail, over real flows through `Auth()`: credentials
 * sign-in (success, refused, rate-limited), session read, sign-out. The SDK is the real one with its
 * in-memory exporters. Then every span and metric text is scanned for the emails, passwords, tokens,
 * cookies, secret and addresses the flows used: none may appear.
 */
import { context, trace } from "@opentelemetry/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addressPrefix, userAgentLabel } from "../../src/audit/client.js";
import { createAuth } from "../../src/kernel/instance.js";
import { hashPassword, verifyPassword } from "../../src/password.js";
import Credentials from "../../src/providers/credentials.js";
import { memoryRateLimitStore } from "../../src/rate-limit/store.js";
import { userHash } from "../../src/telemetry/runtime.js";
import type { AuthConfig, WarningCode } from "../../src/types/config.js";
import type { AuditEvent } from "../../src/types/telemetry.js";
import { authClient } from "../helpers/auth-client.js";
import { registerInMemorySdk } from "./otel-sdk.js";

const secret = "observability-test-secret-0123456789abcdef";
const EMAIL = "ada.lovelace@example.com";
const PASSWORD = "correct horse battery staple";
const ADDRESS = "203.0.113.77";
const USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36";
const hash = hashPassword(PASSWORD);

const sdk = registerInMemorySdk();
afterAll(() => sdk.shutdown());

function app(overrides: Partial<AuthConfig> = {}) {
  const rows: AuditEvent[] = [];
  const warnings: WarningCode[] = [];
  const config: AuthConfig = {
    secret,
    trustHost: true,
    providers: [
      Credentials({
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize({ email, password }) {
          return email === EMAIL && (await verifyPassword(String(password), await hash))
            ? { id: "user-1", email: EMAIL, name: "Ada" }
            : null;
        },
      }),
    ],
    // The second wrong password falls inside the first one's wait however slow the machine: it is refused.
    rateLimit: { store: memoryRateLimitStore(), credentials: { freeFailures: 1, initialDelaySeconds: 60 } },
    audit: { store: { write: (event) => void rows.push(event) } },
    logger: { warn: (code) => void warnings.push(code), error: () => {} },
    ...overrides,
  };
  const client = authClient(config, "http://localhost:3000", ADDRESS);
  async function signIn(password: string) {
    const csrfToken = await client.csrf();
    return client.send("/auth/callback/credentials", {
      form: { csrfToken, email: EMAIL, password, callbackUrl: "/welcome" },
      headers: { "user-agent": USER_AGENT },
    });
  }
  return { config, client, rows, warnings, signIn };
}

const secrets: string[] = [EMAIL, PASSWORD, secret, ADDRESS, "Ada", "user-1"];

describe("telemetry and audit over the credentials flows", () => {
  const { client, rows, signIn } = app();

  beforeAll(async () => {
    const refused = await signIn("wrong password");
    expect(new URL(refused.headers.get("location") ?? "", "http://x").searchParams.get("error")).toBe("CredentialsSignin");
    const limited = await signIn("wrong again");
    expect(new URL(limited.headers.get("location") ?? "", "http://x").searchParams.get("error")).toBe("RateLimited");
  });

  it("traces a sign-in, a session read and a sign-out with their metrics", async () => {
    const other = app();
    sdk.spans.reset();
    const signedIn = await other.signIn(PASSWORD);
    expect(signedIn.headers.get("location")).toBe("http://localhost:3000/welcome");
    const sessionToken = other.client.jar.get("authlib.session-token");
    expect(sessionToken).toBeTruthy();
    secrets.push(sessionToken as string, other.client.jar.get("authlib.csrf-token") as string);
    expect((await other.client.session())?.user?.email).toBe(EMAIL);
    const csrfToken = await other.client.csrf();
    const signedOut = await other.client.send("/auth/signout", { form: { csrfToken } });
    expect(signedOut.status).toBe(302);

    const byRoute = new Map(sdk.finished().map((span) => [span.name, span]));
    const callback = byRoute.get("POST /auth/callback/:provider");
    expect(callback?.attributes).toMatchObject({
      "http.request.method": "POST",
      "http.route": "/auth/callback/:provider",
      "http.response.status_code": 302,
      "authlib.action": "callback",
      "authlib.provider": "credentials",
      "authlib.outcome": "success",
    });
    // A session check's span is the read itself: it names the strategy and has no read span under it.
    expect(byRoute.get("GET /auth/session")?.attributes).toMatchObject({
      "authlib.action": "session",
      "authlib.outcome": "success",
      "authlib.session.strategy": "jwt",
    });
    expect(byRoute.get("POST /auth/signout")?.attributes).toMatchObject({ "authlib.action": "signout", "http.response.status_code": 302 });

    // The steps are child spans of their request's span.
    const childOf = (parent: string | undefined, name: string) =>
      sdk
        .finished()
        .find((span) => span.name === name && span.parentSpanContext?.spanId === byRoute.get(parent ?? "")?.spanContext().spanId);
    expect(childOf("POST /auth/callback/:provider", "authlib.rate_limit")?.attributes).toEqual({
      "authlib.rate_limit.rule": "credentials",
      "authlib.outcome": "success",
    });
    expect(childOf("GET /auth/session", "authlib.session.read")).toBeUndefined();

    const points = await sdk.collect();
    const point = (name: string, attributes: Record<string, unknown>) =>
      points.find((p) => p.name === name && Object.entries(attributes).every(([key, value]) => p.attributes[key] === value));
    expect(
      point("authlib.sign_in.attempts", { "authlib.provider": "credentials", "authlib.outcome": "success" })?.value,
    ).toBeGreaterThanOrEqual(1);
    expect(point("authlib.sign_in.attempts", { "authlib.outcome": "failure", "error.type": "CredentialsSignin" })?.value).toBe(1);
    expect(point("authlib.rate_limit.refusals", { "authlib.action": "callback" })?.value).toBe(1);
    expect(point("authlib.session.checks", { "authlib.outcome": "success" })?.value).toBeGreaterThanOrEqual(1);
    expect(point("http.server.request.duration", { "http.route": "/auth/session" })).toBeDefined();

    expect(other.rows.map((row) => [row.type, row.outcome, row.userId, row.provider])).toEqual([
      ["signIn", "success", "user-1", "credentials"],
      ["signOut", "success", "user-1", null],
    ]);
    expect(other.rows[0]).toMatchObject({ clientAddressPrefix: "203.0.113.0/24", userAgentLabel: "Chrome on Linux" });
  });

  it("a refusal by a limit is its step's outcome, with the error's type", async () => {
    const again = app();
    sdk.spans.reset();
    await again.signIn("wrong password");
    await again.signIn("wrong again");
    const steps = sdk.finished().filter((span) => span.name === "authlib.rate_limit");
    expect(steps.map((span) => [span.attributes["authlib.outcome"], span.attributes["error.type"] ?? null])).toEqual([
      ["success", null],
      ["refused", "RateLimited"],
    ]);
    expect(steps[1]?.status.code).toBe(2);
  });

  it("records the failed and the refused sign-in in the audit trail", () => {
    expect(rows.map((row) => [row.type, row.outcome, row.detail, row.provider])).toEqual([
      ["signInFailed", "failure", "CredentialsSignin", "credentials"],
      ["rateLimited", "failure", "RateLimited", "credentials"],
    ]);
    expect(rows.every((row) => row.clientAddressPrefix === "203.0.113.0/24")).toBe(true);
    expect(client.jar.get("authlib.session-token")).toBeUndefined();
  });

  it("puts no email, password, token, cookie, secret, name, user id or address in any span or metric", async () => {
    const text = await sdk.everyText();
    expect(text.length).toBeGreaterThan(0);
    for (const value of secrets) expect(text.includes(value), value).toBe(false);
  });
});

describe("an in-process session read", () => {
  it("is its own span, a child of the app's active span", async () => {
    const { config, signIn, client } = app();
    await signIn(PASSWORD);
    const auth = createAuth(config);
    const request = new Request("http://localhost:3000/welcome", {
      headers: { cookie: `authlib.session-token=${client.jar.get("authlib.session-token")}` },
    });
    sdk.spans.reset();
    const appSpan = trace.getTracer("app").startSpan("GET /welcome");
    const read = await context.with(trace.setSpan(context.active(), appSpan), () => auth.api.getSession(request));
    appSpan.end();
    expect(read.session?.user?.email).toBe(EMAIL);
    const span = sdk.finished().find((s) => s.name === "authlib.session.read");
    expect(span?.parentSpanContext?.spanId).toBe(appSpan.spanContext().spanId);
    expect(span?.attributes).toEqual({ "authlib.session.strategy": "jwt", "authlib.outcome": "success" });
  });
});

describe("an audit store outage", () => {
  it("does not fail the sign-in: the write failure is logged and counted", async () => {
    let warned!: () => void;
    const logged = new Promise<void>((resolve) => {
      warned = resolve;
    });
    const { signIn, client } = app({
      audit: { store: { write: () => Promise.reject(new Error("connection refused")) } },
      logger: { warn: (code) => code === "audit-write-failed" && warned(), error: () => {} },
    });
    const response = await signIn(PASSWORD);
    expect(response.headers.get("location")).toBe("http://localhost:3000/welcome");
    expect(client.jar.get("authlib.session-token")).toBeTruthy();
    await logged;
    const failures = (await sdk.collect()).find((point) => point.name === "authlib.audit.write_failures");
    expect(failures?.value).toBeGreaterThanOrEqual(1);
  });
});

describe("telemetry: false", () => {
  it("records no span for the instance's requests", async () => {
    const { client } = app({ telemetry: false });
    sdk.spans.reset();
    expect(await client.session()).toBeNull();
    expect(sdk.finished()).toEqual([]);
  });
});

describe('telemetry: { userId: "hashed" }', () => {
  it("names the signed-in user on the sign-in span by a keyed hash of the id, never the id", async () => {
    const { signIn } = app({ telemetry: { userId: "hashed" } });
    sdk.spans.reset();
    await signIn(PASSWORD);
    const callback = sdk.finished().find((span) => span.name === "POST /auth/callback/:provider");
    const expected = await userHash(secret, "user-1");
    expect(expected).toMatch(/^[0-9a-f]{32}$/);
    expect(callback?.attributes["authlib.user.hash"]).toBe(expected);
    expect(await userHash("another-secret-0123456789abcdef0123", "user-1")).not.toBe(expected);
    expect(JSON.stringify(callback?.attributes)).not.toContain("user-1");
  });
});

describe("the audit row's client", () => {
  it("keeps an address's network only", () => {
    expect(addressPrefix("198.51.100.23")).toBe("198.51.100.0/24");
    expect(addressPrefix("::ffff:198.51.100.23")).toBe("198.51.100.0/24");
    expect(addressPrefix("2001:db8:abcd:12:1:2:3:4")).toBe("2001:db8:abcd::/48");
    expect(addressPrefix("2001:0db8::1")).toBe("2001:db8:0::/48");
    expect(addressPrefix("::1")).toBe("0:0:0::/48");
    expect(addressPrefix("999.1.1.1")).toBeNull();
    expect(addressPrefix("not an address")).toBeNull();
    expect(addressPrefix(undefined)).toBeNull();
  });

  it("labels the browser family and OS from closed lists", () => {
    expect(userAgentLabel("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/130.0 Safari/537.36 Edg/130.0")).toBe(
      "Edge on Windows",
    );
    expect(
      userAgentLabel("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1"),
    ).toBe("Safari on iOS");
    expect(userAgentLabel("curl/8.5.0")).toBe("curl");
    expect(userAgentLabel("my-bot <ada@example.com>")).toBe("Other");
    expect(userAgentLabel(null)).toBeNull();
  });
});
