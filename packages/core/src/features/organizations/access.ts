/**
 * Who may act in an organization, decided on every request from the store (never from the session's own
 * claims, so that a removed member, a changed role or a deleted organization takes effect at once): the
 * caller is signed in, is a member, their session meets the organization's policy, and their role grants
 * the permission. A caller who is not a member learns nothing: an organization they are not in is
 * `OrganizationNotFound`, whether it exists or not.
 *
 * @module features/organizations/access
 */
import { OrganizationForbidden, OrganizationNotFound, OrganizationPolicy, SessionRequired } from "../../errors.js";
import { nowInSeconds } from "../../session/assurance.js";
import { signInUrl } from "../../sign-in/urls.js";
import type { SessionAssurance } from "../../types/base.js";
import type { InternalOptions, RequestInternal } from "../../types/internal.js";
import type { Member, Organization, SignInPolicy as Policy, SignInMethod } from "../../types/organizations.js";
import { settingsOf, storeOf } from "./store.js";

/** The signed-in caller: their id and how their session was signed in to (`undefined`: unknown). */
export interface Caller {
  userId: string;
  assurance: SessionAssurance | undefined;
}

/** A member acting in their organization, their session checked against its policy. */
export interface Acting extends Caller {
  organization: Organization;
  member: Member;
}

/** The sign-in method of each first-factor name a session's `amr` starts with (`session/assurance.ts`). */
const METHOD_OF_AMR: Readonly<Record<string, SignInMethod>> = Object.freeze({
  pwd: "password",
  hwk: "passkey",
  email: "email",
  fed: "oauth",
  sso: "sso",
});

/** The signed-in caller, or `SessionRequired`. Failures of the request are audited as theirs from here on. */
export async function callerOf(options: InternalOptions, request: RequestInternal): Promise<Caller> {
  const current = await options.sessionStrategy.currentAssurance(options, request);
  if (!current) throw new SessionRequired("Sign in first: the request has no session.");
  request.auditUserId = current.userId;
  return current;
}

/**
 * What `assurance` lacks for the policy of `organizationId` (empty: it meets it). An unknown assurance meets
 * no requirement. An SSO sign-in counts as `sso` only for the organization whose connection it came through
 * (`assurance.sso`): a session that met organization A's SSO-only policy is refused by B (issue 46).
 */
export function missingForPolicy(
  policy: Policy,
  assurance: SessionAssurance | undefined,
  organizationId: string,
): Array<"secondFactor" | "signInMethod" | "recentSignIn"> {
  const missing: Array<"secondFactor" | "signInMethod" | "recentSignIn"> = [];
  if (policy.requireSecondFactor && assurance?.aal !== 2) missing.push("secondFactor");
  const allowed = policy.allowedSignInMethods;
  if (allowed && allowed.length > 0) {
    const first = assurance?.amr[0];
    const method = first !== undefined && Object.hasOwn(METHOD_OF_AMR, first) ? METHOD_OF_AMR[first] : undefined;
    const anotherOrganizations = method === "sso" && assurance?.sso?.organizationId !== organizationId;
    if (!method || !allowed.includes(method) || anotherOrganizations) missing.push("signInMethod");
  }
  if (policy.sessionMaxAge !== undefined && !(assurance && nowInSeconds() - assurance.authTime <= policy.sessionMaxAge))
    missing.push("recentSignIn");
  return missing;
}

/** The step-up for an organization: the sign-in page, back to the organization's page after. */
export function stepUpUrl(options: InternalOptions, organizationId: string): string {
  const back = `${options.authUrl}/organization?organizationId=${encodeURIComponent(organizationId)}`;
  const page = new URL(signInUrl(options));
  page.searchParams.set("callbackUrl", back);
  return page.href;
}

/** `OrganizationPolicy` when `caller`'s session does not meet `organization`'s policy. */
export function assertPolicy(options: InternalOptions, organization: Organization, caller: Caller): void {
  const missing = missingForPolicy(organization.policy ?? {}, caller.assurance, organization.id);
  if (missing.length === 0) return;
  const error = new OrganizationPolicy(
    `This organization asks for more than this session has (${missing.join(", ")}): sign in again to continue.`,
  );
  error.missing = missing;
  error.stepUp = stepUpUrl(options, organization.id);
  error.details = { missing, stepUp: error.stepUp };
  throw error;
}

/** The caller's membership of `organizationId` and the organization, or `OrganizationNotFound` (the same for both). */
export async function membershipOf(
  options: InternalOptions,
  organizationId: string,
  userId: string,
): Promise<{ organization: Organization; member: Member }> {
  const store = storeOf(options);
  const [organization, member] = await Promise.all([store.getOrganization(organizationId), store.getMember(organizationId, userId)]);
  if (!organization || !member || member.organizationId !== organization.id || member.userId !== userId)
    throw new OrganizationNotFound("No organization of yours has this id.");
  return { organization, member };
}

/**
 * The caller acting in `organizationId`: a member, whose session meets its policy, and whose role grants
 * `permission`. Throws `SessionRequired`, `OrganizationNotFound`, `OrganizationPolicy` or `OrganizationForbidden`.
 */
export async function actingIn(
  options: InternalOptions,
  request: RequestInternal,
  organizationId: string,
  permission: string,
): Promise<Acting> {
  const caller = await callerOf(options, request);
  const { organization, member } = await membershipOf(options, organizationId, caller.userId);
  assertPolicy(options, organization, caller);
  if (!settingsOf(options).roles.can(member, permission)) {
    const error = new OrganizationForbidden(`Your role (${member.role}) does not grant "${permission}" here.`);
    error.permission = permission;
    throw error;
  }
  return { ...caller, organization, member };
}
