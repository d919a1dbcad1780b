/**
 * The gate between a first factor and the session: a user with a second factor gets a pending sign-in
 * (`two-factor/pending.ts`) and the second step's URL instead of a session. Loaded with the first sign-in
 * of a configuration with `twoFactor`.
 *
 * @module two-factor/gate
 */
import type { Cookie } from "../../http/cookies.js";
import type { InternalOptions, RequestInternal, SignInResult } from "../../types/internal.js";
import { sealPending } from "./pending.js";
import { type TwoFactorStore, totpFactorOf, twoFactorStore } from "./record.js";

/** The second factors a user can complete a sign-in with. */
export interface SecondFactors {
  /** TOTP is on (confirmed): a code from the app, or a recovery code. */
  totp: boolean;
  /** When TOTP was turned on (seconds since the epoch), when the factor's row says. */
  totpSince?: number;
  /** Passkeys the user can use at the second step (a passkey provider is configured). */
  passkeys: number;
}

/** How many passkeys `userId` has, when a passkey provider is configured and the adapter lists them. */
async function passkeysOf(options: InternalOptions, store: TwoFactorStore, userId: string): Promise<number> {
  if (!options.providers.some((provider) => provider.type === "webauthn") || !store.listAuthenticatorsByUserId) return 0;
  return (await store.listAuthenticatorsByUserId(userId)).length;
}

/** The user's second factors. */
export async function secondFactorsOf(options: InternalOptions, userId: string): Promise<SecondFactors> {
  const store = twoFactorStore(options);
  const [factor, passkeys] = await Promise.all([totpFactorOf(options, store, userId), passkeysOf(options, store, userId)]);
  const totp = factor?.confirmed === true;
  return totp && factor.confirmedAt !== undefined ? { totp, totpSince: factor.confirmedAt, passkeys } : { totp, passkeys };
}

/** True when a sign-in of a user with `factors` must take the second step. */
export function needsSecondStep(options: InternalOptions, factors: SecondFactors): boolean {
  return factors.totp || (options.config.twoFactor?.passkeys === true && factors.passkeys > 0);
}

/** The second step's page: the app's own (`pages.twoFactor`), else the built-in one. */
export function secondStepUrl(options: InternalOptions, error?: string): string {
  const url = new URL(options.pages.twoFactor ?? `${options.authUrl}/two-factor`, options.origin);
  if (error) url.searchParams.set("error", error);
  return url.href;
}

/**
 * For a user with a second factor: the cookies of the pending sign-in of `result` (first factor
 * `method`) and the second step's URL. `undefined` when the user has none (the session starts now).
 */
export async function holdForSecondStep(
  options: InternalOptions,
  request: RequestInternal,
  result: SignInResult,
  method: string,
): Promise<{ redirect: string; cookies: Cookie[] } | undefined> {
  const userId = result.user.id;
  if (typeof userId !== "string" || userId === "") return undefined;
  if (!needsSecondStep(options, await secondFactorsOf(options, userId))) return undefined;
  const pending = { id: crypto.randomUUID(), userId, method, callbackUrl: options.callbackUrl, result };
  return { redirect: secondStepUrl(options), cookies: await sealPending(options, request, pending) };
}

/**
 * True when the session must be of level 2: the user has a second factor that was in place when the session
 * was signed in to (a TOTP turned on later was set up from this session, within its recent sign-in).
 */
export async function needsSecondLevel(options: InternalOptions, userId: string, signedInAt: number | undefined): Promise<boolean> {
  if (!options.config.twoFactor) return false;
  const factors = await secondFactorsOf(options, userId);
  if (!needsSecondStep(options, factors)) return false;
  if (options.config.twoFactor.passkeys === true && factors.passkeys > 0) return true;
  return factors.totpSince === undefined || signedInAt === undefined || factors.totpSince < signedInAt;
}
