/**
 * The contract between authlib and a database. An adapter stores users, the accounts that link them to
 * providers, database sessions, email verification tokens and passkey authenticators.
 *
 * Conventions every method follows:
 * - "not found" is `null`, never an exception; an exception means the database failed;
 * - dates are `Date` objects and round-trip to the millisecond;
 * - returned objects are plain objects with the documented keys.
 *
 * @module adapters
 */

import type { ApiKeyAdapterMethods } from "./api-keys.js";
import type { AuthorizationServerAdapterMethods } from "./authorization-server.js";
import type { Account, Awaitable, User } from "./base.js";
import type { OrganizationAdapterMethods } from "./organizations.js";
import type { ScimAdapterMethods } from "./scim.js";
import type { SessionRecord } from "./session-registry.js";
import type { SsoAdapterMethods } from "./sso.js";

/**
 * A user as stored by an adapter. `email` is the address the user proved (email link, or a provider that
 * vouches for it) and `emailVerified` says when; a user without a proven address has `email: null` (an
 * OAuth account whose provider did not vouch for its email, a passkey user, a user whose unproven address
 * moved to the person who proved it). Adapters must store `null` and allow many users without one.
 */
export interface AdapterUser extends User {
  id: string;
  email: string | null;
  emailVerified: Date | null;
}

/**
 * The provider types that can own an account row (`credentials`: the `Password()` provider's row, which
 * holds the user's password hash).
 */
export type AdapterAccountType = "oauth" | "oidc" | "email" | "webauthn" | "credentials";

/** An account row: links a user to a provider, with the provider's tokens. */
export interface AdapterAccount extends Account {
  userId: string;
  type: AdapterAccountType;
}

/** A database session. The cookie holds only `sessionToken`. */
export interface AdapterSession {
  sessionToken: string;
  userId: string;
  expires: Date;
  /**
   * The session's public id (its row's id), when the adapter keeps session records (the
   * `…SessionRecord…` methods): the id it is listed and revoked by. Never the token.
   */
  id?: string;
  /**
   * The organization the session acts in (`setActiveOrganization`), kept on the row by an adapter that keeps
   * session records; absent: none. authlib passes it to `createSession` and `updateSession` only for such an
   * adapter (another keeps it in the session's sealed cookie), and checks the membership on every read: the
   * value is data, never a grant.
   */
  activeOrganizationId?: string;
}

/** What `updateSession` is given: the session's token and the fields that change (`activeOrganizationId: null` clears it). */
export type AdapterSessionUpdate = Partial<Omit<AdapterSession, "activeOrganizationId">> &
  Pick<AdapterSession, "sessionToken"> & { activeOrganizationId?: string | null };

/** What authlib knows about a session when it starts, beside the session itself (see `SessionRecord`). */
export type SessionMetadata = Pick<SessionRecord, "createdAt" | "lastSeenAt" | "userAgent" | "clientAddress" | "provider">;

/**
 * An email sign-in token. `token` is already hashed by authlib (bound to the secret); adapters store and
 * compare it verbatim and never see the raw token.
 */
export interface VerificationToken {
  identifier: string;
  expires: Date;
  token: string;
}

/** A WebAuthn authenticator (passkey) registered by a user. Binary fields are base64 strings. */
export interface AdapterAuthenticator {
  credentialID: string;
  userId: string;
  providerAccountId: string;
  counter: number;
  credentialBackedUp: boolean;
  credentialPublicKey: string;
  credentialDeviceType: string;
  transports?: string | null;
  /**
   * The name the user sees and may change (one line, at most 64 characters). Set at registration (the
   * authenticator's maker when its AAGUID is known, else "Passkey" and the date); `null` or absent for a
   * passkey stored by an adapter that keeps no name.
   */
  name?: string | null;
  /** When the passkey was registered; `null` or absent when the adapter does not know. */
  createdAt?: Date | null;
  /** When the passkey last signed in (or completed a second step); `null` until then. */
  lastUsedAt?: Date | null;
}

/** What {@link Adapter.updateAuthenticator} may change. */
export type AuthenticatorUpdate = Partial<Pick<AdapterAuthenticator, "counter" | "name" | "lastUsedAt">>;

/**
 * A database adapter. Every method is optional in the type; which ones are required depends on the
 * features in use, and a missing one is reported at start-up (`MissingAdapterMethods`). The methods of
 * organizations are in {@link OrganizationAdapterMethods}, those of the authorization server in
 * {@link AuthorizationServerAdapterMethods}, those of API keys in {@link ApiKeyAdapterMethods}, those of enterprise SSO in
 * {@link SsoAdapterMethods}, those of SCIM provisioning in {@link ScimAdapterMethods}.
 */
export interface Adapter
  extends OrganizationAdapterMethods,
    AuthorizationServerAdapterMethods,
    ApiKeyAdapterMethods,
    AdminAdapterMethods,
    SsoAdapterMethods,
    ScimAdapterMethods {
  /** Creates a user and returns it with its id. */
  createUser?(user: AdapterUser): Awaitable<AdapterUser>;
  /** The user with this id, or `null`. */
  getUser?(id: string): Awaitable<AdapterUser | null>;
  /** The user with this (normalised) email, or `null`. */
  getUserByEmail?(email: string): Awaitable<AdapterUser | null>;
  /** The user linked to this provider account, or `null`. */
  getUserByAccount?(providerAccountId: Pick<AdapterAccount, "provider" | "providerAccountId">): Awaitable<AdapterUser | null>;
  /** Updates the given fields of a user and returns the whole updated user. */
  updateUser?(user: Partial<AdapterUser> & Pick<AdapterUser, "id">): Awaitable<AdapterUser>;
  /** Deletes a user and, in the same transaction, their accounts, sessions and authenticators. */
  deleteUser?(userId: string): Awaitable<AdapterUser | null | undefined | void>;
  /** Links an account to a user. A second link of the same (provider, providerAccountId) must fail. */
  linkAccount?(account: AdapterAccount): Awaitable<AdapterAccount | null | undefined | void>;
  /** Removes the account row. */
  unlinkAccount?(providerAccountId: Pick<AdapterAccount, "provider" | "providerAccountId">): Awaitable<AdapterAccount | undefined | void>;
  /**
   * Creates a database session and returns it (with its `id` when the adapter keeps session records).
   * Only an adapter with the session record methods is given the session's metadata too.
   */
  createSession?(session: AdapterSession & Partial<SessionMetadata>): Awaitable<AdapterSession>;
  /** The session with this token and its user, or `null`. Expired sessions are returned; authlib deletes them. */
  getSessionAndUser?(sessionToken: string): Awaitable<{ session: AdapterSession; user: AdapterUser } | null>;
  /**
   * Updates a session (usually its expiry) and returns it, or `null` if it no longer exists. A field left
   * out keeps its value; `activeOrganizationId: null` clears the session's organization.
   */
  updateSession?(session: AdapterSessionUpdate): Awaitable<AdapterSession | null | undefined | void>;
  /** Deletes a session and returns it, or `null` if there was none. */
  deleteSession?(sessionToken: string): Awaitable<AdapterSession | null | undefined | void>;
  /**
   * Stores a verification token. Must not store a second live token with the same identifier and token:
   * return `null` (or throw, e.g. from a unique key) instead. authlib claims a used passkey challenge this
   * way, so an adapter that silently overwrites a duplicate lets a captured passkey answer be replayed.
   */
  createVerificationToken?(verificationToken: VerificationToken): Awaitable<VerificationToken | null | undefined>;
  /**
   * Returns the token matching BOTH identifier and token, and deletes it in the same step, so that of two
   * concurrent uses exactly one gets it. Returns the stored expiry; `null` when there is no match.
   */
  useVerificationToken?(params: { identifier: string; token: string }): Awaitable<VerificationToken | null>;
  /** Every account linked to a user (`[]` when none). Used to refresh access tokens with database sessions. */
  listAccountsByUserId?(userId: string): Awaitable<AdapterAccount[]>;
  /**
   * Updates the token fields of an account (after an access-token refresh) and returns it, or `null` when
   * the account no longer exists.
   */
  updateAccount?(
    account: Pick<AdapterAccount, "provider" | "providerAccountId"> &
      Partial<Pick<AdapterAccount, "access_token" | "refresh_token" | "expires_at" | "id_token" | "scope" | "token_type">>,
  ): Awaitable<AdapterAccount | null>;
  /**
   * Compare-and-swap of an account's tokens after an access-token refresh: updates the token fields only
   * while the stored `refresh_token` still equals `previousRefreshToken` (`… WHERE refresh_token = $old`,
   * in one statement), and returns the updated account; `null` when the stored refresh token differs (an
   * other instance refreshed first: read its tokens with `getAccount`) or the account is gone. Optional:
   * without it authlib uses `updateAccount`, and two instances refreshing at once may overwrite each other.
   */
  swapAccountTokens?(
    account: Pick<AdapterAccount, "provider" | "providerAccountId"> &
      Partial<Pick<AdapterAccount, "access_token" | "refresh_token" | "expires_at" | "id_token" | "scope" | "token_type">>,
    previousRefreshToken: string,
  ): Awaitable<AdapterAccount | null>;
  /**
   * Deletes every session of a user and returns how many there were. Used when an unproven address moves
   * to the person who proved it: the previous holder's sessions end. Optional: without it those sessions
   * go on (reading the user without the address) until they expire or are signed out.
   */
  deleteSessionsByUserId?(userId: string): Awaitable<number>;
  /**
   * Session records, for listing and revoking sessions (docs/sessions.md). The five methods go together
   * (an adapter with all five is the registry of JWT sessions, and lists and revokes database sessions,
   * whose rows are their records); they follow `SessionRegistry`. A database session's record is its
   * row: `listSessionRecords` returns it (never its token), `deleteSessionRecords` deletes it.
   */
  createSessionRecord?(record: SessionRecord): Awaitable<void>;
  /** The record with this id, or `null` (see `SessionRegistry.get`). */
  getSessionRecord?(userId: string, id: string): Awaitable<SessionRecord | null>;
  /** The user's records that have not expired (see `SessionRegistry.listByUser`). */
  listSessionRecords?(userId: string): Awaitable<SessionRecord[]>;
  /** Sets a record's `lastSeenAt` and `expires` (see `SessionRegistry.touch`). */
  touchSessionRecord?(userId: string, id: string, lastSeenAt: Date, expires: Date): Awaitable<void>;
  /** Deletes the user's records in `ids` (all when absent) but `except` (see `SessionRegistry.delete`). */
  deleteSessionRecords?(userId: string, ids?: readonly string[], except?: string): Awaitable<SessionRecord[]>;
  /** The account of a provider, or `null`. */
  getAccount?(
    providerAccountId: AdapterAccount["providerAccountId"],
    provider: AdapterAccount["provider"],
  ): Awaitable<AdapterAccount | null>;
  /** The authenticator with this credential id, or `null`. */
  getAuthenticator?(credentialID: AdapterAuthenticator["credentialID"]): Awaitable<AdapterAuthenticator | null>;
  /** Stores a new authenticator. */
  createAuthenticator?(authenticator: AdapterAuthenticator): Awaitable<AdapterAuthenticator>;
  /** Every authenticator of a user (`[]` when none). */
  listAuthenticatorsByUserId?(userId: AdapterAuthenticator["userId"]): Awaitable<AdapterAuthenticator[]>;
  /** Sets the signature counter. Throws when the authenticator does not exist. */
  updateAuthenticatorCounter?(
    credentialID: AdapterAuthenticator["credentialID"],
    newCounter: AdapterAuthenticator["counter"],
  ): Awaitable<AdapterAuthenticator>;
  /**
   * Updates the given fields of an authenticator (its name; its counter and last use at a sign-in, in
   * one write) and returns it, or `null` when it does not exist. Optional: the passkey routes need it
   * (`MissingAdapterMethods` without it); without it a sign-in updates only the counter.
   */
  updateAuthenticator?(
    credentialID: AdapterAuthenticator["credentialID"],
    update: AuthenticatorUpdate,
  ): Awaitable<AdapterAuthenticator | null>;
  /**
   * Deletes an authenticator and returns it, or `null` when there was none. Its `webauthn` account row is
   * authlib's to remove (`unlinkAccount`). Optional: removing a passkey needs it.
   */
  deleteAuthenticator?(credentialID: AdapterAuthenticator["credentialID"]): Awaitable<AdapterAuthenticator | null>;
}

/** A user's ban: why, by whom, since when and until when (`null`: until an admin lifts it). */
export interface UserBan {
  userId: string;
  /** The admin's reason, shown to admins only (never to the banned user). */
  reason: string | null;
  /** The admin who banned them. */
  bannedBy: string | null;
  createdAt: Date;
  /** When the ban ends by itself; `null` for a ban that lasts until `unbanUser`. */
  expiresAt: Date | null;
}

/** What `listUsers` asks the adapter for: one page of users in the order of their ids. */
export interface UserListQuery {
  /** Users whose email or name contains this text (case-insensitive). */
  search?: string;
  /** Only users with a live ban (`true`), or only those without one (`false`). */
  banned?: boolean;
  /** Only users whose id sorts after this one (the cursor of the page before). */
  after?: string;
  /** The most users to answer. */
  limit: number;
  /** The time a ban must outlast to be live. */
  now: Date;
}

/** One user of a page of `listUsers`, with their live ban (`null`: not banned). */
export interface ListedUser {
  user: AdapterUser;
  ban: UserBan | null;
}

/**
 * The adapter methods of the admin feature (`admin: {…}`): a page of users, and bans. The in-memory
 * adapter of the tests and `@authlib/hosted-db-adapter` (migration 10) implement them.
 */
export interface AdminAdapterMethods {
  /**
   * Users matching `query`, ordered by id (byte order), those after `query.after` only, at most
   * `query.limit`, each with their live ban.
   */
  listUsers?(query: UserListQuery): Awaitable<ListedUser[]>;
  /** The user's ban, live or expired, or `null`. */
  getUserBan?(userId: string): Awaitable<UserBan | null>;
  /** Stores the user's ban, replacing any they had. */
  saveUserBan?(ban: UserBan): Awaitable<void>;
  /** Lifts the user's ban (none: nothing happens). */
  deleteUserBan?(userId: string): Awaitable<void>;
}
