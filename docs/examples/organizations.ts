/**
 * docs/organizations.md: organizations with the app's own roles, registered so that every permission check is
 * typed; domain proofs through the system's resolver (the default) or one the app gives; a permission check
 * in a route; the re-check of proven domains from a scheduled job.
 */
import { type Adapter, type AuthConfig, createAuth, defineRoles, type OrganizationAdapterMethods } from "@authlib/core";
import Credentials from "@authlib/core/providers/credentials";

declare function checkPassword(email: unknown, password: unknown): Promise<{ id: string; email: string } | null>;
/** The app's Auth.js adapter (e.g. `PostgresAdapter(pool)` of `@auth/pg-adapter`). */
declare const authjsAdapter: Adapter;
/** The 21 organization methods, written against the app's own tables. */
declare const organizationMethods: Required<OrganizationAdapterMethods>;

/** The app's statements, per role; `owner`, `admin` and `member` keep authlib's own permissions. */
export const roles = defineRoles({
  owner: ["invoice:approve", "invoice:read"],
  admin: ["invoice:approve", "invoice:read"],
  accountant: ["invoice:read"],
});

// Registered once: `auth.api.hasPermission` now takes only the declared permissions and authlib's own.
declare module "@authlib/core" {
  interface OrganizationsRegister {
    roles: typeof roles;
  }
}

const config: AuthConfig = {
  providers: [
    Credentials({ credentials: { email: {}, password: {} }, authorize: ({ email, password }) => checkPassword(email, password) }),
  ],
  adapter: { ...authjsAdapter, ...organizationMethods },
  organizations: {
    roles,
    invitationMaxAge: 7 * 24 * 60 * 60, // the default: an invitation waits a week
    maxPerUser: 20, // the default: organizations one user may create
  },
  events: {
    organizationChanged: ({ organizationId, actorId, change, targetId }) =>
      console.info(`organization ${organizationId}: ${change} ${targetId ?? ""} by ${actorId ?? "the domain re-check"}`),
  },
};

export const auth = createAuth(config);

/** A route that approves an invoice in the session's active organization. */
export async function approveInvoice(request: Request): Promise<Response> {
  if (!(await auth.api.hasPermission(request, { permission: "invoice:approve" }))) return new Response("Forbidden", { status: 403 });
  return new Response("Approved");
}

/** A scheduled job (or `npx authlib org verify-domains --config <module>`): proven domains whose record is gone lose their proof. */
export async function recheckDomains(): Promise<void> {
  const { checked, unverified, failed } = await auth.api.verifyDomains();
  console.info(
    `${checked} domains checked; no longer proven: ${unverified.join(", ") || "none"}; lookup failed: ${failed.join(", ") || "none"}`,
  );
}
