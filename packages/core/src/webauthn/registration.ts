/**
 * Registering a passkey: who may register (the signed-in user adding a passkey, or a new user known only
 * by the display name they give), the options for the browser, the verification of its response, and
 * storing user, account and authenticator.
 *
 * @module webauthn/registration
 */
import type { RegistrationResponseJSON } from "@simplewebauthn/server";
import { AccountNotLinked, WebAuthnVerificationError } from "../errors.js";
import type { AdapterAccount, AdapterAuthenticator, AdapterUser } from "../types/adapters.js";
import type { RegistrationSubject } from "./challenge.js";
import type { WebAuthnContext } from "./context.js";
import { passkeyDisplayName } from "./display-name.js";
import { browserCredentialId, bytesToBase64, joinTransports, splitTransports, storedCredentialId } from "./encoding.js";
import { defaultPasskeyName } from "./passkey-name.js";

/** The WebAuthn user handle is at most 64 bytes. */
const MAX_USER_HANDLE_BYTES = 64;

/** A verified new credential, in its stored form. */
export type VerifiedPasskey = Omit<AdapterAuthenticator, "userId" | "providerAccountId">;

/**
 * Who registers. A signed-in user adds a passkey to their own account (the query's `name` is ignored):
 * a passkey reaches an existing account only this way. Signed out, a new user registers under the display
 * name of the query's `name` (webauthn/display-name.ts). No email address is read, stored or looked up:
 * an `email` in the query is ignored, so the answer is the same whether or not someone holds an address,
 * and no new user is linked to, or named after, anyone's address. To attach a proven address, sign in
 * with an email link first and add the passkey while signed in.
 */
export async function registrationSubject(ctx: WebAuthnContext, displayName: string | undefined): Promise<RegistrationSubject> {
  const { options, request, adapter } = ctx;
  const current = await options.sessionStrategy.currentUser(options, request);
  if (current?.id) {
    const user = await adapter.getUser(current.id);
    if (!user) throw new AccountNotLinked("The signed-in user is not in the database, so no passkey can be added to it.");
    // The authenticator lists the passkey under the address the user proved (or their name).
    const userName = user.email || user.name || user.id;
    return { id: user.id, userName, displayName: user.name || userName, signedIn: true };
  }
  const name = passkeyDisplayName(displayName);
  return { id: crypto.randomUUID(), userName: name, displayName: name, signedIn: false };
}

/** The user handle: the user id when it fits (so the authenticator groups a user's passkeys), else random bytes. */
function userHandle(userId: string): Uint8Array<ArrayBuffer> {
  const bytes = new TextEncoder().encode(userId);
  return bytes.length <= MAX_USER_HANDLE_BYTES ? bytes : crypto.getRandomValues(new Uint8Array(32));
}

/** The options of `navigator.credentials.create()` for `subject`, excluding the passkeys they have. */
export async function registrationOptions(ctx: WebAuthnContext, subject: RegistrationSubject) {
  const { provider, rp, adapter } = ctx;
  const existing = subject.signedIn ? await adapter.listAuthenticatorsByUserId(subject.id) : [];
  const residentKey = provider.residentKey ?? "required";
  return ctx.server.generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: subject.userName,
    userDisplayName: subject.displayName,
    userID: userHandle(subject.id),
    timeout: provider.timeout,
    attestationType: "none",
    excludeCredentials: existing.map((a) => ({ id: browserCredentialId(a.credentialID), transports: splitTransports(a.transports) })),
    authenticatorSelection: {
      residentKey,
      requireResidentKey: residentKey === "required",
      userVerification: ctx.requireUserVerification ? "required" : "preferred",
    },
  });
}

/**
 * Checks, before anything is stored, that the subject of the challenge can still register: the same
 * user is signed in. A new user claims no address, so there is nothing else to check.
 */
export async function assertSubjectStillValid(ctx: WebAuthnContext, subject: RegistrationSubject): Promise<void> {
  const { options, request } = ctx;
  if (subject.signedIn) {
    const current = await options.sessionStrategy.currentUser(options, request);
    if (current?.id !== subject.id) throw new AccountNotLinked("The passkey was started for another signed-in user.");
  }
}

/** Verifies the browser's registration response against the challenge. Any failure is `WebAuthnVerificationError`. */
export async function verifyRegistration(
  ctx: WebAuthnContext,
  challenge: string,
  response: RegistrationResponseJSON,
): Promise<VerifiedPasskey> {
  let info: Awaited<ReturnType<typeof ctx.server.verifyRegistrationResponse>>["registrationInfo"];
  try {
    const result = await ctx.server.verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: ctx.rp.origins,
      expectedRPID: ctx.rp.id,
      requireUserVerification: ctx.requireUserVerification,
    });
    info = result.verified ? result.registrationInfo : undefined;
  } catch (error) {
    throw new WebAuthnVerificationError("The passkey registration did not verify.", { cause: error as Error });
  }
  if (!info) throw new WebAuthnVerificationError("The passkey registration did not verify.");
  const credentialID = storedCredentialId(info.credential.id);
  if (await ctx.adapter.getAuthenticator(credentialID)) throw new WebAuthnVerificationError("This passkey is registered already.");
  return {
    credentialID,
    credentialPublicKey: bytesToBase64(info.credential.publicKey),
    counter: info.credential.counter,
    credentialDeviceType: info.credentialDeviceType,
    credentialBackedUp: info.credentialBackedUp,
    transports: joinTransports(info.credential.transports ?? response.response.transports),
    name: defaultPasskeyName(info.aaguid, new Date()),
  };
}

/** The user and account a registration will store (not stored yet: the `signIn` callback decides first). */
export async function registrationCandidate(
  ctx: WebAuthnContext,
  subject: RegistrationSubject,
  passkey: VerifiedPasskey,
): Promise<{ user: AdapterUser; account: AdapterAccount }> {
  const user = subject.signedIn ? await ctx.adapter.getUser(subject.id) : null;
  if (subject.signedIn && !user) throw new AccountNotLinked("The signed-in user is not in the database.");
  return {
    // A new user holds no address: only the display name they gave (see registrationSubject).
    user: user ?? { id: subject.id, email: null, emailVerified: null, name: subject.displayName },
    account: { userId: subject.id, type: "webauthn", provider: ctx.provider.id, providerAccountId: passkey.credentialID },
  };
}

/**
 * Stores the registration: the user (when new), the account (type `webauthn`, providerAccountId = the
 * credential id) and the authenticator, firing `createUser` and `linkAccount` (and `passkeyAdded` when a
 * signed-in user added it). A new user whose registration fails half-way is deleted again, so no user
 * without a passkey is left behind. The passkey's name is stored only by an adapter that can rename it
 * (`updateAuthenticator`): one written for Auth.js may refuse a field it does not know.
 */
export async function storeRegistration(
  ctx: WebAuthnContext,
  subject: RegistrationSubject,
  candidate: { user: AdapterUser; account: AdapterAccount },
  passkey: VerifiedPasskey,
): Promise<{ user: AdapterUser; account: AdapterAccount }> {
  const { adapter, options } = ctx;
  let user = candidate.user;
  if (!subject.signedIn) {
    user = await adapter.createUser(candidate.user);
  }
  const account: AdapterAccount = { ...candidate.account, userId: user.id };
  let authenticator: AdapterAuthenticator;
  try {
    await adapter.linkAccount(account);
    const { name: _name, ...unnamed } = passkey;
    const stored = { ...(adapter.updateAuthenticator ? passkey : unnamed), userId: user.id, providerAccountId: account.providerAccountId };
    authenticator = (await adapter.createAuthenticator(stored)) ?? stored;
  } catch (error) {
    if (!subject.signedIn) await Promise.resolve(adapter.deleteUser?.(user.id)).catch(() => undefined);
    throw error;
  }
  if (!subject.signedIn) await options.events.createUser({ user });
  await options.events.linkAccount({ user, account, profile: user });
  if (subject.signedIn) await passkeyAdded(options, user.id, authenticator);
  return { user, account };
}

/** The `passkeyAdded` event of a passkey a signed-in user added (its listing code loads with it). */
async function passkeyAdded(options: WebAuthnContext["options"], userId: string, authenticator: AdapterAuthenticator): Promise<void> {
  const { listedPasskey } = await import("./passkey-name.js");
  await options.events.passkeyAdded({ userId, passkey: listedPasskey(authenticator) });
}
