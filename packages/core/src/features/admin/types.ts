/**
 * The admin feature's public types, and what it adds to the shared ones by declaration merging: its
 * `auth.api` operations, audit events and texts.
 *
 * @module features/admin/types
 */

import type { UserBan } from "../../types/adapters.js";
import type { AdminUserDetails, AdminUserView, UserPage } from "../../types/admin.js";
import type { RequestLike } from "../../types/api.js";

/**
 * The admin operations of `auth.api` (part of `AuthApi`; docs/admin.md). Each asks the store on this call
 * whether the caller is an admin: without a session `SessionRequired`; not an admin (or no longer, or a
 * session in which an admin acts as someone else) `AccessDenied`.
 */
export interface AdminApi {
  /** A page of users (by id), matching `search` in the email or name, banned or not; `cursor` is the last page's `nextCursor`. */
  listUsers(request: RequestLike, input?: { search?: string; banned?: boolean; cursor?: string; limit?: number }): Promise<UserPage>;
  /** One user with their linked accounts, sessions, ban, and what other features hold for them. Throws `UserNotFound`. */
  getUser(request: RequestLike, input: { userId: string }): Promise<AdminUserDetails>;
  /**
   * A new user. The address is unproven unless `emailVerified` is true (the admin vouches for it); with
   * `password`, a password account (the Password provider's rules). Throws `UserExists`, `InvalidUser`.
   */
  createUser(
    request: RequestLike,
    input: { email: string; name?: string; emailVerified?: boolean; password?: string; role?: string },
  ): Promise<AdminUserView>;
  /**
   * Changes the name, role or address. A new address is unproven until its owner proves it (whoever proves
   * it first takes it), and the old address is told. Throws `UserNotFound`, `UserExists`, `InvalidUser`.
   */
  updateUser(
    request: RequestLike,
    input: { userId: string; name?: string | null; email?: string; role?: string | null },
  ): Promise<AdminUserView>;
  /** Sets the user's password, ends their sessions and mails them. Not for the caller nor another admin (`AccessDenied`). */
  setUserPassword(request: RequestLike, input: { userId: string; password: string }): Promise<void>;
  /**
   * Bans the user: every session, grant and credential of theirs ends within the session-control bound,
   * and every sign-in is refused (`UserBanned`) until `expiresIn` seconds pass or `unbanUser`. Not the
   * caller, nor another admin (`AccessDenied`).
   */
  banUser(request: RequestLike, input: { userId: string; reason?: string; expiresIn?: number }): Promise<UserBan>;
  /** Lifts the user's ban (none: nothing happens). */
  unbanUser(request: RequestLike, input: { userId: string }): Promise<void>;
  /** Deletes the user and everything of theirs the adapter holds, after ending their sessions. Not the caller, nor another admin. */
  deleteUser(request: RequestLike, input: { userId: string }): Promise<void>;
  /** Ends every session of the user (and what ends with them: grants), on every instance within the session-control bound. */
  adminRevokeUserSessions(request: RequestLike, input: { userId: string }): Promise<void>;
}

/** The admin feature's keys of the catalog (its texts live in `messages/`, one module per language). */
export interface AdminMessages {
  "admin.users.title": string;
  "admin.users.search": string;
  "admin.users.searchButton": string;
  "admin.users.filter": string;
  "admin.users.filterAll": string;
  "admin.users.filterBanned": string;
  "admin.users.filterActive": string;
  "admin.users.email": string;
  "admin.users.name": string;
  "admin.users.status": string;
  "admin.users.banned": string;
  "admin.users.active": string;
  "admin.users.next": string;
  "admin.users.first": string;
  "admin.users.none": string;
  "admin.user.title": string;
  "admin.user.back": string;
  "admin.user.emailProven": string;
  "admin.user.emailUnproven": string;
  "admin.user.role": string;
  "admin.user.accounts": string;
  "admin.user.noAccounts": string;
  "admin.user.sessions": string;
  "admin.user.noSessions": string;
  "admin.user.sessionsUnavailable": string;
  "admin.user.lastSeen": string;
  "admin.user.bannedUntil": string;
  "admin.user.bannedForever": string;
  "admin.user.banReason": string;
  "admin.ban.title": string;
  "admin.ban.reason": string;
  "admin.ban.hours": string;
  "admin.ban.submit": string;
  "admin.unban.submit": string;
  "admin.sessions.revoke": string;
  "admin.password.title": string;
  "admin.password.new": string;
  "admin.password.submit": string;
  "admin.delete.title": string;
  "admin.delete.warning": string;
  "admin.delete.submit": string;
  "admin.done.banned": string;
  "admin.done.unbanned": string;
  "admin.done.sessionsRevoked": string;
  "admin.done.passwordSet": string;
  "admin.done.deleted": string;
  "admin.error": string;
  "signinError.userBanned": string;
  "mail.change.emailChangedByAdmin": string;
}

declare module "../../types/api.js" {
  interface AuthApi extends AdminApi {}
}

declare module "../../types/i18n.js" {
  interface FeatureMessageTexts extends AdminMessages {}
}

declare module "../../types/telemetry.js" {
  interface AuditEventTypes {
    adminUserListed: true;
    adminUserViewed: true;
    adminUserCreated: true;
    adminUserUpdated: true;
    adminUserBanned: true;
    adminUserUnbanned: true;
    adminUserDeleted: true;
    adminPasswordSet: true;
    adminSessionsRevoked: true;
    adminRefused: true;
  }
}
