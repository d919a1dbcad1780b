/**
 * The OpenTelemetry side of authlib, loaded only when telemetry is on and `@opentelemetry/api` is
 * installed. Every attribute and metric label comes from a closed set: HTTP method, route template,
 * action, a configured provider's id, an outcome name, an error type. Nothing a user typed or was sent
 * (email, name, token, code, cookie, secret, address) can reach a span or a metric by construction.
 *
 * @module telemetry/runtime
 */
import type { Attributes, Counter, Histogram, Span, Tracer } from "@opentelemetry/api";
import type { RequestInternal } from "../internal-types.js";

type Api = typeof import("@opentelemetry/api");

/** How a request ended, as a closed set of names. */
export type Outcome = "success" | "failure" | "refused";

/** What a request's span learns while the request runs (its failure, set by the pipeline). */
export interface RequestTrace {
  span: Span;
  errorType?: string;
  rateLimited?: boolean;
}

/** The instruments and tracer of one instance. */
export interface TelemetryRuntime {
  /** Runs `run` under the request's span; records the request's metrics when it ends. */
  traceRequest(
    request: RequestInternal,
    basePath: string,
    providers: ReadonlySet<string>,
    run: (trace: RequestTrace | undefined) => Promise<number>,
  ): Promise<number>;
  /** A child span around one adapter call (`authlib.adapter.<method>`). */
  adapterCall<T>(method: string, call: () => Promise<T>): Promise<T>;
  /**
   * `events` whose `signIn` also names the user on `span` by a keyed hash of their id
   * (`authlib.user.hash`, for `telemetry: { userId: "hashed" }`).
   */
  namingUser<E extends { signIn(message: { user: { id?: string } }): unknown }>(events: E, span: Span, secret: string): E;
  /** Counts an audit store's failed write. */
  auditWriteFailed(): void;
}

const SCOPE = "@authlib/core";

/** The error types are class names of authlib's errors; anything else is reported as `_OTHER`. */
const ERROR_TYPE = /^[A-Z][A-Za-z]{1,63}$/;

/** The runtime over the installed API; `undefined` when the package cannot be loaded. */
export async function loadTelemetryRuntime(): Promise<TelemetryRuntime | undefined> {
  let api: Api;
  try {
    // A variable specifier: bundlers leave an optional peer alone, and a missing package is no error.
    const specifier = "@opentelemetry/api";
    api = (await import(/* @vite-ignore */ specifier)) as Api;
  } catch {
    return undefined;
  }
  return createRuntime(api);
}

function createRuntime(api: Api): TelemetryRuntime {
  const tracer: Tracer = api.trace.getTracer(SCOPE);
  const meter = api.metrics.getMeter(SCOPE);
  const requestDuration: Histogram = meter.createHistogram("http.server.request.duration", {
    unit: "s",
    description: "Duration of authlib's HTTP requests.",
  });
  const sessionDuration: Histogram = meter.createHistogram("authlib.session.read.duration", {
    unit: "s",
    description: "Duration of session checks (GET <basePath>/session).",
  });
  const signInAttempts: Counter = meter.createCounter("authlib.sign_in.attempts", {
    description: "Sign-in attempts by provider and outcome.",
  });
  const sessionChecks: Counter = meter.createCounter("authlib.session.checks", { description: "Session checks by outcome." });
  const rateLimitRefusals: Counter = meter.createCounter("authlib.rate_limit.refusals", { description: "Requests a rate limit refused." });
  const auditFailures: Counter = meter.createCounter("authlib.audit.write_failures", {
    description: "Audit events the store failed to write.",
  });
  // Without a meter provider registered, the instruments are the API's no-op ones.
  const metered = !(requestDuration instanceof api.createNoopMeter().createHistogram("probe").constructor);

  return {
    async traceRequest(request, basePath, providers, run) {
      const route = routeTemplate(request, basePath);
      const span = tracer.startSpan(`${request.method} ${route}`, { kind: api.SpanKind.SERVER });
      // No SDK registered: the span records nothing and the instruments are no-ops, so skip the rest.
      if (!metered && !span.isRecording()) return run(undefined);
      const provider = request.providerId !== undefined && providers.has(request.providerId) ? request.providerId : undefined;
      const attributes: Attributes = { "http.request.method": request.method, "http.route": route, "authlib.action": request.action };
      if (provider) attributes["authlib.provider"] = provider;
      span.setAttributes(attributes);
      const started = performance.now();
      const trace: RequestTrace = { span };
      let status = 500;
      try {
        status = await api.context.with(api.trace.setSpan(api.context.active(), span), () => run(trace));
        return status;
      } finally {
        const outcome: Outcome = trace.rateLimited ? "refused" : trace.errorType || status >= 400 ? "failure" : "success";
        const errorType = trace.errorType && ERROR_TYPE.test(trace.errorType) ? trace.errorType : trace.errorType ? "_OTHER" : undefined;
        span.setAttribute("http.response.status_code", status);
        span.setAttribute("authlib.outcome", outcome);
        if (errorType) {
          span.setAttribute("error.type", errorType);
          span.setStatus({ code: api.SpanStatusCode.ERROR });
        }
        span.end();
        const seconds = (performance.now() - started) / 1000;
        const labels: Attributes = { "http.request.method": request.method, "http.route": route, "http.response.status_code": status };
        if (errorType) labels["error.type"] = errorType;
        requestDuration.record(seconds, labels);
        if (request.action === "session" && request.method === "GET") {
          sessionChecks.add(1, { "authlib.outcome": outcome });
          sessionDuration.record(seconds, { "authlib.outcome": outcome });
        }
        if (isSignInAttempt(request)) {
          const signInLabels: Attributes = { "authlib.outcome": outcome };
          if (provider) signInLabels["authlib.provider"] = provider;
          if (errorType) signInLabels["error.type"] = errorType;
          signInAttempts.add(1, signInLabels);
        }
        if (trace.rateLimited) {
          const refusalLabels: Attributes = { "authlib.action": request.action };
          if (provider) refusalLabels["authlib.provider"] = provider;
          rateLimitRefusals.add(1, refusalLabels);
        }
      }
    },
    async adapterCall(method, call) {
      const span = tracer.startSpan(`authlib.adapter.${method}`, {
        kind: api.SpanKind.CLIENT,
        attributes: { "authlib.adapter.method": method },
      });
      try {
        return await call();
      } catch (error) {
        span.setAttribute("error.type", "AdapterError");
        span.setStatus({ code: api.SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
      }
    },
    namingUser(events, span, secret) {
      return {
        ...events,
        signIn: async (message: Parameters<typeof events.signIn>[0]) => {
          if (message.user.id) span.setAttribute("authlib.user.hash", await userHash(secret, message.user.id));
          return events.signIn(message);
        },
      };
    },
    auditWriteFailed() {
      auditFailures.add(1);
    },
  };
}

/** The HMAC keys of user hashes, per secret: derived once (HMAC-SHA256 of a fixed label under the secret). */
const userHashKeys = new Map<string, Promise<CryptoKey>>();

/** A user's id as a keyed hash: HMAC-SHA256 under a key derived from the secret, 32 hex digits. */
export async function userHash(secret: string, userId: string): Promise<string> {
  const encoder = new TextEncoder();
  let key = userHashKeys.get(secret);
  if (!key) {
    key = (async () => {
      const root = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
      const derived = await crypto.subtle.sign("HMAC", root, encoder.encode("authlib telemetry user id"));
      return crypto.subtle.importKey("raw", derived, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    })();
    if (userHashKeys.size >= 8) userHashKeys.clear();
    userHashKeys.set(secret, key);
  }
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", await key, encoder.encode(userId)));
  return Array.from(mac.subarray(0, 16), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * The route as a template: `<basePath>/<action>`, with `/:provider` for the routes that name one. The
 * provider's id is an attribute of its own, and only when it is a configured provider.
 */
function routeTemplate(request: RequestInternal, basePath: string): string {
  return request.providerId === undefined ? `${basePath}/${request.action}` : `${basePath}/${request.action}/:provider`;
}

/**
 * A sign-in attempt: every sign-in ends on a callback (OAuth's return, the email link, a credentials or
 * passkey POST); the sign-in POST that starts OAuth or sends a mail is not one yet.
 */
function isSignInAttempt(request: RequestInternal): boolean {
  return request.action === "callback";
}
