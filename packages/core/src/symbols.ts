import type { AuthConfig } from "./types/config.js";

/**
 * Pass as `config.skipCSRFCheck` to turn the built-in CSRF check off, for integrations that protect
 * state-changing requests themselves. Anything else (a boolean, a string) is ignored on purpose: the check
 * can only be switched off deliberately.
 *
 * A registered symbol (`Symbol.for`), so that two copies of `@authlib/core` in one app (an integration's
 * and the app's own) agree on it.
 */
export const skipCSRFCheck = Symbol.for("authlib.skipCSRFCheck") as SkipCSRFCheck;

/** The type of {@link skipCSRFCheck}: the unique symbol `AuthConfig.skipCSRFCheck` accepts. */
export type SkipCSRFCheck = NonNullable<AuthConfig["skipCSRFCheck"]>;
