/**
 * "Organizations": the signed-in user's organizations with their role in each (useOrganizations), the
 * session's active one (`activeOrganizationId`, `activeOrganizationRole` of useSession), and a switcher
 * (useSetActiveOrganization). An organization whose policy the session falls short of refuses the switch
 * (`OrganizationPolicy`): the page shows the refusal with the step-up link, the built-in sign-in page back
 * to the organization's page. Members, invitations (mailed to /dev/mailbox), domains and the policy are on
 * authlib's built-in page, /auth/organization.
 */
import type { Organization } from "@authlib/core";
import { component$ } from "@builder.io/qwik";
import { type DocumentHead, Form, Link } from "@builder.io/qwik-city";
import { useOrganizations, useSession, useSetActiveOrganization } from "../plugin@auth";

/** The sign-in page that steps up and comes back to the organization's built-in page (core's `stepUp` link). */
function stepUpHref(organizationId: string): string {
  const back = `/auth/organization?organizationId=${encodeURIComponent(organizationId)}`;
  return `/auth/signin?callbackUrl=${encodeURIComponent(back)}`;
}

/** The organization's sign-in policy in a few words. */
function policyText(organization: Organization): string {
  return organization.policy?.requireSecondFactor ? "Needs a second factor" : "No sign-in policy";
}

export default component$(() => {
  const session = useSession();
  const listed = useOrganizations();
  const switchTo = useSetActiveOrganization();
  const { organizations, error } = listed.value;
  const activeId = session.value?.activeOrganizationId;
  const activeRole = session.value?.activeOrganizationRole;
  const failure = switchTo.value?.failed ? switchTo.value : undefined;
  const refusedId = switchTo.formData?.get("organizationId");

  if (error === "SessionRequired") {
    return (
      <>
        <h1>Organizations</h1>
        <p>
          You are signed out. <Link href="/signin?redirectTo=/organizations">Sign in</Link> to see your organizations.
        </p>
      </>
    );
  }
  if (organizations === null) {
    return (
      <>
        <h1>Organizations</h1>
        <p role="alert" class="error" data-testid="organizations-error">
          The organizations could not be listed ({error}).
        </p>
      </>
    );
  }
  const active = organizations.find(({ organization }) => organization.id === activeId);
  return (
    <>
      <h1>Organizations</h1>
      <p data-testid="active-organization">
        Active organization:{" "}
        {active ? (
          <strong>
            {active.organization.name} ({activeRole ?? active.role})
          </strong>
        ) : (
          "none"
        )}
      </p>
      {failure && (
        <div role="alert" class="error" data-testid="switch-error">
          <p>
            {failure.code === "OrganizationPolicy"
              ? "This organization asks for a second factor, and this session has none."
              : (failure.formErrors ?? []).join(" ")}{" "}
            ({failure.code})
          </p>
          {failure.code === "OrganizationPolicy" && typeof refusedId === "string" && (
            <p>
              Turn on an authenticator app on your <Link href="/profile">profile</Link>, then{" "}
              <a href={stepUpHref(refusedId)} data-testid="step-up">
                sign in again
              </a>
              .
            </p>
          )}
        </div>
      )}
      <ul class="plain-list" data-testid="organizations">
        {organizations.map(({ organization, role }) => (
          <li key={organization.id} class="card" data-testid="organization" data-slug={organization.slug}>
            <h2 id={`org-${organization.id}`}>{organization.name}</h2>
            <p>
              Your role: <span data-testid="role">{role}</span>. {policyText(organization)}.
              {organization.id === activeId && (
                <>
                  {" "}
                  <strong class="badge">Active</strong>
                </>
              )}
            </p>
            <Form action={switchTo} class="inline-form">
              <input type="hidden" name="organizationId" value={organization.id} />
              <button
                type="submit"
                aria-describedby={`org-${organization.id}`}
                disabled={switchTo.isRunning || organization.id === activeId}
              >
                Make active
              </button>
            </Form>
          </li>
        ))}
      </ul>
      <p>
        Members, invitations, domains and the sign-in policy: <a href="/auth/organization">the built-in organization page</a>. Invitation
        mails arrive in the <Link href="/dev/mailbox">mailbox</Link>.
      </p>
    </>
  );
});

export const head: DocumentHead = { title: "Organizations" };
