/**
 * The instance's telemetry handle: small and always loaded, so the pipeline can ask "is telemetry on?"
 * with one property read. The OpenTelemetry code (`runtime.ts`) and `@opentelemetry/api` load lazily,
 * once per instance; when the package is not installed, or `telemetry: false`, nothing else happens.
 *
 * @module telemetry
 */
import type { AuthError } from "../errors.js";
import type { RequestInternal } from "../internal-types.js";
import type { RequestTrace, TelemetryRuntime } from "./runtime.js";
import type { TelemetryConfig } from "./types.js";

/** One instance's telemetry: the runtime once loaded, and what each traced request learns. */
export interface Telemetry {
  /** The runtime; `undefined` until loaded, and for good when `@opentelemetry/api` is absent. */
  runtime?: TelemetryRuntime;
  /** Settles when the runtime has loaded (or failed to). */
  ready: Promise<void>;
  /** `true` once `ready` settled: the pipeline awaits it only before. */
  settled: boolean;
  /** The spans of requests in flight, so the pipeline's error handling can note a failure on its request. */
  traces: WeakMap<RequestInternal, RequestTrace>;
  /** The configured providers' ids: the only provider values an attribute may hold. */
  providers: ReadonlySet<string>;
  config: TelemetryConfig;
}

/** The telemetry of a configuration, or `undefined` for `telemetry: false`. Starts loading the runtime. */
export function createTelemetry(option: TelemetryConfig | boolean | undefined, providerIds: string[]): Telemetry | undefined {
  if (option === false) return undefined;
  const telemetry: Telemetry = {
    ready: Promise.resolve(),
    settled: false,
    traces: new WeakMap(),
    providers: new Set(providerIds),
    config: typeof option === "object" ? option : {},
  };
  telemetry.ready = import("./runtime.js")
    .then(({ loadTelemetryRuntime }) => loadTelemetryRuntime())
    .then(
      (runtime) => {
        telemetry.runtime = runtime;
      },
      () => undefined,
    )
    .finally(() => {
      telemetry.settled = true;
    });
  return telemetry;
}

/** Notes on the request's span that it failed with `error` (no-op when the request is not traced). */
export function noteFailure(telemetry: Telemetry | undefined, request: RequestInternal, error: AuthError, rateLimited: boolean): void {
  const trace = telemetry?.traces.get(request);
  if (!trace) return;
  trace.errorType = error.type;
  trace.rateLimited = rateLimited;
}
