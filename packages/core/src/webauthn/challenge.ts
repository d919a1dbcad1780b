/**
 * The WebAuthn challenge cookie. The challenge travels to the browser in the options and back in the
 * signed response; the server keeps its copy in a cookie, sealed (encrypted JWE, salt = the cookie's
 * name, 15 minutes) and bound to its purpose, the provider, the ceremony (register or authenticate) and,
 * for a registration, the user being registered. It is also bound to the browser (CSRF token) and session
 * that asked for the options (http/flow-binding.ts), so a challenge cookie planted from another browser
 * is refused. Nothing is stored on the server when the options are made: the cookie is the only copy,
 * so anonymous options requests cost no storage. The callback clears it on every attempt; a replay with
 * a captured copy is stopped by the used-challenge record written once an answer verified
 * (webauthn/challenge-store.ts), which lives exactly until the expiry sealed here.
 *
 * @module webauthn/challenge
 */
import { CLOCK_TOLERANCE } from "../crypto/jwe-rules.js";
import { InvalidCheck } from "../errors.js";
import { CHECK_COOKIE_MAX_AGE, type Cookie, expiredCookie } from "../http/cookies.js";
import { bindingMatches } from "../http/flow-binding.js";
import { decode, encode } from "../jwt.js";
import type { InternalOptions, RequestInternal } from "../types/internal.js";

/** A WebAuthn ceremony: registering a passkey, signing in with one, or a passkey as the second factor of a sign-in. */
export type WebAuthnAction = "register" | "authenticate" | "second-factor";

/** Who a registration is for: the signed-in user adding a passkey, or a new user. */
export interface RegistrationSubject {
  /** The user id (new users get theirs when the options are made). */
  id: string;
  /** WebAuthn `user.name`: a signed-in user's address (else name), or a new user's display name. */
  userName: string;
  /** WebAuthn `user.displayName`: a signed-in user's name (else address), or a new user's display name, which becomes their `name`. */
  displayName: string;
  /** True when a signed-in user adds a passkey: the callback then requires the same user to be signed in. */
  signedIn: boolean;
}

/** What a challenge cookie carries. */
export interface ChallengeClaims {
  provider: string;
  action: WebAuthnAction;
  /** The base64url challenge of the options. */
  challenge: string;
  /** Registrations only. */
  user?: RegistrationSubject;
}

/** Marks the payload, so no other sealed value (same secret, another purpose) passes for a challenge. */
const PURPOSE = "authlib.webauthn-challenge";

type SealedChallenge = ChallengeClaims & { purpose: typeof PURPOSE; browser: string; exp?: number };

/** The claims of an opened challenge cookie, with when the challenge expires. */
export interface OpenedChallenge extends ChallengeClaims {
  /**
   * The last moment (ms since the epoch) the sealed challenge is accepted: its `exp` plus the clock
   * tolerance `decode` allows. Its used-challenge record must live at least this long.
   */
  expiresAt: number;
}

/** The cookie carrying `claims`, bound to the browser `binding` (http/flow-binding.ts). */
export async function sealChallenge(options: InternalOptions, claims: ChallengeClaims, binding: string): Promise<Cookie> {
  const option = options.cookies.webauthnChallenge;
  const payload: SealedChallenge = { ...claims, purpose: PURPOSE, browser: binding };
  const value = await encode<SealedChallenge>({ token: payload, secret: options.secret, salt: option.name, maxAge: CHECK_COOKIE_MAX_AGE });
  return { name: option.name, value, options: { maxAge: CHECK_COOKIE_MAX_AGE, ...option.options } };
}

/** The cookie that deletes the challenge. */
export function clearChallenge(options: InternalOptions): Cookie {
  const option = options.cookies.webauthnChallenge;
  return expiredCookie(option.name, option.options);
}

function isSubject(value: unknown): value is RegistrationSubject {
  if (typeof value !== "object" || value === null) return false;
  const subject = value as Record<string, unknown>;
  return (
    typeof subject.id === "string" &&
    subject.id !== "" &&
    typeof subject.userName === "string" &&
    typeof subject.displayName === "string" &&
    typeof subject.signedIn === "boolean"
  );
}

/**
 * The claims of the request's challenge cookie. Throws `InvalidCheck` when the cookie is missing,
 * tampered with, expired, sealed with another secret, made for another provider or ceremony, or made in
 * another browser or session than `expected.binding`.
 */
export async function openChallenge(
  options: InternalOptions,
  request: RequestInternal,
  expected: { provider: string; action: WebAuthnAction; binding: string },
): Promise<OpenedChallenge> {
  const { name } = options.cookies.webauthnChallenge;
  const sealed = request.cookies[name];
  if (!sealed) throw new InvalidCheck("The WebAuthn challenge cookie was missing (expired, or used already). Start again.");
  let payload: Partial<SealedChallenge> | null;
  try {
    payload = await decode<Partial<SealedChallenge>>({ token: sealed, secret: options.secret, salt: name });
  } catch (error) {
    throw new InvalidCheck("The WebAuthn challenge cookie could not be read (tampered with, expired or sealed with another secret).", {
      cause: error as Error,
    });
  }
  if (
    !payload ||
    payload.purpose !== PURPOSE ||
    typeof payload.challenge !== "string" ||
    payload.challenge === "" ||
    typeof payload.exp !== "number"
  ) {
    throw new InvalidCheck("The WebAuthn challenge cookie value could not be parsed.");
  }
  if (payload.provider !== expected.provider || payload.action !== expected.action) {
    throw new InvalidCheck("The WebAuthn challenge cookie belongs to another provider or ceremony.", {
      cause: { provider: payload.provider, action: payload.action },
    });
  }
  if (!bindingMatches(payload.browser, expected.binding)) {
    throw new InvalidCheck("The WebAuthn challenge cookie was made in another browser or session. Start again.");
  }
  if (expected.action === "register" && !isSubject(payload.user)) {
    throw new InvalidCheck("The WebAuthn challenge cookie does not say who is registering.");
  }
  return {
    provider: payload.provider,
    action: payload.action,
    challenge: payload.challenge,
    user: payload.user,
    expiresAt: (payload.exp + CLOCK_TOLERANCE) * 1000,
  };
}
