/**
 * The password account: one row per user in the adapter's accounts, `{ provider: <the Password
 * provider's id>, type: "credentials", providerAccountId: <user id> }`, whose `access_token` column holds
 * the scrypt hash string (`scrypt$N$r$p$salt$key`, parameters included, see `@authlib/core/password`).
 * Only columns every Auth.js schema has, so the row moves with the data (the Auth.js import path of
 * `@authlib/hosted-db-adapter` copies it unchanged) and the hash verifies on every runtime.
 *
 * Its `providerAccountId` is the user id when authlib creates it; it is found by user and provider. Keyed
 * by the user, not the address: the address is the user's proven `email`, and a password
 * account never holds an address of its own (nobody gets one before proving the address).
 *
 * @module password-accounts/account
 */

import { missingMethods } from "../adapter/capabilities.js";
import { MissingAdapterMethods } from "../errors.js";
import type { Adapter, AdapterAccount } from "../types/adapters.js";
import type { InternalOptions } from "../types/internal.js";
import type { PasswordConfig } from "../types/providers.js";
import { passwordMethods } from "./password-config.js";

/** What the adapter's accounts are called on for the password rows. */
export type PasswordAccountStore = Required<
  Pick<Adapter, "createUser" | "getUser" | "getUserByEmail" | "updateUser" | "linkAccount" | "listAccountsByUserId" | "updateAccount">
> &
  Pick<Adapter, "createVerificationToken" | "deleteSessionsByUserId">;

/** The adapter (wrapped: a failure is `AdapterError`) as the password store. */
export function passwordStore(options: InternalOptions): PasswordAccountStore {
  const adapter = options.adapter;
  const missing = adapter ? missingMethods(adapter, passwordMethods) : [...passwordMethods];
  // The start-up check refuses such a configuration; this guards an adapter changed after it.
  if (!adapter || missing.length > 0)
    throw new MissingAdapterMethods(`The Password provider needs these adapter methods: ${missing.join(", ")}.`);
  return adapter as PasswordAccountStore;
}

/**
 * The user's password account, or `null` when they have no password. Found among the user's accounts by
 * provider, not by `providerAccountId`: a copy of the data that renumbered the users (an export into an
 * Auth.js schema and back) still finds it.
 */
export async function passwordAccountOf(
  store: Required<Pick<Adapter, "listAccountsByUserId">>,
  provider: PasswordConfig,
  userId: string,
): Promise<AdapterAccount | null> {
  const accounts = await store.listAccountsByUserId(userId);
  return accounts.find((account) => account.provider === provider.id && typeof account.access_token === "string") ?? null;
}

/** The hash of a password account (`undefined` for none). */
export function hashOf(account: AdapterAccount | null): string | undefined {
  return account?.access_token ?? undefined;
}

/** Stores `hash` as the user's password: updates their password account, or links a new one. */
export async function storePasswordHash(
  store: PasswordAccountStore,
  provider: PasswordConfig,
  userId: string,
  hash: string,
): Promise<void> {
  const existing = await passwordAccountOf(store, provider, userId);
  if (existing) {
    await store.updateAccount({ provider: provider.id, providerAccountId: existing.providerAccountId, access_token: hash });
    return;
  }
  await store.linkAccount({ provider: provider.id, providerAccountId: userId, userId, type: "credentials", access_token: hash });
}
