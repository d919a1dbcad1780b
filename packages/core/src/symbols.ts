/**
 * Pass as `config.skipCSRFCheck` to turn the built-in CSRF check off, for integrations that protect
 * state-changing requests themselves. Anything else (a boolean, a string) is ignored on purpose: the check
 * can only be switched off deliberately.
 */
export const skipCSRFCheck: unique symbol = Symbol("authlib.skip-csrf-check");

/** The type of {@link skipCSRFCheck}. */
export type SkipCSRFCheck = typeof skipCSRFCheck;
