/**
 * Who an SSO sign-in is (protocol-independent: the SAML assertion consumer and the OIDC callback both end
 * here). The identity is the connection and the subject its identity provider gives (the SAML `NameID`,
 * the OIDC `sub` of the connection's fixed issuer): the same subject at another connection is another
 * identity, even at the same issuer (a multi-tenant identity provider must not bridge two organizations).
 *
 * A known identity is its user. A first sign-in (just in time) makes one:
 * - the address is proven only when its domain is proven (DNS) by the connection's organization: that
 *   organization's identity provider speaks for its own domain. It then follows the proven-email model
 *   (`sign-in/proven-address.ts`): a user who proved the address is the same person and is linked; a user
 *   who holds it without proof loses it.
 * - any other address is not proven: the new user gets no address (`unproven-email.ts`: an unproven address
 *   is never stored, links nothing and owns nothing), so it is never linked to an account of that address.
 * - the user becomes a member with the role the first of their groups maps to (`groupRoles`), else the
 *   connection's `defaultRole`.
 *
 * The session starts through the shared gate (`sign-in/start-session.ts`, which refuses a banned user) with
 * the assurance `amr: ["sso"]` and the connection (`assurance.sso`), and acts in the organization from its
 * start.
 *
 * @module features/sso/identity
 */
import { recordAuditEvent } from "../../audit/index.js";
import { SsoSignInFailed } from "../../errors.js";
import { nowInSeconds } from "../../session/assurance.js";
import { askSignInCallback, completeSignIn } from "../../sign-in/flow.js";
import { claimProvenAddress } from "../../sign-in/proven-address.js";
import type { AdapterUser } from "../../types/adapters.js";
import type { SessionAssurance } from "../../types/base.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../../types/internal.js";
import type { SsoConnection } from "../../types/sso.js";
import { domainOf, provenBy } from "./domains.js";
import { isDeprovisioned } from "./scim/deprovisioned.js";
import { storeOf } from "./store.js";

/** What the identity provider said of the user, read through the connection's attribute mapping. */
export interface SsoClaims {
  /** The SAML `NameID` or the OIDC `sub`: unique and stable at this connection. */
  subject: string;
  email?: string;
  name?: string;
  groups?: string[];
}

/** The refusal of an SSO sign-in, with its reason's type (audited; never the identity provider's answer). */
export function failed(reason: string, message: string): SsoSignInFailed {
  const error = new SsoSignInFailed(message);
  error.reason = reason;
  return error;
}

/** Names the request's span after `connection`'s protocol (a closed value: no span names a customer's connection). */
export function traceConnection(request: RequestInternal, connection: Pick<SsoConnection, "protocol">): void {
  request.trace?.span.setAttribute("authlib.sso.protocol", connection.protocol);
}

/**
 * A refused sign-in through `connection`: an `ssoSignInFailed` audit row naming the organization, the
 * connection and `reason` (the check's type; never the identity provider's answer), and `reason` on the
 * request's span.
 */
export function recordSsoRefusal(
  options: InternalOptions,
  request: RequestInternal,
  connection: Pick<SsoConnection, "id" | "organizationId">,
  reason: string,
): void {
  request.trace?.span.setAttribute("authlib.sso.reason", reason);
  const detail = `organization=${connection.organizationId} connection=${connection.id} reason=${reason}`;
  recordAuditEvent(options, request, { type: "ssoSignInFailed", outcome: "failure", detail });
}

/** The role a first sign-in gets: the first of the connection's group mappings the user's groups hold, else its default. */
export function roleFor(connection: Pick<SsoConnection, "defaultRole" | "groupRoles">, groups: readonly string[] | undefined): string {
  const held = new Set(groups ?? []);
  for (const [group, role] of Object.entries(connection.groupRoles ?? {})) if (held.has(group)) return role;
  return connection.defaultRole;
}

/** The address of `claims` when the connection's organization has proven its domain (lower case), else `null`. */
async function provenEmail(options: InternalOptions, connection: SsoConnection, email: string | undefined): Promise<string | null> {
  const domain = email ? domainOf(email) : undefined;
  if (!email || !domain) return null;
  return (await provenBy(options, domain, connection.organizationId)) ? email.trim().toLowerCase() : null;
}

/** The user of a first sign-in: the proven address's owner (linked), or a new user. */
async function firstSignIn(
  options: InternalOptions,
  connection: SsoConnection,
  claims: SsoClaims,
): Promise<{ user: AdapterUser; isNewUser: boolean }> {
  const store = storeOf(options);
  const email = await provenEmail(options, connection, claims.email);
  const owner = email ? await claimProvenAddress(options, store, email) : null;
  const user =
    owner ??
    (await store.createUser({
      id: crypto.randomUUID(),
      name: claims.name ?? null,
      email,
      emailVerified: email ? new Date() : null,
    }));
  try {
    await store.createSsoIdentity({ connectionId: connection.id, subject: claims.subject, userId: user.id, createdAt: new Date() });
  } catch (error) {
    // Two first sign-ins of one identity raced: the store's unique key let one through; the other uses its user.
    const winner = await store.getSsoIdentity(connection.id, claims.subject);
    if (!winner) throw error;
    if (!owner && winner.userId !== user.id) await options.adapter?.deleteUser?.(user.id);
    const found = await store.getUser(winner.userId);
    if (!found) throw failed("userGone", "The user of this SSO identity is gone: sign in again.");
    return { user: found, isNewUser: false };
  }
  if (!owner) await options.events.createUser({ user });
  return { user, isNewUser: !owner };
}

/** The user's membership of the connection's organization, made (with the mapped role) at the first sign-in. */
async function ensureMember(options: InternalOptions, connection: SsoConnection, userId: string, groups: string[] | undefined) {
  const store = storeOf(options);
  const member = await store.getMember(connection.organizationId, userId);
  if (member) return member;
  const role = roleFor(connection, groups);
  try {
    const created = await store.createMember({ organizationId: connection.organizationId, userId, role, createdAt: new Date() });
    await options.events.organizationChanged({
      organizationId: connection.organizationId,
      actorId: userId,
      change: "memberAdded",
      targetId: userId,
      role,
    });
    return created;
  } catch (error) {
    // A parallel sign-in made it first (one membership per user and organization).
    const raced = await store.getMember(connection.organizationId, userId);
    if (!raced) throw error;
    return raced;
  }
}

/**
 * Signs in the identity `claims` of `connection` (the caller validated the identity provider's answer):
 * the user (known, linked by a proven address, or new), their membership, then the session through the
 * shared gate, active in the organization. Answers the redirect with the session's cookies (or the second
 * step's). `SsoSignInFailed` names why it could not (its `reason`).
 */
export async function ssoSignIn(
  options: InternalOptions,
  request: RequestInternal,
  connection: SsoConnection,
  claims: SsoClaims,
): Promise<ResponseInternal> {
  try {
    if (typeof claims.subject !== "string" || claims.subject === "" || claims.subject.length > 512)
      throw failed("noSubject", "The identity provider gave no usable subject: the organization's admin checks the connection.");
    const store = storeOf(options);
    if (!(await store.getOrganization(connection.organizationId)))
      throw failed("organizationGone", "This connection's organization is gone.");
    const identity = await store.getSsoIdentity(connection.id, claims.subject);
    const known = identity ? await store.getUser(identity.userId) : null;
    if (identity && !known)
      throw failed("userGone", "The user of this SSO identity is gone: the organization's admin checks the connection.");
    // The organization's directory (SCIM) ended this user: its identity provider may still vouch for them.
    if (known && (await isDeprovisioned(options, connection.organizationId, known.id)))
      throw failed("deprovisioned", "Your organization's directory has ended your access: ask your organization's admin.");
    // The app's `signIn` callback is asked before anything is stored (as for OAuth): a string sends the browser there, no session.
    const candidate = known ?? { name: claims.name ?? null, email: null, emailVerified: null };
    const redirect = await askSignInCallback(options, { user: candidate, account: null, profile: { sub: claims.subject } });
    if (redirect) return { redirect };
    const { user, isNewUser } = known ? { user: known, isNewUser: false } : await firstSignIn(options, connection, claims);
    await ensureMember(options, connection, user.id, claims.groups);
    const assurance: SessionAssurance = {
      authTime: nowInSeconds(),
      amr: ["sso"],
      aal: 1,
      sso: { organizationId: connection.organizationId, connectionId: connection.id },
    };
    request.auditUserId = user.id;
    const result = await completeSignIn(options, request, {
      user,
      account: null,
      isNewUser,
      assurance,
      activeOrganizationId: connection.organizationId,
    });
    // The audit row names the connection in its detail (its provider column holds configured providers' ids only).
    const detail = `organization=${connection.organizationId} connection=${connection.id}`;
    recordAuditEvent(options, request, { type: "ssoSignIn", userId: user.id, detail });
    return result;
  } catch (error) {
    const reason = error instanceof SsoSignInFailed ? (error.reason ?? "refused") : ((error as { type?: string }).type ?? "error");
    recordSsoRefusal(options, request, connection, reason);
    throw error;
  }
}
