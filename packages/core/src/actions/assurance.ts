/**
 * `GET <basePath>/two-factor/assurance` (`auth.api.requireRecentAuth`): how the request's session was
 * signed in to, and step-up. A session's fact, kept at its historical path; it answers with or without
 * second factors turned on.
 *
 * @module actions/assurance
 */
import { SessionRequired, UnknownAction } from "../errors.js";
import { noStoreHeaders } from "../http/response.js";
import { type RecentAuthRequirement, requireRecentSignIn } from "../session/recent-auth.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../types/internal.js";

function noStore() {
  return { ...noStoreHeaders };
}

/** The step-up requirement of `?maxAge=&aal=`, or `undefined` when none is asked. */
function requirementOf(query: Record<string, string>): RecentAuthRequirement | undefined {
  if (query.maxAge === undefined) return undefined;
  const maxAge = Number(query.maxAge);
  const aal = query.aal === "2" ? 2 : 1;
  if (!(Number.isFinite(maxAge) && maxAge >= 0)) throw new UnknownAction("`maxAge` must be a number of seconds, 0 or more.");
  return { maxAge, aal };
}

/**
 * GET /two-factor/assurance: how the request's session was signed in to; with `?maxAge=` (and `aal=2`),
 * `RecentSignInRequired` when it is too old or too weak.
 */
export async function assurance(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal> {
  const requirement = requirementOf(request.query);
  if (requirement) return { body: await requireRecentSignIn(options, request, requirement), headers: noStore() };
  const current = await options.sessionStrategy.currentAssurance(options, request);
  if (!current) throw new SessionRequired("Sign in first: the request has no session.");
  return { body: { userId: current.userId, assurance: current.assurance ?? null }, headers: noStore() };
}
