/**
 * Loads `@simplewebauthn/server` on first use, so that core (and apps without passkeys) load without it.
 *
 * @module webauthn/server
 */
import { InvalidProvider } from "../errors.js";

/** The functions of `@simplewebauthn/server` that authlib uses. */
export type SimpleWebAuthnServer = Pick<
  typeof import("@simplewebauthn/server"),
  "generateRegistrationOptions" | "generateAuthenticationOptions" | "verifyRegistrationResponse" | "verifyAuthenticationResponse"
>;

let loading: Promise<SimpleWebAuthnServer> | undefined;

/** The `@simplewebauthn/server` module. Throws `InvalidProvider` (shown as a configuration error) when it is not installed. */
export function loadSimpleWebAuthnServer(): Promise<SimpleWebAuthnServer> {
  loading ??= import("@simplewebauthn/server").catch((error: unknown) => {
    loading = undefined;
    throw new InvalidProvider("Passkeys need the @simplewebauthn/server package: run `npm install @simplewebauthn/server`.", {
      cause: error as Error,
    });
  });
  return loading;
}
