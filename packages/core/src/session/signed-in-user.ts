/**
 * The signed-in user of a request as the adapter has them now (a user deleted since the session started
 * is nobody), for the operations that change the account.
 *
 * @module session/signed-in-user
 */

import { SessionRequired } from "../errors.js";
import type { Adapter, AdapterUser } from "../types/adapters.js";
import type { InternalOptions, RequestInternal } from "../types/internal.js";

/** The signed-in user, read from `store` (a failure of the request from here on is audited as theirs), or `SessionRequired`. */
export async function signedInUser(
  options: InternalOptions,
  request: RequestInternal,
  store: Pick<Adapter, "getUser">,
): Promise<AdapterUser> {
  const current = await options.sessionStrategy.currentUser(options, request);
  const user = current?.id ? await store.getUser?.(current.id) : null;
  if (!user) throw new SessionRequired("Sign in first: the request has no session.");
  request.auditUserId = user.id;
  return user;
}
