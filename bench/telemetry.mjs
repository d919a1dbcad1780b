// What OpenTelemetry costs the session check: `Auth()` GET /session (JWT, 300 users' cookies in rotation),
// interleaved (bench/harness.mjs) in five phases of one process, since an SDK is registered process-wide:
//   1. no SDK registered: telemetry on by default (the API installed, doing nothing) vs `telemetry: false`;
//   2. an SDK registered as NodeSDK does (an AsyncLocalStorage context manager, a tracer provider with a
//      batch span processor whose exporter drops the spans, a meter provider whose reader never exports),
//      every request sampled: tracing on vs `telemetry: false`;
//   3. the same with the usual production sampler, ParentBased(TraceIdRatioBased(0.1));
//   4. as 2, with both sides inside a context of the app's (as its HTTP instrumentation makes per request),
//      so the context manager's cost is on both sides;
//   5. as 2, with no span processor: spans are made and ended, and none is kept or handed on.
// Then GET /auth/session over HTTP (telemetryHttpRun). Each row is `on / off` throughput. Part of `npm run bench` (`--no-telemetry` leaves it out); also alone:
//   node bench/telemetry.mjs
import { fileURLToPath, pathToFileURL } from "node:url";
import { Auth } from "@authlib/core";
import { context, metrics, trace } from "@opentelemetry/api";
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
 * the exporters drop it. With `spanProcessor: false`, the tracer provider has no span processor: spans are
 * made and ended, and none is kept or handed on.
 */
export function registerSdk(sampler, { spanProcessor = true } = {}) {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const dropping = { export: (_spans, done) => done({ code: 0 }), shutdown: async () => {} };
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: spanProcessor ? [new BatchSpanProcessor(dropping)] : [],
    ...(sampler ? { sampler } : {}),
  });
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
 * `check` run inside a context of the app's own, as an app's HTTP instrumentation makes one per request:
 * a sampled span of the app (a span context only, so it costs nothing itself) is the active span.
 */
function inAppContext(check) {
  const appSpan = trace.wrapSpanContext({ traceId: "0af7651916cd43dd8448eb211c80319c", spanId: "b7ad6b7169203331", traceFlags: 1 });
  const appContext = trace.setSpan(context.active(), appSpan);
  return () => context.with(appContext, check);
}

/**
 * One interleaved row of telemetry on (a fresh instance, made with the SDK `sampler` registered) vs `off`;
 * with `appContext`, both sides run inside a context of the app's (see {@link inAppContext}); with
 * `spanProcessor: false`, the SDK keeps no span (see {@link registerSdk}).
 */
async function tracedRow(name, off, sampler, { appContext = false, spanProcessor = true } = {}) {
  const unregister = registerSdk(sampler, { spanProcessor });
  try {
    const traced = await sessionCheck(configOf(undefined));
    const sides = appContext ? { ours: inAppContext(traced), theirs: inAppContext(off) } : { ours: traced, theirs: off };
    const [row] = await interleave([{ name, ...sides }]);
    return row;
  } finally {
    await unregister();
  }
}

/** The five interleaved rows. */
export async function telemetryRun({ log = () => {} } = {}) {
  const off = await sessionCheck(configOf(false));
  log("  phase 1: no SDK registered");
  const noSdk = await sessionCheck(configOf(undefined));
  const [first] = await interleave([{ name: "no SDK registered (API installed, default) vs telemetry: false", ours: noSdk, theirs: off }]);
  log("  phase 2: SDK registered, every request sampled (spans and metrics recorded, exporters drop them)");
  const second = await tracedRow("SDK registered, every request traced vs telemetry: false", off);
  log("  phase 3: SDK registered, 10 % of traces sampled (ParentBased(TraceIdRatioBased(0.1)))");
  const third = await tracedRow("SDK registered, 10 % of traces sampled vs telemetry: false", off, productionSampler());
  log("  phase 4: SDK registered, both sides inside the app's own request context (as its HTTP instrumentation makes)");
  const fourth = await tracedRow(
    "SDK registered, both sides in the app's request context, every request traced vs telemetry: false",
    off,
    undefined,
    {
      appContext: true,
    },
  );
  log("  phase 5: SDK registered without a span processor (spans made and ended, none kept), every request traced");
  const fifth = await tracedRow("SDK registered without a span processor, every request traced vs telemetry: false", off, undefined, {
    spanProcessor: false,
  });
  return [first, second, third, fourth, fifth];
}

const BENCH_DIR = fileURLToPath(new URL(".", import.meta.url));

/**
 * GET /auth/session over HTTP, the way an app serves it: two server processes (bench/telemetry-server.mjs,
 * an SDK registered in each), one with telemetry on and one with `telemetry: false`, up at once and hit
 * with autocannon in alternating runs, the users' cookies in rotation. One row per sampling: every request
 * traced, then 10 % of traces sampled. Each row is the median `on / off` requests per second.
 */
export async function telemetryHttpRun({ rounds = 5, duration = 3, connections = 8, log = () => {} } = {}) {
  const cookies = await signInCookies(configOf(false));
  const rows = [];
  for (const [name, sampling] of [
    ["SDK registered, every request traced vs telemetry: false", []],
    ["SDK registered, 10 % of traces sampled vs telemetry: false", ["sampled"]],
  ]) {
    log(`  over HTTP: ${name}`);
    const servers = {
      on: await serve(["telemetry-server.mjs", "on", ...sampling], BENCH_DIR),
      off: await serve(["telemetry-server.mjs", "off", ...sampling], BENCH_DIR),
    };
    try {
      for (const side of ["on", "off"]) {
        const session = await (await fetch(`${servers[side].url}/auth/session`, { headers: { cookie: cookies[0] } })).json();
        check(session?.user?.email === "user-0@example.com", `GET /auth/session over HTTP (${side})`);
      }
      const samples = await alternate(["on", "off"], {
        rounds,
        warm: (side) => cannon(`${servers[side].url}/auth/session`, cookies, { duration: 1, connections }),
        measure: (side) => cannon(`${servers[side].url}/auth/session`, cookies, { duration, connections }),
      });
      const [on, off] = ["on", "off"].map((side) => median(samples[side].map((result) => result.requests.average)));
      rows.push({ operation: name, ours: on, theirs: off, ratio: on / off });
    } finally {
      for (const { child } of Object.values(servers)) child.kill("SIGTERM");
    }
  }
  return rows;
}

export function formatTelemetryHttpTable(rows) {
  return formatTable(rows, {
    operation: `GET /auth/session over HTTP (toNodeHandler on node:http, ${USERS} users in rotation)`,
    ours: "telemetry on (req/s)",
    theirs: "telemetry: false (req/s)",
    ratio: "on / off",
  });
}

export function formatTelemetryTable(rows) {
  return formatTable(rows, {
    operation: `JWT session check (Auth() GET /session, ${USERS} users in rotation)`,
    ours: "telemetry on (ops/s)",
    theirs: "telemetry: false (ops/s)",
    ratio: "on / off",
  });
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(`# Telemetry overhead\n\n${commit()} · ${new Date().toISOString()} · ${machine()}\n`);
  const log = (line) => console.error(line);
  console.log(formatTelemetryTable(await telemetryRun({ log })));
  console.log(`\n${formatTelemetryHttpTable(await telemetryHttpRun({ log }))}`);
}
