/**
 * Running many requests with a fixed number in flight, and summarising their latencies. Figures are
 * recorded and printed, never asserted: this machine is shared and noisy.
 */

/** Runs `work` on every item with at most `inFlight` running at once; results in item order. */
export async function runBounded<T, R>(items: readonly T[], inFlight: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  async function lane(): Promise<void> {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T, index);
    }
  }
  await Promise.all(Array.from({ length: Math.min(inFlight, items.length) }, lane));
  return results;
}

/** Latency figures of one batch of requests, in milliseconds (rounded to 0.1 ms). */
export interface LatencySummary {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Requests per second over the batch's wall time. */
  throughput: number;
  wallMillis: number;
}

/** The value at quantile `q` (nearest rank) of sorted `values`. */
function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
  return sorted[rank - 1] as number;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

/** Summarises `millis` (one latency per request) of a batch that took `wallMillis`. */
export function summarize(millis: readonly number[], wallMillis: number): LatencySummary {
  const sorted = [...millis].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: round(quantile(sorted, 0.5)),
    p90: round(quantile(sorted, 0.9)),
    p99: round(quantile(sorted, 0.99)),
    max: round(sorted.at(-1) ?? Number.NaN),
    throughput: round((sorted.length / wallMillis) * 1000),
    wallMillis: Math.round(wallMillis),
  };
}

/** Runs `batch` and returns its result with its wall time in milliseconds. */
export async function timed<R>(batch: () => Promise<R>): Promise<{ result: R; wallMillis: number }> {
  const started = performance.now();
  const result = await batch();
  return { result, wallMillis: performance.now() - started };
}
