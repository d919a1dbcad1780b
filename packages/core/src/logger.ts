/**
 * The logger. Log lines carry error names, messages and causes' messages, never tokens, cookies or
 * secrets: errors are built so that their messages hold none.
 */
import { AuthError, CredentialsSignin } from "./errors.js";
import type { AuthConfig, LoggerInstance, WarningCode } from "./types.js";

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
    "An unproven address moved to the user who proved it, but the adapter has no deleteSessionsByUserId: the previous holder's sessions go on (without the address).",
  "rate-limited": "A rate limit refused a request (RateLimited).",
  "rate-limit-behind-proxy":
    "Requests carry X-Forwarded-For or Forwarded, but rateLimit.clientAddress is not set: the per-client limits count every client under the proxy's address, so a few failed sign-ins from one attacker refuse everybody. Set rateLimit.clientAddress to read the address your proxy sets.",
  "rate-limit-memory-store":
    "NODE_ENV=production and no rateLimit.store: the rate limits are kept in this instance's memory, so each instance (and each restart) counts apart. Set rateLimit.store to a shared store (PostgreSQL or Redis) when you run more than one instance.",
};

/** Where each error type and warning code is explained: `#<type or code in lower case>` is its entry. */
export const TROUBLESHOOTING_URL = "https://github.com/authlib/authlib/blob/main/docs/troubleshooting.md";

/** ` Read more: <troubleshooting entry>` for an authlib error or a warning code; empty for other errors. */
export function readMore(subject: Error | WarningCode): string {
  const anchor = typeof subject === "string" ? subject : subject instanceof AuthError ? subject.type : undefined;
  return anchor ? ` Read more: ${TROUBLESHOOTING_URL}#${anchor.toLowerCase()}` : "";
}

/** One line describing an error and its chain of causes, without any data fields. */
export function describeError(error: Error): string {
  const code = error instanceof CredentialsSignin ? ` (code ${error.code})` : "";
  const parts = [`${error.name}: ${error.message || "(no message)"}${code}`];
  let cause = error instanceof AuthError ? error.cause?.err : (error.cause as Error | undefined);
  for (let depth = 0; cause instanceof Error && depth < 3; depth++) {
    parts.push(`caused by ${cause.name}: ${cause.message}`);
    cause = cause.cause as Error | undefined;
  }
  return parts.join(" — ");
}

/** The logger for a configuration: the user's levels where given, the built-in ones otherwise. */
export function createLogger(config: Pick<AuthConfig, "logger" | "debug">): LoggerInstance {
  const custom = config.logger ?? {};
  return {
    error: custom.error ?? ((error: Error) => console.error(`[authlib][error] ${describeError(error)}${readMore(error)}`)),
    warn: custom.warn ?? ((code: WarningCode) => console.warn(`[authlib][warn][${code}] ${warnings[code] ?? ""}${readMore(code)}`)),
    debug: config.debug
      ? (custom.debug ?? ((message: string, metadata?: unknown) => console.debug(`[authlib][debug] ${message}`, metadata ?? "")))
      : () => {},
  };
}
