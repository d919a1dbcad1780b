/**
 * The typed views of the adapter, one per feature: each names the methods its feature needs as present.
 * `adapter-capabilities.ts` holds the code that checks an adapter against them and re-exports these.
 *
 * @module adapter-capability-types
 */
import type { Adapter } from "./adapters.js";

type Needs<K extends keyof Adapter> = Required<Pick<Adapter, K>>;

/** The methods users and the accounts linked to them need (OAuth sign-in with an adapter, database sessions). */
export type UserMethod = "createUser" | "getUser" | "getUserByEmail" | "getUserByAccount" | "updateUser" | "linkAccount";
/** The methods database sessions need. */
export type SessionMethod = "createSession" | "getSessionAndUser" | "updateSession" | "deleteSession";
/** The methods email sign-in needs: the verification tokens, and the users an email link signs in (created, or proven). */
export type EmailMethod = "createVerificationToken" | "useVerificationToken" | "getUserByEmail" | "createUser" | "updateUser";
/** The methods passkeys need. */
export type WebAuthnMethod =
  | "createUser"
  | "getUser"
  | "getUserByEmail"
  | "linkAccount"
  | "getAccount"
  | "getAuthenticator"
  | "createAuthenticator"
  | "listAuthenticatorsByUserId"
  | "updateAuthenticatorCounter";
/** The methods session records need (listing and revoking sessions). */
export type SessionRecordMethod =
  | "createSessionRecord"
  | "getSessionRecord"
  | "listSessionRecords"
  | "touchSessionRecord"
  | "deleteSessionRecords";
/** The methods access-token refresh with database sessions needs: the tokens live in the account rows. */
export type AccountTokenMethod = "listAccountsByUserId" | "updateAccount";
/**
 * The methods managing a user's passkeys needs (list, rename, remove; the accounts to count the ways in
 * that remain, and to put back a passkey a race left the user without).
 */
export type PasskeyMethod =
  | "listAuthenticatorsByUserId"
  | "updateAuthenticator"
  | "deleteAuthenticator"
  | "createAuthenticator"
  | "listAccountsByUserId"
  | "unlinkAccount"
  | "linkAccount";
/** The methods listing and unlinking a user's accounts need (`linkAccount` puts back one a race left the user without). */
export type LinkedAccountMethod = "listAccountsByUserId" | "unlinkAccount" | "linkAccount";

/** Users and accounts. `deleteUser` (undo a lost race) and `deleteSessionsByUserId` are optional. */
export type UserStore = Needs<UserMethod> & Pick<Adapter, "deleteUser" | "deleteSessionsByUserId">;
/** Database sessions. */
export type SessionStore = Needs<SessionMethod>;
/** Email sign-in. `deleteSessionsByUserId` is optional (see `actions/unproven-email.ts`). */
export type EmailStore = Needs<EmailMethod> & Pick<Adapter, "deleteSessionsByUserId">;
/**
 * Passkeys. `deleteUser` (undo a half-finished registration) is optional; so is `updateAuthenticator`
 * (with it a passkey gets a name, and a sign-in records its last use in the counter's write).
 */
export type WebAuthnStore = Needs<WebAuthnMethod> & Pick<Adapter, "deleteUser" | "updateAuthenticator">;
/** Refreshed tokens in account rows. `swapAccountTokens` (compare-and-swap) and `getAccount` are optional. */
export type AccountTokenStore = Needs<AccountTokenMethod> & Pick<Adapter, "swapAccountTokens" | "getAccount">;
/** What the users of an address need to move it to the person who proved it (`users` and `email` both do). */
export type AddressStore = Needs<"getUserByEmail" | "updateUser"> & Pick<Adapter, "deleteSessionsByUserId">;

/**
 * Linked accounts. `listAuthenticatorsByUserId` (passkeys counted as ways in) is optional. Not one of the
 * {@link AdapterCapabilities}: its check loads with the account routes (`actions/accounts.ts`).
 */
export type LinkedAccountStore = Needs<LinkedAccountMethod> & Pick<Adapter, "listAuthenticatorsByUserId">;

/** Passkeys managed like any factor. Not one of the {@link AdapterCapabilities}: its check loads with the passkey routes. */
export type PasskeyStore = Needs<PasskeyMethod>;

/** Session records. */
export type SessionRecordStore = Needs<SessionRecordMethod>;

/** The adapter's capabilities. Each one is present exactly when the adapter has all of its required methods. */
export interface AdapterCapabilities {
  users?: UserStore;
  sessions?: SessionStore;
  email?: EmailStore;
  webAuthn?: WebAuthnStore;
  accountTokens?: AccountTokenStore;
  sessionRecords?: SessionRecordStore;
}
