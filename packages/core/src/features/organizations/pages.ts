/**
 * The organizations' built-in pages (`page-view.tsx`): `GET organization` (`?organizationId=`, default the
 * session's active organization, else the first of the user's) and `GET organization/invitation?id&token`,
 * the page a mail's link opens. Both read; neither changes anything (a mail scanner that opens the link
 * accepts nothing): the invitation page's button posts to `POST organization/invitation` (`page-forms.ts`).
 *
 * @module features/organizations/pages
 */
import { normalizeEmail } from "../../address/normalize.js";
import { InvitationInvalid, OrganizationNotFound, OrganizationPolicy } from "../../errors.js";
import { html } from "../../pages/html.js";
import { loadPages } from "../../pages/lazy.js";
import { isPasswordProvider } from "../../provider-kind.js";
import { accountUrl } from "../../sign-in/account-form.js";
import { withCallbackUrl } from "../../sign-in/flow.js";
import { passwordUrl, signInUrl } from "../../sign-in/urls.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../../types/internal.js";
import type { ListedMember, Organization, OrganizationMembership } from "../../types/organizations.js";
import { actingIn, stepUpUrl } from "./access.js";
import { listDomains } from "./domains.js";
import { listInvitations, openInvitation } from "./invitations.js";
import { listMembers, listOrganizations } from "./organizations.js";
import { renderInvitationHtml, renderOrganizationHtml, type ShownOrganization, type SwitcherEntry } from "./page-view.js";
import { grantsNoMoreThan } from "./permissions.js";
import { settingsOf, storeOf } from "./store.js";

/** The organization page's address, of `organizationId` when given, with `query` (`done`, `error`). */
export function organizationPageUrl(options: InternalOptions, organizationId?: string, query: Record<string, string> = {}): string {
  const params = new URLSearchParams(organizationId === undefined ? query : { organizationId, ...query });
  const search = params.toString();
  return `${options.authUrl}/organization${search ? `?${search}` : ""}`;
}

/** The user's organizations, for the switcher (the organization page and the account page's section). */
export async function switcherEntries(options: InternalOptions, request: RequestInternal): Promise<SwitcherEntry[]> {
  const { body } = await listOrganizations(options, request);
  const active = (await options.sessionStrategy.currentSession(options, request))?.activeOrganizationId;
  return (body?.organizations ?? []).map(({ organization, role }: OrganizationMembership) => ({
    id: organization.id,
    name: organization.name,
    role,
    active: organization.id === active,
  }));
}

/** The organization `organizationId` as its member (the caller) sees it; throws the refusals of `actingIn`. */
async function shownOrganization(options: InternalOptions, request: RequestInternal, organizationId: string): Promise<ShownOrganization> {
  const { organization, member, userId } = await actingIn(options, request, organizationId, "organization:read");
  const { roles } = settingsOf(options);
  const can = (permission: string) => roles.can(member, permission);
  const input = { organizationId };
  const members = ((await listMembers(options, request, input)).body as { members: ListedMember[] }).members;
  const shown: ShownOrganization = {
    ...pick(organization),
    role: member.role,
    userId,
    members,
    assignable: Object.keys(roles.map).filter((role) => grantsNoMoreThan(roles, role, member.role)),
    can: {
      invite: can("member:invite"),
      updateMember: can("member:update"),
      removeMember: can("member:remove"),
      manageDomains: can("domain:manage"),
      update: can("organization:update"),
    },
  };
  if (shown.can.invite) shown.invitations = (await listInvitations(options, request, input)).body?.invitations;
  if (shown.can.manageDomains) shown.domains = (await listDomains(options, request, input)).body?.domains;
  return shown;
}

function pick(organization: Organization) {
  return { id: organization.id, name: organization.name, policy: organization.policy ?? {} };
}

/** The organization to show: the one asked for, else the session's active one, else the user's first. */
function chosenOrganization(request: RequestInternal, entries: readonly SwitcherEntry[]): string | undefined {
  const asked = request.query.organizationId;
  if (asked) return asked;
  return (entries.find((entry) => entry.active) ?? entries[0])?.id;
}

/**
 * GET organization: the page of one of the user's organizations with the switcher and a form that creates
 * one. Signed out: the sign-in page, back here after. Not a member (removed, or never one): 404 with the
 * switcher; short of the organization's policy: 403 with the step-up link.
 */
export async function organizationPage(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal> {
  if (!(await options.sessionStrategy.currentAssurance(options, request)))
    return { redirect: withCallbackUrl(signInUrl(options), organizationPageUrl(options, request.query.organizationId || undefined)) };
  const organizations = await switcherEntries(options, request);
  const chosen = chosenOrganization(request, organizations);
  let current: ShownOrganization | undefined;
  let refusal: { kind: "notFound" } | { kind: "policy"; stepUp: string } | undefined;
  let status = 200;
  try {
    if (chosen !== undefined) current = await shownOrganization(options, request, chosen);
  } catch (error) {
    if (error instanceof OrganizationNotFound) [refusal, status] = [{ kind: "notFound" }, 404];
    else if (error instanceof OrganizationPolicy) [refusal, status] = [{ kind: "policy", stepUp: error.stepUp ?? "" }, 403];
    else throw error;
  }
  const { text } = await loadPages(options.config, request.request, options.featureMessages);
  // Other features' sections under the organization shown (API keys), in the features' order.
  const sections = current
    ? await Promise.all(
        (options.organizationSections ?? []).map((section) =>
          section.render(options, request, { text, csrfToken: options.csrfToken, organizationId: current.id, role: current.role }),
        ),
      )
    : [];
  const page = renderOrganizationHtml({
    sections: sections.flatMap((section) => (section ? [section.content] : [])),
    text,
    theme: options.theme,
    csrfToken: options.csrfToken,
    authUrl: options.authUrl,
    organizations,
    current,
    refusal,
    stepUp: chosen === undefined ? undefined : stepUpUrl(options, chosen),
    // A section that says the refusal of its own form in its words: the page does not repeat it at the top.
    error: sections.some((section) => section?.errorShownInPlace) ? undefined : request.query.error,
    done: request.query.done,
    accountUrl: accountUrl(options),
  });
  return html({ status, html: page });
}

/** The invitation page's own address (the sign-in and sign-up pages send the browser back to it). */
function invitationPageUrl(options: InternalOptions, id: string, token: string): string {
  return `${options.authUrl}/organization/invitation?${new URLSearchParams({ id, token })}`;
}

/** The account's address as invitations keep addresses, or `undefined`. */
function normalized(email: string | null | undefined): string | undefined {
  try {
    return email ? normalizeEmail(email) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * GET organization/invitation?id&token: the organization's name, the role and the accept button for the
 * invited address's account; signed out, sign in or create an account for that address (back here after);
 * another account: the invitation is not for it (whose it is, unsaid); an invalid link: a page that says so.
 */
export async function invitationPage(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal> {
  const { text } = await loadPages(options.config, request.request, options.featureMessages);
  const base = { text, theme: options.theme, csrfToken: options.csrfToken, authUrl: options.authUrl };
  const id = request.query.id ?? "";
  const token = request.query.token ?? "";
  const invitation = await openInvitation(options, id.slice(0, 128), token.slice(0, 128)).catch((error: unknown) => {
    if (error instanceof InvitationInvalid) return undefined;
    throw error;
  });
  const organization = invitation && (await storeOf(options).getOrganization(invitation.organizationId));
  if (!invitation || !organization) return html({ status: 400, html: renderInvitationHtml({ ...base, kind: "invalid" }) });
  const caller = await options.sessionStrategy.currentAssurance(options, request);
  const shown = { organization: organization.name, role: invitation.role };
  if (!caller) {
    const back = invitationPageUrl(options, id, token);
    const password = options.providers.some(isPasswordProvider);
    const signUpUrl = password
      ? `${passwordUrl(options, "sign-up")}?${new URLSearchParams({ email: invitation.email, callbackUrl: back })}`
      : undefined;
    const signIn = withCallbackUrl(signInUrl(options), back);
    return html({
      status: 200,
      html: renderInvitationHtml({ ...base, ...shown, kind: "signedOut", email: invitation.email, signInUrl: signIn, signUpUrl }),
    });
  }
  request.auditUserId = caller.userId;
  const user = await storeOf(options).getUser(caller.userId);
  if (normalized(user?.email) !== invitation.email)
    return html({ status: 403, html: renderInvitationHtml({ ...base, kind: "wrongAccount", signOutUrl: `${options.authUrl}/signout` }) });
  return html({
    status: 200,
    html: renderInvitationHtml({ ...base, ...shown, kind: "accept", invitationId: invitation.id, token, error: request.query.error }),
  });
}
