/**
 * The demo user's two organizations, added at start next to the demo user (database.ts): "Acme", with no
 * sign-in policy, and "Vault", whose policy asks for a second factor (a session of level 2). Each is looked
 * up by its slug first, so a restart on the same database adds nothing. They are written through the
 * adapter's organization methods: there is no request (and no signed-in caller) at start.
 */
import type { Adapter, Organization, SignInPolicy } from "@authlib/core";
import { DEMO_USER_ID } from "./demo-user";

/** One of the demo's organizations. */
export interface DemoOrganization {
  name: string;
  slug: string;
  policy: SignInPolicy;
}

/** The organizations the demo user owns. */
export const DEMO_ORGANIZATIONS: readonly DemoOrganization[] = [
  { name: "Acme", slug: "acme", policy: {} },
  { name: "Vault", slug: "vault", policy: { requireSecondFactor: true } },
];

/** The demo's organizations, each created (with the demo user as its owner) when its slug is not taken yet. */
export async function ensureDemoOrganizations(adapter: Required<Adapter>, userId: string = DEMO_USER_ID): Promise<Organization[]> {
  const organizations: Organization[] = [];
  for (const { name, slug, policy } of DEMO_ORGANIZATIONS) {
    let organization = await adapter.getOrganizationBySlug(slug);
    if (!organization) {
      const createdAt = new Date();
      organization = await adapter.createOrganization({ name, slug, policy, domainJoin: "off", createdAt });
    }
    // The membership too, should an earlier start have stopped between the two writes.
    if (!(await adapter.getMember(organization.id, userId))) {
      await adapter.createMember({ organizationId: organization.id, userId, role: "owner", createdAt: new Date() });
    }
    organizations.push(organization);
  }
  return organizations;
}
