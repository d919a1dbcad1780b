/**
 * Sign-in with the `Password()` provider: `POST <basePath>/callback/<id>` (`email`, `password`), under
 * the credentials limits and device cookies like any credentials provider (actions/callback.ts); this is
 * what stands in for `authorize`.
 *
 * The answer and the work are the same for every refusal: an unknown address, an address nobody proved,
 * a user without a password and a wrong password each cost the same two reads (the user, the accounts of
 * a user id) and one scrypt verification (against a hash of the same parameters when there is none), and
 * end in `CredentialsSignin`.
 *
 * @module password-accounts/sign-in
 */

import { normalizeEmail } from "../../address/normalize.js";
import { hashPassword, verifyPassword } from "../../password.js";
import { hashOf, passwordAccountOf, passwordStore } from "../../sign-in/password-account.js";
import { MAX_PASSWORD_LENGTH, normalisedPassword } from "../../sign-in/password-rules.js";
import { provenHolder } from "../../sign-in/proven-address.js";
import type { AdapterUser } from "../../types/adapters.js";
import type { InternalOptions } from "../../types/internal.js";
import type { PasswordConfig } from "../../types/providers.js";

/**
 * A hash of a random password with today's parameters, made once per process: what a refused sign-in
 * verifies against, so it costs what a real one costs. Not per configuration (it is a constant of the
 * hash format), so it may live in the module.
 */
let decoyHash: Promise<string> | undefined;

function decoy(): Promise<string> {
  decoyHash ??= hashPassword(crypto.randomUUID()).catch((error: unknown) => {
    decoyHash = undefined;
    throw error;
  });
  return decoyHash;
}

function addressOf(input: unknown): string | undefined {
  try {
    return normalizeEmail(input);
  } catch {
    return undefined;
  }
}

/** Whether `password` matches `hash`. Without a hash: false, after verifying against the decoy (the same cost). */
async function matchesHash(password: string, hash: string | undefined): Promise<boolean> {
  if (hash === undefined) {
    await verifyPassword(password, await decoy());
    return false;
  }
  return verifyPassword(password, hash);
}

/** The user `credentials` sign in as, or `null` (see the module comment). */
export async function passwordSignIn(
  options: InternalOptions,
  provider: PasswordConfig,
  credentials: Record<string, unknown>,
): Promise<AdapterUser | null> {
  const store = passwordStore(options);
  const email = addressOf(credentials.email);
  const password = normalisedPassword(credentials.password) ?? "";
  const user = email === undefined ? null : await provenHolder(store, email);
  // Read for a random id when there is no user, so that every refusal costs the same reads.
  const hash = hashOf(await passwordAccountOf(store, provider, user?.id ?? crypto.randomUUID()));
  // Longer than any password can be: refused, after the same work.
  const tooLong = [...password].length > MAX_PASSWORD_LENGTH;
  const matches = await matchesHash(tooLong ? "" : password, hash);
  return matches && !tooLong ? user : null;
}
