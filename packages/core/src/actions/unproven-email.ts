/**
 * Email ownership is a fact with a source. A user's `email` is an address somebody proved: by redeeming
 * an email link, or through a provider that vouches for it (`email_verified: true` in its claims, or a
 * preset's `trustEmail`). Anything else (an OAuth profile's unverified claim, an address typed at passkey
 * registration) is never stored as `email`, never links accounts and never owns anything.
 *
 * "Proof wins": a user still holding an address without proof (`emailVerified` null — rows written before
 * this rule, or by the app itself) loses it to the first person who proves it. The address is set to
 * `null` on the holder, the holder's database sessions end, and the prover gets a user of their own. So
 * whoever registered the address first can never reach the prover's data, and the real owner is never
 * locked out: the holder keeps their user, accounts and passkeys, just without the address.
 */
import type { AddressStore } from "../adapter-capabilities.js";
import type { AdapterUser } from "../adapters.js";
import type { InternalOptions } from "../internal-types.js";
import type { OAuthConfig } from "../provider-types.js";
import { loadRegistry } from "../session/registry-of.js";
import type { Profile, User } from "../types.js";

/** `true` or `"true"` (Apple and Cognito send the claim as a string). */
function isTrue(value: unknown): boolean {
  return value === true || value === "true";
}

/** `false` or `"false"`: the provider says explicitly that the address is not verified. */
function isFalse(value: unknown): boolean {
  return value === false || value === "false";
}

/**
 * Whether the provider vouches for the profile's email: `email_verified` true in its claims, or the
 * provider's `trustEmail` (a flag, or a function of the profile). An explicit `email_verified: false`
 * always wins over `trustEmail`; `trustEmail: "never"` wins over every claim.
 */
export function providerVouchesForEmail(provider: OAuthConfig, profile: Profile | undefined): boolean {
  if (provider.trustEmail === "never") return false;
  const claim = profile?.email_verified;
  if (isFalse(claim)) return false;
  if (isTrue(claim)) return true;
  const { trustEmail } = provider;
  return typeof trustEmail === "function" ? trustEmail(profile ?? {}) === true : trustEmail === true;
}

/**
 * The profile's user as authlib trusts it: `email` (lower-cased) only when the provider vouches for it,
 * else `null`; `emailVerified` the time of this sign-in when it does, else `null`. The `signIn` callback
 * and everything after it see this user; the raw claims stay in `profile`.
 */
export function withProvenEmail(provider: OAuthConfig, profile: Profile | undefined, user: User): User {
  const email = user.email && providerVouchesForEmail(provider, profile) ? user.email.toLowerCase() : null;
  return { ...user, email, emailVerified: email ? new Date() : null };
}

/**
 * The user who owns `email` for someone who just proved it. A holder with a proven address is returned
 * (same address, same person as far as authlib can know). A holder without proof loses the address (see
 * the module comment) and `null` is returned: the prover gets a fresh user.
 */
export async function claimProvenAddress(options: InternalOptions, users: AddressStore, email: string): Promise<AdapterUser | null> {
  const holder = await users.getUserByEmail(email);
  if (!holder || holder.emailVerified) return holder;
  const released = await users.updateUser({ id: holder.id, email: null });
  // JWT sessions end through their registry when there is one (their records may live outside the adapter).
  const registered = options.session.strategy === "jwt" && options.sessionRegistry !== undefined;
  if (registered) await (await loadRegistry()).revokeSessions(options, { userId: holder.id, reason: "server" });
  if (users.deleteSessionsByUserId) {
    await users.deleteSessionsByUserId(holder.id);
  } else if (!registered) {
    options.logger.warn("sessions-not-ended");
  }
  await options.events.updateUser({ user: released });
  return null;
}
