/**
 * Whether the organization's directory deprovisioned a user (`active: false`, or deleted): what the SSO
 * sign-in asks before it lets them in through the organization's connection.
 *
 * @module features/sso/scim/deprovisioned
 */
import type { ConfigOptions } from "../../../types/internal.js";
import { storeOf } from "./store.js";

/**
 * True when the organization's directory has `userId` and deprovisioned them (`active: false`, or deleted
 * and not provisioned again); false for a user the directory does not know or keeps active.
 */
export async function isDeprovisioned(options: Pick<ConfigOptions, "adapter">, organizationId: string, userId: string): Promise<boolean> {
  const record = await storeOf(options).getScimUserByUserId(organizationId, userId);
  if (!record || record.organizationId !== organizationId || record.userId !== userId) return false;
  return !record.active || record.deletedAt !== null;
}
