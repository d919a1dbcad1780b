/**
 * OpenTelemetry over the end-to-end flows of `helpers/sensitive-flows.ts` (the flows whose secrets the log
 * test guards): credentials (right, wrong, crashing), session read, update and sign-out on a PGlite
 * database, a tampered session cookie, an OIDC sign-in at a real OpenID Provider with an access-token
 * refresh, a failed one and a replayed code, an email link from a real SMTP server (and replayed). The SDK
 * is the real one with its in-memory exporters and a context manager. Each flow yields its request spans,
 * the steps below them and its metrics; no secret, token, code, cookie, key, email or name the flows
 * handled appears in any span or metric, and every attribute value is from a closed grammar.
 */
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditEvent } from "../../src/types/telemetry.js";
import { closeSharedPglite } from "../helpers/database.js";
import { FLOW_AUDIT_ROWS, type FlowServices, runFlows, type Secrets, startFlowServices } from "../helpers/sensitive-flows.js";
import { type MetricPoint, registerInMemorySdk } from "./otel-sdk.js";

const sdk = registerInMemorySdk();
let services: FlowServices;
let secrets: Secrets;
let spans: ReadableSpan[];
let points: MetricPoint[];
const audit: AuditEvent[] = [];

beforeAll(async () => {
  services = await startFlowServices();
  secrets = await runFlows(services, {
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    audit: { store: { write: (event) => void audit.push(event) } },
  });
  spans = sdk.finished();
  points = await sdk.collect();
}, 120_000);
afterAll(async () => {
  await services?.close();
  await closeSharedPglite();
  await sdk.shutdown();
});

const named = (name: string) => spans.filter((span) => span.name === name);
const requestSpans = () => spans.filter((span) => span.kind === 1);
/** The request span a span belongs to (its root within authlib's work). */
function requestOf(span: ReadableSpan): ReadableSpan | undefined {
  const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
  let current: ReadableSpan | undefined = span;
  while (current && current.kind !== 1) current = byId.get(current.parentSpanContext?.spanId ?? "");
  return current;
}
const point = (name: string, attributes: Record<string, unknown>) =>
  points.filter((p) => p.name === name && Object.entries(attributes).every(([key, value]) => p.attributes[key] === value));

describe("every flow yields its request spans", () => {
  it("credentials, session, sign-out, OIDC and email requests, each with route, action, provider and outcome", () => {
    const summary = new Set(
      requestSpans().map((span) =>
        [
          span.name,
          span.attributes["authlib.provider"] ?? "-",
          span.attributes["authlib.outcome"],
          span.attributes["error.type"] ?? "-",
        ].join(" "),
      ),
    );
    for (const expected of [
      "GET /auth/csrf - success -",
      "POST /auth/callback/:provider credentials failure CredentialsSignin",
      "POST /auth/callback/:provider credentials failure CallbackRouteError",
      "POST /auth/callback/:provider credentials success -",
      "GET /auth/session - success -",
      "POST /auth/session - success -",
      "POST /auth/signout - success -",
      "POST /auth/signin/:provider op success -",
      "GET /auth/callback/:provider op success -",
      // The code replayed from another browser: no state cookie there.
      "GET /auth/callback/:provider op failure InvalidCheck",
      "POST /auth/signin/:provider nodemailer success -",
      // The link, then the same link again in the browser it signed in (which stays signed in).
      "GET /auth/callback/:provider nodemailer success -",
    ]) {
      expect(summary, expected).toContain(expected);
    }
    for (const span of requestSpans()) {
      expect(span.attributes["http.route"]).toBe(span.name.split(" ")[1]);
      expect(typeof span.attributes["http.response.status_code"]).toBe("number");
    }
  });
});

describe("the steps are child spans of their requests", () => {
  it("OAuth: discovery and the token request under the sign-in and callback of the `op` provider", () => {
    // (The test OP puts the profile in the ID token, so these flows make no userinfo request.)
    for (const name of ["authlib.oauth.discovery", "authlib.oauth.token"]) {
      const found = named(name);
      expect(found.length, name).toBeGreaterThanOrEqual(1);
      for (const span of found) {
        expect(span.kind, name).toBe(2);
        expect(span.attributes["authlib.provider"]).toBe("op");
        expect(requestOf(span)?.attributes["authlib.provider"], name).toBe("op");
      }
    }
    expect(named("authlib.oauth.token").map((span) => requestOf(span)?.name)).toContain("GET /auth/callback/:provider");
  });

  it("a provider refresh under the session check that needed it: one that worked, one the provider refused", () => {
    const refreshes = named("authlib.oauth.refresh");
    expect(refreshes.map((span) => [span.attributes["authlib.outcome"], span.attributes["error.type"] ?? null])).toEqual([
      ["success", null],
      ["failure", "OAuthCallbackError"],
    ]);
    for (const span of refreshes) expect(requestOf(span)?.name).toBe("GET /auth/session");
  });

  it("every session check's span names the strategy; an update's read is a child step; JWT re-issues as refreshes", () => {
    const checks = named("GET /auth/session");
    expect(checks.length).toBeGreaterThanOrEqual(6);
    for (const span of checks) expect(span.attributes["authlib.session.strategy"]).toBe("jwt");
    const reads = named("authlib.session.read");
    expect(reads.map((span) => [requestOf(span)?.name, span.attributes["authlib.session.strategy"]])).toEqual([
      ["POST /auth/session", "jwt"],
    ]);
    const refreshes = named("authlib.session.refresh");
    expect(refreshes.length).toBeGreaterThanOrEqual(1);
    for (const span of refreshes) expect(requestOf(span)?.attributes["authlib.action"]).toBe("session");
  });

  it("the email provider's limit decides under the sign-in that sends the mail", () => {
    const decisions = named("authlib.rate_limit");
    expect(decisions.map((span) => span.attributes["authlib.rate_limit.rule"])).toContain("email:mbox");
    const mailbox = decisions.find((span) => span.attributes["authlib.rate_limit.rule"] === "email:mbox");
    expect(mailbox?.attributes["authlib.outcome"]).toBe("success");
    expect(requestOf(mailbox as ReadableSpan)?.attributes["authlib.provider"]).toBe("nodemailer");
  });

  it("the adapter's calls (PGlite) under the request that made them", () => {
    const calls = spans.filter((span) => span.name.startsWith("authlib.adapter."));
    const methods = new Set(calls.map((span) => span.attributes["authlib.adapter.method"]));
    for (const method of ["createVerificationToken", "useVerificationToken", "getUserByEmail", "linkAccount"]) {
      expect(methods, method).toContain(method);
    }
    for (const span of calls) {
      expect(span.kind).toBe(2);
      expect(requestOf(span), span.name).toBeDefined();
    }
  });
});

describe("every flow yields its metrics", () => {
  it("sign-in attempts by provider and outcome, session checks, durations by route", () => {
    const attempts = (attributes: Record<string, unknown>) =>
      point("authlib.sign_in.attempts", attributes).reduce((sum, p) => sum + Number(p.value), 0);
    expect(attempts({ "authlib.provider": "credentials", "authlib.outcome": "success" })).toBe(1);
    expect(attempts({ "authlib.provider": "credentials", "error.type": "CredentialsSignin" })).toBe(1);
    expect(attempts({ "authlib.provider": "op", "authlib.outcome": "success" })).toBe(1);
    expect(attempts({ "authlib.provider": "op", "error.type": "InvalidCheck" })).toBe(1);
    expect(attempts({ "authlib.provider": "nodemailer", "authlib.outcome": "success" })).toBe(2);
    expect(point("authlib.session.checks", { "authlib.outcome": "success" })[0]?.value).toBeGreaterThanOrEqual(5);
    const routes = new Set(point("http.server.request.duration", {}).map((p) => p.attributes["http.route"]));
    for (const route of ["/auth/csrf", "/auth/session", "/auth/signout", "/auth/signin/:provider", "/auth/callback/:provider"]) {
      expect(routes, route).toContain(route);
    }
  });
});

describe("the audit trail of the same flows", () => {
  it("a row per sign-in, failure, link and sign-out, with provider and outcome; none for session reads", () => {
    const rows = audit.map((row) => [row.type, row.outcome, row.provider, row.detail]);
    for (const expected of FLOW_AUDIT_ROWS) {
      expect(rows, expected.join(" ")).toContainEqual(expected);
    }
    expect(new Set(audit.map((row) => row.type))).not.toContain("session");
  });
});

describe("no personal data and no secret, by construction", () => {
  it("none of the flows' secrets, tokens, codes, cookies or derived keys appears in any span or metric", async () => {
    const text = await sdk.everyText();
    expect(text.length).toBeGreaterThan(1000);
    expect(secrets.values.size).toBeGreaterThan(20);
    for (const needle of secrets.needles()) {
      if (text.includes(needle)) throw new Error(`a secret reached the telemetry: ${JSON.stringify(needle.slice(0, 8))}…`);
    }
    for (const personal of ["alice", "Alice", "Liddell", "Ada", "mail-", "example.com", "127.0.0.1", "localhost:3000"]) {
      expect(text.includes(personal), personal).toBe(false);
    }
  });

  it("every attribute and label value is a number, a boolean or a word of a closed grammar", () => {
    const values = [
      ...spans.flatMap((span) => [span.name, ...Object.values(span.attributes), ...span.events.map((event) => event.name)]),
      ...points.flatMap((p) => [p.name, ...Object.values(p.attributes)]),
    ];
    for (const value of values) {
      if (typeof value === "number" || typeof value === "boolean") continue;
      expect(value, String(value)).toMatch(/^[A-Za-z0-9_.:/ -]{1,80}$/);
      // No '@' (an address, by the grammar) and no long run with a digit in it (a token, a code, an id).
      const runs = String(value).match(/[A-Za-z0-9_-]+/g) ?? [];
      expect(
        runs.filter((run) => run.length >= 16 && /\d/.test(run)),
        String(value),
      ).toEqual([]);
    }
  });
});
