/**
 * What every WebAuthn step needs for one request: the provider, its relying party, the adapter methods
 * and the `@simplewebauthn/server` functions.
 *
 * @module webauthn/context
 */

import { requireCapability, type WebAuthnStore } from "../adapter/capabilities.js";
import { InvalidProvider } from "../errors.js";
import type { InternalOptions, InternalProvider, RequestInternal } from "../types/internal.js";
import type { WebAuthnConfig } from "../types/providers.js";
import { type ResolvedRelyingParty, resolveRelyingParty } from "./relying-party.js";
import { loadSimpleWebAuthnServer, type SimpleWebAuthnServer } from "./server.js";

/** The adapter methods passkeys use (`deleteUser` only to undo a half-finished registration). */
export type WebAuthnAdapter = WebAuthnStore;

/** A WebAuthn provider with its route URLs. */
export type WebAuthnProvider = InternalProvider & WebAuthnConfig;

/** The context of one WebAuthn request. */
export interface WebAuthnContext {
  options: InternalOptions;
  request: RequestInternal;
  provider: WebAuthnProvider;
  rp: ResolvedRelyingParty;
  adapter: WebAuthnAdapter;
  server: SimpleWebAuthnServer;
  /** Whether the authenticator must verify the user (PIN, biometrics). */
  requireUserVerification: boolean;
}

/** The request's provider if it is a WebAuthn provider; `InvalidProvider` otherwise. */
export function webAuthnProviderOf(options: InternalOptions, request: RequestInternal): WebAuthnProvider {
  const { provider } = options;
  if (!provider) throw new InvalidProvider(`Unknown provider "${request.providerId ?? ""}".`);
  if (provider.type !== "webauthn") throw new InvalidProvider(`The provider "${provider.id}" is not a WebAuthn provider.`);
  return provider as WebAuthnProvider;
}

/** Builds the context; throws when the provider is not a WebAuthn one or the adapter is incomplete. */
export async function webAuthnContext(options: InternalOptions, request: RequestInternal): Promise<WebAuthnContext> {
  const provider = webAuthnProviderOf(options, request);
  return {
    options,
    request,
    provider,
    rp: resolveRelyingParty(provider, options.origin),
    adapter: requireCapability(options.capabilities, "webAuthn"),
    server: await loadSimpleWebAuthnServer(),
    requireUserVerification: provider.userVerification !== "preferred",
  };
}
