/**
 * Turning TOTP on and off for the signed-in user: `POST <basePath>/two-factor/enroll` (a new secret, its
 * `otpauth://` URI and QR code), `/confirm` (a code of the app turns it on, and answers 10 recovery
 * codes, shown once), `/disable` (a code or a recovery code turns it off), `/recovery-codes` (a code makes
 * 10 new recovery codes, shown once, and the earlier ones stop working), `GET /two-factor/status` and
 * `GET /two-factor/assurance` (JSON, never cached). All but the two reads are owner-present operations
 * (`sign-in/owner-present.ts`): a stolen session alone can neither turn a second factor off nor lock its
 * owner out with one of its own.
 *
 * @module two-factor/settings
 */

import { IncorrectCode, SessionRequired, TwoFactorAlreadyEnabled, TwoFactorNotEnabled } from "../../errors.js";
import { assertCsrf } from "../../http/csrf.js";
import { noStoreHeaders } from "../../http/response.js";
import { nowInSeconds } from "../../session/assurance.js";
import { notifyOwner } from "../../sign-in/notify-owner.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../../types/internal.js";
import type { InputOf } from "../../types/operation.js";
import { base32Encode } from "./base32.js";
import { acceptTotp, proveWithCode, typedTotp } from "./codes.js";
import { secondFactorsOf } from "./gate.js";
import type { codeInput } from "./input.js";
import { clearSecondFactorTries, countSecondFactorTry } from "./rate-limit.js";
import { removeFactor, storeFactor, type TwoFactorStore, totpFactorOf, twoFactorStore } from "./record.js";
import { hashRecoveryCode, newRecoveryCodes, typedRecoveryCode } from "./recovery-codes.js";
import { otpauthUri } from "./totp.js";
import type { TotpEnrollment, TwoFactorStatus } from "./types.js";

/** Bytes of a TOTP secret: 160 bits, the size RFC 4226 recommends for HMAC-SHA-1. */
const SECRET_BYTES = 20;

/** Some answers hold a secret or recovery codes: none is ever cached (the JSON type is set for every object body). */
function noStore() {
  return { ...noStoreHeaders };
}

/**
 * The signed-in user (the audit row of a failure names them), or `SessionRequired`. The owner-present rule
 * (`sign-in/owner-present.ts`) already asked for a recent sign-in, at level 2 for a user with a second factor.
 */
async function signedInUserId(options: InternalOptions, request: RequestInternal): Promise<{ userId: string }> {
  const current = await options.sessionStrategy.currentAssurance(options, request);
  if (!current) throw new SessionRequired("Sign in first: the request has no session.");
  request.auditUserId = current.userId;
  return { userId: current.userId };
}

/** The QR code of `uri`, as an SVG document (its code loads with the first enrollment). */
async function qrSvgOf(uri: string): Promise<string> {
  const { renderSVG } = await import("uqr");
  return renderSVG(uri);
}

/** 10 new recovery codes (shown once) and their hashes (stored). */
async function newHashedRecoveryCodes(options: InternalOptions, userId: string): Promise<{ recoveryCodes: string[]; recovery: string[] }> {
  const recoveryCodes = newRecoveryCodes();
  const [secret] = options.secret;
  const recovery = await Promise.all(
    recoveryCodes.map((code) => hashRecoveryCode(secret as string, userId, typedRecoveryCode(code) as string)),
  );
  return { recoveryCodes, recovery };
}

/** POST /two-factor/enroll: `{ secret, uri, qrSvg }` of a new secret, stored unconfirmed. */
async function enroll(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal<TotpEnrollment>> {
  assertCsrf("TOTP enrollment", options.csrfTokenVerified);
  const { userId } = await signedInUserId(options, request);
  const store = twoFactorStore(options);
  if ((await totpFactorOf(options, store, userId))?.confirmed)
    throw new TwoFactorAlreadyEnabled("Your authenticator app is set up already: turn it off first to set up another.");
  const secret = base32Encode(crypto.getRandomValues(new Uint8Array(SECRET_BYTES)));
  await storeFactor(options, store, userId, { secret, confirmed: false, recovery: [] });
  return { body: await enrollmentOf(options, store, userId, secret), headers: noStore() };
}

/** What setting up `secret` shows: the key, its `otpauth://` URI and its QR code. */
async function enrollmentOf(options: InternalOptions, store: TwoFactorStore, userId: string, secret: string): Promise<TotpEnrollment> {
  const user = await store.getUser(userId);
  const issuer = options.config.twoFactor?.issuer ?? new URL(options.origin).host;
  const uri = otpauthUri({ secret, issuer, account: user?.email ?? user?.name ?? userId });
  return { secret, uri, qrSvg: await qrSvgOf(uri) };
}

/**
 * The set-up under way of the signed-in user (an app enrolled, not confirmed yet): its key and QR code, for
 * the account page to show again after a wrong code; `undefined` when there is none. It shows a secret:
 * only for a request the owner-present rule passed (the account page's confirm form, after its check).
 */
export async function pendingSetup(options: InternalOptions, request: RequestInternal): Promise<TotpEnrollment | undefined> {
  const { userId } = await signedInUserId(options, request);
  const store = twoFactorStore(options);
  const factor = await totpFactorOf(options, store, userId);
  return factor && !factor.confirmed ? enrollmentOf(options, store, userId, factor.secret) : undefined;
}

/** POST /two-factor/confirm with `code`: TOTP on, and `{ recoveryCodes }` (shown once). */
async function confirm(
  options: InternalOptions,
  request: RequestInternal,
  input: InputOf<typeof codeInput>,
): Promise<ResponseInternal<{ recoveryCodes: string[] }>> {
  assertCsrf("TOTP confirmation", options.csrfTokenVerified);
  const { userId } = await signedInUserId(options, request);
  const store = twoFactorStore(options);
  const factor = await totpFactorOf(options, store, userId);
  if (!factor) throw new TwoFactorNotEnabled("Set up the authenticator app first (enroll), then confirm it with a code.");
  if (factor.confirmed) throw new TwoFactorAlreadyEnabled("Your authenticator app is set up already.");
  await countSecondFactorTry(options, request, { userId, lifetimeSeconds: 0 });
  const typed = typedTotp(input.code);
  if (typed === undefined) throw new IncorrectCode("Type the 6-digit code your authenticator app shows.");
  await acceptTotp(options, userId, factor, typed);
  const { recoveryCodes, recovery } = await newHashedRecoveryCodes(options, userId);
  await storeFactor(options, store, userId, { secret: factor.secret, confirmed: true, recovery, confirmedAt: nowInSeconds() });
  await clearSecondFactorTries(options, userId);
  await options.events.twoFactorChanged({ userId, change: "enabled" });
  await notifyOwner(options, request, { id: userId }, "twoFactorEnabled");
  return { body: { recoveryCodes }, headers: noStore() };
}

/** What turning the app off and making new recovery codes are asked: a code of the app or a recovery code. */
type CodeInput = InputOf<typeof codeInput>;

/**
 * The signed-in user's confirmed factor, proven by the input's `code` (of the app, or an unused recovery
 * code, spent): what turning it off and making new recovery codes start with. The try is counted first.
 */
async function provenFactor(options: InternalOptions, request: RequestInternal, input: CodeInput, action: string, notOn: string) {
  assertCsrf(action, options.csrfTokenVerified);
  const { userId } = await signedInUserId(options, request);
  const store = twoFactorStore(options);
  const factor = await totpFactorOf(options, store, userId);
  if (!factor?.confirmed) throw new TwoFactorNotEnabled(notOn);
  await countSecondFactorTry(options, request, { userId, lifetimeSeconds: 0 });
  await proveWithCode(options, store, userId, factor, input.code);
  return { userId, store, factor };
}

/** POST /two-factor/disable with `code` (of the app, or a recovery code): TOTP off. */
async function disable(
  options: InternalOptions,
  request: RequestInternal,
  input: CodeInput,
): Promise<ResponseInternal<{ disabled: boolean }>> {
  const { userId, store } = await provenFactor(options, request, input, "TOTP removal", "There is no authenticator app to turn off.");
  await removeFactor(store, userId);
  await clearSecondFactorTries(options, userId);
  await options.events.twoFactorChanged({ userId, change: "disabled" });
  await notifyOwner(options, request, { id: userId }, "twoFactorDisabled");
  return { body: { disabled: true }, headers: noStore() };
}

/**
 * POST /two-factor/recovery-codes with `code` (of the app, or an unused recovery code): `{ recoveryCodes }`,
 * 10 new ones (shown once); the earlier ones stop working. The app's secret and its set-up time are kept.
 */
async function regenerateRecoveryCodes(
  options: InternalOptions,
  request: RequestInternal,
  input: CodeInput,
): Promise<ResponseInternal<{ recoveryCodes: string[] }>> {
  const { userId, store, factor } = await provenFactor(
    options,
    request,
    input,
    "Recovery codes regeneration",
    "Turn the authenticator app on first: its recovery codes come with it.",
  );
  const { recoveryCodes, recovery } = await newHashedRecoveryCodes(options, userId);
  // Read again: the code just proven may have been a recovery code, spent by `proveWithCode`.
  const current = (await totpFactorOf(options, store, userId)) ?? factor;
  await storeFactor(options, store, userId, { ...current, recovery });
  await clearSecondFactorTries(options, userId);
  await options.events.twoFactorChanged({ userId, change: "recoveryCodesCreated" });
  await notifyOwner(options, request, { id: userId }, "recoveryCodesCreated");
  return { body: { recoveryCodes }, headers: noStore() };
}

/** GET /two-factor/status: the signed-in user's second factors. */
async function status(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal<TwoFactorStatus>> {
  const current = await options.sessionStrategy.currentAssurance(options, request);
  if (!current) throw new SessionRequired("Sign in first: the request has no session.");
  const factor = await totpFactorOf(options, twoFactorStore(options), current.userId);
  const { passkeys } = await secondFactorsOf(options, current.userId);
  const totp = factor?.confirmed === true;
  return { body: { totp, recoveryCodes: totp ? factor.recovery.length : 0, passkeys }, headers: noStore() };
}

export { confirm, disable, enroll, regenerateRecoveryCodes, status };
