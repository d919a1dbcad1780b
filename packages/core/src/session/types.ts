/**
 * The one interface both session strategies implement, so that actions never branch on the strategy.
 */
import type { AdapterUser } from "../adapters.js";
import type { Cookie } from "../http/cookies.js";
import type { InternalOptions, RequestInternal } from "../internal-types.js";
import type { Account, Profile, Session, User } from "../types.js";

/** What a successful sign-in hands to the strategy. */
export interface SignInResult {
  user: User | AdapterUser;
  account: Account | null;
  profile?: Profile;
  isNewUser: boolean;
}

/** A session strategy: JWT in a cookie, or a database row the cookie points to. */
export interface SessionStrategyHandler {
  /** GET /session (and POST /session with `update`): the session the client sees, and cookie changes. */
  read(
    options: InternalOptions,
    request: RequestInternal,
    update?: { data: unknown },
  ): Promise<{ session: Session | null; cookies: Cookie[] }>;
  /** After a successful sign-in: the cookies that carry the new session. */
  start(options: InternalOptions, request: RequestInternal, signIn: SignInResult): Promise<Cookie[]>;
  /** Sign-out: ends the session (firing `signOut`) and returns the cookies that clear it. */
  end(options: InternalOptions, request: RequestInternal): Promise<Cookie[]>;
  /**
   * The user a credentials sign-in (`authorize()`'s user) starts a session for. JWT: that user. Database:
   * the adapter's user with its id, else its email (a session row must point at a stored user); an
   * unknown user is `UnknownCredentialsUser` (a configuration error: the password was right).
   */
  credentialsUser(options: InternalOptions, user: User & { id: string }): Promise<User | AdapterUser>;
  /** The signed-in user of this request, or `null` (used to link accounts). */
  currentUser(options: InternalOptions, request: RequestInternal): Promise<User | AdapterUser | null>;
}
