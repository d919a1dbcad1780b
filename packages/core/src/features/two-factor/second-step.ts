/**
 * `POST <basePath>/two-factor`: the second step of a sign-in. CSRF-checked; completes the pending sign-in
 * of this browser (`two-factor/pending.ts`) with `code` (a TOTP or recovery code) or a passkey assertion
 * (`{ action: "second-factor", data }`, against a challenge from `GET webauthn-options/<passkey>?action=second-factor`).
 *
 * Tries are limited per user and per client (`rateLimit.twoFactor`), and each pending sign-in dies after
 * {@link MAX_WRONG_TRIES} wrong ones. Only a browser that passed the first factor holds a pending sign-in,
 * so nobody without the first factor can spend a user's tries.
 *
 * @module two-factor/second-step
 */

import { AuthError, IncorrectCode, TwoFactorExpired } from "../../errors.js";
import type { Cookie } from "../../http/cookies.js";
import { assertCsrf } from "../../http/csrf.js";
import { failureCookies, withFailureCookies } from "../../http/error-response.js";
import { nowInSeconds } from "../../session/assurance.js";
import { completeSignIn } from "../../sign-in/flow.js";
import { tellOwner } from "../../sign-in/tell-owner.js";
import type { AuthErrorShape } from "../../types/errors.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../../types/internal.js";
import type { InputOf } from "../../types/operation.js";
import { webAuthnRoutes } from "../../webauthn/routes-loader.js";
import { proveWithCode } from "./codes.js";
import { secondStepUrl } from "./gate.js";
import type { secondStepInput } from "./input.js";
import { clearPending, type PendingSignIn, pendingMaxAge, pendingOrExpired } from "./pending.js";
import { clearSecondFactorTries, countSecondFactorTry } from "./rate-limit.js";
import { totpFactorOf, twoFactorStore } from "./record.js";

/** Wrong tries a pending sign-in survives. */
export const MAX_WRONG_TRIES = 5;

/**
 * True for a refusal a browser's form shows on the second step's page (the rest go to the sign-in or
 * error page). A function, not a module constant: see routes.ts.
 */
function shownOnPage(type: string): boolean {
  const passkeyRefusals = ["WebAuthnVerificationError", "InvalidCheck"];
  return ["IncorrectCode", "RateLimited", "MissingCSRF", ...passkeyRefusals].includes(type);
}

/** `error`, carrying the cookies that delete this browser's pending sign-in. */
function endingPending(error: AuthError, options: InternalOptions, request: RequestInternal): AuthError {
  return withFailureCookies(error, clearPending(options, request), () => error);
}

type SecondStepInput = InputOf<typeof secondStepInput>;

/** What a proof gives: the method it proves, and the cookies to set (a used passkey challenge). */
interface Proof {
  method: string;
  cookies: Cookie[];
}

/** The passkey proof (`actions/webauthn.ts`, loaded through the `Passkey()` provider, as every passkey route). */
async function proveWithPasskey(
  options: InternalOptions,
  request: RequestInternal,
  pending: PendingSignIn,
  { action, data }: SecondStepInput,
): Promise<Proof> {
  const routes = await webAuthnRoutes(options);
  return { method: "hwk", cookies: await routes.secondFactorPasskey(options, request, pending.userId, { action, data }) };
}

/** Checks the second factor of `pending`: counts the try, then the code or the passkey. */
async function prove(options: InternalOptions, request: RequestInternal, pending: PendingSignIn, input: SecondStepInput): Promise<Proof> {
  const attempt = { userId: pending.userId, pendingId: pending.id, lifetimeSeconds: pendingMaxAge(options) };
  const tries = await countSecondFactorTry(options, request, attempt);
  if (tries > MAX_WRONG_TRIES) throw endingPending(new TwoFactorExpired("Too many wrong tries: sign in again."), options, request);
  if (input.data !== undefined) return proveWithPasskey(options, request, pending, input);
  const store = twoFactorStore(options);
  const factor = await totpFactorOf(options, store, pending.userId);
  try {
    if (!factor?.confirmed) throw new IncorrectCode("This account has no authenticator app: use a passkey.");
    return { method: await proveWithCode(options, store, pending.userId, factor, input.code), cookies: [] };
  } catch (error) {
    // The last wrong try ends the pending sign-in.
    if (tries === MAX_WRONG_TRIES && error instanceof IncorrectCode)
      throw endingPending(new TwoFactorExpired("Too many wrong codes: sign in again."), options, request);
    throw error;
  }
}

/** POST /two-factor: the session, for the right second factor. */
export async function completeSecondStep(
  options: InternalOptions,
  request: RequestInternal,
  input: SecondStepInput,
): Promise<ResponseInternal> {
  assertCsrf("second sign-in step", options.csrfTokenVerified);
  const pending = await pendingOrExpired(options, request);
  request.auditUserId = pending.userId;
  const proof = await prove(options, request, pending, input);
  await clearSecondFactorTries(options, pending.userId);
  const assurance = { authTime: nowInSeconds(), amr: [pending.method, proof.method], aal: 2 as const };
  const withTarget = { ...options, callbackUrl: pending.callbackUrl };
  const cookies = [...clearPending(options, request), ...proof.cookies];
  request.secondFactor = proof.method;
  const response = await completeSignIn(withTarget, request, { ...pending.result, assurance }, cookies);
  // A recovery code is the way in of someone who lost the app, or who stole the codes: the owner hears of it.
  if (proof.method === "recovery") await tellOwner(options, request, { id: pending.userId }, "recoveryCodeUsed");
  return response;
}

/**
 * A browser's refused second step: back to the second step's page with `?error=` for a refusal it can fix
 * there (answered as a page, not thrown: `failure` has the pipeline log, trace and audit it all the same);
 * `undefined` for every other (the sign-in or error page). Declared as the step's presentation: `auth.api`
 * callers get the typed error.
 */
export function secondStepRefusal(
  options: InternalOptions,
  _request: RequestInternal,
  error: AuthErrorShape,
): ResponseInternal | undefined {
  if (!(error instanceof AuthError) || !shownOnPage(error.type)) return undefined;
  return { redirect: secondStepUrl(options, error.type), cookies: failureCookies(error), failure: error };
}
