/**
 * A user's passkeys as `auth.api.listPasskeys`, `GET <basePath>/passkeys` and the `passkeyAdded` and
 * `passkeyRemoved` events show them: a name, when it was registered and last used, and what kind it is.
 * Never its public key or signature counter.
 *
 * @module passkey-types
 */

/** One passkey of the user. */
export interface ListedPasskey {
  /** The passkey's id (its credential id, base64): what rename and remove take. */
  id: string;
  /** Its name, set at registration (the password manager that holds it, or "Passkey" and the day) or by the user. */
  name: string;
  /** When it was registered (ISO 8601), `null` when the adapter does not know. */
  createdAt: string | null;
  /** When it last signed in or completed a second step (ISO 8601), `null` when never since it was registered. */
  lastUsedAt: string | null;
  /** `"multiDevice"` (synced between devices) or `"singleDevice"`, as the authenticator said at registration. */
  deviceType?: string;
  /** True when the passkey is backed up (synced), as the authenticator last said. */
  backedUp?: boolean;
}

/** What `auth.api.renamePasskey` takes. */
export interface RenamePasskeyInput {
  /** The passkey's id, as {@link ListedPasskey.id}. */
  id: string;
  /** Its new name: one line, at most 64 characters (trimmed). */
  name: string;
}

/** What `auth.api.removePasskey` takes. */
export interface RemovePasskeyInput {
  /** The passkey's id, as {@link ListedPasskey.id}. */
  id: string;
}

/** The `passkeyAdded` and `passkeyRemoved` events' message. */
export interface PasskeyChangedMessage {
  /** The user the passkey was added to or removed from. */
  userId: string;
  /** The passkey (without its public key). */
  passkey: ListedPasskey;
}
