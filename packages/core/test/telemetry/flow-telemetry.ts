/**
 * What the telemetry tests over the end-to-end flows share (observability-oauth.test.ts,
 * observability-flows.test.ts): the values to keep out of telemetry, the request-span and child-span
 * assertions, metric look-ups, and the closing scan of every span and metric of the file.
 */
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import type { authClient } from "../helpers/auth-client.js";
import type { registerInMemorySdk } from "./otel-sdk.js";

export const ORIGIN = "http://localhost:3000";
export const ADDRESS = "198.51.100.42";
export const SERVER = 1; // SpanKind.SERVER
export const CLIENT = 2; // SpanKind.CLIENT
export const INTERNAL = 0; // SpanKind.INTERNAL
/** The name of the app's own span around an in-process read (not authlib's: left out of the grammar check). */
export const APP_SPAN = "app request";

export type Client = ReturnType<typeof authClient>;
type Sdk = ReturnType<typeof registerInMemorySdk>;

/** The assertions over `sdk`'s spans and metrics, and the values (starting with `secret`) to scan for. */
export function flowTelemetry(sdk: Sdk, secret: string) {
  /** Every value a flow used that must never reach telemetry. */
  const secrets = new Set<string>([secret, ADDRESS, "app-secret"]);
  function remember(...values: Array<string | null | undefined>) {
    for (const value of values) if (value) secrets.add(value);
  }
  /** Remembers the cookies a client holds (session, CSRF, challenge, pending second factor...). */
  function rememberJar(client: Client) {
    for (const cookie of client.jar.cookies.values()) remember(cookie.value);
  }

  /** The request spans of `method route`, in the order they ended. */
  const requestSpans = (method: string, route: string) =>
    sdk.finished().filter((span) => span.name === `${method} ${route}` && span.kind === SERVER);
  const lastRequestSpan = (method: string, route: string) => requestSpans(method, route).at(-1);

  /** The request span's contract: route, action, configured provider, outcome, status (and error type on failures). */
  function expectRequestSpan(
    span: ReadableSpan | undefined,
    expected: { route: string; action: string; provider?: string; outcome: string; status: number; errorType?: string | RegExp },
  ) {
    expect(span, `${expected.route} span`).toBeDefined();
    const attributes = span?.attributes ?? {};
    expect(attributes).toMatchObject({
      "http.route": expected.route,
      "authlib.action": expected.action,
      "authlib.outcome": expected.outcome,
      "http.response.status_code": expected.status,
    });
    expect(attributes["authlib.provider"]).toBe(expected.provider);
    if (expected.errorType === undefined) expect(attributes["error.type"]).toBeUndefined();
    else if (typeof expected.errorType === "string") expect(attributes["error.type"]).toBe(expected.errorType);
    else expect(String(attributes["error.type"])).toMatch(expected.errorType);
  }

  /** The spans under `parent` named `name`: its children, or with `descendants` anywhere in its subtree. */
  function childrenOf(parent: ReadableSpan | undefined, name: string | RegExp, descendants = false) {
    const all = sdk.allFinished();
    const byId = new Map(all.map((span) => [span.spanContext().spanId, span]));
    const under = (span: ReadableSpan): boolean => {
      const parentId = span.parentSpanContext?.spanId;
      if (parentId === undefined) return false;
      if (parentId === parent?.spanContext().spanId) return true;
      const up = byId.get(parentId);
      return descendants && up !== undefined && under(up);
    };
    return all.filter((span) => (typeof name === "string" ? span.name === name : name.test(span.name)) && under(span));
  }

  /**
   * The child-span contract (docs/observability.md): each expected span exists under
   * `parent` (a direct child, or anywhere below it with `descendant`) with its kind and (at least) its
   * attributes.
   */
  function expectChildSpans(
    parent: ReadableSpan | undefined,
    expected: Array<{ name: string | RegExp; kind: number; attributes?: Record<string, unknown>; descendant?: boolean }>,
  ) {
    expect(parent).toBeDefined();
    for (const child of expected) {
      const found = childrenOf(parent, child.name, child.descendant);
      expect(found.length, `child ${String(child.name)} of ${parent?.name}`).toBeGreaterThan(0);
      expect(
        found.some((span) => span.kind === child.kind && matches(span.attributes, child.attributes ?? {})),
        `${String(child.name)} with ${JSON.stringify(child.attributes)}; found ${JSON.stringify(found.map((span) => span.attributes))}`,
      ).toBe(true);
    }
  }
  const matches = (attributes: Record<string, unknown>, expected: Record<string, unknown>) =>
    Object.entries(expected).every(([key, value]) => attributes[key] === value);

  /** A metric point of the current collection with (at least) these labels. */
  async function metricPoint(name: string, labels: Record<string, unknown>) {
    return (await sdk.collect()).find((point) => point.name === name && matches(point.attributes, labels));
  }

  /**
   * The closing checks: no remembered value (more than `atLeast` of them, so a flow that stopped
   * remembering is noticed) in any span or metric text; every value of a closed grammar.
   */
  function describeScan(atLeast = 30) {
    describe("what the telemetry holds", () => {
      it("no email, name, user id, password, code, state, token, cookie, CSRF token, TOTP secret, credential id, secret or address", async () => {
        const text = await sdk.everyText();
        expect(text.length).toBeGreaterThan(0);
        expect(secrets.size).toBeGreaterThan(atLeast);
        for (const value of secrets) {
          // A code of digits is looked for as a whole number (not inside a longer one, such as a timestamp).
          const found = /^\d+$/.test(value) ? new RegExp(`(?<!\\d)${value}(?!\\d)`).test(text) : text.includes(value);
          expect(found, value).toBe(false);
        }
      });

      it("every attribute and label value is a number, a boolean, or a string of a closed grammar", async () => {
        const closed =
          /^(?:[A-Z]+ )?\/auth(?:\/[a-z-]+)*(?:\/:provider|\/\*)?$|^[a-z][a-z0-9-]*$|^[A-Z][A-Za-z]*$|^_OTHER$|^[0-9a-f]{32}$|^authlib(?:\.[a-z_]+)+(?:\.[a-z][A-Za-z]+)?$/;
        // Per key, where the value set is known: limiter rules and adapter methods are names in code.
        const byKey: Record<string, RegExp> = {
          "authlib.rate_limit.rule": /^[a-z0-9-]+(?::[a-z-]+)*$/,
          "authlib.adapter.method": /^[a-z][A-Za-z]+$/,
          "authlib.session.strategy": /^(?:jwt|database)$/,
          "authlib.outcome": /^(?:success|failure|refused)$/,
          "authlib.user.hash": /^[0-9a-f]{32}$/,
          // An SSO refusal's reason: its check's type, with the protocol's prefix where the protocol refused it.
          "authlib.sso.reason": /^(?:saml\.|oidc\.)?[A-Za-z]+$/,
        };
        const values: Array<[string, unknown]> = [
          ...sdk
            .allFinished()
            .filter((span) => span.name !== APP_SPAN)
            .flatMap((span) => [["span name", span.name] as [string, unknown], ...Object.entries(span.attributes)]),
          ...(await sdk.collect()).flatMap((point) => [
            ["metric name", point.name] as [string, unknown],
            ...Object.entries(point.attributes),
          ]),
        ];
        if (process.env.DUMP_TELEMETRY)
          console.log([...new Set(values.map(([key, value]) => `${key}=${String(value)}`))].sort().join("\n"));
        // No flow here turns on `telemetry: { userId: "hashed" }`: no span names a user, not even by hash.
        expect(values.filter(([key]) => key === "authlib.user.hash")).toEqual([]);
        for (const [key, value] of values) {
          if (typeof value === "number" || typeof value === "boolean") continue;
          const text = String(value);
          expect(text.includes("@"), `${key}=${text}`).toBe(false);
          const grammar = byKey[key];
          if (grammar) {
            expect(text, key).toMatch(grammar);
            continue;
          }
          // Names are code's (an adapter method may be long); values must hold no token-like run.
          if (!key.endsWith(" name")) expect(/[A-Za-z0-9_-]{20,}/.test(text), `${key}=${text}`).toBe(false);
          if (key !== "metric name") expect(text, key).toMatch(closed);
        }
      });
    });
  }

  return {
    remember,
    rememberJar,
    requestSpans,
    lastRequestSpan,
    expectRequestSpan,
    childrenOf,
    expectChildSpans,
    metricPoint,
    describeScan,
  };
}
