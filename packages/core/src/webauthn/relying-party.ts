/**
 * The relying party of a WebAuthn provider for one request.
 *
 * @module webauthn/relying-party
 */
import type { WebAuthnConfig } from "../types/providers.js";

/** The relying party with every field resolved. */
export interface ResolvedRelyingParty {
  /** RP id: the domain passkeys are scoped to. */
  id: string;
  /** Name shown by the authenticator. */
  name: string;
  /** Origins a response may come from. */
  origins: string[];
}

/**
 * The provider's relying party, each missing field taken from `origin` (the request's trusted origin):
 * id = its hostname, name = its host, origin = itself.
 */
export function resolveRelyingParty(provider: WebAuthnConfig, origin: string): ResolvedRelyingParty {
  const url = new URL(origin);
  const configured = provider.relyingParty ?? {};
  const origins = configured.origin === undefined ? [url.origin] : [configured.origin].flat();
  return { id: configured.id ?? url.hostname, name: configured.name ?? url.host, origins };
}
