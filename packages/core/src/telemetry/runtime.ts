/**
 * The OpenTelemetry side of authlib, loaded only when telemetry is on and `@opentelemetry/api` is
 * installed. Every attribute and metric label comes from a closed set: HTTP method, route template,
 * action, a configured provider's id, an outcome name, an error type. Nothing a user typed or was sent
 * (email, name, token, code, cookie, secret, address) can reach a span or a metric by construction.
 *
 * @module telemetry/runtime
 */
import type { Attributes, Histogram, Meter, Span, Tracer } from "@opentelemetry/api";
import type { RequestInternal, RequestTrace, TraceSpan } from "../types/internal.js";

type Api = typeof import("@opentelemetry/api");

/** How a request ended, as a closed set of names. */
export type Outcome = "success" | "failure" | "refused";

/** A traced request as the runtime keeps it between its start and its end. */
export interface RequestRecord extends RequestTrace {
  span: Span;
  /** False when the sampler dropped the span: then only the metrics are taken. */
  recording: boolean;
  route: string;
  /** The id of the configured provider the request names, if any. */
  provider: string | undefined;
  started: number;
}

/** The instruments and tracer of one instance. */
export interface TelemetryRuntime {
  /**
   * Starts the request's span (a child of the active context) and its clock; `undefined` when there is
   * nothing to record (no SDK registered).
   */
  startRequest(request: RequestInternal, basePath: string, providers: ReadonlySet<string>): RequestRecord | undefined;
  /** Runs `run` in the context of the request's span, so its steps are children; only runs it when the sampler dropped the span. */
  within<T>(record: RequestRecord, run: () => Promise<T>): Promise<T>;
  /** Ends the request's span with its status and outcome, and records the request's metrics. */
  endRequest(request: RequestInternal, record: RequestRecord, status: number): void;
  /**
   * Runs `run` in a span `name`: a child of the active context when that context is inside one of
   * authlib's traced requests or operations, or, with `root`, always (an in-process operation that is
   * one of its own, such as `auth()` reading the session). Anywhere else it only runs `run`: a step
   * never makes spans for an instance whose telemetry is off, nor outside authlib's work. The span ends
   * with `authlib.outcome` (`refused` for `RateLimited`) and, on a failure, `error.type`.
   */
  step<T>(name: string, attributes: Attributes, run: () => Promise<T>, root?: boolean): Promise<T>;
  /**
   * `events` whose `signIn` also names the user on `span` by a keyed hash of their id
   * (`authlib.user.hash`, for `telemetry: { userId: "hashed" }`).
   */
  namingUser<E extends { signIn(message: { user: { id?: string } }): unknown }>(events: E, span: TraceSpan, secret: string): E;
  /** Counts an audit store's failed write. */
  auditWriteFailed(): void;
}

const SCOPE = "@authlib/core";

/** The error types are class names of authlib's errors; anything else is reported as `_OTHER`. */
const ERROR_TYPE = /^[A-Z][A-Za-z]{1,63}$/;

/** An error's type for `error.type`: an authlib error's `type` (a class name), else `_OTHER`. */
function errorTypeOf(error: unknown): string {
  const type = (error as { type?: unknown } | null)?.type;
  return typeof type === "string" && ERROR_TYPE.test(type) ? type : "_OTHER";
}

/** Spans whose work is a call to another system (a provider, a database): OpenTelemetry's CLIENT kind. */
const CLIENT_STEP = /^authlib\.(oauth|adapter)\./;

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

/** The instruments of one instance's metrics. */
interface Instruments {
  requestDuration: Histogram;
  signInAttempts: Tally;
  sessionChecks: Tally;
  rateLimitRefusals: Tally;
  auditFailures: Tally;
  /** False without a meter provider registered: then the instruments are the API's no-op ones. */
  metered: boolean;
}

function createInstruments(api: Api): Instruments {
  const meter = api.metrics.getMeter(SCOPE);
  const requestDuration: Histogram = meter.createHistogram("http.server.request.duration", {
    unit: "s",
    description: "Duration of authlib's HTTP requests (session checks: `http.route` <basePath>/session).",
  });
  return {
    requestDuration,
    signInAttempts: tally(meter, "authlib.sign_in.attempts", "Sign-in attempts by provider and outcome."),
    sessionChecks: tally(meter, "authlib.session.checks", "Session checks by outcome."),
    rateLimitRefusals: tally(meter, "authlib.rate_limit.refusals", "Requests a rate limit refused."),
    auditFailures: tally(meter, "authlib.audit.write_failures", "Audit events the store failed to write."),
    metered: !(requestDuration instanceof api.createNoopMeter().createHistogram("probe").constructor),
  };
}

function createRuntime(api: Api): TelemetryRuntime {
  const tracer: Tracer = api.trace.getTracer(SCOPE);
  // Marks a context as inside authlib's traced work (`Symbol.for`: the same key for every instance).
  const traced = api.createContextKey("authlib.traced");
  const instruments = createInstruments(api);

  return {
    startRequest(request, basePath, providers) {
      const route = routeTemplate(request, basePath);
      const provider = request.providerId !== undefined && providers.has(request.providerId) ? request.providerId : undefined;
      const attributes: Attributes = { "http.request.method": request.method, "http.route": route, "authlib.action": request.action };
      if (provider) attributes["authlib.provider"] = provider;
      const span = tracer.startSpan(`${request.method} ${route}`, { kind: api.SpanKind.SERVER, attributes });
      // A span the sampler dropped records nothing and has no children: only the metrics remain to take.
      const recording = span.isRecording();
      if (!instruments.metered && !recording) return undefined;
      return { span, recording, route, provider, started: performance.now() };
    },
    within(record, run) {
      if (!record.recording) return run();
      return api.context.with(api.trace.setSpan(api.context.active(), record.span).setValue(traced, true), run);
    },
    endRequest(request, record, status) {
      const outcome: Outcome = record.rateLimited ? "refused" : record.errorType || status >= 400 ? "failure" : "success";
      const errorType = record.errorType && ERROR_TYPE.test(record.errorType) ? record.errorType : record.errorType ? "_OTHER" : undefined;
      const { span } = record;
      if (record.recording) {
        span.setAttributes({ "http.response.status_code": status, "authlib.outcome": outcome });
        // An impersonated session's request names the admin acting (their id, never a token).
        if (request.impersonatorId) span.setAttribute("authlib.impersonator", request.impersonatorId);
        if (errorType) {
          span.setAttribute("error.type", errorType);
          span.setStatus({ code: api.SpanStatusCode.ERROR });
        }
      }
      span.end();
      recordRequestMetrics(instruments, request, record, { status, outcome, errorType });
    },
    step: (name, attributes, run, root = false) => runStep(api, tracer, traced, { name, attributes, root }, run),
    namingUser: eventsNamingUser,
    auditWriteFailed() {
      instruments.auditFailures("", () => ({}));
    },
  };
}

/** How a request ended, as its metrics label it. */
interface RequestEnd {
  status: number;
  outcome: Outcome;
  errorType: string | undefined;
}

/** The metrics of an ended request: its duration, and the counters it belongs to. */
function recordRequestMetrics(instruments: Instruments, request: RequestInternal, record: RequestRecord, end: RequestEnd): void {
  const { route, provider } = record;
  const { status, outcome, errorType } = end;
  const labels: Attributes = { "http.request.method": request.method, "http.route": route, "http.response.status_code": status };
  if (errorType) labels["error.type"] = errorType;
  instruments.requestDuration.record((performance.now() - record.started) / 1000, labels);
  if (request.action === "session" && request.method === "GET") instruments.sessionChecks(outcome, () => ({ "authlib.outcome": outcome }));
  if (isSignInAttempt(request)) {
    instruments.signInAttempts(`${outcome} ${provider} ${errorType}`, () => {
      const labels: Attributes = { "authlib.outcome": outcome };
      if (provider) labels["authlib.provider"] = provider;
      if (errorType) labels["error.type"] = errorType;
      return labels;
    });
  }
  if (record.rateLimited) {
    instruments.rateLimitRefusals(`${request.action} ${provider}`, () =>
      provider ? { "authlib.action": request.action, "authlib.provider": provider } : { "authlib.action": request.action },
    );
  }
}

/** {@link TelemetryRuntime.step}: `run` in a span `name` when the active context is traced (or `root`). */
async function runStep<T>(
  api: Api,
  tracer: Tracer,
  traced: symbol,
  { name, attributes, root }: { name: string; attributes: Attributes; root: boolean },
  run: () => Promise<T>,
): Promise<T> {
  const parent = api.context.active();
  if (!root && parent.getValue(traced) !== true) return run();
  const kind = CLIENT_STEP.test(name) ? api.SpanKind.CLIENT : api.SpanKind.INTERNAL;
  const span = tracer.startSpan(name, { kind, attributes }, parent);
  let outcome: Outcome = "success";
  try {
    return await api.context.with(api.trace.setSpan(parent, span).setValue(traced, true), run);
  } catch (error) {
    const errorType = errorTypeOf(error);
    outcome = errorType === "RateLimited" ? "refused" : "failure";
    span.setAttribute("error.type", errorType);
    span.setStatus({ code: api.SpanStatusCode.ERROR });
    throw error;
  } finally {
    span.setAttribute("authlib.outcome", outcome);
    span.end();
  }
}

/** {@link TelemetryRuntime.namingUser}. */
function eventsNamingUser<E extends { signIn(message: { user: { id?: string } }): unknown }>(
  events: E,
  span: TraceSpan,
  secret: string,
): E {
  return {
    ...events,
    signIn: async (message: Parameters<typeof events.signIn>[0]) => {
      if (message.user.id) span.setAttribute("authlib.user.hash", await userHash(secret, message.user.id));
      return events.signIn(message);
    },
  };
}

/** Counts one more under the labels `key` names (see {@link tally}). */
type Tally = (key: string, labels: () => Attributes) => void;

/**
 * A counter kept in memory and reported when the SDK collects (an observable counter): counting on the
 * request's path is one map update. Its labels come from closed sets (see the module comment), so the map
 * stays small.
 */
function tally(meter: Meter, name: string, description: string): Tally {
  const counts = new Map<string, { labels: Attributes; value: number }>();
  meter.createObservableCounter(name, { description }).addCallback((result) => {
    for (const { labels, value } of counts.values()) result.observe(value, labels);
  });
  // `key` names the labels (their values joined); `labels` makes them, the first time only.
  return (key, labels) => {
    const count = counts.get(key);
    if (count) count.value += 1;
    else counts.set(key, { labels: labels(), value: 1 });
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
 * The route as a template: the operation's declared path (`<basePath>/password/change`,
 * `<basePath>/signin/:provider`), never the client's text; a path the router knows for another method only
 * is its first segment. The provider's id is an attribute of its own, and only when it is a configured provider.
 */
function routeTemplate(request: RequestInternal, basePath: string): string {
  const { route, providerId } = request;
  if (route === undefined) return `${basePath}/${request.action}`;
  return `${basePath}/${providerId === undefined ? route.replace(/\/:provider$/, "") : route}`;
}

/**
 * A sign-in attempt: every sign-in ends on a callback (OAuth's return, the email link, a credentials or
 * passkey POST); the sign-in POST that starts OAuth or sends a mail is not one yet.
 */
function isSignInAttempt(request: RequestInternal): boolean {
  return request.action === "callback";
}
