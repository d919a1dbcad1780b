/**
 * Single-use WebAuthn challenges. The sealed cookie alone cannot stop a replay: whoever captured one
 * assertion and its cookie could post them again for the cookie's lifetime, and an authenticator whose
 * signature counter stays 0 (synced passkeys) gives the counter check nothing to catch. So the server
 * remembers each challenge and accepts it once:
 *
 * - with an adapter that stores verification tokens, the options step stores an HMAC of the challenge
 *   (bound to the secret, never the challenge itself) as a verification token, and the callback consumes
 *   it with `useVerificationToken`, which deletes it in the same step: of two uses, exactly one finds it;
 * - without those methods, this instance remembers the challenges it saw answered, in memory, for their
 *   lifetime. That protects only this instance: behind a load balancer without sticky sessions, a replay
 *   sent to another instance is not caught (give the adapter the verification-token methods).
 *
 * @module webauthn/challenge-store
 */
import type { Adapter } from "../adapters.js";
import { hmacHex } from "../crypto/digest.js";
import { InvalidCheck } from "../errors.js";
import { CHECK_COOKIE_MAX_AGE } from "../http/cookies.js";
import type { InternalOptions } from "../internal-types.js";

/** The identifier of every stored challenge; no email address looks like this. */
const IDENTIFIER = "authlib:webauthn-challenge";
/** Separates these HMACs from email-token HMACs made with the same secret. */
const LABEL = "authlib.webauthn-challenge:";
/** At most this many used challenges are remembered in memory; the oldest go first beyond that. */
export const MAX_REMEMBERED_CHALLENGES = 10_000;

type TokenStore = Required<Pick<Adapter, "createVerificationToken" | "useVerificationToken">>;

function tokenStore(options: InternalOptions): TokenStore | null {
  const adapter = options.adapter;
  return adapter?.createVerificationToken && adapter.useVerificationToken ? (adapter as TokenStore) : null;
}

/** Used challenges (by HMAC) of this instance → when they expire (ms). Insertion order = age. */
const used = new Map<string, number>();

function forgetExpired(now: number): void {
  for (const [key, expires] of used) if (expires <= now) used.delete(key);
}

/** Records `key` as used in memory; `false` when it was used already. */
function markUsed(key: string): boolean {
  const now = Date.now();
  const expires = used.get(key);
  if (expires !== undefined && expires > now) return false;
  if (used.size >= MAX_REMEMBERED_CHALLENGES) forgetExpired(now);
  while (used.size >= MAX_REMEMBERED_CHALLENGES) {
    const oldest = used.keys().next().value as string;
    used.delete(oldest);
  }
  used.set(key, now + CHECK_COOKIE_MAX_AGE * 1000);
  return true;
}

/** Remembers a challenge just handed out in options (stored only when the adapter keeps verification tokens). */
export async function rememberChallenge(options: InternalOptions, challenge: string): Promise<void> {
  const store = tokenStore(options);
  if (!store) return;
  const token = await hmacHex(options.secret[0] as string, LABEL + challenge);
  await store.createVerificationToken({ identifier: IDENTIFIER, token, expires: new Date(Date.now() + CHECK_COOKIE_MAX_AGE * 1000) });
}

/**
 * Accepts a challenge once. Throws `InvalidCheck` when it was used already, never handed out, or expired.
 * Tries each secret, newest first, so options made just before a secret rotation still work.
 */
export async function consumeChallenge(options: InternalOptions, challenge: string): Promise<void> {
  const store = tokenStore(options);
  if (!store) {
    if (!markUsed(await hmacHex(options.secret[0] as string, LABEL + challenge))) {
      throw new InvalidCheck("This WebAuthn challenge was answered already. Start again.");
    }
    return;
  }
  for (const secret of options.secret) {
    const found = await store.useVerificationToken({ identifier: IDENTIFIER, token: await hmacHex(secret, LABEL + challenge) });
    if (found && found.expires.valueOf() >= Date.now()) return;
    if (found) break;
  }
  throw new InvalidCheck("This WebAuthn challenge was answered already, or has expired. Start again.");
}
