/**
 * The operator's tools (`admin: {…}` in the configuration, docs/admin.md): who is an admin, and the limits
 * of acting as another user.
 *
 * @module types/admin
 */

import type { AdapterUser, UserBan } from "./adapters.js";
import type { Awaitable } from "./base.js";

/** Acting as another user to help them (`impersonateUser`), or `false` to turn it off. */
export interface ImpersonationConfig {
  /** How long an impersonated session lives, in seconds. Default 3600 (1 hour). */
  maxAge?: number;
  /** Whether an admin may act as another admin. Default `false`. */
  allowAdmins?: boolean;
  /** Whether the user sees in their device list that an admin acted as them, when and who. Default `true`. */
  showToUser?: boolean;
}

/** The `admin` option: the app decides who is an admin, checked on every admin call. */
export interface AdminConfig {
  /** True when `user` is an admin (read from the store on every call, never from the session). */
  isAdmin?: (user: AdapterUser) => Awaitable<boolean>;
  /** The values of the user's `role` field that make them an admin (with or instead of `isAdmin`). */
  roles?: readonly string[];
  /** Acting as another user; on by default with its defaults, `false` to turn it off. */
  impersonation?: ImpersonationConfig | false;
  /** The message a banned user is shown when a sign-in is refused (`UserBanned`), instead of the built-in one. */
  banMessage?: string;
}

/** A user as an admin sees them (`listUsers`, `getUser`): never a password hash or a token. */
export interface AdminUserView {
  id: string;
  email: string | null;
  name: string | null;
  image: string | null;
  emailVerified: Date | null;
  /** The user's `role` field, where the adapter keeps one. */
  role: string | null;
  ban: UserBan | null;
}

/** One page of `listUsers`: the users, and the cursor of the next page (`null` on the last one). */
export interface UserPage {
  users: AdminUserView[];
  nextCursor: string | null;
}

/** A linked account as an admin sees it: the provider and the account's id there, never its tokens. */
export interface AdminAccountView {
  provider: string;
  type: string;
  providerAccountId: string;
}

/** A session as an admin sees it: its id and metadata (never its token). */
export interface AdminSessionView {
  id: string;
  createdAt: Date;
  lastSeenAt: Date;
  expires: Date;
  userAgent: string | null;
  provider: string | null;
}

/** Everything `getUser` answers about one user; `features` holds what other features add (`grants`, `organizations`, …). */
export interface AdminUserDetails {
  user: AdminUserView;
  accounts: AdminAccountView[];
  /** `null` when the configuration cannot list sessions (no session registry). */
  sessions: AdminSessionView[] | null;
  features: Record<string, unknown>;
}
