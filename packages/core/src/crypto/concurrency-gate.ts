/**
 * A cap on how many tasks of one kind run at once, with a bounded first-in-first-out queue behind it.
 * Password hashing uses it: scrypt runs on libuv's small thread pool (4 threads by default), which file
 * and DNS work share, so a flood of sign-in attempts must not be able to occupy all of it, nor pile up
 * an unbounded backlog in memory.
 *
 * @module crypto/concurrency-gate
 */

/** How busy a gate is. */
export interface GateLoad {
  /** Tasks running now. */
  running: number;
  /** Tasks waiting for a slot. */
  queued: number;
}

/** Runs tasks at most `maxRunning` at once; at most `maxQueued` more wait, in order; the rest are refused. */
export class ConcurrencyGate {
  #running = 0;
  /** Waiting tasks' starters; `#head` is the next one (a plain array with a moving head: O(1) dequeue). */
  #queue: Array<() => void> = [];
  #head = 0;

  /**
   * @param maxRunning - tasks that may run at once (at least 1)
   * @param maxQueued - tasks that may wait for a slot (0: none wait)
   * @param refuse - the error a task beyond the queue is rejected with
   */
  constructor(
    private maxRunning: number,
    private maxQueued: number,
    private readonly refuse: () => Error,
  ) {}

  /** Changes the caps; tasks already waiting start as soon as the new cap allows. */
  resize(maxRunning: number, maxQueued: number): void {
    this.maxRunning = maxRunning;
    this.maxQueued = maxQueued;
    this.#startWaiting();
  }

  /** How many tasks run and wait now. */
  get load(): GateLoad {
    return { running: this.#running, queued: this.#queue.length - this.#head };
  }

  /**
   * Runs `task` when a slot is free. Rejects with the gate's refusal, without running `task`, when
   * `maxRunning` tasks run and `maxQueued` wait already.
   */
  run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#running < this.maxRunning && this.load.queued === 0) return this.#start(task);
    if (this.load.queued >= this.maxQueued) return Promise.reject(this.refuse());
    return new Promise<T>((resolve, reject) => {
      this.#queue.push(() => {
        this.#start(task).then(resolve, reject);
      });
    });
  }

  async #start<T>(task: () => Promise<T>): Promise<T> {
    this.#running += 1;
    try {
      return await task();
    } finally {
      this.#running -= 1;
      this.#startWaiting();
    }
  }

  #startWaiting(): void {
    while (this.#running < this.maxRunning && this.#head < this.#queue.length) {
      const next = this.#queue[this.#head] as () => void;
      this.#head += 1;
      next();
    }
    if (this.#head === this.#queue.length) {
      this.#queue = [];
      this.#head = 0;
    }
  }
}
