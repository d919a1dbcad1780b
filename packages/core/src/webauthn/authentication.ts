/**
 * Signing in with a passkey: the options for the browser, the verification of its assertion against
 * the stored authenticator (signature, challenge, origin, RP id, user verification, signature counter),
 * and, once the caller claimed the challenge, what a verified assertion changes. The two steps are apart
 * so that nothing is written for an answer whose challenge turns out to be used already.
 *
 * @module webauthn/authentication
 */
import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import { normalizeEmail } from "../address/normalize.js";
import { AccountNotLinked, WebAuthnVerificationError } from "../errors.js";
import type { AdapterAccount, AdapterAuthenticator, AdapterUser } from "../types/adapters.js";
import type { WebAuthnContext } from "./context.js";
import { base64ToBytes, browserCredentialId, splitTransports, storedCredentialId } from "./encoding.js";

/** The email of the query, normalised, or `undefined` when absent or not an address. */
function queryEmail(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    return normalizeEmail(value);
  } catch {
    return undefined;
  }
}

/**
 * The options of `navigator.credentials.get()`. `allowCredentials` is empty, and the browser offers any
 * discoverable passkey of this site (the passkey button and conditional UI). Only with the provider's
 * `allowCredentialsForEmail` does an `email` of a known user list that user's passkeys — which tells
 * anyone asking whether the address has an account with passkeys.
 */
export async function authenticationOptions(ctx: WebAuthnContext, givenEmail: string | undefined) {
  const { adapter, provider } = ctx;
  const email = provider.allowCredentialsForEmail === true ? queryEmail(givenEmail) : undefined;
  const user = email ? await adapter.getUserByEmail(email) : null;
  return optionsFor(ctx, user ? await adapter.listAuthenticatorsByUserId(user.id) : []);
}

/** The options of `navigator.credentials.get()` for the passkeys of `userId` only (the second step of a sign-in). */
export async function userAuthenticationOptions(ctx: WebAuthnContext, userId: string) {
  return optionsFor(ctx, await ctx.adapter.listAuthenticatorsByUserId(userId));
}

function optionsFor(ctx: WebAuthnContext, authenticators: AdapterAuthenticator[]) {
  const { provider, rp } = ctx;
  return ctx.server.generateAuthenticationOptions({
    rpID: rp.id,
    timeout: provider.timeout,
    userVerification: ctx.requireUserVerification ? "required" : "preferred",
    allowCredentials: authenticators.map((a) => ({ id: browserCredentialId(a.credentialID), transports: splitTransports(a.transports) })),
  });
}

/** An assertion whose signature verified, not yet acted on. */
export interface VerifiedAssertion {
  authenticator: AdapterAuthenticator;
  /** The signature counter the authenticator reported. */
  newCounter: number;
  /** True when the authenticator verified its user (a PIN, a fingerprint): the passkey was two factors. */
  userVerified: boolean;
}

/**
 * Verifies an assertion against the stored authenticator (signature, challenge, origin, RP id, user
 * verification, a counter that went backwards), without changing anything. An unknown credential or a
 * response that does not verify is `WebAuthnVerificationError`.
 */
export async function verifyAssertion(
  ctx: WebAuthnContext,
  challenge: string,
  response: AuthenticationResponseJSON,
): Promise<VerifiedAssertion> {
  const { adapter } = ctx;
  let credentialID: string;
  try {
    credentialID = storedCredentialId(response.id);
  } catch (error) {
    throw new WebAuthnVerificationError("The credential id is not base64url.", { cause: error as Error });
  }
  const authenticator = await adapter.getAuthenticator(credentialID);
  if (!authenticator) throw new WebAuthnVerificationError("Unknown passkey: no authenticator has this credential id.");

  let newCounter: number | undefined;
  let userVerified = false;
  try {
    const result = await ctx.server.verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: ctx.rp.origins,
      expectedRPID: ctx.rp.id,
      credential: {
        id: browserCredentialId(authenticator.credentialID),
        publicKey: base64ToBytes(authenticator.credentialPublicKey),
        counter: authenticator.counter,
        transports: splitTransports(authenticator.transports),
      },
      requireUserVerification: ctx.requireUserVerification,
    });
    if (result.verified) {
      newCounter = result.authenticationInfo.newCounter;
      userVerified = result.authenticationInfo.userVerified === true;
    }
  } catch (error) {
    throw new WebAuthnVerificationError("The passkey's response did not verify.", { cause: error as Error });
  }
  if (newCounter === undefined) throw new WebAuthnVerificationError("The passkey's response did not verify.");
  return { authenticator, newCounter, userVerified };
}

/**
 * Stores a verified assertion's new signature counter and, with an adapter that can
 * (`updateAuthenticator`), the passkey's last use, in the same one write. A passkey removed since it was
 * read is `WebAuthnVerificationError`.
 */
export async function recordPasskeyUse(ctx: Pick<WebAuthnContext, "adapter">, verified: VerifiedAssertion): Promise<void> {
  const { adapter } = ctx;
  const { credentialID } = verified.authenticator;
  if (!adapter.updateAuthenticator) {
    await adapter.updateAuthenticatorCounter(credentialID, verified.newCounter);
    return;
  }
  const updated = await adapter.updateAuthenticator(credentialID, { counter: verified.newCounter, lastUsedAt: new Date() });
  if (!updated) throw new WebAuthnVerificationError("Unknown passkey: it was removed.");
}

/**
 * Acts on a verified assertion (after its challenge was claimed): stores the authenticator's new
 * signature counter and returns the passkey's user and account. A passkey without its account or user
 * (or of another provider) is `AccountNotLinked`.
 */
export async function recordAuthentication(
  ctx: WebAuthnContext,
  verified: VerifiedAssertion,
): Promise<{ user: AdapterUser; account: AdapterAccount }> {
  const { adapter } = ctx;
  const { authenticator } = verified;
  await recordPasskeyUse(ctx, verified);

  const account = await adapter.getAccount(authenticator.providerAccountId, ctx.provider.id);
  if (!account || account.userId !== authenticator.userId) {
    throw new AccountNotLinked("This passkey is not linked to a user of this provider.");
  }
  const user = await adapter.getUser(authenticator.userId);
  if (!user) throw new AccountNotLinked("The user of this passkey no longer exists.");
  return { user, account };
}
