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
import type { Adapter } from "./adapters.js";
import { MissingAdapterMethods } from "./errors.js";

type Needs<K extends keyof Adapter> = Required<Pick<Adapter, K>>;

/** Users and the accounts linked to them (OAuth sign-in with an adapter, database sessions). */
export const userMethods = ["createUser", "getUser", "getUserByEmail", "getUserByAccount", "updateUser", "linkAccount"] as const;
/** Database sessions. */
export const sessionMethods = ["createSession", "getSessionAndUser", "updateSession", "deleteSession"] as const;
/** Email sign-in: the verification tokens, and the users an email link signs in (created, or proven). */
export const emailMethods = ["createVerificationToken", "useVerificationToken", "getUserByEmail", "createUser", "updateUser"] as const;
/** Passkeys. */
export const webAuthnMethods = [
  "createUser",
  "getUser",
  "getUserByEmail",
  "linkAccount",
  "getAccount",
  "getAuthenticator",
  "createAuthenticator",
  "listAuthenticatorsByUserId",
  "updateAuthenticatorCounter",
] as const;
/** Access-token refresh with database sessions: the tokens live in the account rows. */
export const accountTokenMethods = ["listAccountsByUserId", "updateAccount"] as const;

/** Users and accounts. `deleteUser` (undo a lost race) and `deleteSessionsByUserId` are optional. */
export type UserStore = Needs<(typeof userMethods)[number]> & Pick<Adapter, "deleteUser" | "deleteSessionsByUserId">;
/** Database sessions. */
export type SessionStore = Needs<(typeof sessionMethods)[number]>;
/** Email sign-in. `deleteSessionsByUserId` is optional (see `actions/unproven-email.ts`). */
export type EmailStore = Needs<(typeof emailMethods)[number]> & Pick<Adapter, "deleteSessionsByUserId">;
/** Passkeys. `deleteUser` (undo a half-finished registration) is optional. */
export type WebAuthnStore = Needs<(typeof webAuthnMethods)[number]> & Pick<Adapter, "deleteUser">;
/** Refreshed tokens in account rows. `swapAccountTokens` (compare-and-swap) and `getAccount` are optional. */
export type AccountTokenStore = Needs<(typeof accountTokenMethods)[number]> & Pick<Adapter, "swapAccountTokens" | "getAccount">;
/** What the users of an address need to move it to the person who proved it (`users` and `email` both do). */
export type AddressStore = Needs<"getUserByEmail" | "updateUser"> & Pick<Adapter, "deleteSessionsByUserId">;

/** The adapter's capabilities. Each one is present exactly when the adapter has all of its required methods. */
export interface AdapterCapabilities {
  users?: UserStore;
  sessions?: SessionStore;
  email?: EmailStore;
  webAuthn?: WebAuthnStore;
  accountTokens?: AccountTokenStore;
}

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
  };
}

const featureNames: Record<keyof AdapterCapabilities, string> = {
  users: "Users",
  sessions: "Database sessions",
  email: "Email sign-in",
  webAuthn: "WebAuthn",
  accountTokens: "Access-token refresh with database sessions",
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
