/**
 * The owner-present rule: an operation that adds, changes or removes a way to sign in or to recover the
 * account, or that ends other sessions, needs its owner at the keyboard now, not only a session. A
 * session cookie can be copied (malware, a shared computer, a proxy log); without this rule a copy
 * becomes the account for good (a passkey of the thief's, the address changed then reset).
 *
 * The owner is present when the session was signed in to in the last `ownerPresent.maxAge` seconds
 * (default 600), or when the request carries the user's current password (counted under the credentials
 * limits, as a sign-in is). A user with a second factor needs a session of level 2 as well: a password
 * alone is one factor. The age and level are authlib's own (`authTime` and `aal`, set at sign-in and sealed
 * with the session): a session without them (issued before they existed, or by Auth.js) is of unknown
 * age, never recent.
 *
 * The pipeline asks {@link guardedOperation} of every request and runs {@link requireOwnerPresent} before
 * the route's handler, so no route checks this by itself and none can forget it. The table of operations
 * is the `ownerPresent` need of the operations' declarations.
 *
 * @module sign-in/owner-present
 */

import { ImpersonationForbidden, RecentSignInRequired } from "../errors.js";
import { assertCsrf } from "../http/csrf.js";
import { isPasswordProvider } from "../provider-kind.js";
import { nowInSeconds } from "../session/assurance.js";
import type { SessionAssurance } from "../types/base.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../types/internal.js";
import type { OperationDeclaration, OwnerOperation } from "../types/operation.js";
import { signInUrl } from "./urls.js";

/** How recent a sign-in must be for the owner to count as present, by default, in seconds. */
export const OWNER_PRESENT_SECONDS = 10 * 60;

export type { OwnerOperation };

/** Each shared operation as its refusals name it; a feature's: `FeatureDefinition.ownerOperations`. */
const LABELS: Readonly<Partial<Record<OwnerOperation, string>>> = Object.freeze({
  addPasskey: "passkey registration",
  removePasskey: "passkey removal",
  changeEmail: "email change",
  changePassword: "password change",
  linkAccount: "account link",
  unlinkAccount: "account unlink",
  revokeSessions: "session revoke",
  deleteAccount: "account deletion",
});

/** How `operation` is named in its refusals: the shared table, else its feature's label. */
function labelOf(options: InternalOptions, operation: OwnerOperation): string {
  return LABELS[operation] ?? options.ownerOperations?.[operation]?.label ?? operation;
}

/**
 * The owner-present operation `request` asks for, or `undefined` (most requests: one property read): its
 * operation's declaration says (`needs.ownerPresent`), always or as the request and its parsed `input` decide (a sign-in that
 * links an account, a passkey registration by a signed-in user). A request without a session is refused
 * by its route (`SessionRequired`): the rule applies to a session. Adding a passkey is checked where its
 * challenge is made: the callback verifies only a challenge this browser got for the same signed-in user
 * (`webauthn/registration.ts` `assertSubjectStillValid`).
 */
export function guardedOperation(
  options: InternalOptions,
  request: RequestInternal,
  operation: OperationDeclaration,
  input: unknown,
): OwnerOperation | undefined {
  const needed = operation.needs?.ownerPresent;
  return typeof needed === "function" ? needed(options, request, input) : needed;
}

/** What the rule weighs, all of it authlib's own (never the client's). */
export interface PresenceFacts {
  /** The session's assurance, `undefined` when it has none (unknown age, level 1). */
  assurance: SessionAssurance | undefined;
  /** The user has a second factor older than the session's sign-in: the session must be of level 2. */
  hasSecondFactor: boolean;
  /** The request carried the user's current password, and it was right. */
  passwordProven: boolean;
  /** How old a sign-in may be, in seconds. */
  maxAge: number;
  /** Now, in seconds since the epoch. */
  now: number;
}

/** What the rule asks for when the owner is not present: the sign-in's greatest age and its level. */
export interface PresenceNeed {
  maxAge: number;
  aal: 1 | 2;
}

/** `undefined` when the owner is present by `facts`, else what a new sign-in must give. */
export function missingPresence(facts: PresenceFacts): PresenceNeed | undefined {
  const aal = facts.hasSecondFactor ? 2 : 1;
  const { assurance } = facts;
  const levelMet = (assurance?.aal ?? 1) >= aal;
  const age = assurance ? facts.now - assurance.authTime : Number.POSITIVE_INFINITY;
  // A sign-in "from the future" (a clock moved back) is no proof of presence either.
  const recent = age >= 0 && age <= facts.maxAge;
  return levelMet && (recent || facts.passwordProven) ? undefined : { maxAge: facts.maxAge, aal };
}

/** The configured age of a recent sign-in, in seconds. */
export function ownerPresentMaxAge(options: InternalOptions): number {
  return options.config.ownerPresent?.maxAge ?? OWNER_PRESENT_SECONDS;
}

/**
 * True when the request carries the user's right current password (`currentPassword`); throws
 * `IncorrectPassword` (counted) for a wrong one. `false` when there is none to check: no Password()
 * provider, no password of the user's, or no `currentPassword` in the body.
 */
async function provesPassword(options: InternalOptions, request: RequestInternal, userId: string, fields: object): Promise<boolean> {
  const provider = options.providers.find(isPasswordProvider);
  const currentPassword = fieldOf(fields, "currentPassword");
  if (!provider || currentPassword === undefined || !options.adapter?.getUser) return false;
  const [{ hashOf, passwordAccountOf, passwordStore }, { checkCurrentPassword }] = await Promise.all([
    import("./password-account.js"),
    import("./current-password.js"),
  ]);
  const store = passwordStore(options);
  const [user, account] = await Promise.all([store.getUser(userId), passwordAccountOf(store, provider, userId)]);
  const hash = hashOf(account);
  if (!user || !hash) return false;
  await checkCurrentPassword(options, request, provider, { user, hash }, currentPassword);
  return true;
}

/** The operation's field `name` (its own property: the parsed input, or the form it was parsed from). */
function fieldOf(fields: object, name: string): unknown {
  return Object.hasOwn(fields, name) ? Reflect.get(fields, name) : undefined;
}

/** True when a revoke names the request's own session: signing out of this device takes no proof. */
async function endsOnlyThisSession(options: InternalOptions, request: RequestInternal, fields: object): Promise<boolean> {
  const sessionId = fieldOf(fields, "sessionId");
  if (typeof sessionId !== "string" || fieldOf(fields, "all") !== undefined) return false;
  return (await options.sessionStrategy.currentSession(options, request))?.sessionId === sessionId;
}

/**
 * An impersonated session (`act`: an admin acts as the user) is never the owner present, however recent:
 * it may not change how the user signs in, end their other sessions or delete the account. Throws
 * `ImpersonationForbidden` (`reason: "ownerPresent"`, with `operation`) for one; no sign-in or password
 * lifts it.
 */
export function refuseImpersonated(assurance: SessionAssurance | undefined, operation: OwnerOperation): void {
  if (assurance?.act === undefined) return;
  const error = new ImpersonationForbidden(
    "An admin acting as this user cannot change how they sign in, end their other sessions or delete the account.",
  );
  error.reason = "ownerPresent";
  error.operation = operation;
  throw error;
}

/**
 * Resolves when the owner of the request's session is present for `operation`; throws
 * `ImpersonationForbidden` for an impersonated session, `RecentSignInRequired` (with `maxAge`, `aal` and `operation`) otherwise, `IncorrectPassword` for a wrong
 * current password, `MissingCSRF` for a cross-site POST (before any password is counted). `fields` are the
 * operation's (its form, JSON body or `auth.api` input): `currentPassword`, a revoke's `sessionId`. A request with
 * no session goes on: its route refuses it, or (a passkey registered signed out) it is a sign-up.
 */
export async function requireOwnerPresent(
  options: InternalOptions,
  request: RequestInternal,
  operation: OwnerOperation,
  fields: object = request.body,
): Promise<void> {
  if (request.method === "POST") assertCsrf(labelOf(options, operation), options.csrfTokenVerified);
  const current = await options.sessionStrategy.currentAssurance(options, request);
  if (!current || (operation === "revokeSessions" && (await endsOnlyThisSession(options, request, fields)))) return;
  request.auditUserId = current.userId;
  refuseImpersonated(current.assurance, operation);
  const maxAge = ownerPresentMaxAge(options);
  const facts = { assurance: current.assurance, maxAge, now: nowInSeconds(), passwordProven: false };
  const signedInAt = current.assurance?.authTime;
  // An operation whose request proves the second factor itself (it takes one of its codes) needs a recent
  // session only, of any level.
  const provesSecondFactor = options.ownerOperations?.[operation]?.provesSecondFactor === true;
  const secondFactor = !provesSecondFactor && ((await options.hooks?.needsSecondLevel?.(options, current.userId, signedInAt)) ?? false);
  let need = missingPresence({ ...facts, hasSecondFactor: secondFactor });
  // The password is checked (and counted) only when it can make the difference.
  if (need && need.aal <= (current.assurance?.aal ?? 1) && (await provesPassword(options, request, current.userId, fields)))
    need = missingPresence({ ...facts, hasSecondFactor: secondFactor, passwordProven: true });
  if (!need) return;
  const minutes = Math.max(1, Math.round(need.maxAge / 60));
  const error = new RecentSignInRequired(
    need.aal === 2
      ? "Sign in again with your second factor to continue: this changes how you sign in."
      : `Sign in again to continue: changing how you sign in needs a sign-in in the last ${minutes} minutes.`,
  );
  error.maxAge = need.maxAge;
  error.aal = need.aal;
  error.operation = operation;
  throw error;
}

/**
 * A form's `RecentSignInRequired` refusal, presented: the sign-in page, coming back to `formPage` after
 * (its `done` notice dropped). Every form that runs an owner-present operation presents it so
 * (`Presentation` of its declaration).
 */
export function signInAgain(options: InternalOptions, formPage: string, error: RecentSignInRequired): ResponseInternal {
  const back = new URL(formPage);
  back.searchParams.delete("done");
  const target = new URL(signInUrl(options));
  target.searchParams.set("callbackUrl", back.href);
  target.searchParams.set("error", error.type);
  return { redirect: target.href, failure: error };
}
