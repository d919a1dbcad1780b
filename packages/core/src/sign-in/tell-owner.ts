/**
 * {@link notifyOwner} for modules on a sign-in's path (linking an account in an OAuth callback, the second
 * step): the notices' code (their texts and templates) loads with the first notice, not with every sign-in.
 *
 * @module account-lifecycle/tell-owner
 */
import type { InternalOptions, RequestInternal } from "../types/internal.js";
import type { notifyOwner, OwnerChange } from "./notify-owner.js";

/** Mails the owner of `user` that `change` was made (see `notifyOwner`); never throws. */
export async function tellOwner(
  options: InternalOptions,
  request: RequestInternal,
  user: Parameters<typeof notifyOwner>[2],
  change: OwnerChange,
): Promise<void> {
  return (await import("./notify-owner.js")).notifyOwner(options, request, user, change);
}
