/**
 * The linked accounts of a user as `auth.api.listAccounts`, `GET <basePath>/accounts` and the
 * `accountUnlinked` event show them: which provider, which kind, which account there. Never the tokens
 * an account row holds (they never leave the server).
 *
 * @module linked-account-types
 */
import type { AdapterAccount } from "./adapters.js";

/**
 * One account linked to the user. Passkeys are listed too (`type: "webauthn"`, `providerAccountId` the
 * credential id): they are ways in, but read-only here (`unlinkAccount` refuses them).
 */
export interface LinkedAccount {
  /** The provider's id (`"github"`, `"passkey"`, …). */
  provider: string;
  /** The kind of account: `"oauth"`, `"oidc"`, `"email"`, `"webauthn"`, … */
  type: AdapterAccount["type"];
  /** The user's id at that provider (a passkey's credential id). */
  providerAccountId: string;
}

/** What `auth.api.unlinkAccount` takes: the account to remove, as `listAccounts` names it. */
export interface UnlinkAccountInput {
  /** The provider's id. */
  provider: string;
  /** The user's id at that provider. */
  providerAccountId: string;
}

/** The `accountUnlinked` event's message. */
export interface AccountUnlinkedMessage {
  /** The user the account was removed from. */
  userId: string;
  /** The account removed (without its tokens). */
  account: LinkedAccount;
}
