/**
 * The forms of the organizations' built-in pages (`organization/form-*`, and `POST organization/invitation`
 * that accepts): each runs a JSON operation of this feature by name through the kernel
 * (`options.handlerOf`, its input parsed from the form by that operation's schema) and sends the browser
 * back to the organization page with `?done=`, or, refused, with `?error=<type>` (`formRefusal`).
 *
 * @module features/organizations/page-forms
 */
import { AuthError, InvalidOrganization, isClientSafeError, SessionRequired, UnknownAction } from "../../errors.js";
import { withCallbackUrl } from "../../sign-in/flow.js";
import { signInUrl } from "../../sign-in/urls.js";
import type { AuthErrorShape } from "../../types/errors.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../../types/internal.js";
import type { SignInMethod, SignInPolicy } from "../../types/organizations.js";
import { organizationInput } from "./input.js";
import { organizationPageUrl } from "./pages.js";

/** The error types of this feature a page shows (the others a page may show are the client-safe ones). */
const SHOWN = new Set([
  "InvalidOrganization",
  "SlugTaken",
  "LastOwner",
  "OrganizationForbidden",
  "OrganizationNotFound",
  "OrganizationPolicy",
  "InvitationInvalid",
  "DomainClaimed",
  "DomainNotProven",
  "OrganizationLimit",
]);

/** True for an error a page may show (its type only, as a lookup key): the client-safe ones and this feature's. */
function shown(error: AuthErrorShape): error is AuthError {
  return isClientSafeError(error) || (error instanceof AuthError && SHOWN.has(error.type));
}

/** The operation `name` of this configuration, run for `request` with its form as input. */
async function run(options: InternalOptions, request: RequestInternal, name: string): Promise<ResponseInternal> {
  const handler = options.handlerOf?.(name);
  if (!handler) throw new UnknownAction(`The operation "${name}" is not turned on in this configuration.`);
  return handler(options, request);
}

function formField(request: RequestInternal, name: string): string | undefined {
  const value = request.body[name];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** A form's refusal: back to its page with `?error=<type>`; signed out, to sign in and back to the page. */
export function formRefusal(options: InternalOptions, request: RequestInternal, error: AuthErrorShape): ResponseInternal | undefined {
  if (!shown(error)) return undefined;
  const organizationId = formField(request, "organizationId");
  if (error instanceof SessionRequired)
    return { redirect: withCallbackUrl(signInUrl(options), organizationPageUrl(options, organizationId)) };
  return { redirect: organizationPageUrl(options, organizationId, { error: error.type }), failure: error };
}

/** The accept button's refusal: back to the invitation page, which says why (signed out, another account, spent). */
export function acceptRefusal(options: InternalOptions, request: RequestInternal, error: AuthErrorShape): ResponseInternal | undefined {
  if (!shown(error)) return undefined;
  const query = new URLSearchParams({ id: formField(request, "invitationId") ?? "", token: formField(request, "token") ?? "" });
  if (!(error instanceof SessionRequired || error.type === "InvitationInvalid")) query.set("error", error.type);
  return { redirect: `${options.authUrl}/organization/invitation?${query}`, failure: error };
}

/**
 * A form that runs the operation `name` and comes back to the organization page with `?done=<done>`; the
 * operation's cookies (the active organization) are set on the way.
 */
export async function runForm(options: InternalOptions, request: RequestInternal, name: string, done: string): Promise<ResponseInternal> {
  const answer = await run(options, request, name);
  const body = (answer.body ?? {}) as { organization?: { id?: string }; organizationId?: string };
  // A new organization, or an accepted invitation, is the page to go to; leaving one, the page of none.
  const organizationId =
    name === "leaveOrganization" ? undefined : (body.organization?.id ?? body.organizationId ?? formField(request, "organizationId"));
  return { redirect: organizationPageUrl(options, organizationId, { done }), cookies: answer.cookies };
}

const METHODS: readonly SignInMethod[] = ["password", "passkey", "email", "oauth", "sso"];

/** The policy form's fields as a policy: its checkboxes, and the session's age in minutes (empty: none). */
function policyOf(request: RequestInternal): SignInPolicy {
  const policy: SignInPolicy = { requireSecondFactor: formField(request, "requireSecondFactor") === "on" };
  const methods = METHODS.filter((method) => formField(request, `method-${method}`) === "on");
  if (methods.length > 0) policy.allowedSignInMethods = methods;
  const minutes = formField(request, "sessionMaxAgeMinutes");
  if (minutes !== undefined) {
    if (!/^\d{1,7}$/.test(minutes) || Number(minutes) < 1)
      throw new InvalidOrganization("`sessionMaxAgeMinutes` must be a whole number of minutes.");
    policy.sessionMaxAge = Number(minutes) * 60;
  }
  return policy;
}

/** The policy form: the organization's sign-in policy (`updateOrganization` with `policy`). */
export async function policyForm(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal> {
  const { organizationId } = organizationInput.parse(request.body);
  const { updateOrganization } = await import("./organizations.js");
  await updateOrganization(options, request, {
    organizationId,
    name: undefined,
    slug: undefined,
    domainJoin: undefined,
    policy: policyOf(request),
  });
  return { redirect: organizationPageUrl(options, organizationId, { done: "policySaved" }) };
}
