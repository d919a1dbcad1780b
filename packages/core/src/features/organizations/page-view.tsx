/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// The pragmas keep these files on the Preact runtime under any transpiler, e.g. Qwik's Vite config.
/**
 * The organizations' built-in pages: the organization page (`GET <basePath>/organization`: its members,
 * invitations, domains and sign-in policy, each change a plain form posting to `organization/form-*`) with
 * the switcher of the user's organizations, and the invitation page a mail's link opens (its button
 * accepts; the page itself never does). Plain forms, no script; every text from the catalog.
 *
 * @module features/organizations/page-view
 */
import type { ComponentChildren } from "preact";
import { Filled, HiddenFields, renderDocument } from "../../pages/layout.js";
import { errorMessageIn } from "../../pages/messages.js";
import { resolveTheme, toSafeNavigationUrl } from "../../pages/theme.js";
import type { Theme } from "../../types/config.js";
import type { MessageKey, Translator } from "../../types/i18n.js";
import type { ListedDomain, ListedInvitation, ListedMember, SignInMethod, SignInPolicy } from "../../types/organizations.js";

/** The message of each error type a form of the page is refused with (`?error=`); any other: the default. */
const ERRORS: Readonly<Record<string, MessageKey>> = Object.freeze({
  InvalidOrganization: "organization.error.invalid",
  InvitationInvalid: "organization.error.invalid",
  SlugTaken: "organization.error.slugTaken",
  LastOwner: "organization.error.lastOwner",
  OrganizationForbidden: "organization.error.forbidden",
  OrganizationNotFound: "organization.error.notFound",
  OrganizationPolicy: "organization.page.policy",
  DomainClaimed: "organization.error.domainClaimed",
  DomainNotProven: "organization.error.domainNotProven",
  OrganizationLimit: "organization.error.limit",
  MissingCSRF: "organization.error.expired",
  EmailSignInError: "organization.error.mail",
});

/** The notice of each `?done=` value. */
const NOTICES: Readonly<Record<string, MessageKey>> = Object.freeze({
  created: "organization.done.created",
  invited: "organization.done.invited",
  revoked: "organization.done.revoked",
  roleChanged: "organization.done.roleChanged",
  removed: "organization.done.removed",
  left: "organization.done.left",
  active: "organization.done.active",
  domainAdded: "organization.done.domainAdded",
  domainVerified: "organization.done.domainVerified",
  domainRemoved: "organization.done.domainRemoved",
  policySaved: "organization.done.policySaved",
  joined: "organization.done.joined",
});

const BUILT_IN_ROLES = new Set(["owner", "admin", "member"]);
const METHODS: readonly SignInMethod[] = ["password", "passkey", "email", "oauth", "sso"];

/** A role as the page says it: the built-in ones in the page's language, an app's own as it is named. */
export function roleName(text: Translator, role: string): string {
  return BUILT_IN_ROLES.has(role) ? text.t(`organization.role.${role}` as MessageKey) : role;
}

/** One of the user's organizations, for the switcher. */
export interface SwitcherEntry {
  id: string;
  name: string;
  role: string;
  active: boolean;
}

/** The organization the page shows, as its member sees it. */
export interface ShownOrganization {
  id: string;
  name: string;
  role: string;
  userId: string;
  policy: SignInPolicy;
  members: readonly ListedMember[];
  /** The roles this member may give (none: no role form). */
  assignable: readonly string[];
  can: { invite: boolean; updateMember: boolean; removeMember: boolean; manageDomains: boolean; update: boolean };
  invitations?: readonly ListedInvitation[];
  domains?: readonly ListedDomain[];
}

/** What the organization page shows. */
export interface OrganizationPageParams {
  text: Translator;
  theme: Theme;
  csrfToken: string;
  /** `<origin><basePath>`: the forms post to `organization/form-*`. */
  authUrl: string;
  organizations: readonly SwitcherEntry[];
  current?: ShownOrganization;
  /** The organization asked for is not one of the user's (404), or asks for more than this session has (403). */
  refusal?: { kind: "notFound" } | { kind: "policy"; stepUp: string };
  /** Where a policy refusal's step-up leads, for `?error=OrganizationPolicy` of a form. */
  stepUp?: string;
  error?: string;
  done?: string;
  accountUrl: string;
  /** Other features' sections under the organization shown (`OrganizationSection`), already rendered elements. */
  sections?: readonly unknown[];
}

interface FormProps {
  action: string;
  csrfToken: string;
  organizationId?: string;
  children: preact.ComponentChildren;
}

/** A POST form of the page: its CSRF token and the organization it acts in. */
export function OrgForm({ action, csrfToken, organizationId, children }: FormProps) {
  return (
    <form action={toSafeNavigationUrl(action)} method="post">
      <HiddenFields csrfToken={csrfToken} />
      {organizationId !== undefined ? <input type="hidden" name="organizationId" value={organizationId} /> : null}
      {children}
    </form>
  );
}

/** The switcher: the user's organizations, each opened by a link, the others made active by a form. */
export function Switcher(props: { text: Translator; authUrl: string; csrfToken: string; organizations: readonly SwitcherEntry[] }) {
  const { text, authUrl } = props;
  return (
    <section class="stack" aria-labelledby="org-switcher-heading">
      <h2 id="org-switcher-heading">{text.t("organization.switcher.heading")}</h2>
      {props.organizations.length === 0 ? <p class="muted">{text.t("organization.switcher.none")}</p> : null}
      <ul class="methods stack">
        {props.organizations.map((entry) => (
          <li key={entry.id}>
            <a href={toSafeNavigationUrl(`${authUrl}/organization?${new URLSearchParams({ organizationId: entry.id })}`)}>{entry.name}</a>
            <span class="muted">{roleName(text, entry.role)}</span>
            {entry.active ? (
              <span class="muted">{text.t("organization.switcher.active")}</span>
            ) : (
              <OrgForm action={`${authUrl}/organization/form-active`} csrfToken={props.csrfToken} organizationId={entry.id}>
                <button type="submit" class="button button-neutral" aria-label={`${text.t("organization.switcher.switch")}: ${entry.name}`}>
                  {text.t("organization.switcher.switch")}
                </button>
              </OrgForm>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

type SectionProps = { org: ShownOrganization; text: Translator; authUrl: string; csrfToken: string };

function RoleSelect({
  id,
  label,
  roles,
  selected,
  text,
}: {
  id: string;
  label: string;
  roles: readonly string[];
  selected?: string;
  text: Translator;
}) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} name="role">
        {roles.map((role) => (
          <option key={role} value={role} selected={role === selected}>
            {roleName(text, role)}
          </option>
        ))}
      </select>
    </div>
  );
}

function MemberRow({ member, org, text, authUrl, csrfToken }: SectionProps & { member: ListedMember }) {
  const who = member.name ?? member.email ?? member.userId;
  const self = member.userId === org.userId;
  const form = (op: string) => `${authUrl}/organization/form-${op}`;
  return (
    <li class="stack">
      <span>
        {who} — {roleName(text, member.role)} {self ? text.t("organization.members.you") : null}
      </span>
      {!self && org.can.updateMember && org.assignable.length > 0 ? (
        <OrgForm action={form("member-role")} csrfToken={csrfToken} organizationId={org.id}>
          <input type="hidden" name="userId" value={member.userId} />
          <RoleSelect
            id={`role-${member.userId}`}
            label={text.t("organization.members.roleOf", { member: who })}
            roles={org.assignable}
            selected={member.role}
            text={text}
          />
          <button type="submit" class="button button-neutral">
            {text.t("organization.members.changeRole")}
          </button>
        </OrgForm>
      ) : null}
      {!self && org.can.removeMember ? (
        <OrgForm action={form("member-remove")} csrfToken={csrfToken} organizationId={org.id}>
          <input type="hidden" name="userId" value={member.userId} />
          <button type="submit" class="button button-danger">
            {text.t("organization.members.remove", { member: who })}
          </button>
        </OrgForm>
      ) : null}
    </li>
  );
}

function Members(props: SectionProps) {
  return (
    <section class="stack" aria-labelledby="org-members-heading">
      <h2 id="org-members-heading">{props.text.t("organization.members.heading")}</h2>
      <ul class="methods stack">
        {props.org.members.map((member) => (
          <MemberRow key={member.userId} member={member} {...props} />
        ))}
      </ul>
    </section>
  );
}

function Invitations({ org, text, authUrl, csrfToken }: SectionProps) {
  const invitations = org.invitations ?? [];
  return (
    <section class="stack" aria-labelledby="org-invitations-heading">
      <h2 id="org-invitations-heading">{text.t("organization.invitations.heading")}</h2>
      {invitations.length === 0 ? <p class="muted">{text.t("organization.invitations.none")}</p> : null}
      <ul class="methods stack">
        {invitations.map((invitation) => (
          <li key={invitation.id} class="stack">
            <span>{text.t("organization.invitations.waiting", { email: invitation.email, role: roleName(text, invitation.role) })}</span>
            <OrgForm action={`${authUrl}/organization/form-invitation-revoke`} csrfToken={csrfToken} organizationId={org.id}>
              <input type="hidden" name="invitationId" value={invitation.id} />
              <button type="submit" class="button button-neutral">
                {text.t("organization.invitations.revoke", { email: invitation.email })}
              </button>
            </OrgForm>
          </li>
        ))}
      </ul>
      <OrgForm action={`${authUrl}/organization/form-invite`} csrfToken={csrfToken} organizationId={org.id}>
        <div class="field">
          <label for="invite-email">{text.t("organization.invitations.email")}</label>
          <input id="invite-email" name="email" type="email" autocomplete="off" required maxLength={320} />
        </div>
        <RoleSelect id="invite-role" label={text.t("organization.invitations.role")} roles={org.assignable} selected="member" text={text} />
        <button type="submit" class="button">
          {text.t("organization.invitations.submit")}
        </button>
      </OrgForm>
    </section>
  );
}

function DomainRow({ domain, org, text, authUrl, csrfToken }: SectionProps & { domain: ListedDomain }) {
  const form = (op: string) => `${authUrl}/organization/form-${op}`;
  const verified = domain.verifiedAt != null;
  return (
    <li class="stack">
      <span>{text.t(verified ? "organization.domains.verified" : "organization.domains.unverified", { domain: domain.name })}</span>
      {verified ? null : (
        <p class="muted">
          <Filled text={text.t("organization.domains.record")} values={{ name: <code>{domain.record.name}</code> }} />{" "}
          <code>{domain.record.value}</code>
        </p>
      )}
      {verified ? null : (
        <OrgForm action={form("domain-verify")} csrfToken={csrfToken} organizationId={org.id}>
          <input type="hidden" name="domainId" value={domain.id} />
          <button type="submit" class="button button-neutral">
            {text.t("organization.domains.verify", { domain: domain.name })}
          </button>
        </OrgForm>
      )}
      <OrgForm action={form("domain-remove")} csrfToken={csrfToken} organizationId={org.id}>
        <input type="hidden" name="domainId" value={domain.id} />
        <button type="submit" class="button button-neutral">
          {text.t("organization.domains.remove", { domain: domain.name })}
        </button>
      </OrgForm>
    </li>
  );
}

function Domains(props: SectionProps) {
  const { org, text, authUrl, csrfToken } = props;
  const domains = org.domains ?? [];
  return (
    <section class="stack" aria-labelledby="org-domains-heading">
      <h2 id="org-domains-heading">{text.t("organization.domains.heading")}</h2>
      <p class="muted">{text.t("organization.domains.lead")}</p>
      {domains.length === 0 ? <p class="muted">{text.t("organization.domains.none")}</p> : null}
      <ul class="methods stack">
        {domains.map((domain) => (
          <DomainRow key={domain.id} domain={domain} {...props} />
        ))}
      </ul>
      <OrgForm action={`${authUrl}/organization/form-domain-add`} csrfToken={csrfToken} organizationId={org.id}>
        <div class="field">
          <label for="domain-name">{text.t("organization.domains.name")}</label>
          <input id="domain-name" name="domain" type="text" autocomplete="off" required maxLength={253} />
        </div>
        <button type="submit" class="button button-neutral">
          {text.t("organization.domains.add")}
        </button>
      </OrgForm>
    </section>
  );
}

function Policy({ org, text, authUrl, csrfToken }: SectionProps) {
  const allowed = org.policy.allowedSignInMethods ?? [];
  const maxAge = org.policy.sessionMaxAge;
  return (
    <section class="stack" aria-labelledby="org-policy-heading">
      <h2 id="org-policy-heading">{text.t("organization.policy.heading")}</h2>
      <OrgForm action={`${authUrl}/organization/form-policy`} csrfToken={csrfToken} organizationId={org.id}>
        <label>
          <input type="checkbox" name="requireSecondFactor" value="on" checked={org.policy.requireSecondFactor === true} />{" "}
          {text.t("organization.policy.secondFactor")}
        </label>
        <fieldset class="stack">
          <legend>{text.t("organization.policy.methods")}</legend>
          {METHODS.map((method) => (
            <label key={method}>
              <input type="checkbox" name={`method-${method}`} value="on" checked={allowed.includes(method)} />{" "}
              {text.t(`organization.policy.method.${method}` as MessageKey)}
            </label>
          ))}
        </fieldset>
        <div class="field">
          <label for="policy-max-age">{text.t("organization.policy.maxAge")}</label>
          <input
            id="policy-max-age"
            name="sessionMaxAgeMinutes"
            type="number"
            min={1}
            step={1}
            inputMode="numeric"
            value={maxAge === undefined ? "" : String(Math.round(maxAge / 60))}
          />
        </div>
        <button type="submit" class="button button-neutral">
          {text.t("organization.policy.save")}
        </button>
      </OrgForm>
    </section>
  );
}

function CreateForm({ text, authUrl, csrfToken }: { text: Translator; authUrl: string; csrfToken: string }) {
  return (
    <section class="stack" aria-labelledby="org-create-heading">
      <h2 id="org-create-heading">{text.t("organization.create.heading")}</h2>
      <OrgForm action={`${authUrl}/organization/form-create`} csrfToken={csrfToken}>
        <div class="field">
          <label for="org-name">{text.t("organization.create.name")}</label>
          <input id="org-name" name="name" type="text" autocomplete="organization" required maxLength={100} />
        </div>
        <div class="field">
          <label for="org-slug">{text.t("organization.create.slug")}</label>
          <input id="org-slug" name="slug" type="text" autocomplete="off" required maxLength={48} aria-describedby="org-slug-hint" />
          <p id="org-slug-hint" class="muted">
            {text.t("organization.create.slugHint")}
          </p>
        </div>
        <button type="submit" class="button button-neutral">
          {text.t("organization.create.submit")}
        </button>
      </OrgForm>
    </section>
  );
}

/** The organization shown: the member's role, members, and what their role lets them manage; leave. */
function Current(props: SectionProps) {
  const { org, text, authUrl, csrfToken } = props;
  return (
    <>
      <p class="center">{text.t("organization.page.yourRole", { role: roleName(text, org.role) })}</p>
      <Members {...props} />
      {org.can.invite ? <Invitations {...props} /> : null}
      {org.can.manageDomains ? <Domains {...props} /> : null}
      {org.can.update ? <Policy {...props} /> : null}
      <div class="actions">
        <OrgForm action={`${authUrl}/organization/form-leave`} csrfToken={csrfToken} organizationId={org.id}>
          <button type="submit" class="button button-danger">
            {text.t("organization.leave.submit")}
          </button>
        </OrgForm>
      </div>
    </>
  );
}

function Messages({ params }: { params: OrganizationPageParams }) {
  const { text } = params;
  const done = params.done !== undefined && Object.hasOwn(NOTICES, params.done) ? NOTICES[params.done] : undefined;
  const error = errorMessageIn(text, ERRORS, params.error, "organization.error.default");
  const stepUp =
    params.refusal?.kind === "policy" ? params.refusal.stepUp : params.error === "OrganizationPolicy" ? params.stepUp : undefined;
  const refused = params.refusal?.kind === "notFound" ? text.t("organization.page.notFound") : undefined;
  const policy = params.refusal?.kind === "policy" ? text.t("organization.page.policy") : undefined;
  const alert = policy ?? refused ?? error;
  return (
    <>
      {done ? (
        <div class="notice" role="status">
          <p>{text.t(done)}</p>
        </div>
      ) : null}
      {alert ? (
        <div class="alert" role="alert">
          <p>{alert}</p>
          {stepUp ? (
            <p>
              <a href={toSafeNavigationUrl(stepUp)}>{text.t("organization.page.stepUp")}</a>
            </p>
          ) : null}
        </div>
      ) : null}
    </>
  );
}

/** Renders the organization page (a complete HTML document). */
export function renderOrganizationHtml(params: OrganizationPageParams): string {
  const { text, authUrl, csrfToken, current } = params;
  return renderDocument({
    title: current?.name ?? text.t("organization.page.title"),
    text,
    theme: resolveTheme(params.theme),
    children: (
      <>
        <h1>{current?.name ?? text.t("organization.page.title")}</h1>
        <Messages params={params} />
        {current ? <Current org={current} text={text} authUrl={authUrl} csrfToken={csrfToken} /> : null}
        {current ? (params.sections ?? []).map((section) => section as ComponentChildren) : null}
        <Switcher text={text} authUrl={authUrl} csrfToken={csrfToken} organizations={params.organizations} />
        <CreateForm text={text} authUrl={authUrl} csrfToken={csrfToken} />
        <p class="center">
          <a href={toSafeNavigationUrl(params.accountUrl)}>{text.t("organization.page.account")}</a>
        </p>
      </>
    ),
  });
}

/** What the invitation page shows: the invitation (valid), who may accept it, or that it cannot be used. */
export type InvitationPageParams = {
  text: Translator;
  theme: Theme;
  csrfToken: string;
  authUrl: string;
} & (
  | { kind: "invalid" }
  | { kind: "wrongAccount"; signOutUrl: string }
  | { kind: "signedOut"; organization: string; role: string; email: string; signInUrl: string; signUpUrl?: string }
  | { kind: "accept"; organization: string; role: string; invitationId: string; token: string; error?: string }
);

type InvitationView<K extends InvitationPageParams["kind"]> = Extract<InvitationPageParams, { kind: K }>;

/** "You are invited to join {organization} as {role}", the name and the role set apart. */
function InvitationLead({ text, organization, role }: { text: Translator; organization: string; role: string }) {
  return (
    <p class="center">
      <Filled
        text={text.t("organization.invitation.lead")}
        values={{ organization: <strong>{organization}</strong>, role: <strong>{roleName(text, role)}</strong> }}
      />
    </p>
  );
}

/** Signed out: sign in with the invited address, or create an account for it; both come back here. */
function SignedOutInvitation({ params }: { params: InvitationView<"signedOut"> }) {
  const { text } = params;
  return (
    <>
      <InvitationLead text={text} organization={params.organization} role={params.role} />
      <p>{text.t("organization.invitation.signedOutLead", { email: params.email })}</p>
      <div class="actions">
        <a class="button" href={toSafeNavigationUrl(params.signInUrl)}>
          {text.t("organization.invitation.signIn")}
        </a>
        {params.signUpUrl ? (
          <a class="button button-neutral" href={toSafeNavigationUrl(params.signUpUrl)}>
            {text.t("organization.invitation.signUp")}
          </a>
        ) : null}
      </div>
    </>
  );
}

/** The invited address's account: the button that accepts (a POST; opening the link accepted nothing). */
function AcceptInvitation({ params }: { params: InvitationView<"accept"> }) {
  const { text } = params;
  return (
    <>
      <InvitationLead text={text} organization={params.organization} role={params.role} />
      {params.error ? (
        <div class="alert" role="alert">
          <p>{errorMessageIn(text, ERRORS, params.error, "organization.error.default")}</p>
        </div>
      ) : null}
      <form action={toSafeNavigationUrl(`${params.authUrl}/organization/invitation`)} method="post">
        <HiddenFields csrfToken={params.csrfToken} />
        <input type="hidden" name="invitationId" value={params.invitationId} />
        <input type="hidden" name="token" value={params.token} />
        <button type="submit" class="button">
          {text.t("organization.invitation.accept")}
        </button>
      </form>
    </>
  );
}

function InvitationBody({ params }: { params: InvitationPageParams }) {
  const { text } = params;
  if (params.kind === "signedOut") return <SignedOutInvitation params={params} />;
  if (params.kind === "accept") return <AcceptInvitation params={params} />;
  if (params.kind === "wrongAccount")
    return (
      <>
        <p>{text.t("organization.invitation.wrongAccount")}</p>
        <a class="button button-neutral" href={toSafeNavigationUrl(params.signOutUrl)}>
          {text.t("organization.invitation.signOut")}
        </a>
      </>
    );
  return (
    <>
      <p class="center">{text.t("organization.invitation.invalid")}</p>
      <p class="center">
        <a href={toSafeNavigationUrl(`${params.authUrl}/organization`)}>{text.t("organization.page.title")}</a>
      </p>
    </>
  );
}

/** Renders the invitation page (a complete HTML document). */
export function renderInvitationHtml(params: InvitationPageParams): string {
  const { text } = params;
  const title = text.t(params.kind === "invalid" ? "organization.invitation.invalidTitle" : "organization.invitation.title");
  return renderDocument({
    title,
    text,
    theme: resolveTheme(params.theme),
    children: (
      <>
        <h1>{title}</h1>
        <InvitationBody params={params} />
      </>
    ),
  });
}
