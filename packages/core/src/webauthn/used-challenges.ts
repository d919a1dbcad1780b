/**
 * The used-challenge memory of one instance: every claim of a challenge goes through it first (the
 * adapter's verification tokens, when it has them, then record the claim for the other instances).
 *
 * It must never forget a challenge while that challenge could still be answered: forgetting re-opens
 * replay. So an entry leaves only when its challenge has expired, never to make room. What fills it is
 * bounded by who can put entries in: only an answer that verified (a valid signature over a challenge
 * this server sealed) is remembered, and each lives at most as long as its challenge. When it is full of
 * live entries anyway (a flood of verified answers), a new answer is refused until the oldest challenge
 * expires, rather than evicting a live one; the caller turns that into `RateLimited`.
 *
 * Expired entries are found through a min-heap on their expiry, so each claim does bounded work
 * (amortised O(log n)), however the expiries interleave.
 *
 * @module webauthn/used-challenges
 */
import type { ClaimResult, UsedChallenges } from "../types/internal.js";

/** Live used challenges one instance remembers at most (about 250 bytes each: ~12 MB when full). */
export const MAX_REMEMBERED_CHALLENGES = 50_000;

/** What a claim found: the challenge is now used, was used already, or there is no room until `retryAt` (ms). */
export type { ClaimResult };

/** Challenges (by key) that were answered, each kept until its expiry. */
export class UsedChallengeMemory implements UsedChallenges {
  readonly capacity: number;
  /** key → expiry (ms). */
  readonly #expiries = new Map<string, number>();
  /** Min-heap on expiry of [expiry, key]; an entry whose key now has another expiry is stale and skipped. */
  readonly #heap: Array<[number, string]> = [];

  constructor(capacity = MAX_REMEMBERED_CHALLENGES) {
    if (!Number.isSafeInteger(capacity) || capacity < 1) throw new RangeError("The used-challenge capacity must be a whole number >= 1.");
    this.capacity = capacity;
  }

  /** How many used challenges are remembered (expired ones included until the next claim). */
  get size(): number {
    return this.#expiries.size;
  }

  /** Marks `key` used until `expiresAt` (ms), unless it is used already or there is no room. */
  claim(key: string, expiresAt: number, now = Date.now()): ClaimResult {
    this.#forgetExpired(now);
    if (this.#expiries.has(key)) return { claimed: false, reason: "used" };
    if (this.#expiries.size >= this.capacity) return { claimed: false, reason: "full", retryAt: this.#heap[0]?.[0] ?? now };
    this.#expiries.set(key, expiresAt);
    this.#push([expiresAt, key]);
    return { claimed: true };
  }

  #forgetExpired(now: number): void {
    while (this.#heap.length > 0 && (this.#heap[0] as [number, string])[0] <= now) {
      const [expiresAt, key] = this.#pop();
      if (this.#expiries.get(key) === expiresAt) this.#expiries.delete(key);
    }
  }

  #push(entry: [number, string]): void {
    const heap = this.#heap;
    heap.push(entry);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((heap[parent] as [number, string])[0] <= entry[0]) break;
      heap[i] = heap[parent] as [number, string];
      i = parent;
    }
    heap[i] = entry;
  }

  #pop(): [number, string] {
    const heap = this.#heap;
    const top = heap[0] as [number, string];
    const last = heap.pop() as [number, string];
    if (heap.length === 0) return top;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child = right < heap.length && (heap[right] as [number, string])[0] < (heap[left] as [number, string])[0] ? right : left;
      if ((heap[child] as [number, string])[0] >= last[0]) break;
      heap[i] = heap[child] as [number, string];
      i = child;
    }
    heap[i] = last;
    return top;
  }
}
