/**
 * Device tokens (OWASP's "device cookies"): proof that this browser has signed in to an account before,
 * so that failures from elsewhere cannot lock it out of that account. Without them, anyone who knows a
 * login name could keep its owner locked out for ever by sending wrong passwords.
 *
 * A token is `<account tag>.<nonce>.<expiry>.<mac>`, all hex but the expiry (seconds since the epoch):
 * - the account tag is a keyed hash of the provider and the account (the cookie never holds the login
 *   name, and a token for account A says nothing about account B);
 * - the nonce tells two devices of one account apart: each has its own failure count;
 * - the MAC is HMAC-SHA256 with the secret over the rest; it is checked in constant time, against every
 *   secret of a rotation list.
 * A token whose MAC does not match, that has expired or that is for another account is an unknown
 * device, exactly like no token at all: a stolen, forged or old token gives nothing more.
 *
 * One browser may sign in to several accounts: the cookie holds up to {@link MAX_DEVICE_TOKENS}
 * tokens, newest first, separated by `~`.
 *
 * @module rate-limit/device-token
 */
import { timingSafeEqual } from "../crypto/compare.js";
import { hmacHex, randomHex } from "../crypto/digest.js";
import { DEVICE_COOKIE_MAX_AGE } from "../http/cookies.js";

/** How long a device token is good for: as long as its cookie (1 year, renewed at each sign-in). */
export const DEVICE_TOKEN_MAX_AGE = DEVICE_COOKIE_MAX_AGE;

/** Tokens kept in one cookie (accounts signed in to from one browser). */
export const MAX_DEVICE_TOKENS = 5;

/** Hex characters kept of the account tag and of the nonce: 128 bits each. */
const ID_LENGTH = 32;

// The separator ("~") and the token pattern are written where they are used, not kept in module
// constants: this module loads with the first limited request, so a constant would be evaluated inside
// whichever test came first, and the mutation run would credit only that test with it (docs/testing.md).

/** The parts of `token` (tag, nonce, expiry, MAC) when it has a token's shape, else `null`. */
function matchToken(token: string): RegExpExecArray | null {
  return /^([0-9a-f]{32})\.([0-9a-f]{32})\.([0-9]{1,12})\.([0-9a-f]{64})$/.exec(token);
}

/** The keyed hash that names `account` of provider `providerId` in a token. */
async function accountTag(secret: string, providerId: string, account: string): Promise<string> {
  return (await hmacHex(secret, `authlib.device-account:${providerId}:${account}`)).slice(0, ID_LENGTH);
}

async function macOf(secret: string, body: string): Promise<string> {
  return hmacHex(secret, `authlib.device-token:${body}`);
}

/** The tokens a cookie value holds (anything else in it is ignored). */
function tokensOf(cookieValue: string | undefined): string[] {
  if (!cookieValue) return [];
  return cookieValue.split("~").slice(0, MAX_DEVICE_TOKENS);
}

/**
 * The nonce of the device token in `cookieValue` that is valid for `account` of `providerId` now (any
 * secret of `secrets`), or `undefined`: the browser is an unknown device for that account.
 */
export async function knownDevice(
  secrets: readonly string[],
  providerId: string,
  account: string,
  cookieValue: string | undefined,
  nowSeconds: number = Math.floor(Date.now() / 1000),
): Promise<string | undefined> {
  const tokens = tokensOf(cookieValue);
  if (tokens.length === 0) return undefined;
  for (const secret of secrets) {
    const tag = await accountTag(secret, providerId, account);
    for (const token of tokens) {
      const parts = matchToken(token);
      if (!parts) continue;
      const [, tokenTag, nonce, expiry, mac] = parts as unknown as [string, string, string, string, string];
      if (Number(expiry) <= nowSeconds) continue;
      const expected = await macOf(secret, `${tokenTag}.${nonce}.${expiry}`);
      // Both comparisons run, so the time taken does not say which part was wrong.
      const tagMatches = timingSafeEqual(tokenTag, tag);
      if (timingSafeEqual(mac, expected) && tagMatches) return nonce;
    }
  }
  return undefined;
}

/**
 * The cookie value after a sign-in to `account`: a fresh token for it (the same nonce when the browser
 * already was a known device of it, so its count carries on), in front of the other tokens of the old
 * value that are still valid in form, at most {@link MAX_DEVICE_TOKENS}. Signed with the newest secret.
 */
export async function rememberDevice(
  secrets: readonly string[],
  providerId: string,
  account: string,
  cookieValue: string | undefined,
  nowSeconds: number = Math.floor(Date.now() / 1000),
): Promise<string> {
  const [secret] = secrets;
  if (!secret) throw new TypeError("rememberDevice needs a secret");
  const nonce = (await knownDevice(secrets, providerId, account, cookieValue, nowSeconds)) ?? randomHex(ID_LENGTH / 2);
  const tag = await accountTag(secret, providerId, account);
  const body = `${tag}.${nonce}.${nowSeconds + DEVICE_TOKEN_MAX_AGE}`;
  const token = `${body}.${await macOf(secret, body)}`;
  // Another account's tokens stay (their own checks decide about them); this account's older ones go.
  const others = [];
  for (const old of tokensOf(cookieValue)) {
    const parts = matchToken(old);
    if (!parts || Number(parts[3]) <= nowSeconds) continue;
    if (await sameAccount(secrets, providerId, account, parts[1] as string)) continue;
    others.push(old);
  }
  return [token, ...others].slice(0, MAX_DEVICE_TOKENS).join("~");
}

async function sameAccount(secrets: readonly string[], providerId: string, account: string, tag: string): Promise<boolean> {
  for (const secret of secrets) if (timingSafeEqual(tag, await accountTag(secret, providerId, account))) return true;
  return false;
}
