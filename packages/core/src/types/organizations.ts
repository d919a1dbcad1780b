/**
 * The shapes of organizations (docs/organizations.md): the records an adapter stores, the `organizations`
 * option, the roles an app declares, and the data of the `auth.api` operations. The feature's code is in
 * `features/organizations/`.
 *
 * @module types/organizations
 */
import type { Awaitable } from "./base.js";

/** How a member whose proven address is at an organization's verified domain joins it. */
export type DomainJoin = "auto" | "suggest" | "off";

/**
 * A way to sign in, as an organization's policy names it: `password`, `passkey`, `email` (a link or a code),
 * `oauth` (an OAuth or OIDC provider) or `sso` (enterprise SSO).
 */
export type SignInMethod = "password" | "passkey" | "email" | "oauth" | "sso";

/** What an organization asks of a session before it acts there (checked on every request, not only at sign-in). */
export interface SignInPolicy {
  /** The session must be of level 2 (two factors, or a passkey that verified its user). */
  requireSecondFactor?: boolean;
  /** The first factors the session may have been signed in with (default: any). */
  allowedSignInMethods?: SignInMethod[];
  /** How old, in seconds, the session's sign-in may be (default: any age). */
  sessionMaxAge?: number;
}

/** A customer organization (a tenant). */
export interface Organization {
  id: string;
  name: string;
  /** Unique among organizations: lower-case letters, digits and single hyphens, 2 to 48 characters. */
  slug: string;
  /** Its sign-in policy. */
  policy: SignInPolicy;
  /** How users at its verified domains join it. */
  domainJoin: DomainJoin;
  createdAt: Date;
}

/** A user's membership of an organization, with their role there. */
export interface Member {
  id: string;
  organizationId: string;
  userId: string;
  role: string;
  createdAt: Date;
}

/** An invitation to join an organization with a role, sent to an address. */
export interface Invitation {
  id: string;
  organizationId: string;
  /** The invited address, normalised (lower case). */
  email: string;
  role: string;
  /** The member who invited. */
  invitedBy: string;
  status: "pending" | "accepted" | "revoked";
  /** The SHA-256 (hex) of the token the mail's link carries: the token itself is never stored. */
  tokenHash: string;
  expires: Date;
  createdAt: Date;
}

/** A domain an organization claims, proven by a DNS TXT record (`_authlib-challenge.<name>`). */
export interface OrganizationDomain {
  id: string;
  organizationId: string;
  /** The domain, lower case, without a trailing dot. */
  name: string;
  /** The value the TXT record must hold. */
  token: string;
  /** When the record was last found; `null` while unproven (or after a re-check found it gone). */
  verifiedAt: Date | null;
  createdAt: Date;
}

/** A new record: the adapter gives the id (and may take the one given). */
type New<T extends { id: string }> = Omit<T, "id"> & { id?: string };

/**
 * The adapter methods organizations need (`organizations` in the configuration). An adapter without them is
 * refused at `createAuth` (`MissingAdapterMethods`). Deleting an organization deletes its members,
 * invitations and domains. `createOrganization` throws when the slug is taken (a unique index).
 */
export interface OrganizationAdapterMethods {
  /** Stores a new organization (the id given, or one of the store's); throws when its slug is taken. */
  createOrganization?(organization: New<Organization>): Awaitable<Organization>;
  /** The organization with this id, or `null`. */
  getOrganization?(id: string): Awaitable<Organization | null>;
  /** The organization with this slug, or `null`. */
  getOrganizationBySlug?(slug: string): Awaitable<Organization | null>;
  /** Changes the fields given of the organization `id`, and returns it as stored. */
  updateOrganization?(organization: Partial<Organization> & Pick<Organization, "id">): Awaitable<Organization>;
  /** Deletes the organization with its members, invitations and domains. */
  deleteOrganization?(id: string): Awaitable<void>;
  /** Stores a membership; one per organization and user (a second one throws). */
  createMember?(member: New<Member>): Awaitable<Member>;
  /** The membership of `userId` in `organizationId`, or `null`. */
  getMember?(organizationId: string, userId: string): Awaitable<Member | null>;
  /** The members of one organization. */
  listMembers?(organizationId: string): Awaitable<Member[]>;
  /** The memberships of one user, in every organization. */
  listMembershipsByUser?(userId: string): Awaitable<Member[]>;
  /** Sets the member's role, and returns the membership as stored. */
  updateMember?(member: Pick<Member, "organizationId" | "userId" | "role">): Awaitable<Member>;
  /** Deletes the membership of `userId` in `organizationId` (none: nothing happens). */
  deleteMember?(organizationId: string, userId: string): Awaitable<void>;
  /** Stores an invitation (its token only as its SHA-256). */
  createInvitation?(invitation: New<Invitation>): Awaitable<Invitation>;
  /** The invitation with this id, or `null`. */
  getInvitation?(id: string): Awaitable<Invitation | null>;
  /** The invitations of one organization, whatever their status. */
  listInvitations?(organizationId: string): Awaitable<Invitation[]>;
  /** Sets the invitation's status, and returns it as stored. */
  updateInvitation?(invitation: Pick<Invitation, "id" | "status">): Awaitable<Invitation>;
  /** Stores an organization's claim of a domain. */
  createDomain?(domain: New<OrganizationDomain>): Awaitable<OrganizationDomain>;
  /** The claim with this id, or `null`. */
  getDomain?(id: string): Awaitable<OrganizationDomain | null>;
  /** Every organization's claim of `name` (several may claim it; one at most has it proven). */
  listDomainsByName?(name: string): Awaitable<OrganizationDomain[]>;
  /** The domains of one organization, or (without an id) of all: `authlib org verify-domains` walks them. */
  listDomains?(organizationId?: string): Awaitable<OrganizationDomain[]>;
  /** Sets when the claim was proven (`null`: not proven), and returns it as stored. */
  updateDomain?(domain: Pick<OrganizationDomain, "id" | "verifiedAt">): Awaitable<OrganizationDomain>;
  /** Deletes the claim with this id. */
  deleteDomain?(id: string): Awaitable<void>;
}

/** The roles every organization has, and what an app's own roles are added to. */
export type BuiltInRole = "owner" | "admin" | "member";

/** The permissions of each role: statements such as `"invoice:approve"`. */
export type RoleMap<P extends string = string> = Readonly<Record<string, readonly P[]>>;

/**
 * The app's roles, declared once (`defineRoles`): register them so that every permission check is typed,
 * `declare module "@authlib/core" { interface OrganizationsRegister { roles: typeof roles } }`. A
 * permission that is not declared is then a TypeScript error where it is checked.
 */
// biome-ignore lint/suspicious/noEmptyInterface: an app augments it (declaration merging).
export interface OrganizationsRegister {}

/** The permissions of the registered roles (`string` until the app registers them). */
export type Permission = OrganizationsRegister extends { roles: Roles<infer P> } ? P : string;

/** A role map with its permission check, from `defineRoles`. */
export interface Roles<P extends string = string> {
  readonly map: RoleMap<P>;
  /** True when `member`'s role grants `permission`. */
  can(member: Pick<Member, "role"> | null | undefined, permission: P): boolean;
}

/** The `organizations` option. */
export interface OrganizationsConfig {
  /** The roles and their permissions (`defineRoles`); `owner`, `admin` and `member` exist whatever is given. */
  roles?: Roles<string>;
  /** How long an invitation may wait for its answer, in seconds. Default 7 days. */
  invitationMaxAge?: number;
  /** How many organizations one user may create (default 20): a limit on what one account can make us store. */
  maxPerUser?: number;
  /** How many invitations may wait at once in one organization (default 100). */
  maxPendingInvitations?: number;
  /**
   * Reads the TXT records of a name (domain proof). Default: the system's resolver (`node:dns`) where
   * present, DNS over HTTPS (`dnsOverHttps`) elsewhere.
   */
  resolveTxt?: (name: string) => Promise<string[][]>;
  /** The DNS-over-HTTPS endpoint (JSON API) used where `node:dns` is not. Default Cloudflare's. */
  dnsOverHttps?: string;
}

/** An organization as the signed-in user's list shows it: with their role there. */
export interface OrganizationMembership {
  organization: Organization;
  role: string;
}

/** The part of an organization the `auth.api` changes take. */
export interface OrganizationChanges {
  name?: string;
  slug?: string;
  policy?: SignInPolicy;
  domainJoin?: DomainJoin;
}

/** What an organization event carries: who did what in which organization (never a token). */
export interface OrganizationChangedMessage {
  organizationId: string;
  /** The user who made the change (`null`: the domain re-check of `authlib org verify-domains`). */
  actorId: string | null;
  change:
    | "created"
    | "updated"
    | "deleted"
    | "memberAdded"
    | "memberRemoved"
    | "memberLeft"
    | "roleChanged"
    | "invited"
    | "invitationRevoked"
    | "invitationAccepted"
    | "domainAdded"
    | "domainVerified"
    | "domainUnverified"
    | "domainRemoved";
  /** The member, invitation or domain concerned, where there is one. */
  targetId?: string;
  /** The role given (an invitation, a role change). */
  role?: string;
}

/** A member as `listMembers` shows them: with their name and address. */
export interface ListedMember extends Member {
  name: string | null;
  email: string | null;
}

/** An invitation as a list shows it: never its token's hash. */
export type ListedInvitation = Omit<Invitation, "tokenHash">;

/** A domain as its organization's admins see it: with the TXT record to publish. */
export interface ListedDomain extends OrganizationDomain {
  record: { name: string; type: "TXT"; value: string };
}

/** What a re-check of the proven domains found (`auth.api.verifyDomains()`, `authlib org verify-domains`). */
export interface DomainRecheck {
  /** How many proven domains were read. */
  checked: number;
  /** The domains whose record was gone: no longer proven. */
  unverified: string[];
  /** The domains whose lookup failed (a resolver error): their proof is kept until a re-check reads them. */
  failed: string[];
}
