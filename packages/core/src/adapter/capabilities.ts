/**
 * What the configured adapter can do, per feature, with the methods each feature needs typed as present.
 *
 * The `Adapter` type makes every method optional, because which ones an app must write depends on the
 * features it uses. The start-up check (`assert.ts`) proves, per enabled feature, that the methods exist;
 * {@link adapterCapabilities} turns that proof into types, so that actions call `users.getUserByAccount(…)`
 * and never `adapter.getUserByAccount!(…)`. A capability is present exactly when the adapter has every
 * required method of it; optional methods (`deleteUser`, `swapAccountTokens`, `deleteSessionsByUserId`)
 * stay optional and their callers decide what to do without them.
 *
 * @module adapter-capabilities
 */

import { MissingAdapterMethods } from "../errors.js";
import type {
  AccountTokenMethod,
  AccountTokenStore,
  AdapterCapabilities,
  AddressStore,
  EmailMethod,
  EmailStore,
  PasskeyMethod,
  PasskeyStore,
  SessionMethod,
  SessionRecordMethod,
  SessionRecordStore,
  SessionStore,
  UserMethod,
  UserStore,
  WebAuthnMethod,
  WebAuthnStore,
} from "../types/adapter-capabilities.js";
import type { Adapter } from "../types/adapters.js";

export type {
  AccountTokenStore,
  AdapterCapabilities,
  AddressStore,
  EmailStore,
  PasskeyStore,
  SessionRecordStore,
  SessionStore,
  UserStore,
  WebAuthnStore,
};

/**
 * Every method of `M`, in the order given: a record keyed by `M` can neither miss one nor add another, so
 * the list the start-up check walks is the union the store's type requires.
 */
function methodsOf<M extends keyof Adapter>(methods: Record<M, true>): readonly M[] {
  return Object.keys(methods) as M[];
}

/** Users and the accounts linked to them (OAuth sign-in with an adapter, database sessions). */
export const userMethods = methodsOf<UserMethod>({
  createUser: true,
  getUser: true,
  getUserByEmail: true,
  getUserByAccount: true,
  updateUser: true,
  linkAccount: true,
});
/** Database sessions. */
export const sessionMethods = methodsOf<SessionMethod>({
  createSession: true,
  getSessionAndUser: true,
  updateSession: true,
  deleteSession: true,
});
/** Email sign-in: the verification tokens, and the users an email link signs in (created, or proven). */
export const emailMethods = methodsOf<EmailMethod>({
  createVerificationToken: true,
  useVerificationToken: true,
  getUserByEmail: true,
  createUser: true,
  updateUser: true,
});
/** Passkeys. */
export const webAuthnMethods = methodsOf<WebAuthnMethod>({
  createUser: true,
  getUser: true,
  getUserByEmail: true,
  linkAccount: true,
  getAccount: true,
  getAuthenticator: true,
  createAuthenticator: true,
  listAuthenticatorsByUserId: true,
  updateAuthenticatorCounter: true,
});
/** Passkeys managed like any factor (the passkey routes check for them when used, not at start-up). */
export const passkeyMethods = methodsOf<PasskeyMethod>({
  listAuthenticatorsByUserId: true,
  updateAuthenticator: true,
  deleteAuthenticator: true,
  createAuthenticator: true,
  listAccountsByUserId: true,
  unlinkAccount: true,
  linkAccount: true,
});
/** Access-token refresh with database sessions: the tokens live in the account rows. */
export const accountTokenMethods = methodsOf<AccountTokenMethod>({ listAccountsByUserId: true, updateAccount: true });

/** Session records (listing and revoking sessions). */
export const sessionRecordMethods = methodsOf<SessionRecordMethod>({
  createSessionRecord: true,
  getSessionRecord: true,
  listSessionRecords: true,
  touchSessionRecord: true,
  deleteSessionRecords: true,
});

/** The methods of `methods` that `adapter` lacks. */
export function missingMethods(adapter: Adapter, methods: ReadonlyArray<keyof Adapter>): string[] {
  return methods.filter((m) => typeof adapter[m] !== "function");
}

function capability<T>(adapter: Adapter | undefined, methods: ReadonlyArray<keyof Adapter>): T | undefined {
  return adapter && missingMethods(adapter, methods).length === 0 ? (adapter as T) : undefined;
}

/** The capabilities of `adapter` (the wrapped one, so that every call still becomes `AdapterError` on failure). */
export function adapterCapabilities(adapter: Adapter | undefined): AdapterCapabilities {
  return {
    users: capability<UserStore>(adapter, userMethods),
    sessions: capability<SessionStore>(adapter, sessionMethods),
    email: capability<EmailStore>(adapter, emailMethods),
    webAuthn: capability<WebAuthnStore>(adapter, webAuthnMethods),
    accountTokens: capability<AccountTokenStore>(adapter, accountTokenMethods),
    sessionRecords: capability<SessionRecordStore>(adapter, sessionRecordMethods),
  };
}

const featureNames: Record<keyof AdapterCapabilities, string> = {
  users: "Users",
  sessions: "Database sessions",
  email: "Email sign-in",
  webAuthn: "WebAuthn",
  accountTokens: "Access-token refresh with database sessions",
  sessionRecords: "Session records",
};

/**
 * The capability a feature in use needs. The start-up check already proved it exists for every enabled
 * feature, so the error is a guard for an adapter that changed after start-up, not a normal path.
 */
export function requireCapability<K extends keyof AdapterCapabilities>(
  capabilities: AdapterCapabilities,
  feature: K,
): NonNullable<AdapterCapabilities[K]> {
  const store = capabilities[feature];
  if (!store) throw new MissingAdapterMethods(`${featureNames[feature]} needs a database adapter with its methods.`);
  return store as NonNullable<AdapterCapabilities[K]>;
}
