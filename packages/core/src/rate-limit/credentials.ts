/**
 * The limits on credentials sign-in (see `CredentialsRateLimit` for the settings), checked before
 * `authorize` runs: a refused attempt costs a few store reads, never a password hash.
 *
 * Per account (`authlib:cred:acct:<hash>`): every attempt that reaches `authorize` is counted in a
 * window of `lockoutWindowSeconds` opened by the first one, and the count is cleared when an attempt
 * succeeds. From the `freeFailures`-th attempt on, each attempt also claims a wait key
 * (`authlib:cred:wait:<hash>`) whose window (the delay before the next attempt) doubles with each
 * failure; while it is live, attempts are refused. Once `lockoutFailures` attempts have failed, the
 * account is locked until the count's window ends. Refused attempts are only read, never counted, so
 * they neither lengthen the lockout nor push it closer.
 *
 * Per known device (`authlib:cred:dev:<hash>`, `authlib:cred:dwait:<hash>`): a browser that carries a
 * valid device token for the account (see `device-token.ts`: it signed in to that account before) is
 * counted apart, with the same rules, and neither the account's count nor its client address's count
 * refuses it (its failures still count for its address). So failures from elsewhere never lock the owner's browser out, and the device's own
 * wrong guesses lock only that device. Unknown browsers keep the delays and the account lockout.
 *
 * Both checks that let an attempt through are atomic increments (the count, then the claim of the wait
 * key, whose first claimer alone sees a count of 1), so attempts sent at the same moment cannot all slip
 * past a check that each read alone would pass.
 *
 * Per client address (`authlib:cred:ip:<hash>`): failed attempts in a window of `clientWindowSeconds`;
 * at `clientFailures` the client's attempts are refused until the window ends. A client may exceed it by
 * the attempts it has in flight at once (password hashing caps those too: see `password.ts`). A malformed
 * attempt (a credential that is not text, refused before `authorize`) counts here too.
 *
 * @module rate-limit/credentials
 */
import { canonicalAccountName } from "../address/normalize.js";
import type { Cookie } from "../http/cookies.js";
import { inSpan } from "../telemetry/index.js";
import type { InternalOptions, RequestInternal } from "../types/internal.js";
import type { CredentialsConfig } from "../types/providers.js";
import type { ResolvedCredentialsLimits, ResolvedRateLimits } from "./config.js";
import { knownDevice, rememberDevice } from "./device-token.js";
import { clientAddressOf, isOver, limitKey, limitsOf, refusal, storeOf } from "./limiter.js";
import type { RateLimitStore } from "./store.js";

/** An attempt let through to `authorize`: report how it ended. */
export interface CredentialsAttempt {
  /** The credentials were right: clears the account's failures (not the client's). */
  succeeded(): Promise<void>;
  /** The credentials were refused (or `authorize` failed): counts a failure for the client address. */
  failed(): Promise<void>;
}

const unlimited: CredentialsAttempt = { succeeded: async () => {}, failed: async () => {} };

/**
 * What a refused attempt is told. Built at the refusal, not kept in module constants: this module loads
 * with the first limited request, so a constant would be evaluated inside whichever test came first, and
 * the mutation run would credit only that test with it (docs/testing.md, Scores).
 */
function refusalMessage(reason: "account-locked" | "account-too-soon" | "client-locked"): string {
  switch (reason) {
    case "account-locked":
      return "Too many failed sign-ins for this account; try again later.";
    case "account-too-soon":
      return "Sign-in attempts for this account are coming too fast; wait a moment.";
    case "client-locked":
      return "Too many failed sign-ins from this client; try again later.";
  }
}

/**
 * The account an attempt is for: the configured `identifier`, else the first credential field that is
 * not a password (else `email`, else `username`) in canonical form (`canonicalAccountName`: an address
 * exactly as the account lookup reads it, a login name mapped the same way).
 */
export function accountOf(
  provider: CredentialsConfig,
  limits: ResolvedCredentialsLimits,
  credentials: Record<string, unknown>,
): string | undefined {
  if (limits.identifier) {
    const chosen = limits.identifier(credentials);
    return typeof chosen === "string" && chosen !== "" ? chosen : undefined;
  }
  const fields = Object.entries(provider.credentials ?? {});
  const named = fields.find(([, input]) => input?.type !== "password")?.[0];
  for (const field of [named, "email", "username"]) {
    const value = field === undefined ? undefined : credentials[field];
    if (typeof value === "string" && value.trim() !== "") return canonicalAccountName(value);
  }
  return undefined;
}

/** The wait after the `attempt`-th attempt of an account: `initialDelay · 2^(attempt − free)`, at most the lockout window. */
function waitAfter(limits: ResolvedCredentialsLimits, attempt: number): number {
  const doublings = Math.min(attempt - limits.freeFailures, 40);
  return Math.min(limits.initialDelaySeconds * 2 ** doublings, limits.lockoutWindowSeconds) * 1000;
}

/** The device token cookie of `request`, as the browser sent it. */
function deviceCookieOf(options: InternalOptions, request: RequestInternal): string | undefined {
  return request.cookies[options.cookies.deviceToken.name];
}

/**
 * The client's failure key; throws its refusal when the client is over its limit, unless `enforce` is
 * false (a known device: failures of others from its address, a shared proxy's say, must not lock it out).
 */
async function checkClient(
  options: InternalOptions,
  limits: ResolvedRateLimits,
  settings: ResolvedCredentialsLimits,
  request: RequestInternal,
  provider: CredentialsConfig,
  enforce = true,
): Promise<string | undefined> {
  const client = clientAddressOf(options, limits, request);
  const clientKey = client === undefined ? undefined : await limitKey(options, "cred:ip", `${provider.id}:${client}`);
  if (clientKey && enforce) {
    const window = await storeOf(limits).get(clientKey);
    if (isOver(window, settings.clientFailures)) throw refusal(options, clientKey, window.resetAt, refusalMessage("client-locked"));
  }
  return clientKey;
}

/**
 * Lets a credentials attempt through, or throws `RateLimited` (before `authorize` runs). The caller
 * reports the outcome on the returned attempt.
 */
export async function admitCredentialsAttempt(
  options: InternalOptions,
  request: RequestInternal,
  provider: CredentialsConfig,
  credentials: Record<string, unknown>,
): Promise<CredentialsAttempt> {
  const limits = limitsOf(options);
  if (!limits) return unlimited;
  const settings = limits.credentials;
  if (!settings) return unlimited;
  const store = storeOf(limits);

  const account = accountOf(provider, settings, credentials);
  const device =
    account === undefined ? undefined : await knownDevice(options.secret, provider.id, account, deviceCookieOf(options, request));
  const { clientKey, keys } = await inSpan("authlib.rate_limit", { "authlib.rate_limit.rule": "credentials" }, async () => {
    // A known device answers for itself (its own count below): its client address's count does not refuse
    // it, though its failures still count there.
    const clientKey = await checkClient(options, limits, settings, request, provider, device === undefined);
    const keys = account === undefined ? undefined : await accountKeys(options, provider, account, device);
    if (keys) await claimAccountAttempt(options, store, settings, keys);
    return { clientKey, keys };
  });

  return {
    async succeeded() {
      if (keys) await Promise.all([store.reset(keys.count), store.reset(keys.wait)]);
    },
    async failed() {
      if (clientKey) await store.increment(clientKey, settings.clientWindowSeconds * 1000);
    },
  };
}

/**
 * Counts a malformed attempt (refused before `authorize`, see `malformedCredentialFields`) as a failure
 * of its client; throws `RateLimited` when the client is already over its limit.
 */
export async function countMalformedAttempt(
  options: InternalOptions,
  request: RequestInternal,
  provider: CredentialsConfig,
): Promise<void> {
  const limits = limitsOf(options);
  const settings = limits ? limits.credentials : false;
  if (!limits || !settings) return;
  const clientKey = await checkClient(options, limits, settings, request, provider);
  if (clientKey) await storeOf(limits).increment(clientKey, settings.clientWindowSeconds * 1000);
}

/**
 * The cookie that makes this browser a known device of the account `credentials` signed in to (a new
 * token, or the same device's renewed), or none when the credentials limits are off or name no account.
 * Set it only once the sign-in has completed.
 */
export async function deviceCookies(
  options: InternalOptions,
  request: RequestInternal,
  provider: CredentialsConfig,
  credentials: Record<string, unknown>,
): Promise<Cookie[]> {
  const limits = limitsOf(options);
  const settings = limits ? limits.credentials : false;
  if (!settings) return [];
  const account = accountOf(provider, settings, credentials);
  if (account === undefined) return [];
  const option = options.cookies.deviceToken;
  const value = await rememberDevice(options.secret, provider.id, account, deviceCookieOf(options, request));
  return [{ name: option.name, value, options: option.options }];
}

/**
 * Runs `authorize` for a credentials attempt under the limits: refuses it first (`RateLimited`) when
 * the account or the client has failed too often, and counts how it ended. Returns what `authorize`
 * returned.
 */
export async function authorizeLimited(
  options: InternalOptions,
  request: RequestInternal,
  provider: CredentialsConfig,
  credentials: Record<string, unknown>,
): Promise<Awaited<ReturnType<CredentialsConfig["authorize"]>>> {
  const attempt = await admitCredentialsAttempt(options, request, provider, credentials);
  let authorized: Awaited<ReturnType<CredentialsConfig["authorize"]>>;
  try {
    authorized = await provider.authorize(credentials, request.request);
  } catch (error) {
    await attempt.failed();
    throw error;
  }
  await (authorized ? attempt.succeeded() : attempt.failed());
  return authorized;
}

/** The count and wait keys of the account, or of the account's known `device`. */
async function accountKeys(options: InternalOptions, provider: CredentialsConfig, account: string, device: string | undefined) {
  const id = `${provider.id}:${account}`;
  if (device !== undefined) {
    const deviceId = `${id}:${device}`;
    return { count: await limitKey(options, "cred:dev", deviceId), wait: await limitKey(options, "cred:dwait", deviceId) };
  }
  return { count: await limitKey(options, "cred:acct", id), wait: await limitKey(options, "cred:wait", id) };
}

/** The per-account checks (see the module comment); throws `RateLimited` when the attempt may not run. */
async function claimAccountAttempt(
  options: InternalOptions,
  store: RateLimitStore,
  settings: ResolvedCredentialsLimits,
  keys: { count: string; wait: string },
): Promise<void> {
  // Reads first: a refused attempt writes nothing.
  const [counted, waiting] = await Promise.all([store.get(keys.count), store.get(keys.wait)]);
  if (isOver(counted, settings.lockoutFailures)) throw refusal(options, keys.count, counted.resetAt, refusalMessage("account-locked"));
  if (waiting) throw refusal(options, keys.wait, waiting.resetAt, refusalMessage("account-too-soon"));

  const attempt = await store.increment(keys.count, settings.lockoutWindowSeconds * 1000);
  if (attempt.count > settings.lockoutFailures) throw refusal(options, keys.count, attempt.resetAt, refusalMessage("account-locked"));
  if (attempt.count >= settings.freeFailures) {
    const claim = await store.increment(keys.wait, waitAfter(settings, attempt.count));
    if (claim.count > 1) throw refusal(options, keys.wait, claim.resetAt, refusalMessage("account-too-soon"));
  }
}
