/**
 * The claims about the user that a client's scopes give (OpenID Connect Core §5.4): `email` gives the
 * address and whether it was proven, `profile` the name and picture. Only what the user record holds.
 *
 * @module features/authorization-server/claims
 */
import type { ConfigOptions } from "../../types/internal.js";
import { storeOf } from "./store.js";

/** The claims of `userId` that `scopes` give (none for a user that is gone). */
export async function userClaims(options: ConfigOptions, userId: string, scopes: readonly string[]): Promise<Record<string, unknown>> {
  const claims: Record<string, unknown> = {};
  if (!scopes.includes("email") && !scopes.includes("profile")) return claims;
  const user = await storeOf(options).getUser(userId);
  if (!user) return claims;
  if (scopes.includes("email") && user.email) {
    claims.email = user.email;
    claims.email_verified = user.emailVerified != null;
  }
  if (scopes.includes("profile")) {
    if (user.name) claims.name = user.name;
    if (user.image) claims.picture = user.image;
  }
  return claims;
}
