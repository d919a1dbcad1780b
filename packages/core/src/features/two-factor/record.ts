/**
 * Where a user's second factor lives: one row among the adapter's accounts, `{ provider: "authlib-2fa",
 * type: "credentials", providerAccountId: <user id> }`, whose `access_token` column holds the factor
 * sealed with the secret (JWE, salt `authlib.two-factor`): the TOTP secret, whether it was confirmed, and
 * the hashes of the unused recovery codes. Only columns every Auth.js schema has, so any adapter that keeps
 * accounts can hold it; a database reader sees no TOTP secret. The row is no way to sign in: the linked
 * accounts listing leaves it out and `unlinkAccount` refuses it (only `disableTotp` removes it).
 *
 * Keep old secrets in the `secret` list when rotating: a row sealed under a removed one no longer opens,
 * and its user then has no second factor to complete a sign-in with (they recover by email or an admin).
 *
 * @module two-factor/record
 */

import { missingMethods } from "../../adapter/capabilities.js";
import { MissingAdapterMethods } from "../../errors.js";
import { decode, encode } from "../../jwt.js";
import { SECOND_FACTOR_PROVIDER } from "../../sign-in/second-factor-row.js";
import type { Adapter, AdapterAccount } from "../../types/adapters.js";
import type { InternalOptions } from "../../types/internal.js";
import { twoFactorMethods } from "./config-check.js";

/** The adapter as the second factor's store. */
export type TwoFactorStore = Required<
  Pick<Adapter, "getUser" | "linkAccount" | "listAccountsByUserId" | "updateAccount" | "unlinkAccount">
> &
  Adapter;

/** A user's TOTP factor, as sealed in the row. */
export interface TotpFactor {
  /** The shared secret, base32. */
  secret: string;
  /** False between `enrollTotp` and `confirmTotp`: the factor does not count yet. */
  confirmed: boolean;
  /** The keyed hashes of the recovery codes not used yet. */
  recovery: string[];
  /**
   * When it was confirmed, in seconds since the epoch (absent in rows from before it was kept: as old as
   * any session). A session signed in before it needs its second step for the owner-present rule; one
   * signed in after the factor was set up from it does not.
   */
  confirmedAt?: number;
}

const SALT = "authlib.two-factor";
/** The sealed row does not expire by itself: the factor lasts until it is turned off. */
const SEAL_MAX_AGE = 100 * 365 * 24 * 60 * 60;

/** The adapter as the store, or `MissingAdapterMethods` naming what it lacks. */
export function twoFactorStore(options: InternalOptions): TwoFactorStore {
  const adapter = options.adapter;
  const missing = adapter ? missingMethods(adapter, twoFactorMethods) : [...twoFactorMethods];
  if (!adapter || missing.length > 0)
    throw new MissingAdapterMethods(`Second factors live in the adapter's accounts; it needs these methods: ${missing.join(", ")}.`);
  return adapter as TwoFactorStore;
}

/** The user's second-factor row, or `null`. */
export async function factorRowOf(store: TwoFactorStore, userId: string): Promise<AdapterAccount | null> {
  const accounts = await store.listAccountsByUserId(userId);
  // A row whose sealed value is gone still is the row: storeFactor updates it (linking another would clash with
  // it on (provider, providerAccountId)) and removeFactor removes it.
  return accounts.find((account) => account.provider === SECOND_FACTOR_PROVIDER) ?? null;
}

/** The factor sealed in `row`, or `null` when the row does not open (another secret, tampered with). */
export async function openFactor(options: InternalOptions, row: AdapterAccount | null): Promise<TotpFactor | null> {
  if (!row?.access_token) return null;
  try {
    const sealed = await decode<Partial<TotpFactor>>({ token: row.access_token, secret: options.secret, salt: SALT });
    if (!sealed || typeof sealed.secret !== "string" || !Array.isArray(sealed.recovery)) return null;
    const recovery = sealed.recovery.filter((h) => typeof h === "string");
    const factor: TotpFactor = { secret: sealed.secret, confirmed: sealed.confirmed === true, recovery };
    if (typeof sealed.confirmedAt === "number") factor.confirmedAt = sealed.confirmedAt;
    return factor;
  } catch {
    return null;
  }
}

/** The user's TOTP factor (confirmed or not), or `null`. */
export async function totpFactorOf(options: InternalOptions, store: TwoFactorStore, userId: string): Promise<TotpFactor | null> {
  return openFactor(options, await factorRowOf(store, userId));
}

/** Stores `factor` as the user's: updates their row, or links a new one. */
export async function storeFactor(options: InternalOptions, store: TwoFactorStore, userId: string, factor: TotpFactor): Promise<void> {
  const sealed = await encode<TotpFactor>({ token: { ...factor }, secret: options.secret, salt: SALT, maxAge: SEAL_MAX_AGE });
  const row = await factorRowOf(store, userId);
  if (row) {
    await store.updateAccount({ provider: SECOND_FACTOR_PROVIDER, providerAccountId: row.providerAccountId, access_token: sealed });
    return;
  }
  await store.linkAccount({
    provider: SECOND_FACTOR_PROVIDER,
    providerAccountId: userId,
    userId,
    type: "credentials",
    access_token: sealed,
  });
}

/** Removes the user's second-factor row (TOTP off). */
export async function removeFactor(store: TwoFactorStore, userId: string): Promise<void> {
  const row = await factorRowOf(store, userId);
  if (row) await store.unlinkAccount({ provider: SECOND_FACTOR_PROVIDER, providerAccountId: row.providerAccountId });
}
