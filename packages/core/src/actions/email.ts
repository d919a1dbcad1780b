/**
 * Email (magic link) sign-in. POST /signin/:provider sends a single-use link; GET /callback/:provider
 * redeems it. Only a hash of the token (HMAC with the secret) is stored, so a database leak gives no
 * usable link; the adapter consumes it atomically, so a link works exactly once.
 */
import { type EmailStore, requireCapability } from "../adapter-capabilities.js";
import type { AdapterUser } from "../adapters.js";
import { hmacHex, randomHex } from "../crypto/digest.js";
import { normalizeEmail } from "../email/normalize.js";
import { EmailSignInError, Verification } from "../errors.js";
import { bodyString } from "../http/request.js";
import type { InternalOptions, InternalProvider, RequestInternal, ResponseInternal } from "../internal-types.js";
import type { EmailConfig } from "../provider-types.js";
import { countVerificationMail } from "../rate-limit/email.js";
import type { Account } from "../types.js";
import { claimProvenAddress, provenHolder } from "./proven-address.js";
import { askSignInCallback, completeSignIn } from "./sign-in-flow.js";

// Stryker disable next-line StringLiteral: equivalent, the label only separates this HMAC's domain from the CSRF token's (which has its own label); no caller sees the stored hash
const HASH_LABEL = "authlib.verification-token:";

async function hashToken(secret: string, token: string): Promise<string> {
  return hmacHex(secret, HASH_LABEL + token);
}

function normalise(provider: EmailConfig, input: unknown): string {
  if (provider.normalizeIdentifier) {
    if (typeof input !== "string") throw new EmailSignInError("Missing email address.");
    return provider.normalizeIdentifier(input);
  }
  return normalizeEmail(input);
}

/** POST /signin/:provider for an email provider. */
export async function emailSignIn(
  options: InternalOptions,
  request: RequestInternal,
  provider: InternalProvider & EmailConfig,
): Promise<ResponseInternal> {
  const store = requireCapability(options.capabilities, "email");
  const identifier = normalise(provider, bodyString(request.body, "email"));
  // Counted first: a refused request (RateLimited) costs no lookup and sends nothing.
  await countVerificationMail(options, request, identifier, provider.rateLimit);
  // A holder that never proved the address is not who this mail is for (see unproven-email.ts).
  const existing = await provenHolder(store, identifier);
  const user = existing ?? { id: crypto.randomUUID(), email: identifier, emailVerified: null };
  const account: Account = { providerAccountId: identifier, userId: user.id, type: "email", provider: provider.id };
  const redirect = await askSignInCallback(options, { user, account, email: { verificationRequest: true } });
  if (redirect) return { redirect };

  const token = (await provider.generateVerificationToken?.()) ?? randomHex(32);
  const expires = new Date(Date.now() + (provider.maxAge ?? 24 * 60 * 60) * 1000);
  const secret = provider.secret ?? (options.secret[0] as string);
  const hashed = await hashToken(secret, token);
  const url = `${provider.callbackUrl}?${new URLSearchParams({ callbackUrl: options.callbackUrl, token, email: identifier })}`;

  await store.createVerificationToken({ identifier, token: hashed, expires });
  try {
    await provider.sendVerificationRequest({ identifier, token, expires, url, provider, theme: options.theme, request: request.request });
  } catch (error) {
    // The mail never left: make sure the stored token cannot be redeemed later.
    // Stryker disable next-line ArrowFunction: equivalent, the clean-up's result is discarded (`null` or `undefined` alike); only that a failed clean-up never replaces the send failure matters
    await Promise.resolve(store.useVerificationToken({ identifier, token: hashed })).catch(() => null);
    throw new EmailSignInError("The sign-in email could not be sent.", { cause: error as Error });
  }
  return { redirect: `${options.authUrl}/verify-request?${new URLSearchParams({ provider: provider.id, type: "email" })}` };
}

/** Tries each secret (newest first), so links sent just before a secret rotation still work. */
async function redeem(options: InternalOptions, store: EmailStore, provider: EmailConfig, identifier: string, token: string) {
  const secrets = provider.secret ? [provider.secret] : options.secret;
  for (const secret of secrets) {
    const invite = await store.useVerificationToken({ identifier, token: await hashToken(secret, token) });
    if (invite) return invite;
  }
  return null;
}

/** GET /callback/:provider for an email provider. */
export async function emailCallback(
  options: InternalOptions,
  request: RequestInternal,
  provider: InternalProvider & EmailConfig,
): Promise<ResponseInternal> {
  const store = requireCapability(options.capabilities, "email");
  const { token } = request.query;
  let identifier: string;
  try {
    identifier = normalise(provider, request.query.email);
  } catch (error) {
    throw new Verification("The sign-in link has no valid email address.", { cause: error as Error });
  }
  if (!token) throw new Verification("The sign-in link has no token.");

  const invite = await redeem(options, store, provider, identifier, token);
  const expired = invite ? invite.expires.valueOf() < Date.now() : false;
  // Stryker disable next-line ConditionalExpression: equivalent with every adapter, which finds a token by identifier and hash; kept for an adapter that would not
  if (!invite || expired || invite.identifier !== identifier) {
    throw new Verification("The sign-in link is unknown, used already, or expired.", { cause: { hasInvite: !!invite, expired } });
  }

  // Proof wins: a holder that never proved this address loses it to the person who just did.
  const existing = await claimProvenAddress(options, store, identifier);
  const candidate: AdapterUser = existing ?? { id: crypto.randomUUID(), email: identifier, emailVerified: null };
  const account: Account = { providerAccountId: identifier, userId: candidate.id, type: "email", provider: provider.id };
  const redirect = await askSignInCallback(options, { user: candidate, account });
  if (redirect) return { redirect };

  let user: AdapterUser;
  const isNewUser = !existing;
  if (existing) {
    user = await store.updateUser({ id: existing.id, emailVerified: new Date() });
    await options.events.updateUser({ user });
  } else {
    user = await store.createUser({ ...candidate, emailVerified: new Date() });
    await options.events.createUser({ user });
  }
  return completeSignIn(options, request, { user, account: { ...account, userId: user.id }, isNewUser });
}
