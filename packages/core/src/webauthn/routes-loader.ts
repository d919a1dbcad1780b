/**
 * How `Auth` reaches the passkey routes without importing them: the `Passkey()` provider carries a loader
 * (under {@link WEBAUTHN_ROUTES}), so the passkey code and `@simplewebauthn/server` behind it are part of
 * an app's bundle only when the app imports `@authlib/core/providers/passkey`.
 *
 * @module actions/webauthn-routes
 */
import { InvalidProvider, UnknownAction } from "../errors.js";
import type { InternalOptions } from "../types/internal.js";

/** The passkey route handlers (`actions/webauthn.ts`). */
export type WebAuthnRoutes = typeof import("./routes.js");

/** The provider property holding the loader of the passkey routes. Registered, so two copies of core agree. */
export const WEBAUTHN_ROUTES: unique symbol = Symbol.for("authlib.webauthnRoutes");

/**
 * The passkey routes of the configured WebAuthn provider. `UnknownAction` when no WebAuthn provider is
 * configured; `InvalidProvider` when it was not made by `Passkey()` (a plain object has no loader).
 */
export async function webAuthnRoutes(options: InternalOptions): Promise<WebAuthnRoutes> {
  const provider = options.providers.find((p) => p.type === "webauthn");
  if (!provider) throw new UnknownAction("No WebAuthn provider is configured.");
  const load = (provider as { [WEBAUTHN_ROUTES]?: unknown })[WEBAUTHN_ROUTES];
  if (typeof load !== "function") {
    throw new InvalidProvider('Make the WebAuthn provider with Passkey() from "@authlib/core/providers/passkey".');
  }
  return (load as () => Promise<WebAuthnRoutes>)();
}
