/**
 * What each warning code of the built-in logger says (loaded with the first warning it prints).
 *
 * @module warning-texts
 */
import type { WarningCode } from "./types/config.js";

const warnings: Record<WarningCode, string> = {
  "debug-enabled": "Debug logging is on. Turn it off in production.",
  "csrf-disabled": "CSRF protection is switched off (skipCSRFCheck). Only do this when another layer protects POSTs.",
  "env-url-basepath-redundant": "Both AUTHLIB_URL's path and config.basePath are set; config.basePath wins.",
  "env-url-basepath-mismatch": "AUTHLIB_URL's path differs from basePath; basePath wins.",
  "env-url-alias-conflict": "AUTHLIB_URL and AUTH_URL are both set and differ; AUTHLIB_URL wins.",
  "experimental-webauthn": "WebAuthn (passkeys) is experimental and may change without notice.",
  "invalid-env-url": "AUTHLIB_URL is not a valid URL; requests fail with InvalidOriginConfig until it is fixed.",
  "generated-dev-secret": "No AUTH_SECRET set: a development secret was generated. Set AUTH_SECRET in production.",
  "trust-host-unrestricted":
    "trustHost is on without AUTHLIB_URL (config.url) or trustedHosts (AUTH_TRUSTED_HOSTS): any client can choose the host of the links authlib builds (sign-in emails, OAuth redirects), so they can be poisoned unless your proxy overwrites Host and X-Forwarded-Host. Set AUTHLIB_URL, or AUTH_TRUSTED_HOSTS.",
  "pkce-unverified":
    "A provider has PKCE without state in its checks, and its metadata does not list S256 in code_challenge_methods_supported: authlib added the state check. Add state to its checks to silence this.",
  "userinfo-unavailable":
    "An ID token lacked email or name and userinfo failed: signed in with the ID token's claims. Set the provider's idToken (true: skip userinfo).",
  "sessions-not-ended":
    "A user's sessions should have ended (their unproven address moved to the person who proved it, or their password was reset or changed), but JWT sessions have no registry and the adapter has no deleteSessionsByUserId: those sessions go on until they expire or sign out.",
  "rate-limited": "A rate limit refused a request (RateLimited).",
  "csrf-refused":
    "A request without a valid CSRF token was refused (MissingCSRF): a form posted from another site, or a page left open past its token. Many of them is someone trying.",
  "check-failed":
    "An OAuth state, PKCE or nonce check, or a passkey challenge, failed (InvalidCheck): a callback replayed, forged or opened in another browser.",
  "session-cookie-refused":
    "A session cookie did not decrypt (JWTSessionError): it was altered, or made with a secret this instance no longer has. The request went on signed out.",
  "untrusted-host":
    "A request named a host the trusted-host list refuses (UntrustedHost): it was refused. Check AUTHLIB_URL or AUTH_TRUSTED_HOSTS if it was your own host.",
  "redirect-refused":
    "The redirect proxy was asked to forward a callback to an origin not on its allow-list (UntrustedRedirectTarget): nothing was forwarded.",
  "callback-url-refused":
    "A callbackUrl pointing off this origin was replaced by the base URL (InvalidCallbackUrl): a link crafted to send your users elsewhere, or a link of your own to another origin that your redirect callback does not allow.",
  "rate-limit-behind-proxy":
    "Requests carry X-Forwarded-For or Forwarded, but rateLimit.clientAddress is not set: the per-client limits count every client under the proxy's address, so a few failed sign-ins from one attacker refuse everybody. Set rateLimit.clientAddress to read the address your proxy sets.",
  "audit-write-failed":
    "The audit store failed to write an event (audit.store): the request went on, the event is lost. Check the store's database.",
  "rate-limit-memory-store":
    "NODE_ENV=production and no rateLimit.store: the rate limits are kept in this instance's memory, so each instance (and each restart) counts apart. Set rateLimit.store to a shared store (PostgreSQL or Redis) when you run more than one instance.",
};

/** The text of warning `code` (empty for a code this version does not know). */
export function warningText(code: WarningCode): string {
  return warnings[code] ?? "";
}
