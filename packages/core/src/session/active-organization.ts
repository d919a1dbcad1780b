/**
 * The session's active organization (docs/organizations.md): an id authlib keeps with the session, a claim
 * of the JWT, or for a database session a field of its row (an adapter with session records) or of its sealed
 * cookie (`assurance-cookie.ts`; another adapter), set only by
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
 * `session` is the caller's fresh object: it gains the two fields in place (no copy on every check).
 * Answered without a promise when no store read is needed (no organization, or a role this instance read
 * within the bound): every session check passes here, and a promise per check is measurable.
 */
export function withActiveOrganization<S extends object>(
  options: InternalOptions,
  session: S,
  userId: string | undefined,
  organizationId: string | undefined,
): S | Promise<S> {
  const find = options.hooks?.organizationRole;
  if (organizationId === undefined || userId === undefined || !find) return session;
  const found = find(options, userId, organizationId);
  return found instanceof Promise ? found.then((role) => shown(session, organizationId, role)) : shown(session, organizationId, found);
}

function shown<S extends object>(session: S, organizationId: string, role: string | null): S {
  if (role === null) return session;
  const fields = session as S & { activeOrganizationId?: string; activeOrganizationRole?: string };
  fields.activeOrganizationId = organizationId;
  fields.activeOrganizationRole = role;
  return fields;
}
