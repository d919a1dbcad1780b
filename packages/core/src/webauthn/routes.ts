/**
 * Passkeys (WebAuthn), experimental.
 *
 * Both routes are limited per client address (`rateLimit.passkey`): options answer 429 with
 * `Retry-After`, the callback sends the browser to the sign-in page with `?error=RateLimited`.
 *
 * - GET /webauthn-options/:provider?action=register&name= | ?action=authenticate[&email=]: the options for
 *   the browser, plus the sealed challenge cookie (`webauthn/challenge.ts`). Signed out, `register` needs
 *   `name`, the new user's display name, and never reads an email (webauthn/registration.ts); signed in,
 *   it adds a passkey to that user. `email` of `authenticate` matters only with `allowCredentialsForEmail`.
 *   Nothing is stored: an anonymous caller can ask for any number of options without making the server
 *   keep anything.
 * - The callback checks the answer against the sealed challenge, then records the challenge as used
 *   (`webauthn/challenge-store.ts`) before anything else happens, so a replayed answer is refused.
 * - POST /callback/:provider with `{ action, data, csrfToken }` (`action` and `data` parsed by the
 *   callback's schema): verifies the browser's response, then
 *   signs in through the shared flow (the `signIn` callback's `false` and redirects are honoured). Unlike
 *   the reference library, this callback is CSRF-protected.
 * - GET /webauthn-script: the browser code of the built-in sign-in page.
 */

import { CallbackRouteError, UnknownAction, WebAuthnVerificationError } from "../errors.js";
import type { Cookie } from "../http/cookies.js";
import { assertCsrf } from "../http/csrf.js";
import { withFailureCookies } from "../http/error-response.js";
import { requestBinding } from "../http/flow-binding.js";
import { noStoreHeaders } from "../http/response.js";
import { unframeableNoStoreHeaders } from "../http/security-headers.js";
import { countClientRequest } from "../rate-limit/limiter.js";
import { nowInSeconds } from "../session/assurance.js";
import { askSignInCallback, completeSignIn } from "../sign-in/flow.js";
import { notifyOwner } from "../sign-in/notify-owner.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../types/internal.js";
import {
  authenticationOptions,
  recordAuthentication,
  recordPasskeyUse,
  userAuthenticationOptions,
  verifyAssertion,
} from "./authentication.js";
import { type ChallengeClaims, clearChallenge, type OpenedChallenge, openChallenge, sealChallenge } from "./challenge.js";
import { claimChallenge } from "./challenge-store.js";
import { type WebAuthnContext, webAuthnContext } from "./context.js";
import {
  assertSubjectStillValid,
  registrationCandidate,
  registrationOptions,
  registrationSubject,
  storeRegistration,
  verifyRegistration,
} from "./registration.js";
import { type CredentialPost, type PostedFields, readCredentialPost } from "./request-body.js";
import { loadWebAuthnScript } from "./script-asset.js";

/** Counts a passkey request (options or callback) from the client (`rateLimit.passkey`), or throws `RateLimited`. */
function countPasskeyRequest(options: InternalOptions, request: RequestInternal): Promise<void> {
  return countClientRequest(options, request, "passkey:ip", (limits) => limits.passkey);
}

/** What the options route reads of its query (parsed by its declaration's schema, `actions/sign-in-input.ts`). */
export interface PasskeyOptionsQuery {
  /** `register`, `authenticate` or `second-factor`; anything else is refused here, after the rate limit. */
  action?: string | undefined;
  /** A new user's display name (`register`, signed out). */
  name?: string | undefined;
  /** The address whose passkeys to list (`authenticate`, with `allowCredentialsForEmail`). */
  email?: string | undefined;
}

/** GET /webauthn-options/:provider */
export async function webAuthnOptionsAction(
  options: InternalOptions,
  request: RequestInternal,
  query: PasskeyOptionsQuery,
): Promise<ResponseInternal> {
  await countPasskeyRequest(options, request);
  const ctx = await webAuthnContext(options, request);
  const { action } = query;
  let claims: ChallengeClaims;
  let publicKey: unknown;
  if (action === "register") {
    const user = await registrationSubject(ctx, query.name);
    const generated = await registrationOptions(ctx, user);
    claims = { provider: ctx.provider.id, action, challenge: generated.challenge, user };
    publicKey = generated;
  } else if (action === "authenticate" || action === "second-factor") {
    // The second step's options list the passkeys of the user whose sign-in waits in this browser.
    const generated = action === "authenticate" ? await authenticationOptions(ctx, query.email) : await secondFactorOptions(ctx);
    claims = { provider: ctx.provider.id, action, challenge: generated.challenge };
    publicKey = generated;
  } else {
    throw new UnknownAction('The WebAuthn options need `action` "register", "authenticate" or "second-factor".');
  }
  const challenge = await sealChallenge(options, claims, await requestBinding(options, request));
  return { body: { action, options: publicKey }, headers: { ...noStoreHeaders }, cookies: [challenge] };
}

/**
 * POST /callback/:provider for a WebAuthn provider. Every answer clears the challenge cookie (a challenge
 * is good for one attempt, failed or not): a failure is thrown like in every other action, carrying the
 * cleared cookie (http/error-response.ts).
 */
export async function webAuthnCallback(
  options: InternalOptions,
  request: RequestInternal,
  posted: PostedFields,
): Promise<ResponseInternal> {
  const clear = clearChallenge(options);
  try {
    assertCsrf("WebAuthn callback", options.csrfTokenVerified);
    await countPasskeyRequest(options, request);
    const ctx = await webAuthnContext(options, request);
    const post = readCredentialPost(posted);
    const binding = await requestBinding(options, request);
    const claims = await openChallenge(options, request, { provider: ctx.provider.id, action: post.action, binding });
    // A second step's challenge completes a pending sign-in at the second step's own route, never a sign-in here.
    if (post.action === "second-factor") throw new UnknownAction("A passkey's second step is posted to the second step's route.");
    const response = post.action === "register" ? await register(ctx, claims, post) : await authenticate(ctx, claims, post);
    return { ...response, cookies: [clear, ...(response.cookies ?? [])] };
  } catch (error) {
    const provider = request.providerId ?? "webauthn";
    throw withFailureCookies(
      error,
      [clear],
      (cause) => new CallbackRouteError(`The ${provider} callback failed.`, { cause: { err: cause as Error, provider } }),
    );
  }
}

/**
 * Single use: once an answer verified, its challenge is claimed before anything is written, so a captured
 * answer and its cookie, posted again, are refused (`InvalidCheck`) and change nothing.
 */
function claim(ctx: WebAuthnContext, claims: OpenedChallenge): Promise<void> {
  return claimChallenge(ctx.options, claims.challenge, claims.expiresAt);
}

async function authenticate(
  ctx: WebAuthnContext,
  claims: OpenedChallenge,
  post: CredentialPost & { action: "authenticate" | "second-factor" },
) {
  const verified = await verifyAssertion(ctx, claims.challenge, post.response);
  await claim(ctx, claims);
  const { user, account } = await recordAuthentication(ctx, verified);
  const redirect = await askSignInCallback(ctx.options, { user, account });
  if (redirect) return { redirect };
  // A passkey that verified its user is two factors in one (something held, something known or been).
  const assurance = { authTime: nowInSeconds(), amr: ["hwk"], aal: verified.userVerified ? (2 as const) : (1 as const) };
  return completeSignIn(ctx.options, ctx.request, { user, account, isNewUser: false, assurance });
}

/**
 * A passkey as the second factor of this browser's pending sign-in (called by the second factor's feature): the
 * assertion must verify, for a second-step challenge made in this browser, against a passkey of
 * `userId`, the user waiting. Claims the challenge and stores the new counter. Answers the cookie that
 * clears the challenge; a failure carries it too.
 */
export async function secondFactorPasskey(
  options: InternalOptions,
  request: RequestInternal,
  userId: string,
  posted: PostedFields,
): Promise<Cookie[]> {
  const clear = clearChallenge(options);
  try {
    const post = readCredentialPost(posted);
    if (post.action !== "second-factor")
      throw new WebAuthnVerificationError('The second step takes a passkey with `action` "second-factor".');
    const provider = options.providers.find((p) => p.type === "webauthn") as InternalOptions["provider"];
    const ctx = await webAuthnContext({ ...options, provider }, request);
    const binding = await requestBinding(options, request);
    const claims = await openChallenge(options, request, { provider: ctx.provider.id, action: "second-factor", binding });
    const verified = await verifyAssertion(ctx, claims.challenge, post.response);
    if (verified.authenticator.userId !== userId)
      throw new WebAuthnVerificationError("This passkey belongs to another user than the one signing in.");
    await claim(ctx, claims);
    await recordPasskeyUse(ctx, verified);
    return [clear];
  } catch (error) {
    throw withFailureCookies(
      error,
      [clear],
      (cause) => new WebAuthnVerificationError("The passkey could not be checked.", { cause: cause as Error }),
    );
  }
}

/** The options of a passkey as the second factor of this browser's pending sign-in (its user's passkeys). */
async function secondFactorOptions(ctx: WebAuthnContext) {
  // The second factor's feature answers, on or off (off, it refuses in its own name: `hooksWhenOff`).
  const pendingUser = ctx.options.hooks?.pendingSecondStepUser;
  if (!pendingUser) throw new UnknownAction("No feature takes a passkey as a second factor.");
  return userAuthenticationOptions(ctx, await pendingUser(ctx.options, ctx.request));
}

/**
 * A signed-in user adding a passkey keeps their session (nothing to sign in to); a new user is signed in.
 * Nothing is stored when the `signIn` callback refuses or redirects.
 */
async function register(
  ctx: WebAuthnContext,
  claims: OpenedChallenge,
  post: CredentialPost & { action: "register" },
): Promise<ResponseInternal> {
  const subject = claims.user!;
  await assertSubjectStillValid(ctx, subject);
  const passkey = await verifyRegistration(ctx, claims.challenge, post.response);
  await claim(ctx, claims);
  const candidate = await registrationCandidate(ctx, subject, passkey);
  const redirect = await askSignInCallback(ctx.options, candidate);
  if (redirect) return { redirect };
  const { user, account } = await storeRegistration(ctx, subject, candidate, passkey);
  if (subject.signedIn) {
    await notifyOwner(ctx.options, ctx.request, user, "passkeyAdded");
    return { redirect: ctx.options.callbackUrl };
  }
  return completeSignIn(ctx.options, ctx.request, { user, account, isNewUser: true });
}

/** GET /webauthn-script: `@simplewebauthn/browser` and the page's client script, served like the pages (never cached). */
export async function webAuthnScriptAction(options: InternalOptions): Promise<ResponseInternal> {
  // The route (actions/webauthn-routes.ts) loads this module only with a WebAuthn provider; any other caller is refused here.
  if (!options.providers.some((p) => p.type === "webauthn")) throw new UnknownAction("No WebAuthn provider is configured.");
  return {
    body: await loadWebAuthnScript(),
    headers: {
      "Content-Type": "text/javascript; charset=utf-8",
      // Like the pages: a response may carry a fresh CSRF cookie, which no cache may hand to someone else.
      ...unframeableNoStoreHeaders,
    },
  };
}
