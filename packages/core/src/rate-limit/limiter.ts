/**
 * The limiter's building blocks on top of a store: key naming, the client address of a request,
 * counting a request against a limit, and the refusal (`RateLimited`, logged without the identifier).
 *
 * Keys are `authlib:<scope>:<hash>`, e.g. `authlib:cred:acct:3f9a…`: the identifier (an account name, a
 * mailbox, an address) is keyed-hashed with the secret, so the store never holds it in clear, cannot be
 * searched with a list of known addresses, and a 1 MB username is a 32-character key.
 *
 * @module rate-limit/limiter
 */
import { hmacHex } from "../crypto/digest.js";
import { processEnv, readEnv } from "../env/read.js";
import { RateLimited } from "../errors.js";
import { inSpan } from "../telemetry/index.js";
import type { InternalOptions, RequestInternal } from "../types/internal.js";
import { clientBucket, defaultClientAddress } from "./client-address.js";
import { type RateLimitConfig, type ResolvedLimit, type ResolvedRateLimits, resolveRateLimits } from "./config.js";
import { memoryRateLimitStore, type RateLimitStore, type RateLimitWindow } from "./store.js";

/** What a key counts. The prefix of every key is `authlib:<scope>:`. */
export type LimitScope =
  | "cred:acct"
  | "cred:wait"
  | "cred:dev"
  | "cred:dwait"
  | "cred:ip"
  | "email:mbox"
  | "email:dev"
  | "email:rec"
  | "email:ip"
  | "code:mbox"
  | "code:ip"
  | "code:mail"
  | "passkey:ip"
  | "session:ip"
  | "2fa:user"
  | "2fa:ip"
  | "2fa:try"
  | "2fa:used"
  | "oauth:reg"
  | "oauth:device"
  | "apikey:key";

/**
 * The resolved limits of the request's configuration (`false`: all off), resolved on first use and kept.
 * Throws `AuthError` for a malformed `rateLimit` setting. In production without a store, logs
 * `rate-limit-memory-store` when they are resolved, so once per configuration.
 */
export function limitsOf(options: Pick<InternalOptions, "rateLimits" | "logger">): ResolvedRateLimits | false {
  const holder = options.rateLimits;
  if (holder.resolved === undefined) {
    holder.resolved = resolveRateLimits(holder.config, holder.features);
    if (usesMemoryStoreInProduction(holder.config, readEnv(processEnv(), "NODE_ENV"))) options.logger.warn("rate-limit-memory-store");
  }
  return holder.resolved;
}

/**
 * True when the limits are on, `nodeEnv` is `production`, and no shared store is configured: each
 * instance then counts in its own memory (`rate-limit-memory-store`; `authlib doctor` says it too).
 */
export function usesMemoryStoreInProduction(config: RateLimitConfig | false | undefined, nodeEnv: string | undefined): boolean {
  return config !== false && nodeEnv === "production" && config?.store === undefined;
}

/**
 * True when `request` came through a proxy (it carries `X-Forwarded-For` or `Forwarded`) and the app
 * has no `rateLimit.clientAddress`: the connection address is then the proxy's, shared by every client.
 */
export function proxiedWithoutClientAddress(limits: Pick<ResolvedRateLimits, "clientAddress">, request: Request): boolean {
  return limits.clientAddress === undefined && (request.headers.has("x-forwarded-for") || request.headers.has("forwarded"));
}

/**
 * What a refused client is told, per scope. Chosen at the refusal, not kept in a module constant: this
 * module loads with the first limited request, so a constant would be evaluated inside whichever test
 * came first, and the mutation run would credit only that test with it (docs/testing.md, Scores).
 */
function tooManyMessage(scope: LimitScope): string {
  switch (scope) {
    case "email:ip":
      return "Too many sign-in mails requested from this client; try again later.";
    case "code:ip":
      return "Too many sign-in codes tried from this client; try again later, or use the link in the email.";
    case "passkey:ip":
      return "Too many passkey requests from this client; try again later.";
    case "session:ip":
      return "Too many session updates from this client; try again later.";
    case "2fa:ip":
      return "Too many codes tried from this client; try again later.";
    default:
      return "Too many requests from this client; try again later.";
  }
}

/** The store of `limits`: the configured one, else this configuration's memory store (made on first use). */
export function storeOf(limits: ResolvedRateLimits): RateLimitStore {
  limits.store ??= memoryRateLimitStore();
  return limits.store;
}

/**
 * Where single-use codes count their tries (email codes, second-factor codes): the limits' store, else,
 * with `rateLimit: false`, this configuration's own memory store, since those counts are never optional.
 */
export function codeTryStore(options: InternalOptions): RateLimitStore {
  const limits = limitsOf(options);
  if (limits) return storeOf(limits);
  options.rateLimits.codeStore ??= memoryRateLimitStore();
  return options.rateLimits.codeStore;
}

/** Hex characters of the hash kept in a key: 128 bits. */
const HASH_LENGTH = 32;

/** The store key of `identifier` in `scope`: `authlib:<scope>:<keyed hash>`. */
export async function limitKey(options: Pick<InternalOptions, "secret">, scope: LimitScope, identifier: string): Promise<string> {
  const hash = await hmacHex(options.secret[0] as string, `authlib.rate-limit:${scope}:${identifier}`);
  return `authlib:${scope}:${hash.slice(0, HASH_LENGTH)}`;
}

/**
 * The client address of `request`, grouped (see `client-address.ts`), or `undefined` when none is known:
 * per-client limits are then skipped, never counted in one shared bucket (which would let one client
 * lock everyone out). That is said once per configuration, at debug level. A request that came through
 * a proxy while the app reads no address from it logs `rate-limit-behind-proxy`, once per configuration.
 */
export function clientAddressOf(options: InternalOptions, limits: ResolvedRateLimits, request: RequestInternal): string | undefined {
  if (!limits.saidBehindProxy && proxiedWithoutClientAddress(limits, request.request)) {
    limits.saidBehindProxy = true;
    options.logger.warn("rate-limit-behind-proxy");
  }
  const address = (limits.clientAddress ?? defaultClientAddress)(request.request, request.connectionAddress);
  if (typeof address === "string" && address.trim() !== "") return clientBucket(address);
  if (!limits.saidNoClientAddress) {
    limits.saidNoClientAddress = true;
    options.logger.debug(
      "rate-limit: no client address is known for a request, so per-client limits are off for it. Pass the connection address (Auth's third argument) or set rateLimit.clientAddress.",
    );
  }
  return undefined;
}

/** The refusal for `key`, whose window ends at `resetAt`: a `RateLimited` with `retryAfter`, logged at debug (hashed key only). */
export function refusal(options: InternalOptions, key: string, resetAt: number, message: string): RateLimited {
  const retryAfter = Math.max(1, Math.ceil((resetAt - Date.now()) / 1000));
  options.logger.debug("rate-limit: refused", { key, retryAfter });
  const error = new RateLimited(message, { cause: { key, retryAfter } });
  error.retryAfter = Number.isFinite(retryAfter) ? retryAfter : undefined;
  return error;
}

/** True when `window` is over `max` (a store that failed closed answers with an infinite count). */
export function isOver(window: RateLimitWindow | null, max: number): window is RateLimitWindow {
  return window !== null && window.count >= max;
}

/**
 * Counts one request for `identifier` in `scope`, and throws `RateLimited` when it is one too many.
 * Counting first and deciding on the count the store returned makes it exact under concurrency.
 */
export async function countRequest(
  options: InternalOptions,
  store: RateLimitStore,
  scope: LimitScope,
  identifier: string,
  limit: ResolvedLimit,
  message: string,
): Promise<void> {
  await inSpan("authlib.rate_limit", { "authlib.rate_limit.rule": scope }, async () => {
    const key = await limitKey(options, scope, identifier);
    const window = await store.increment(key, limit.windowSeconds * 1000);
    if (window.count > limit.max) throw refusal(options, key, window.resetAt, message);
  });
}

/** Counts a request from the client of `request` against `limit` (nothing when no address is known). */
export async function countClientRequest(
  options: InternalOptions,
  request: RequestInternal,
  scope: LimitScope,
  limit: (limits: ResolvedRateLimits) => ResolvedLimit | false,
): Promise<void> {
  const limits = limitsOf(options);
  if (!limits) return;
  const chosen = limit(limits);
  if (!chosen) return;
  const client = clientAddressOf(options, limits, request);
  const message = tooManyMessage(scope);
  if (client !== undefined) await countRequest(options, storeOf(limits), scope, client, chosen, message);
}
