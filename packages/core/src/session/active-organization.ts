/**
 * The session's active organization (docs/organizations.md): an id authlib keeps with the session, a claim
 * of the JWT or a field of a database session's sealed cookie (`assurance-cookie.ts`), set only by
 * `setActiveOrganization` after a membership check. The session the app reads shows it with the caller's
 * role there, as the organization feature finds it (`SignInHooks.organizationRole`): a member removed, or
 * an organization deleted, shows none. The claim is data, never a grant: every organization operation
 * checks the membership again.
 *
 * @module session/active-organization
 */
import type { InternalOptions } from "../types/internal.js";

/** The JWT claim (and sealed-cookie field) holding the active organization's id. */
export const ACTIVE_ORGANIZATION_CLAIM = "org";

/** The active organization's id `claims` hold, or `undefined`. */
export function activeOrganizationIn(claims: Record<string, unknown> | null | undefined): string | undefined {
  const value = claims?.[ACTIVE_ORGANIZATION_CLAIM];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/**
 * `session` with its active organization and the user's role there, when `organizationId` is one the user is
 * still a member of; `session` as it is otherwise (no organization, organizations off, a membership gone).
 */
export async function withActiveOrganization<S extends object>(
  options: InternalOptions,
  session: S,
  userId: string | undefined,
  organizationId: string | undefined,
): Promise<S> {
  const find = options.hooks?.organizationRole;
  if (organizationId === undefined || userId === undefined || !find) return session;
  const role = await find(options, userId, organizationId);
  return role === null ? session : { ...session, activeOrganizationId: organizationId, activeOrganizationRole: role };
}
