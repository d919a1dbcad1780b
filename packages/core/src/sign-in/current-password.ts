/**
 * Proof of the current password for a sensitive change (a new password, deleting the account): checked
 * under the account's credentials limits, as a sign-in is, so a stolen session cannot guess it freely.
 * A wrong one is audited (`reauthenticationFailed`, naming the signed-in user).
 *
 * @module password-accounts/current-password
 */

import { IncorrectPassword } from "../errors.js";
import { verifyPassword } from "../password.js";
import type { AdapterUser } from "../types/adapters.js";
import type { InternalOptions, RequestInternal } from "../types/internal.js";
import type { PasswordConfig } from "../types/providers.js";
import { normalisedPassword } from "./password-rules.js";

/** Resolves when `given` is the password of `hash` (the user's); throws `IncorrectPassword` (counted) otherwise. */
export async function checkCurrentPassword(
  options: InternalOptions,
  request: RequestInternal,
  provider: PasswordConfig,
  account: { user: AdapterUser; hash: string },
  given: unknown,
): Promise<void> {
  if (request.currentPasswordProven) return;
  const limiter = options.rateLimits.config === false ? undefined : await import("../rate-limit/credentials.js");
  const { user, hash } = account;
  const attempt = await limiter?.admitCredentialsAttempt(options, request, provider, { email: user.email ?? user.id });
  const password = normalisedPassword(given);
  if (password === undefined || !(await verifyPassword(password, hash))) {
    await attempt?.failed();
    throw new IncorrectPassword("The current password is not right.");
  }
  await attempt?.succeeded();
  request.currentPasswordProven = true;
}
