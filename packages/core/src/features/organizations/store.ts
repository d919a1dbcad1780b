/**
 * The adapter as organizations use it: the methods they need, typed as present (the start-up check proved
 * them, `FeatureDefinition.adapterNeeds`), and the organization option resolved once per instance.
 *
 * @module features/organizations/store
 */
import { AuthError, MissingAdapterMethods } from "../../errors.js";
import type { Adapter } from "../../types/adapters.js";
import type { AuthConfig } from "../../types/config.js";
import type { ConfigOptions } from "../../types/internal.js";
import type { OrganizationAdapterMethods, OrganizationsConfig, Roles } from "../../types/organizations.js";
import { defaultRoles } from "./permissions.js";

/** The organization methods, every one present. */
export type OrganizationStore = Required<OrganizationAdapterMethods>;

/** Every method organizations need, in the order the start-up check names the missing ones. */
export const organizationMethods = [
  "createOrganization",
  "getOrganization",
  "getOrganizationBySlug",
  "updateOrganization",
  "deleteOrganization",
  "createMember",
  "getMember",
  "listMembers",
  "listMembershipsByUser",
  "updateMember",
  "deleteMember",
  "createInvitation",
  "getInvitation",
  "listInvitations",
  "updateInvitation",
  "createDomain",
  "getDomain",
  "listDomainsByName",
  "listDomains",
  "updateDomain",
  "deleteDomain",
  "getUser",
  "getUserByEmail",
] as const satisfies ReadonlyArray<keyof Adapter>;

/** The `organizations` option with its defaults. */
export interface OrganizationSettings {
  roles: Roles<string>;
  invitationMaxAge: number;
  maxPerUser: number;
  maxPendingInvitations: number;
  resolveTxt?: OrganizationsConfig["resolveTxt"];
  dnsOverHttps: string;
}

const SEVEN_DAYS = 7 * 24 * 60 * 60;

/** The settings of `config.organizations` (called once per instance and kept: `settingsOf`). */
function resolveSettings(config: OrganizationsConfig): OrganizationSettings {
  return {
    roles: config.roles ?? defaultRoles,
    invitationMaxAge: config.invitationMaxAge ?? SEVEN_DAYS,
    maxPerUser: config.maxPerUser ?? 20,
    maxPendingInvitations: config.maxPendingInvitations ?? 100,
    resolveTxt: config.resolveTxt,
    dnsOverHttps: config.dnsOverHttps ?? "https://cloudflare-dns.com/dns-query",
  };
}

const resolved = new WeakMap<OrganizationsConfig, OrganizationSettings>();

/** The instance's organization settings, resolved the first time they are asked for. */
export function settingsOf(options: ConfigOptions): OrganizationSettings {
  const config = options.config.organizations ?? {};
  let settings = resolved.get(config);
  if (!settings) {
    settings = resolveSettings(config);
    resolved.set(config, settings);
  }
  return settings;
}

/** The adapter's organization methods (the start-up check proved them; a missing one is the operator's error). */
export function storeOf(options: ConfigOptions): OrganizationStore & Required<Pick<Adapter, "getUser" | "getUserByEmail">> {
  const adapter = options.adapter;
  const missing = organizationMethods.filter((name) => typeof adapter?.[name] !== "function");
  if (!adapter || missing.length > 0) throw new MissingAdapterMethods(`Organizations need the adapter methods ${missing.join(", ")}.`);
  return adapter as OrganizationStore & Required<Pick<Adapter, "getUser" | "getUserByEmail">>;
}

/** The first error in the `organizations` option, or `undefined`. */
export function organizationsConfigError(config: AuthConfig): AuthError | undefined {
  const given = config.organizations;
  if (given === undefined) return undefined;
  const { invitationMaxAge, maxPerUser, maxPendingInvitations, resolveTxt, roles } = given ?? {};
  const inRange = (value: number | undefined, min: number, max: number) =>
    value === undefined || (Number.isInteger(value) && value >= min && value <= max);
  if (!inRange(invitationMaxAge, 300, 90 * 24 * 3600) || !inRange(maxPerUser, 1, 10_000) || !inRange(maxPendingInvitations, 1, 100_000))
    return new AuthError(
      "organizations needs invitationMaxAge 300 s to 90 days, maxPerUser 1 to 10000, maxPendingInvitations 1 to 100000 (integers).",
    );
  if (resolveTxt !== undefined && typeof resolveTxt !== "function") return new AuthError("organizations.resolveTxt must be a function.");
  if (roles !== undefined && (typeof roles?.can !== "function" || typeof roles.map !== "object"))
    return new AuthError("organizations.roles must come from defineRoles().");
  return undefined;
}
