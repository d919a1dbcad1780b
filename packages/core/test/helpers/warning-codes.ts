/** Every warning code authlib logs, for the tests of the logger and of the warning texts. */
import type { WarningCode } from "../../src/types/config.js";

/** The `satisfies` keeps the list complete when the tests are type-checked: a new code must be added here. */
export const WARNING_CODES = Object.keys({
  "debug-enabled": true,
  "csrf-disabled": true,
  "env-url-basepath-redundant": true,
  "env-url-basepath-mismatch": true,
  "env-url-alias-conflict": true,
  "experimental-webauthn": true,
  "invalid-env-url": true,
  "generated-dev-secret": true,
  "trust-host-unrestricted": true,
  "pkce-unverified": true,
  "sessions-not-ended": true,
  "rate-limited": true,
  "rate-limit-behind-proxy": true,
  "rate-limit-memory-store": true,
  "userinfo-unavailable": true,
  "csrf-refused": true,
  "check-failed": true,
  "session-cookie-refused": true,
  "untrusted-host": true,
  "redirect-refused": true,
  "callback-url-refused": true,
} satisfies Record<WarningCode, true>) as WarningCode[];
