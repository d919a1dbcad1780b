/**
 * Email ownership is a fact with a source. A user's `email` is an address somebody proved: by redeeming
 * an email link, or through a provider that vouches for it (`email_verified: true` in its claims, or a
 * preset's `trustEmail`). Anything else (an OAuth profile's unverified claim, an address typed at passkey
 * registration) is never stored as `email`, never links accounts and never owns anything.
 *
 * What happens when someone proves an address that a user holds without proof is in `proven-address.ts`.
 */

import type { Profile, User } from "../types/config.js";
import type { OAuthConfig } from "../types/providers.js";

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
