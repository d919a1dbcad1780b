/**
 * The instance's telemetry handle: small and always loaded, so the pipeline can ask "is telemetry on?"
 * with one property read. The OpenTelemetry code (`runtime.ts`) and `@opentelemetry/api` load lazily,
 * once per instance; when the package is not installed, or `telemetry: false`, nothing else happens.
 *
 * @module telemetry
 */
import type { AuthError } from "../errors.js";
import type { RequestInternal } from "../types/internal.js";
import type { TelemetryConfig } from "../types/telemetry.js";
import type { TelemetryRuntime } from "./runtime.js";

/** One instance's telemetry: the runtime once loaded, and what each traced request learns. */
export interface Telemetry {
  /** The runtime; `undefined` until loaded, and for good when `@opentelemetry/api` is absent. */
  runtime?: TelemetryRuntime;
  /** Settles when the runtime has loaded (or failed to). */
  ready: Promise<void>;
  /** `true` once `ready` settled: the pipeline awaits it only before. */
  settled: boolean;
  /** The configured providers' ids: the only provider values an attribute may hold. */
  providers: ReadonlySet<string>;
  config: TelemetryConfig;
}

/**
 * The loaded runtime's span maker. The OpenTelemetry API is one per process, and so is this: an instance
 * with `telemetry: false` never loads the runtime, and a step makes a span only inside a traced request
 * or operation of an instance whose telemetry is on (see `TelemetryRuntime.step`).
 */
let loadedStep: TelemetryRuntime["step"] | undefined;

/**
 * Runs `run` in a child span `name` (attributes from closed sets only: ids of configured providers,
 * rule names, strategies) when it runs inside authlib's traced work; else only runs it.
 */
export function inSpan<T>(name: string, attributes: Record<string, string>, run: () => Promise<T>): Promise<T> {
  return loadedStep ? loadedStep(name, attributes, run) : run();
}

/**
 * The `authlib.provider` attribute of a provider's step spans: a configured provider's id, or the closed
 * label of a provider a feature makes per customer (`InternalProvider.spanLabel`).
 */
export function providerAttributes(provider: { id: string; spanLabel?: string }): Record<string, string> {
  return { "authlib.provider": provider.spanLabel ?? provider.id };
}

/** The telemetry of a configuration, or `undefined` for `telemetry: false`. Starts loading the runtime. */
export function createTelemetry(option: TelemetryConfig | boolean | undefined, providerIds: string[]): Telemetry | undefined {
  if (option === false) return undefined;
  const telemetry: Telemetry = {
    ready: Promise.resolve(),
    settled: false,
    providers: new Set(providerIds),
    config: typeof option === "object" ? option : {},
  };
  telemetry.ready = import("./runtime.js")
    .then(({ loadTelemetryRuntime }) => loadTelemetryRuntime())
    .then(
      (runtime) => {
        telemetry.runtime = runtime;
        loadedStep ??= runtime?.step;
      },
      () => undefined,
    )
    .finally(() => {
      telemetry.settled = true;
    });
  return telemetry;
}

/** Notes on the request's span that it failed with `error` (no-op when the request is not traced). */
export function noteFailure(request: RequestInternal, error: AuthError, rateLimited: boolean): void {
  const trace = request.trace;
  if (!trace) return;
  trace.errorType = error.type;
  trace.rateLimited = rateLimited;
}
