/**
 * Single-use WebAuthn challenges. The sealed cookie alone cannot stop a replay: whoever captured one
 * answer and its cookie could post them again for the cookie's lifetime, and an authenticator whose
 * signature counter stays 0 (synced passkeys) gives the counter check nothing to catch. So once an answer
 * verified, its challenge is recorded as used, until the challenge expires, and a second claim fails.
 *
 * Nothing is written when options are handed out (an anonymous caller could make us store a row per
 * request); a record is written only for an answer that verified, which an anonymous caller cannot make
 * without a valid signature over a challenge this server sealed. Records are keyed by a SHA-256 of the
 * challenge: a challenge is no secret once answered, and an unkeyed hash stays the same across a secret
 * rotation, so a replay is caught even when the secret changed in between.
 *
 * - Every instance remembers the challenges it saw answered (webauthn/used-challenges.ts), each until it
 *   expires, and refuses a second answer to one of them first.
 * - With an adapter that stores verification tokens, the record is also a verification token (identifier
 *   {@link USED_CHALLENGE_IDENTIFIER}, expiring with the challenge), for the other instances. Its creation
 *   is the claim: the adapter must refuse a second live token with the same identifier and token — by
 *   returning `null` (the hosted-db adapter) or by throwing on its unique key (Auth.js's SQL adapters; a
 *   replay sent to another instance then fails as `AdapterError`). An adapter that overwrites the token
 *   instead (`@auth/unstorage-adapter`) protects only through the instance's memory. Expired records are
 *   the adapter's to sweep (`authlib db prune`).
 * - Without those methods, the memory alone protects, so only this instance: behind a load balancer
 *   without sticky sessions, a replay sent to another instance is not caught (give the adapter the
 *   verification-token methods).
 *
 * @module webauthn/challenge-store
 */

import { sha256Hex } from "../crypto/digest.js";
import { InvalidCheck, RateLimited } from "../errors.js";
import type { Adapter } from "../types/adapters.js";
import type { ClaimResult, InternalOptions, UsedChallenges } from "../types/internal.js";
import { UsedChallengeMemory } from "./used-challenges.js";

/** The identifier of every used-challenge record; no email address looks like this. */
export const USED_CHALLENGE_IDENTIFIER = "authlib:webauthn-used-challenge";
/** Separates these hashes from any other hash of the same string. */
const LABEL = "authlib.webauthn-used-challenge:";

/**
 * How long a record outlives the last moment its challenge is accepted: the database's clock decides when
 * a stored record is expired (and swept), and may run a little ahead of this server's.
 */
const RECORD_MARGIN_MS = 60_000;

type TokenStore = Required<Pick<Adapter, "createVerificationToken">>;

function tokenStore(options: InternalOptions): TokenStore | null {
  const adapter = options.adapter;
  return adapter?.createVerificationToken && adapter.useVerificationToken ? (adapter as TokenStore) : null;
}

/**
 * The used-challenge memory of the instance whose request this is, made on first use and kept in the
 * instance's state (`options.instanceState`, one object per instance, shared by its requests).
 */
export function usedChallengeMemory(options: Pick<InternalOptions, "instanceState">): UsedChallenges {
  options.instanceState.usedChallenges ??= new UsedChallengeMemory();
  return options.instanceState.usedChallenges;
}

/** The key a challenge is recorded under. */
export async function usedChallengeKey(challenge: string): Promise<string> {
  return sha256Hex(LABEL + challenge);
}

/** A kind of single-use value: the identifier of its records, and the label its hashes start with. */
export interface SingleUseKind {
  identifier: string;
  label: string;
}

/** WebAuthn challenges, answered once. */
const CHALLENGES: SingleUseKind = { identifier: USED_CHALLENGE_IDENTIFIER, label: LABEL };

/**
 * Records `value` of `kind` (a proof that verified) as used until after `expiresAt` (ms: the last moment
 * it is accepted), in this instance's memory and, with the adapter's verification-token methods, for the
 * other instances (see the module comment): `used` when it was used already, `full` (with when to retry)
 * when this instance's memory is full of live values and no adapter record decides.
 */
export async function claimOnce(options: InternalOptions, kind: SingleUseKind, value: string, expiresAt: number): Promise<ClaimResult> {
  const key = await sha256Hex(kind.label + value);
  const store = tokenStore(options);
  // The memory first: it refuses a replay on this instance even with an adapter that overwrites a live
  // token instead of refusing it.
  const result = usedChallengeMemory(options).claim(key, expiresAt);
  if (!result.claimed && result.reason === "used") return result;
  if (store) {
    // A full memory is no reason to refuse here: the adapter's record decides.
    const created = await store.createVerificationToken({
      identifier: kind.identifier,
      token: key,
      expires: new Date(expiresAt + RECORD_MARGIN_MS),
    });
    return created === null ? { claimed: false, reason: "used" } : { claimed: true };
  }
  return result;
}

/**
 * Records a challenge whose answer verified as used, until after `expiresAt` (ms: the last moment the
 * sealed challenge is accepted). Throws `InvalidCheck` when it was used already, and `RateLimited` when
 * this instance's memory is full of challenges that are still live (only without the adapter's
 * verification-token methods).
 */
export async function claimChallenge(options: InternalOptions, challenge: string, expiresAt: number): Promise<void> {
  const result = await claimOnce(options, CHALLENGES, challenge, expiresAt);
  if (result.claimed) return;
  if (result.reason === "used") throw new InvalidCheck("This WebAuthn challenge was answered already. Start again.");
  const retryAfter = Math.max(1, Math.ceil((result.retryAt - Date.now()) / 1000));
  const error = new RateLimited("Too many passkey sign-ins are in progress on this server. Try again in a few minutes.", {
    cause: { retryAfter },
  });
  error.retryAfter = retryAfter;
  throw error;
}
