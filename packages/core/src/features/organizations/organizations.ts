/**
 * Organizations and their members (docs/organizations.md): create (the creator is its owner), change,
 * delete; list the caller's; list members, change a role, remove a member, leave; the session's active
 * organization; a permission check. Every operation decides from the store, on this request
 * (`access.ts`); the last owner stays.
 *
 * @module features/organizations/organizations
 */
import { InvalidOrganization, LastOwner, OrganizationForbidden, OrganizationLimit, OrganizationNotFound, SlugTaken } from "../../errors.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../../types/internal.js";
import type { InputOf } from "../../types/operation.js";
import type { ListedMember, Member, Organization, OrganizationMembership, SignInMethod, SignInPolicy } from "../../types/organizations.js";
import { actingIn, assertPolicy, callerOf, membershipOf } from "./access.js";
import { answer, changed } from "./changes.js";
import { organizationsForAddress } from "./domains.js";
import type { activeInput, createInput, memberInput, organizationInput, permissionInput, roleInput, updateInput } from "./input.js";
import { forgetRole } from "./membership-cache.js";
import { grantsNoMoreThan, isRole } from "./permissions.js";
import { type OrganizationStore, settingsOf, storeOf } from "./store.js";

const METHODS: readonly SignInMethod[] = ["password", "passkey", "email", "oauth", "sso"];

/** A policy as given (JSON, or a form's JSON text), checked field by field; `InvalidOrganization` otherwise. */
export function parsePolicy(given: unknown): SignInPolicy {
  const value = typeof given === "string" ? safeJson(given) : given;
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new InvalidOrganization("`policy` must be an object.");
  const { requireSecondFactor, allowedSignInMethods, sessionMaxAge } = value as Record<string, unknown>;
  const policy: SignInPolicy = {};
  if (requireSecondFactor !== undefined) {
    if (typeof requireSecondFactor !== "boolean") throw new InvalidOrganization("`policy.requireSecondFactor` must be true or false.");
    policy.requireSecondFactor = requireSecondFactor;
  }
  if (allowedSignInMethods !== undefined) {
    const valid = Array.isArray(allowedSignInMethods) && allowedSignInMethods.every((method) => METHODS.includes(method as SignInMethod));
    if (!valid) throw new InvalidOrganization(`\`policy.allowedSignInMethods\` must list some of ${METHODS.join(", ")}.`);
    policy.allowedSignInMethods = [...new Set(allowedSignInMethods as SignInMethod[])];
  }
  if (sessionMaxAge !== undefined) {
    if (!(Number.isInteger(sessionMaxAge) && (sessionMaxAge as number) >= 60))
      throw new InvalidOrganization("`policy.sessionMaxAge` must be 60 seconds or more.");
    policy.sessionMaxAge = sessionMaxAge as number;
  }
  return policy;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** `SlugTaken` when another organization has `slug`. */
async function assertSlugFree(store: OrganizationStore, slug: string, except?: string): Promise<void> {
  const holder = await store.getOrganizationBySlug(slug);
  if (holder && holder.id !== except) throw new SlugTaken("Another organization has this slug.");
}

/** POST organization/create: the new organization, its creator its owner. */
export async function createOrganization(options: InternalOptions, request: RequestInternal, { name, slug }: InputOf<typeof createInput>) {
  const { userId } = await callerOf(options, request);
  const store = storeOf(options);
  const owned = (await store.listMembershipsByUser(userId)).filter((member) => member.role === "owner");
  if (owned.length >= settingsOf(options).maxPerUser) throw new OrganizationLimit("You own as many organizations as this app allows.");
  await assertSlugFree(store, slug);
  let organization: Organization;
  try {
    organization = await store.createOrganization({ name, slug, policy: {}, domainJoin: "off", createdAt: new Date() });
  } catch (error) {
    // Two requests for one slug: the store's unique index let one through; the other is told so.
    await assertSlugFree(store, slug);
    throw error;
  }
  await store.createMember({ organizationId: organization.id, userId, role: "owner", createdAt: new Date() });
  await changed(options, { organizationId: organization.id, actorId: userId, change: "created" });
  return answer({ organization, role: "owner" });
}

/** POST organization/update: a new name, slug, policy or domain join. */
export async function updateOrganization(options: InternalOptions, request: RequestInternal, input: InputOf<typeof updateInput>) {
  const { organization, userId } = await actingIn(options, request, input.organizationId, "organization:update");
  const store = storeOf(options);
  if (input.slug !== undefined) await assertSlugFree(store, input.slug, organization.id);
  const changes: Partial<Organization> = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.slug !== undefined) changes.slug = input.slug;
  if (input.domainJoin !== undefined) changes.domainJoin = input.domainJoin;
  if (input.policy !== undefined) changes.policy = parsePolicy(input.policy);
  const updated = await store.updateOrganization({ id: organization.id, ...changes });
  await changed(options, { organizationId: organization.id, actorId: userId, change: "updated" });
  return answer({ organization: updated });
}

/** POST organization/delete: the organization, its members, invitations and domains (owners only). */
export async function deleteOrganization(
  options: InternalOptions,
  request: RequestInternal,
  { organizationId }: InputOf<typeof organizationInput>,
) {
  const { userId } = await actingIn(options, request, organizationId, "organization:delete");
  await storeOf(options).deleteOrganization(organizationId);
  forgetRole(options, organizationId);
  await changed(options, { organizationId, actorId: userId, change: "deleted" });
  return answer({ deleted: true });
}

/**
 * GET organization/list: the caller's organizations with their role in each (no policy applies to a list),
 * and those their proven address's domain offers (`suggested`); one whose domain join is `auto` they join.
 */
export async function listOrganizations(
  options: InternalOptions,
  request: RequestInternal,
): Promise<ResponseInternal<{ organizations: OrganizationMembership[]; suggested: Organization[] }>> {
  const { userId } = await callerOf(options, request);
  const store = storeOf(options);
  const suggested = await joinByDomain(options, userId);
  const memberships = await store.listMembershipsByUser(userId);
  const found = await Promise.all(
    memberships.map(async (member) => ({ member, organization: await store.getOrganization(member.organizationId) })),
  );
  const organizations = found.flatMap(({ member, organization }) => (organization ? [{ organization, role: member.role }] : []));
  return answer({ organizations, suggested });
}

/** The organizations `userId` is a member of, with their role (an admin's view of the user: no domain join, no change). */
export async function membershipsOf(options: InternalOptions, userId: string): Promise<OrganizationMembership[]> {
  const store = storeOf(options);
  const memberships = await store.listMembershipsByUser(userId);
  const found = await Promise.all(
    memberships.map(async (member) => ({ member, organization: await store.getOrganization(member.organizationId) })),
  );
  return found.flatMap(({ member, organization }) => (organization ? [{ organization, role: member.role }] : []));
}

/** Joins the organizations whose proven domain holds the user's address and joins automatically; the suggesting ones, returned. */
async function joinByDomain(options: InternalOptions, userId: string): Promise<Organization[]> {
  const store = storeOf(options);
  const suggested: Organization[] = [];
  for (const organization of await organizationsForAddress(options, await store.getUser(userId))) {
    if (await store.getMember(organization.id, userId)) continue;
    if (organization.domainJoin === "suggest") {
      suggested.push(organization);
      continue;
    }
    await store.createMember({ organizationId: organization.id, userId, role: "member", createdAt: new Date() });
    await changed(options, { organizationId: organization.id, actorId: userId, change: "memberAdded", targetId: userId, role: "member" });
  }
  return suggested;
}

/** POST organization/join: joins (as a member) an organization that the caller's proven address's domain offers. */
export async function joinOrganization(
  options: InternalOptions,
  request: RequestInternal,
  { organizationId }: InputOf<typeof organizationInput>,
) {
  const { userId } = await callerOf(options, request);
  const store = storeOf(options);
  const offered = await organizationsForAddress(options, await store.getUser(userId));
  if (!offered.some((organization) => organization.id === organizationId))
    throw new OrganizationNotFound("No organization offers to let you join by your address.");
  const member =
    (await store.getMember(organizationId, userId)) ??
    (await store.createMember({ organizationId, userId, role: "member", createdAt: new Date() }));
  await changed(options, { organizationId, actorId: userId, change: "memberAdded", targetId: userId, role: member.role });
  return answer({ organizationId, role: member.role });
}

/** GET organization/get: one of the caller's organizations and their role there. */
export async function getOrganization(
  options: InternalOptions,
  request: RequestInternal,
  { organizationId }: InputOf<typeof organizationInput>,
) {
  const { organization, member } = await actingIn(options, request, organizationId, "organization:read");
  return answer({ organization, role: member.role });
}

/** GET organization/members: the members, with their names and addresses. */
export async function listMembers(
  options: InternalOptions,
  request: RequestInternal,
  { organizationId }: InputOf<typeof organizationInput>,
) {
  await actingIn(options, request, organizationId, "organization:read");
  const store = storeOf(options);
  const members = await store.listMembers(organizationId);
  const listed: ListedMember[] = await Promise.all(
    members.map(async (member) => {
      const user = await store.getUser(member.userId);
      return { ...member, name: user?.name ?? null, email: user?.email ?? null };
    }),
  );
  return answer({ members: listed });
}

/** `organizationId`'s member `userId`, or `OrganizationNotFound` (said of the member). */
async function memberOf(store: OrganizationStore, organizationId: string, userId: string): Promise<Member> {
  const member = await store.getMember(organizationId, userId);
  if (!member) throw new OrganizationNotFound("This organization has no such member.");
  return member;
}

/** `LastOwner` when taking `member`'s ownership would leave the organization without an owner. */
async function assertNotLastOwner(store: OrganizationStore, member: Member): Promise<void> {
  if (member.role !== "owner") return;
  const owners = (await store.listMembers(member.organizationId)).filter((other) => other.role === "owner");
  if (owners.length <= 1) throw new LastOwner("The last owner stays: make another member an owner first.");
}

/** `OrganizationForbidden` unless `actor` may act on `target` (whose role grants no more than the actor's). */
function assertOutranks(options: InternalOptions, actor: Member, target: Member, permission: string): void {
  if (grantsNoMoreThan(settingsOf(options).roles, target.role, actor.role)) return;
  const error = new OrganizationForbidden(`A ${actor.role} cannot act on a ${target.role}.`);
  error.permission = permission;
  throw error;
}

/**
 * After an owner left or was removed or demoted: when a race of two such requests left no owner, the
 * member this request changed is put back as an owner and the request refused (`LastOwner`).
 */
async function keepAnOwner(store: OrganizationStore, before: Member): Promise<void> {
  if (before.role !== "owner") return;
  const owners = (await store.listMembers(before.organizationId)).filter((other) => other.role === "owner");
  if (owners.length > 0) return;
  const back = await store.getMember(before.organizationId, before.userId);
  if (back) await store.updateMember({ organizationId: before.organizationId, userId: before.userId, role: "owner" });
  else
    await store.createMember({ organizationId: before.organizationId, userId: before.userId, role: "owner", createdAt: before.createdAt });
  throw new LastOwner("The last owner stays: make another member an owner first.");
}

/** POST organization/member-role: another member's new role (never above the caller's own). */
export async function updateMemberRole(options: InternalOptions, request: RequestInternal, input: InputOf<typeof roleInput>) {
  const { member: actor, userId } = await actingIn(options, request, input.organizationId, "member:update");
  const store = storeOf(options);
  const { roles } = settingsOf(options);
  if (!isRole(roles, input.role)) throw new InvalidOrganization(`There is no role "${input.role}".`);
  const target = await memberOf(store, input.organizationId, input.userId);
  // Nobody raises themselves; an owner may step down while another owner stays.
  if (target.userId === userId && input.role !== "owner" && actor.role !== "owner")
    throw new OrganizationForbidden("You cannot change your own role.");
  assertOutranks(options, actor, target, "member:update");
  assertOutranks(options, actor, { ...target, role: input.role }, "member:update");
  if (input.role !== "owner") await assertNotLastOwner(store, target);
  const updated = await store.updateMember({ organizationId: input.organizationId, userId: input.userId, role: input.role });
  forgetRole(options, input.organizationId, input.userId);
  if (input.role !== "owner") await keepAnOwner(store, target);
  await changed(options, {
    organizationId: input.organizationId,
    actorId: userId,
    change: "roleChanged",
    targetId: input.userId,
    role: input.role,
  });
  return answer({ member: updated });
}

/** POST organization/member-remove: another member, out (never one who outranks the caller, never the last owner). */
export async function removeMember(options: InternalOptions, request: RequestInternal, input: InputOf<typeof memberInput>) {
  const { member: actor, userId } = await actingIn(options, request, input.organizationId, "member:remove");
  if (input.userId === userId) throw new InvalidOrganization("To leave an organization, use leaveOrganization.");
  const store = storeOf(options);
  const target = await memberOf(store, input.organizationId, input.userId);
  assertOutranks(options, actor, target, "member:remove");
  await assertNotLastOwner(store, target);
  await store.deleteMember(input.organizationId, input.userId);
  forgetRole(options, input.organizationId, input.userId);
  await keepAnOwner(store, target);
  await changed(options, { organizationId: input.organizationId, actorId: userId, change: "memberRemoved", targetId: input.userId });
  return answer({ removed: true });
}

/** POST organization/leave: the caller leaves (not the last owner). Needs no policy: leaving is always allowed. */
export async function leaveOrganization(
  options: InternalOptions,
  request: RequestInternal,
  { organizationId }: InputOf<typeof organizationInput>,
) {
  const { userId } = await callerOf(options, request);
  const store = storeOf(options);
  const { member } = await membershipOf(options, organizationId, userId);
  await assertNotLastOwner(store, member);
  await store.deleteMember(organizationId, userId);
  forgetRole(options, organizationId, userId);
  await keepAnOwner(store, member);
  await changed(options, { organizationId, actorId: userId, change: "memberLeft", targetId: userId });
  const current = await options.sessionStrategy.currentSession(options, request);
  const cookies =
    current?.activeOrganizationId === organizationId ? await options.sessionStrategy.setActiveOrganization(options, request, null) : [];
  return answer({ left: true }, cookies);
}

/** POST organization/active: the session's active organization (one the caller is a member of and meets the policy of), or none. */
export async function setActiveOrganization(
  options: InternalOptions,
  request: RequestInternal,
  { organizationId }: InputOf<typeof activeInput>,
) {
  if (organizationId === undefined) {
    await callerOf(options, request);
    return answer({ activeOrganizationId: null }, await options.sessionStrategy.setActiveOrganization(options, request, null));
  }
  const { member } = await actingIn(options, request, organizationId, "organization:read");
  const cookies = await options.sessionStrategy.setActiveOrganization(options, request, organizationId);
  return answer({ activeOrganizationId: organizationId, role: member.role }, cookies);
}

/**
 * GET organization/permission: whether the caller's role in `organizationId` (default: the session's active
 * organization) grants `permission`. Not a member, or no organization: `false`. A session short of the
 * organization's policy is refused (`OrganizationPolicy`), so that the app can step up.
 */
export async function hasPermission(options: InternalOptions, request: RequestInternal, input: InputOf<typeof permissionInput>) {
  const caller = await callerOf(options, request);
  const organizationId = input.organizationId ?? (await options.sessionStrategy.currentSession(options, request))?.activeOrganizationId;
  if (organizationId === undefined) return answer({ allowed: false });
  let found: Awaited<ReturnType<typeof membershipOf>>;
  try {
    found = await membershipOf(options, organizationId, caller.userId);
  } catch (error) {
    if (error instanceof OrganizationNotFound) return answer({ allowed: false });
    throw error;
  }
  assertPolicy(options, found.organization, caller);
  return answer({ allowed: settingsOf(options).roles.can(found.member, input.permission) });
}
