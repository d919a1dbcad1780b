/**
 * The operator's tools (`admin: {…}` in the configuration, docs/admin.md): who is an admin, and the limits
 * of acting as another user.
 *
 * @module types/admin
 */

import type { AdapterUser } from "./adapters.js";
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
