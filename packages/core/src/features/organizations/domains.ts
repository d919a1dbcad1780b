/**
 * Verified domains (docs/organizations.md): an organization claims `example.com` and proves it with a TXT
 * record at `_authlib-challenge.example.com` holding the token authlib shows. Only that exact name is read
 * (a record on a sibling or a parent proves nothing); names are compared lower case without a trailing dot.
 * A domain is proven by one organization at a time; a re-check (`authlib org verify-domains`) takes the
 * proof back when the record is gone. A member with a proven address at a proven domain joins the
 * organization (`domainJoin: "auto"`) or is offered it (`"suggest"`).
 *
 * @module features/organizations/domains
 */
import { randomHex } from "../../crypto/digest.js";
import { DomainClaimed, DomainNotProven, InvalidOrganization, OrganizationLimit, OrganizationNotFound } from "../../errors.js";
import type { ConfigOptions, InternalOptions, RequestInternal } from "../../types/internal.js";
import type { InputOf } from "../../types/operation.js";
import type { DomainRecheck, ListedDomain, Organization, OrganizationDomain } from "../../types/organizations.js";
import { actingIn } from "./access.js";
import { answer, changed } from "./changes.js";
import { txtRecords } from "./dns.js";
import type { domainIdInput, domainInput, organizationInput } from "./input.js";
import { storeOf } from "./store.js";

/** The name the TXT record must be at. */
export const CHALLENGE_LABEL = "_authlib-challenge";

/** How many domains one organization may claim (what one member can make us store, and re-check). */
const MAX_DOMAINS = 50;

/** `given` as a domain name: lower case, ASCII (punycode), no trailing dot, two labels or more, not an address. */
export function domainName(given: string): string {
  const trimmed = given.trim().toLowerCase().replace(/\.$/, "");
  // Only a host: no user, port, path, query or fragment for the URL parser to take apart.
  if (trimmed === "" || /[\s@/:?#\\[\]%]/.test(trimmed)) throw new InvalidOrganization("`domain` is not a domain name (like example.com).");
  let host: string;
  try {
    host = new URL(`http://${trimmed}`).hostname;
  } catch {
    throw new InvalidOrganization("`domain` is not a domain name (like example.com).");
  }
  const labels = host.split(".");
  const valid =
    labels.length >= 2 &&
    labels.every((label) => /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(label)) &&
    !/^\d+$/.test(labels.at(-1) ?? "");
  if (!valid || host.length > 253) throw new InvalidOrganization("`domain` is not a domain name (like example.com).");
  return host;
}

/** The domain `domainId` of `organizationId`, or `OrganizationNotFound` (said of the domain). */
async function domainOf(options: InternalOptions, organizationId: string, domainId: string): Promise<OrganizationDomain> {
  const domain = await storeOf(options).getDomain(domainId);
  if (!domain || domain.organizationId !== organizationId) throw new OrganizationNotFound("This organization has no domain with this id.");
  return domain;
}

/** A domain as the organization's admins see it: with the record to publish. */
function shown(domain: OrganizationDomain): ListedDomain {
  return { ...domain, record: { name: `${CHALLENGE_LABEL}.${domain.name}`, type: "TXT", value: domain.token } };
}

/** GET organization/domains: the organization's domains, with the record each must publish. */
export async function listDomains(
  options: InternalOptions,
  request: RequestInternal,
  { organizationId }: InputOf<typeof organizationInput>,
) {
  await actingIn(options, request, organizationId, "domain:manage");
  return answer({ domains: (await storeOf(options).listDomains(organizationId)).map(shown) });
}

/** POST organization/domain-add: claims a domain; it is proven once its TXT record is published and checked. */
export async function addDomain(options: InternalOptions, request: RequestInternal, input: InputOf<typeof domainInput>) {
  const { userId } = await actingIn(options, request, input.organizationId, "domain:manage");
  const name = domainName(input.domain);
  const store = storeOf(options);
  const claimed = await store.listDomains(input.organizationId);
  if (claimed.some((domain) => domain.name === name)) throw new InvalidOrganization("This organization claims this domain already.");
  if (claimed.length >= MAX_DOMAINS) throw new OrganizationLimit(`An organization claims at most ${MAX_DOMAINS} domains.`);
  const domain = await store.createDomain({
    organizationId: input.organizationId,
    name,
    token: `authlib-verify=${randomHex(16)}`,
    verifiedAt: null,
    createdAt: new Date(),
  });
  await changed(options, { organizationId: input.organizationId, actorId: userId, change: "domainAdded", targetId: domain.id });
  return answer({ domain: shown(domain) });
}

/** True when a TXT record at the domain's challenge name is its token, exactly (no case folding, no trimming). */
async function published(options: ConfigOptions, domain: OrganizationDomain): Promise<boolean> {
  const records = await txtRecords(options, `${CHALLENGE_LABEL}.${domain.name}`);
  return records.some((record) => record === domain.token);
}

/**
 * `DomainClaimed` when another organization has `domain`'s name proven. Checked again after this one's
 * proof is stored: of two proofs that raced, the claim made first keeps it.
 */
async function assertUnclaimed(options: ConfigOptions, domain: OrganizationDomain): Promise<void> {
  const others = (await storeOf(options).listDomainsByName(domain.name)).filter((other) => other.id !== domain.id && other.verifiedAt);
  const earlier = others.some(
    (other) =>
      other.createdAt.valueOf() < domain.createdAt.valueOf() ||
      (other.createdAt.valueOf() === domain.createdAt.valueOf() && other.id < domain.id),
  );
  if (earlier || (others.length > 0 && domain.verifiedAt === null)) throw new DomainClaimed("Another organization has proven this domain.");
}

/** POST organization/domain-verify: reads the TXT record now; the domain is proven when it holds the token. */
export async function verifyDomain(options: InternalOptions, request: RequestInternal, input: InputOf<typeof domainIdInput>) {
  const { userId } = await actingIn(options, request, input.organizationId, "domain:manage");
  const domain = await domainOf(options, input.organizationId, input.domainId);
  await assertUnclaimed(options, domain);
  let holds: boolean;
  try {
    holds = await published(options, domain);
  } catch {
    // The resolver failed (a timeout, SERVFAIL): nothing is proven, and the caller may try again.
    throw new DomainNotProven(`The TXT record at ${CHALLENGE_LABEL}.${domain.name} could not be read: try again later.`);
  }
  if (!holds) throw new DomainNotProven(`The TXT record at ${CHALLENGE_LABEL}.${domain.name} does not hold this organization's token.`);
  const store = storeOf(options);
  const proven = await store.updateDomain({ id: domain.id, verifiedAt: new Date() });
  try {
    await assertUnclaimed(options, proven);
  } catch (error) {
    await store.updateDomain({ id: domain.id, verifiedAt: null });
    throw error;
  }
  await changed(options, { organizationId: input.organizationId, actorId: userId, change: "domainVerified", targetId: domain.id });
  return answer({ domain: shown(proven) });
}

/** POST organization/domain-remove: the claim goes (and its proof with it). */
export async function removeDomain(options: InternalOptions, request: RequestInternal, input: InputOf<typeof domainIdInput>) {
  const { userId } = await actingIn(options, request, input.organizationId, "domain:manage");
  const domain = await domainOf(options, input.organizationId, input.domainId);
  await storeOf(options).deleteDomain(domain.id);
  await changed(options, { organizationId: input.organizationId, actorId: userId, change: "domainRemoved", targetId: domain.id });
  return answer({ removed: true });
}

/**
 * Re-checks every proven domain (`authlib org verify-domains`, run on the app's schedule): a domain whose
 * record is gone loses its proof. A resolver failure leaves the proof as it is (reported, not taken back).
 */
export async function recheckDomains(options: ConfigOptions): Promise<DomainRecheck> {
  const store = storeOf(options);
  const proven = (await store.listDomains()).filter((domain) => domain.verifiedAt);
  const unverified: string[] = [];
  const failed: string[] = [];
  for (const domain of proven) {
    let holds: boolean;
    try {
      holds = await published(options, domain);
    } catch {
      failed.push(domain.name);
      continue;
    }
    if (holds) continue;
    await store.updateDomain({ id: domain.id, verifiedAt: null });
    unverified.push(domain.name);
    await changed(options, { organizationId: domain.organizationId, actorId: null, change: "domainUnverified", targetId: domain.id });
  }
  return { checked: proven.length, unverified, failed };
}

/**
 * The organizations whose proven domains hold the user's address's domain and let its users join (`auto` or
 * `suggest`). Only a proven address (`emailVerified`) counts: anyone can type an address at a company's domain.
 */
export async function organizationsForAddress(
  options: ConfigOptions,
  user: { email?: string | null; emailVerified?: Date | null } | null,
): Promise<Organization[]> {
  const email = user?.emailVerified ? user.email : undefined;
  if (!email) return [];
  const at = email.lastIndexOf("@");
  if (at < 0) return [];
  const store = storeOf(options);
  const domains = (await store.listDomainsByName(email.slice(at + 1).toLowerCase())).filter((domain) => domain.verifiedAt);
  const organizations = await Promise.all(domains.map((domain) => store.getOrganization(domain.organizationId)));
  return organizations.filter((organization): organization is Organization => organization !== null && organization.domainJoin !== "off");
}
