/**
 * "Proof wins": a user still holding an address without proof (`emailVerified` null — rows written before
 * this rule, or by the app itself) loses it to the first person who proves it (an email link, a provider
 * that vouches for it, a password sign-up's verification link). The address is set to `null` on the
 * holder, the holder's sessions end, and the prover gets a user of their own. So whoever registered the
 * address first can never reach the prover's data, and the real owner is never locked out: the holder
 * keeps their user, accounts and passkeys, just without the address. See `unproven-email.ts` for what
 * counts as proof.
 */
import type { AddressStore } from "../adapter/capabilities.js";
import { endUserSessions } from "../session/end-user-sessions.js";
import type { AdapterUser } from "../types/adapters.js";
import type { InternalOptions } from "../types/internal.js";

/** The user who proved `email`, or `null`: a holder that never proved it owns nothing. */
export async function provenHolder(users: Pick<AddressStore, "getUserByEmail">, email: string): Promise<AdapterUser | null> {
  const holder = await users.getUserByEmail(email);
  return holder?.emailVerified ? holder : null;
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
  await endUserSessions(options, users, holder.id);
  await options.events.updateUser({ user: released });
  return null;
}
