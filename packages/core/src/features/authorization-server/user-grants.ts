/**
 * The signed-in user's grants, beside their sessions: `GET oauth2/grants` lists the live ones with each
 * client's name, `POST oauth2/revoke-grant` revokes one (CSRF-checked), and the account page shows them
 * with a revoke form each. Ending every session of a user (sign out everywhere, a password reset, an email
 * revert) revokes their grants too (`SignInHooks.everySessionEnded`).
 *
 * @module features/authorization-server/user-grants
 */
import { SessionRequired } from "../../errors.js";
import { tellOwner } from "../../sign-in/tell-owner.js";
import type { ConfigOptions, InternalOptions, RequestInternal, ResponseInternal } from "../../types/internal.js";
import { findClient } from "./clients.js";
import { grantRevoked, isLive, revokeGrant } from "./grants.js";
import { OAuthError } from "./oauth-error.js";
import { oauthJson } from "./respond.js";
import { storeOf } from "./store.js";
import type { ListedGrant } from "./types.js";

async function signedIn(options: InternalOptions, request: RequestInternal): Promise<string> {
  const current = await options.sessionStrategy.currentAssurance(options, request);
  if (!current) throw new SessionRequired("Sign in first: the request has no session.");
  request.auditUserId = current.userId;
  return current.userId;
}

/** The user's live grants, the most recently used first. */
export async function grantsOf(options: InternalOptions, userId: string): Promise<ListedGrant[]> {
  const grants = (await storeOf(options).listOAuthGrantsByUser(userId)).filter((grant) => isLive(options, grant));
  const listed = await Promise.all(
    grants.map(async (grant) => ({
      id: grant.id,
      clientId: grant.clientId,
      clientName: (await findClient(options, grant.clientId).catch(() => undefined))?.name ?? grant.clientId,
      scopes: grant.scopes,
      resources: grant.resources,
      createdAt: grant.createdAt,
      lastUsedAt: grant.lastUsedAt,
      refreshable: grant.refreshable,
    })),
  );
  return listed.sort((a, b) => b.lastUsedAt.getTime() - a.lastUsedAt.getTime());
}

/** The handler of `GET oauth2/grants`. */
export async function listGrants(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal<{ grants: ListedGrant[] }>> {
  return oauthJson({ grants: await grantsOf(options, await signedIn(options, request)) });
}

/**
 * The handler of `POST oauth2/revoke-grant` (`grantId`): one of the user's own grants. An owner-present
 * operation (`revokeApplication`), whose owner is told: a stolen session must not quietly cut the owner's
 * applications off, nor hide which one it used.
 */
export async function revokeUserGrant(
  options: InternalOptions,
  request: RequestInternal,
  input: { grantId: string },
): Promise<ResponseInternal> {
  const userId = await signedIn(options, request);
  const grant = await storeOf(options).getOAuthGrant(input.grantId);
  if (!grant || grant.userId !== userId) throw new OAuthError("invalid_request", "No grant of yours has this id.", 404);
  if (grant.revokedAt === null) {
    await revokeGrant(options, request, grant, "revoked");
    await tellOwner(options, request, { id: userId }, "applicationRevoked");
  }
  return oauthJson({ revoked: true });
}

/** Revokes every live grant of `userId` (their sessions all ended). */
export async function revokeEveryGrant(options: Pick<ConfigOptions, "adapter" | "config" | "audit">, userId: string): Promise<void> {
  const grants = (await storeOf(options).listOAuthGrantsByUser(userId)).filter((grant) => grant.revokedAt === null);
  await storeOf(options).revokeOAuthGrantsByUser(userId, new Date());
  for (const grant of grants) await grantRevoked(options, undefined, grant, "everywhere");
}
