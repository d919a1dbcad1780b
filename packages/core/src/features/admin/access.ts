/**
 * Who is an admin: the app decides (`admin.isAdmin`, `admin.roles`), and authlib asks on every admin call,
 * from the user's row in the store (never from the session's own claims, so a demoted admin loses the
 * tools at once). An impersonated session is never an admin's, whoever started it: acting as someone
 * reaches none of the tools that started it.
 *
 * @module features/admin/access
 */
import { AccessDenied, SessionRequired } from "../../errors.js";
import type { AdapterUser } from "../../types/adapters.js";
import type { AdminConfig } from "../../types/admin.js";
import type { InternalOptions, RequestInternal } from "../../types/internal.js";

/** `AccessDenied` answered as 403 on the JSON routes (the class has no status of its own: elsewhere it is a page). */
function denied(message: string): AccessDenied {
  const error = new AccessDenied(message);
  error.status = 403;
  return error;
}

/** The admin making the call: their id and their user row. */
export interface ActingAdmin {
  userId: string;
  user: AdapterUser;
}

/** The `admin` option, which is set whenever an admin operation runs (the feature is off without it). */
export function adminConfigOf(options: Pick<InternalOptions, "config">): AdminConfig {
  return options.config.admin ?? {};
}

/** True when `user` is an admin by the app's rule: its `isAdmin`, or a `role` among `roles`. */
export async function isAdminUser(config: AdminConfig, user: AdapterUser): Promise<boolean> {
  const role = (user as { role?: unknown }).role;
  if (typeof role === "string" && config.roles?.includes(role)) return true;
  return config.isAdmin ? (await config.isAdmin(user)) === true : false;
}

/**
 * The signed-in admin, or the refusal: `SessionRequired` without a session, `AccessDenied` for a session
 * an admin acts in as someone else, a user who is not (or no longer) an admin, or one the store lost.
 * Failures of the request are audited as the caller's from here on.
 */
export async function requireAdmin(options: InternalOptions, request: RequestInternal): Promise<ActingAdmin> {
  const current = await options.sessionStrategy.currentAssurance(options, request);
  if (!current) throw new SessionRequired("Sign in first: the request has no session.");
  request.auditUserId = current.userId;
  if (current.assurance?.act) throw denied("An impersonated session reaches no admin operation.");
  const user = await options.adapter?.getUser?.(current.userId);
  if (!user || !(await isAdminUser(adminConfigOf(options), user))) throw denied("Only an admin may do this.");
  return { userId: current.userId, user };
}

/** What an admin does to a user that the user (or another admin) must be kept from. */
export type GuardedAct = "ban" | "delete" | "setPassword" | "changeEmail";

/**
 * `AccessDenied` when `admin` may not do `act` to `target`: never to themselves (their own password,
 * address and account go through the owner-present rule, and banning or deleting oneself leaves no
 * admin to undo it), nor to another admin (taking over or locking out a peer: demote them first, which
 * the app's `isAdmin`/`roles` decides).
 */
export async function assertMayActOn(
  options: Pick<InternalOptions, "config">,
  admin: ActingAdmin,
  target: AdapterUser,
  act: GuardedAct,
): Promise<void> {
  if (target.id === admin.userId) throw denied(`An admin cannot ${ACTS[act]} themselves: use the account's own pages.`);
  if (await isAdminUser(adminConfigOf(options), target)) throw denied(`An admin cannot ${ACTS[act]} another admin: demote them first.`);
}

const ACTS: Record<GuardedAct, string> = {
  ban: "ban",
  delete: "delete",
  setPassword: "set the password of",
  changeEmail: "change the address of",
};
