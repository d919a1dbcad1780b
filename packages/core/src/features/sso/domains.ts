/**
 * Which connection an address belongs to: the domain after its `@`, proven (DNS) by an organization that
 * has a connection. Only a proven domain routes: anyone can type an address at a company's domain, and a
 * domain merely claimed (not proven) by an organization sends nobody to its identity provider.
 *
 * @module features/sso/domains
 */
import type { ConfigOptions } from "../../types/internal.js";
import type { SsoConnection } from "../../types/sso.js";
import { storeOf } from "./store.js";

/** The domain of `email`, lower case without a trailing dot; `undefined` for something that is not an address. */
export function domainOf(email: string): string | undefined {
  const at = email.lastIndexOf("@");
  if (at < 1 || at === email.length - 1) return undefined;
  const domain = email
    .slice(at + 1)
    .trim()
    .toLowerCase()
    .replace(/\.$/, "");
  return /^[a-z0-9.-]+$/.test(domain) && domain.includes(".") ? domain : undefined;
}

/** The organization that has proven `domain` (one at a time: `organizations/domains.ts`), or `undefined`. */
export async function provingOrganization(options: Pick<ConfigOptions, "adapter">, domain: string): Promise<string | undefined> {
  const claims = await storeOf(options).listDomainsByName(domain);
  return claims.find((claim) => claim.verifiedAt !== null && claim.name === domain)?.organizationId;
}

/** True when `domain` is proven by `organizationId` (an SSO sign-in's address there is proven). */
export async function provenBy(options: Pick<ConfigOptions, "adapter">, domain: string, organizationId: string): Promise<boolean> {
  return (await provingOrganization(options, domain)) === organizationId;
}

/**
 * The connection an address signs in through: the oldest connection of the organization that proved its
 * domain (the one marked `ssoRequired` first, when several are), or `undefined`.
 */
export async function connectionForAddress(options: Pick<ConfigOptions, "adapter">, email: string): Promise<SsoConnection | undefined> {
  const domain = domainOf(email);
  if (!domain) return undefined;
  const organizationId = await provingOrganization(options, domain);
  if (!organizationId) return undefined;
  const connections = await storeOf(options).listSsoConnections(organizationId);
  return connections.find((connection) => connection.ssoRequired) ?? connections[0];
}
