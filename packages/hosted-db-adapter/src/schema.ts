/**
 * The record types of the hosted database: one per table, as the adapter stores them.
 *
 * Every field a table declares is optional and nullable (rows written by other tools may leave any of
 * them empty); the adapter always writes the fields its contract needs. Link fields hold a reference
 * (`{ id }`) to a record of another table.
 *
 * @module schema
 */

/** Bookkeeping the database keeps for every record. */
export interface HostedDbRecordMeta {
  /** When the record was inserted. */
  createdAt: Date;
  /** When the record was last written through a table accessor. */
  updatedAt: Date;
  /** Starts at 0 and grows by one with every update through a table accessor. */
  version: number;
}

/** The base of every record: its id and the database's bookkeeping. */
export interface HostedDbRecord {
  /** Primary key. Users keep the id authlib generates; other tables get a random UUID. */
  id: string;
  /** Creation time, last update and version of the record. */
  meta: HostedDbRecordMeta;
}

/** A link field: a reference to a record of another table, by id. */
export interface HostedDbLink {
  /** Id of the linked record. */
  id: string;
}

/** A row of `authlib_users`. */
export interface AuthlibUserRecord extends HostedDbRecord {
  /** Stored as given; authlib normalises emails before they reach the adapter. Unique. */
  email?: string | null;
  /** When the email address was verified (email sign-in), if ever. */
  emailVerified?: Date | null;
  image?: string | null;
  name?: string | null;
  /** The app's role of the user (core's `admin.roles` reads it); `null` for none. Migration 10. */
  role?: string | null;
}

/** A row of `authlib_accounts`: links a user to a provider, with the provider's tokens. */
export interface AuthlibAccountRecord extends HostedDbRecord {
  access_token?: string | null;
  /** Absolute expiry of the access token, in seconds since the epoch. */
  expires_at?: number | null;
  id_token?: string | null;
  /** Together with `providerAccountId`, unique. */
  provider?: string | null;
  providerAccountId?: string | null;
  refresh_token?: string | null;
  scope?: string | null;
  session_state?: string | null;
  token_type?: string | null;
  /** The provider type: "oauth", "oidc", "email" or "webauthn". */
  type?: string | null;
  /** The user the account belongs to. Deleting the user deletes the account. */
  user?: HostedDbLink | null;
}

/**
 * A row of `authlib_sessions`: a database session. The row is also the session's record for session
 * control (`id` is its public id, `meta.createdAt` its sign-in time); the metadata fields come from
 * migration 4 and are empty on rows written before it or by other tools.
 */
export interface AuthlibSessionRecord extends HostedDbRecord {
  /** The organization the session acts in (`setActiveOrganization`; migration 14), or none. */
  activeOrganizationId?: string | null;
  /** The network the sign-in came from (an IPv4 /24 or IPv6 /48). */
  clientAddress?: string | null;
  expires?: Date | null;
  /** When the session was last seen; empty reads as its creation. */
  lastSeenAt?: Date | null;
  /** The provider the session began with, e.g. "github". */
  provider?: string | null;
  /** The value of the session cookie. Unique. */
  sessionToken?: string | null;
  /** The user the session belongs to. Deleting the user deletes the session. */
  user?: HostedDbLink | null;
  /** The browser's short label, e.g. "Chrome on macOS" (never the whole User-Agent). */
  userAgent?: string | null;
}

/** A row of `authlib_users_accounts`: joins a user to one of their accounts. */
export interface AuthlibUsersAccountRecord extends HostedDbRecord {
  account?: HostedDbLink | null;
  user?: HostedDbLink | null;
}

/** A row of `authlib_users_sessions`: joins a user to one of their sessions. */
export interface AuthlibUsersSessionRecord extends HostedDbRecord {
  session?: HostedDbLink | null;
  user?: HostedDbLink | null;
}

/** A row of `authlib_verificationTokens`: an email sign-in token (hashed by authlib). */
export interface AuthlibVerificationTokenRecord extends HostedDbRecord {
  expires?: Date | null;
  /** Usually the email address the token was sent to. Unique together with `token`. */
  identifier?: string | null;
  token?: string | null;
}

/** A row of `authlib_authenticators`: a passkey registered by a user. Binary fields are base64 strings. */
export interface AuthlibAuthenticatorRecord extends HostedDbRecord {
  counter?: number | null;
  credentialBackedUp?: boolean | null;
  /** Unique. */
  credentialID?: string | null;
  credentialDeviceType?: string | null;
  credentialPublicKey?: string | null;
  providerAccountId?: string | null;
  /** Comma-separated transports, e.g. "usb,nfc". */
  transports?: string | null;
  /** The name the user sees (migration 6). */
  name?: string | null;
  /** When the passkey last signed in (migration 6). */
  lastUsedAt?: Date | null;
  /** The owner. Deleting the user deletes the authenticator. */
  user?: HostedDbLink | null;
}

/** A JSON value, as a `jsonb` column holds it. */
export type HostedDbJson = string | number | boolean | null | HostedDbJson[] | { [key: string]: HostedDbJson };

/** A row of `authlib_organizations` (migration 7): a customer organization. `meta.createdAt` is its creation. */
export interface AuthlibOrganizationRecord extends HostedDbRecord {
  name?: string | null;
  /** Unique. */
  slug?: string | null;
  /** The sign-in policy, as JSON (`jsonb`). */
  policy?: { [key: string]: HostedDbJson } | null;
  /** "auto", "suggest" or "off". */
  domainJoin?: string | null;
}

/** A row of `authlib_members` (migration 7): a user's membership of an organization. Unique per (organization, user). */
export interface AuthlibMemberRecord extends HostedDbRecord {
  /** Deleting the organization deletes the membership. */
  organization?: HostedDbLink | null;
  /** Deleting the user deletes the membership. */
  user?: HostedDbLink | null;
  role?: string | null;
}

/** A row of `authlib_invitations` (migration 7): an invitation to an organization; only its token's hash is kept. */
export interface AuthlibInvitationRecord extends HostedDbRecord {
  /** Deleting the organization deletes the invitation. */
  organization?: HostedDbLink | null;
  email?: string | null;
  role?: string | null;
  /** The user id of the member who invited (no link: the invitation outlives them). */
  invitedBy?: string | null;
  /** "pending", "accepted" or "revoked". */
  status?: string | null;
  /** SHA-256 (hex) of the mailed token. */
  tokenHash?: string | null;
  expires?: Date | null;
}

/** A row of `authlib_domains` (migration 7): a domain an organization claims, proven by a DNS TXT record. */
export interface AuthlibDomainRecord extends HostedDbRecord {
  /** Deleting the organization deletes the claim. */
  organization?: HostedDbLink | null;
  /** Lower case, without a trailing dot; several organizations may claim one name. */
  name?: string | null;
  /** The value the TXT record must hold. */
  token?: string | null;
  /** When the record was last found; empty while unproven. */
  verifiedAt?: Date | null;
}

/** Maps every table of the hosted database to the type of its records. */
export interface DatabaseSchema {
  authlib_users: AuthlibUserRecord;
  authlib_accounts: AuthlibAccountRecord;
  authlib_sessions: AuthlibSessionRecord;
  authlib_users_accounts: AuthlibUsersAccountRecord;
  authlib_users_sessions: AuthlibUsersSessionRecord;
  authlib_verificationTokens: AuthlibVerificationTokenRecord;
  authlib_authenticators: AuthlibAuthenticatorRecord;
  authlib_organizations: AuthlibOrganizationRecord;
  authlib_members: AuthlibMemberRecord;
  authlib_invitations: AuthlibInvitationRecord;
  authlib_domains: AuthlibDomainRecord;
}

/** The name of a table of the hosted database. */
export type HostedDbTableName = keyof DatabaseSchema;

/** The fields of a record that a caller writes: everything but `id` and `meta`. */
export type HostedDbFields<R extends HostedDbRecord> = Omit<R, "id" | "meta">;

/** What `create` accepts: the fields, and optionally the id (generated when absent). */
export type HostedDbCreateInput<R extends HostedDbRecord> = Partial<HostedDbFields<R>> & { id?: string };

/**
 * An equality filter: every given field must equal the value (`null` matches an empty field, a link
 * matches by id). An `undefined` value is refused rather than ignored, so a missing argument can never
 * widen a lookup to the whole table.
 */
export type HostedDbFilter<R extends HostedDbRecord> = Partial<HostedDbFields<R>> & { id?: string };
