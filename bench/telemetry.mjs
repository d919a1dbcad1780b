// What OpenTelemetry costs the session check: `Auth()` GET /session (JWT, 300 users' cookies in rotation),
// interleaved (bench/harness.mjs) in three phases of one process, since an SDK is registered process-wide:
//   1. no SDK registered: telemetry on by default (the API installed, doing nothing) vs `telemetry: false`;
//   2. an SDK registered as NodeSDK does (an AsyncLocalStorage context manager, a tracer provider with a
//      batch span processor whose exporter drops the spans, a meter provider whose reader never exports),
//      every request sampled: tracing on vs `telemetry: false`, and vs the least instrumentation (one span
//      made active, ended, and one histogram record around `telemetry: false`);
//   3. the same with the usual production sampler, ParentBased(TraceIdRatioBased(0.1)).
// Then GET /auth/session over HTTP (telemetryHttpRun), the same three sides served by one process. Each row
// is `on / off` and `on / least` throughput. Part of `npm run bench` (`--no-telemetry` leaves it out); also alone:
//   node bench/telemetry.mjs
import { fileURLToPath, pathToFileURL } from "node:url";
import { Auth } from "@authlib/core";
import { context, metrics, SpanKind, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { MeterProvider, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler } from "@opentelemetry/sdk-trace-base";
import { check, credentialsConfig, get, rotatingCheck, signIn } from "./credentials-users.mjs";
import { commit, machine } from "./environment.mjs";
import { formatTable, interleave, median } from "./harness.mjs";
import { alternate, cannon, serve } from "./http.mjs";

const USERS = 300;

export const configOf = (telemetry) => credentialsConfig(telemetry === undefined ? {} : { telemetry });

/** The session cookies of the bench's users, signed in through `config` (any instance with the bench's secret reads them). */
export async function signInCookies(config) {
  const cookies = [];
  for (let i = 0; i < USERS; i++) cookies.push(await signIn(config, i));
  return cookies;
}

/** A checked, rotating session check of `config` over its own signed-in users. */
export async function sessionCheck(config) {
  const cookies = await signInCookies(config);
  for (const [i, cookie] of cookies.entries()) {
    const session = await (await Auth(get("session", cookie), config)).json();
    check(session?.user?.email === `user-${i}@example.com`, `GET /session of user ${i}`);
  }
  return rotatingCheck(config, cookies);
}

/**
 * Registers what an app's SDK set-up (`NodeSDK`) registers: a context manager (so child spans find their
 * parent), a tracer provider with a batch span processor, and a meter provider. Everything is recorded;
 * the exporters drop it.
 */
export function registerSdk(sampler) {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const dropping = { export: (_spans, done) => done({ code: 0 }), shutdown: async () => {} };
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(dropping)], ...(sampler ? { sampler } : {}) });
  trace.setGlobalTracerProvider(tracerProvider);
  const exporter = { export: (_metrics, done) => done({ code: 0 }), forceFlush: async () => {}, shutdown: async () => {} };
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 24 * 60 * 60 * 1000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  metrics.setGlobalMeterProvider(meterProvider);
  return async () => {
    await tracerProvider.shutdown();
    await meterProvider.shutdown();
    trace.disable();
    metrics.disable();
    context.disable();
  };
}

/** The usual production sampler: 10 % of new traces, a child sampled as its parent is. */
export function productionSampler() {
  return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(0.1) });
}

/**
 * The least instrumentation that gives a request the telemetry the issue asks of authlib, written by hand
 * around a request that has none: one span made active (so the request's steps could be its children),
 * ended with the answer's status, and one record of the duration histogram. Call it once an SDK is
 * registered. `instrument(run)` runs `run` (which resolves with the answer's status) inside it.
 */
export function minimalInstrumentation() {
  const tracer = trace.getTracer("bench-minimum");
  const duration = metrics.getMeter("bench-minimum").createHistogram("http.server.request.duration", { unit: "s" });
  const attributes = { "http.request.method": "GET", "http.route": "/auth/session" };
  return async (run) => {
    const started = performance.now();
    const span = tracer.startSpan("GET /auth/session", { kind: SpanKind.SERVER, attributes });
    const status = await context.with(trace.setSpan(context.active(), span), run);
    span.setAttribute("http.response.status_code", status);
    span.end();
    duration.record((performance.now() - started) / 1000, { ...attributes, "http.response.status_code": status });
  };
}

/**
 * One interleaved row, with the SDK `sampler` registered: tracing on (a fresh instance) as ours, `off` as
 * theirs, and `off` inside the least instrumentation ({@link minimalInstrumentation}) as the floor.
 */
async function tracedRow(name, off, sampler) {
  const unregister = registerSdk(sampler);
  try {
    const traced = await sessionCheck(configOf(undefined));
    const instrument = minimalInstrumentation();
    const minimum = () => instrument(async () => (await off()).status);
    const [row] = await interleave([{ name, ours: traced, theirs: off, floor: minimum }]);
    return row;
  } finally {
    await unregister();
  }
}

/** The three interleaved rows. */
export async function telemetryRun({ log = () => {} } = {}) {
  const off = await sessionCheck(configOf(false));
  log("  phase 1: no SDK registered");
  const noSdk = await sessionCheck(configOf(undefined));
  const [first] = await interleave([{ name: "no SDK registered (API installed, default) vs telemetry: false", ours: noSdk, theirs: off }]);
  log("  phase 2: SDK registered, every request sampled (spans and metrics recorded, exporters drop them)");
  const second = await tracedRow("SDK registered, every request traced", off);
  log("  phase 3: SDK registered, 10 % of traces sampled (ParentBased(TraceIdRatioBased(0.1)))");
  const third = await tracedRow("SDK registered, 10 % of traces sampled", off, productionSampler());
  return [first, second, third];
}

const BENCH_DIR = fileURLToPath(new URL(".", import.meta.url));

/** The sides of the HTTP run, in the order bench/telemetry-server.mjs listens for them. */
const HTTP_SIDES = ["on", "off", "minimum"];

/**
 * GET /auth/session over HTTP, the way an app serves it: one server process (bench/telemetry-server.mjs,
 * an SDK registered) that serves the three sides on three ports (telemetry on, `telemetry: false`, and
 * `telemetry: false` inside the least instrumentation), so the process's state (its context manager's
 * hooks, its garbage collector, its share of the two cores) is the same for all three; autocannon hits
 * them in runs that rotate between them, the users' cookies in rotation. One row per sampling: every
 * request traced, then 10 % of traces sampled. Each row has the median requests per second of each side.
 */
export async function telemetryHttpRun({ rounds = 5, duration = 3, connections = 8, log = () => {} } = {}) {
  const cookies = await signInCookies(configOf(false));
  const rows = [];
  for (const [name, sampling] of [
    ["SDK registered, every request traced", []],
    ["SDK registered, 10 % of traces sampled", ["sampled"]],
  ]) {
    log(`  over HTTP: ${name}`);
    const server = await serve(["telemetry-server.mjs", ...sampling], BENCH_DIR);
    const url = Object.fromEntries(HTTP_SIDES.map((side, i) => [side, `${server.urls[i]}/auth/session`]));
    try {
      for (const side of HTTP_SIDES) {
        const session = await (await fetch(url[side], { headers: { cookie: cookies[0] } })).json();
        check(session?.user?.email === "user-0@example.com", `GET /auth/session over HTTP (${side})`);
      }
      const samples = await alternate(HTTP_SIDES, {
        rounds,
        warm: (side) => cannon(url[side], cookies, { duration: 1, connections }),
        measure: (side) => cannon(url[side], cookies, { duration, connections }),
      });
      const [on, off, minimum] = HTTP_SIDES.map((side) => median(samples[side].map((result) => result.requests.average)));
      rows.push({ operation: name, ours: on, theirs: off, ratio: on / off, floor: minimum, floorRatio: on / minimum });
    } finally {
      server.child.kill("SIGTERM");
    }
  }
  return rows;
}

/** The columns of both tables: the minimum is the row's floor (see {@link minimalInstrumentation}). */
const SIDE_HEADINGS = { ratio: "on / off", floor: "least instrumentation (ops/s)", floorRatio: "on / least" };

export function formatTelemetryHttpTable(rows) {
  return formatTable(rows, {
    operation: `GET /auth/session over HTTP (toNodeHandler on node:http, ${USERS} users in rotation)`,
    ours: "telemetry on (req/s)",
    theirs: "telemetry: false (req/s)",
    ...SIDE_HEADINGS,
    floor: "least instrumentation (req/s)",
  });
}

export function formatTelemetryTable(rows) {
  return formatTable(rows, {
    operation: `JWT session check (Auth() GET /session, ${USERS} users in rotation)`,
    ours: "telemetry on (ops/s)",
    theirs: "telemetry: false (ops/s)",
    ...SIDE_HEADINGS,
  });
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(`# Telemetry overhead\n\n${commit()} · ${new Date().toISOString()} · ${machine()}\n`);
  const log = (line) => console.error(line);
  console.log(formatTelemetryTable(await telemetryRun({ log })));
  console.log(`\n${formatTelemetryHttpTable(await telemetryHttpRun({ log }))}`);
}
