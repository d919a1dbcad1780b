/**
 * Invitations (docs/organizations.md): a member invites an address with a role no higher than their own;
 * the mail's link opens a page whose button accepts (a mail scanner that opens the link accepts nothing).
 * An invitation is single use, expires (`invitationMaxAge`, default 7 days), can be revoked, and is
 * accepted only by a user signed in with the invited address (an account's address is one its owner
 * proved); one for another address is refused without saying whose it was. The link's token is stored
 * only as its SHA-256.
 *
 * @module features/organizations/invitations
 */
import { normalizeEmail } from "../../address/normalize.js";
import { timingSafeEqual } from "../../crypto/compare.js";
import { randomHex, sha256Hex } from "../../crypto/digest.js";
import { InvalidOrganization, InvitationInvalid, OrganizationForbidden, OrganizationLimit } from "../../errors.js";
import { mailSite, sendAccountMail } from "../../sign-in/account-mail.js";
import type { InternalOptions, RequestInternal } from "../../types/internal.js";
import type { InputOf } from "../../types/operation.js";
import type { Invitation, ListedInvitation } from "../../types/organizations.js";
import { actingIn, callerOf } from "./access.js";
import { answer, changed } from "./changes.js";
import type { acceptInput, invitationInput, inviteInput, organizationInput } from "./input.js";
import { invitationMail } from "./mail.js";
import { grantsNoMoreThan, isRole } from "./permissions.js";
import { settingsOf, storeOf } from "./store.js";

function listed({ tokenHash: _hash, ...invitation }: Invitation): ListedInvitation {
  return invitation;
}

/** The page the mail's link opens (its button accepts). */
export function invitationUrl(options: InternalOptions, invitation: Pick<Invitation, "id">, token: string): string {
  const url = new URL(`${options.authUrl}/organization/invitation`);
  url.searchParams.set("id", invitation.id);
  url.searchParams.set("token", token);
  return url.href;
}

/** An invitation that waits: pending and not expired. */
function waiting(invitation: Invitation, now = Date.now()): boolean {
  return invitation.status === "pending" && invitation.expires.valueOf() > now;
}

/** The address as an invitation keeps it, or `InvalidOrganization`. */
function invitedAddress(email: string): string {
  try {
    return normalizeEmail(email);
  } catch {
    throw new InvalidOrganization("`email` is not an email address.");
  }
}

/** POST organization/invite: invites `email` with `role` (mailed). An earlier invitation of the address is revoked. */
export async function inviteMember(options: InternalOptions, request: RequestInternal, input: InputOf<typeof inviteInput>) {
  const { organization, member: actor, userId } = await actingIn(options, request, input.organizationId, "member:invite");
  const { roles, invitationMaxAge, maxPendingInvitations } = settingsOf(options);
  if (!isRole(roles, input.role)) throw new InvalidOrganization(`There is no role "${input.role}".`);
  if (!grantsNoMoreThan(roles, input.role, actor.role)) {
    const error = new OrganizationForbidden(`A ${actor.role} cannot invite a ${input.role}.`);
    error.permission = "member:invite";
    throw error;
  }
  const email = invitedAddress(input.email);
  const store = storeOf(options);
  const invited = await store.getUserByEmail(email);
  if (invited && (await store.getMember(organization.id, invited.id))) throw new InvalidOrganization("This address is a member already.");
  const pending = (await store.listInvitations(organization.id)).filter((invitation) => waiting(invitation));
  for (const earlier of pending.filter((invitation) => invitation.email === email))
    await store.updateInvitation({ id: earlier.id, status: "revoked" });
  if (pending.filter((invitation) => invitation.email !== email).length >= maxPendingInvitations)
    throw new OrganizationLimit("Too many invitations wait in this organization: revoke some first.");
  const token = randomHex(32);
  const now = Date.now();
  const invitation = await store.createInvitation({
    organizationId: organization.id,
    email,
    role: input.role,
    invitedBy: userId,
    status: "pending",
    tokenHash: await sha256Hex(token),
    expires: new Date(now + invitationMaxAge * 1000),
    createdAt: new Date(now),
  });
  try {
    const site = await mailSite(options, request);
    await sendAccountMail(options, email, invitationMail(site, organization.name, invitationUrl(options, invitation, token)));
  } catch (error) {
    // An invitation nobody can receive must not wait: it is revoked, and the inviter told.
    await store.updateInvitation({ id: invitation.id, status: "revoked" });
    throw error;
  }
  await changed(options, {
    organizationId: organization.id,
    actorId: userId,
    change: "invited",
    targetId: invitation.id,
    role: input.role,
  });
  return answer({ invitation: listed(invitation) });
}

/** GET organization/invitations: the organization's invitations that wait. */
export async function listInvitations(
  options: InternalOptions,
  request: RequestInternal,
  { organizationId }: InputOf<typeof organizationInput>,
) {
  await actingIn(options, request, organizationId, "member:invite");
  const invitations = await storeOf(options).listInvitations(organizationId);
  return answer({ invitations: invitations.filter((invitation) => waiting(invitation)).map(listed) });
}

/** POST organization/invitation-revoke: an invitation of this organization stops working. */
export async function revokeInvitation(options: InternalOptions, request: RequestInternal, input: InputOf<typeof invitationInput>) {
  const { userId } = await actingIn(options, request, input.organizationId, "member:invite");
  const store = storeOf(options);
  const invitation = await store.getInvitation(input.invitationId);
  if (!invitation || invitation.organizationId !== input.organizationId || !waiting(invitation))
    throw new InvitationInvalid("This organization has no waiting invitation with this id.");
  await store.updateInvitation({ id: invitation.id, status: "revoked" });
  await changed(options, { organizationId: input.organizationId, actorId: userId, change: "invitationRevoked", targetId: invitation.id });
  return answer({ revoked: true });
}

/** The waiting invitation `invitationId` whose link carries `token`, or `InvitationInvalid` (the same for every cause). */
export async function openInvitation(options: InternalOptions, invitationId: string, token: string): Promise<Invitation> {
  const invitation = await storeOf(options).getInvitation(invitationId);
  const hash = await sha256Hex(token);
  // The hash is compared whether or not the invitation exists, in constant time.
  const matches = timingSafeEqual(hash, invitation?.tokenHash ?? "0".repeat(64));
  if (!invitation || !matches || !waiting(invitation))
    throw new InvitationInvalid("This invitation link is not valid: it was used, revoked or expired.");
  return invitation;
}

/**
 * POST organization/accept: the caller joins with the invitation's role, when signed in with the invited
 * address. Another address is refused as any invalid invitation is (the caller learns nothing of whose it is).
 */
export async function acceptInvitation(options: InternalOptions, request: RequestInternal, input: InputOf<typeof acceptInput>) {
  const { userId } = await callerOf(options, request);
  const invitation = await openInvitation(options, input.invitationId, input.token);
  const store = storeOf(options);
  const user = await store.getUser(userId);
  const proven = user?.email ? safeAddress(user.email) : undefined;
  if (proven !== invitation.email) throw new InvitationInvalid("This invitation link is not valid for the account you are signed in with.");
  await store.updateInvitation({ id: invitation.id, status: "accepted" });
  const existing = await store.getMember(invitation.organizationId, userId);
  const member =
    existing ??
    (await store.createMember({ organizationId: invitation.organizationId, userId, role: invitation.role, createdAt: new Date() }));
  await changed(options, {
    organizationId: invitation.organizationId,
    actorId: userId,
    change: "invitationAccepted",
    targetId: invitation.id,
    role: member.role,
  });
  return answer({ organizationId: invitation.organizationId, role: member.role });
}

/** The account's address as an invitation keeps addresses, or `undefined` for one that is not an address. */
function safeAddress(email: string): string | undefined {
  try {
    return normalizeEmail(email);
  } catch {
    return undefined;
  }
}
