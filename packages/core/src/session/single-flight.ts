/**
 * One in-process promise per key: callers that ask for the same key while a call is running (or within
 * `graceMs` after it succeeded) share its result instead of starting another. A failed call is forgotten
 * at once. At most `maxKeys` keys are kept; expired ones are dropped first, then the oldest.
 *
 * @module session/single-flight
 */
export class SingleFlight<T> {
  readonly #flights = new Map<string, { promise: Promise<T>; until: number }>();
  readonly #graceMs: number;
  readonly #maxKeys: number;

  constructor(graceMs: number, maxKeys = 10_000) {
    this.#graceMs = graceMs;
    this.#maxKeys = maxKeys;
  }

  /** The running (or just finished) call for `key`, or a new call of `run`. */
  run(key: string, run: () => Promise<T>): Promise<T> {
    const now = Date.now();
    const current = this.#flights.get(key);
    if (current && current.until > now) return current.promise;
    this.#makeRoom(now);
    const entry = { promise: run(), until: Number.POSITIVE_INFINITY };
    this.#flights.set(key, entry);
    entry.promise.then(
      () => {
        entry.until = Date.now() + this.#graceMs;
      },
      () => {
        if (this.#flights.get(key) === entry) this.#flights.delete(key);
      },
    );
    return entry.promise;
  }

  #makeRoom(now: number): void {
    if (this.#flights.size < this.#maxKeys) return;
    for (const [key, entry] of this.#flights) if (entry.until <= now) this.#flights.delete(key);
    while (this.#flights.size >= this.#maxKeys) this.#flights.delete(this.#flights.keys().next().value as string);
  }
}
