/**
 * The organizations' actions (`useCreateOrganization`, `useInviteMember`, …; core's `organizations`
 * option, docs/organizations.md): their bounded input schemas, and their failure, a form failure whose
 * `code` is the error's type (`OrganizationForbidden`, `LastOwner`, `OrganizationPolicy` with its step-up,
 * …) with core's status, never an exception.
 */
import { z } from "@builder.io/qwik-city";
import { controlFailure } from "./control.js";
import type { FormFailure } from "./validation.js";

/** Shown when an organization change failed for a reason that is the operator's (the details are in the server log). */
export const ORGANIZATION_FAILED_MESSAGE = "The organization could not be changed. Please try again later.";

/** The error types an organization action reports (any other is `"Configuration"`). */
export type OrganizationError =
  | "SessionRequired"
  | "MissingCSRF"
  | "InvalidOrganization"
  | "SlugTaken"
  | "LastOwner"
  | "OrganizationNotFound"
  | "OrganizationForbidden"
  | "OrganizationPolicy"
  | "OrganizationLimit"
  | "InvitationInvalid"
  | "DomainClaimed"
  | "DomainNotProven"
  | "EmailSignInError";

/** The failure of an organization action: `code` is the error's type (`"Configuration"`: the operator's). */
export type OrganizationFailure = FormFailure<string, OrganizationError | "Configuration">;

/** The value of an organization action: what the operation answered, or the failure. */
export type OrganizationResult<Value> = (Value & { failed?: undefined }) | ({ failed: true } & OrganizationFailure);

/** Core's status for the error (403 `OrganizationForbidden`, 409 `LastOwner`, …), its type as `code`. */
export const organizationFailure = controlFailure<string, OrganizationError>(ORGANIZATION_FAILED_MESSAGE);

const id = z.string().min(1).max(128);
const organizationId = id;
const role = z.string().min(1).max(32);

/** Input of the actions that name one organization (`useDeleteOrganization`, `useListMembers`, …). */
export const organizationSchema = z.object({ organizationId });
export const createOrganizationSchema = z.object({ name: z.string().min(1).max(100), slug: z.string().min(2).max(48) });
/** `policy`: the organization's sign-in policy as JSON text (a form field) or an object. */
export const updateOrganizationSchema = z.object({
  organizationId,
  name: z.string().min(1).max(100).optional(),
  slug: z.string().min(2).max(48).optional(),
  domainJoin: z.enum(["auto", "suggest", "off"]).optional(),
  policy: z.union([z.string().max(2048), z.record(z.string(), z.unknown())]).optional(),
});
export const memberSchema = z.object({ organizationId, userId: id });
export const memberRoleSchema = z.object({ organizationId, userId: id, role });
export const inviteSchema = z.object({ organizationId, email: z.string().min(3).max(320), role });
export const invitationSchema = z.object({ organizationId, invitationId: id });
export const acceptInvitationSchema = z.object({ invitationId: id, token: z.string().min(1).max(128) });
export const domainSchema = z.object({ organizationId, domain: z.string().min(1).max(253) });
export const domainIdSchema = z.object({ organizationId, domainId: id });
/** No `organizationId`: the session has no active organization. */
export const activeOrganizationSchema = z.object({ organizationId: organizationId.optional() });
export const permissionSchema = z.object({ organizationId: organizationId.optional(), permission: z.string().min(1).max(128) });
