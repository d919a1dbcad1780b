/**
 * The OpenTelemetry SDK registered for a test file, with in-memory exporters, and every text the
 * telemetry produced (span names, attributes, events, status messages, metric names and labels).
 */
import { context, metrics, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";

export interface MetricPoint {
  name: string;
  attributes: Record<string, unknown>;
  value: unknown;
}

/**
 * Registers a context manager, a tracer and a meter provider globally (as an app's SDK set-up, such as
 * `NodeSDK`, does) and returns their exporters.
 */
export function registerInMemorySdk() {
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  const spans = new InMemorySpanExporter();
  // Every span of the file, never reset (a test resets `spans` to see its own): what the scan reads.
  const everySpan = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans), new SimpleSpanProcessor(everySpan)] });
  trace.setGlobalTracerProvider(tracerProvider);
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  // Exports only when the test asks (forceFlush): no timer decides what a test sees.
  const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 24 * 60 * 60 * 1000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  metrics.setGlobalMeterProvider(meterProvider);

  /** Every data point of the last collection. */
  async function collect(): Promise<MetricPoint[]> {
    metricExporter.reset();
    await reader.forceFlush();
    const last = metricExporter.getMetrics().at(-1);
    return (last?.scopeMetrics ?? []).flatMap((scope) =>
      scope.metrics.flatMap((metric) =>
        (metric.dataPoints as Array<{ attributes: Record<string, unknown>; value: unknown }>).map((point) => ({
          name: metric.descriptor.name,
          attributes: point.attributes,
          value: point.value,
        })),
      ),
    );
  }

  /** The finished spans so far. */
  const finished = (): ReadableSpan[] => spans.getFinishedSpans();

  /** Every span finished since the SDK was registered, whatever was reset since. */
  const allFinished = (): ReadableSpan[] => everySpan.getFinishedSpans();

  /** Every text the telemetry holds (every span of the file), to scan for personal data and secrets. */
  async function everyText(): Promise<string> {
    const spanTexts = allFinished().map((span) =>
      JSON.stringify({ name: span.name, attributes: span.attributes, events: span.events, status: span.status, links: span.links }),
    );
    const metricTexts = (await collect()).map((point) => JSON.stringify({ name: point.name, attributes: point.attributes }));
    return [...spanTexts, ...metricTexts].join("\n");
  }

  async function shutdown() {
    await tracerProvider.shutdown();
    await meterProvider.shutdown();
    trace.disable();
    metrics.disable();
    context.disable();
  }

  return { spans, finished, allFinished, collect, everyText, shutdown };
}
