/**
 * The passkey provider: sign-in with a WebAuthn credential stored on the user's device or password
 * manager. Experimental: enable it with `experimental: { enableWebAuthn: true }`. It needs a database
 * adapter (authenticators are stored there) and the `@simplewebauthn/server` package.
 *
 * ```ts
 * import Passkey from "@authlib/core/providers/passkey";
 *
 * const config = {
 *   providers: [Passkey()],
 *   adapter,
 *   experimental: { enableWebAuthn: true },
 * };
 * ```
 *
 * The built-in sign-in page then offers "Sign in with passkey" and "Register a passkey". Registering
 * while signed out makes a new user with the display name typed (never an email address); a signed-in
 * user registering adds the passkey to their own account. Without an
 * explicit `relyingParty`, the relying party is the host of each request, so set it when the app is
 * reachable under several hosts.
 *
 * @module providers/passkey
 */

import type { WebAuthnConfig } from "../types/providers.js";
import { WEBAUTHN_ROUTES } from "../webauthn/routes-loader.js";

/** Options of {@link Passkey}: every field of a WebAuthn provider except `type`, all optional. */
export type PasskeyOptions = Partial<Omit<WebAuthnConfig, "type">>;

/** Five minutes: enough to find a phone or a security key. */
const DEFAULT_TIMEOUT = 5 * 60 * 1000;

/**
 * Makes a passkey provider (id `passkey`). User verification and discoverable credentials are required,
 * and conditional UI (passkeys offered in the display-name field's autofill) is on.
 */
export default function Passkey(options: PasskeyOptions = {}): WebAuthnConfig {
  return {
    id: "passkey",
    name: "Passkey",
    enableConditionalUI: true,
    timeout: DEFAULT_TIMEOUT,
    userVerification: "required",
    residentKey: "required",
    // The passkey is listed under this name on the device, hence "username"; "webauthn" arms conditional UI.
    formFields: { name: { label: "Display name", type: "text", required: true, autocomplete: "username webauthn" } },
    ...options,
    type: "webauthn",
    // The passkey routes load from here, so only apps that use Passkey() bundle them (see actions/webauthn-routes).
    [WEBAUTHN_ROUTES]: () => import("../webauthn/routes.js"),
  };
}
