/**
 * `GET <basePath>/two-factor/assurance` (`auth.api.requireRecentAuth`): how the request's session was
 * signed in to, and step-up. A session's fact, kept at its historical path under the second step's; it
 * answers with or without second factors turned on (its operation is on in every configuration).
 *
 * @module features/two-factor/assurance
 */
import { SessionRequired } from "../../errors.js";
import { noStoreHeaders } from "../../http/response.js";
import { type RecentAuthRequirement, requireRecentSignIn } from "../../session/recent-auth.js";
import type { SessionAssurance } from "../../types/base.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../../types/internal.js";
import type { InputOf } from "../../types/operation.js";
import type { assuranceInput } from "./input.js";

function noStore() {
  return { ...noStoreHeaders };
}

/** What the route answers: the session's assurance (`null` when it has none; never with a requirement). */
export interface AssuranceAnswer {
  userId: string;
  assurance: SessionAssurance | null;
}

/**
 * GET /two-factor/assurance: how the request's session was signed in to; with `?maxAge=` (and `aal=2`),
 * `RecentSignInRequired` when it is too old or too weak.
 */
export async function assurance(
  options: InternalOptions,
  request: RequestInternal,
  input: InputOf<typeof assuranceInput>,
): Promise<ResponseInternal<AssuranceAnswer>> {
  const requirement: RecentAuthRequirement | undefined = input.maxAge === undefined ? undefined : { maxAge: input.maxAge, aal: input.aal };
  if (requirement) return { body: await requireRecentSignIn(options, request, requirement), headers: noStore() };
  const current = await options.sessionStrategy.currentAssurance(options, request);
  if (!current) throw new SessionRequired("Sign in first: the request has no session.");
  return { body: { userId: current.userId, assurance: current.assurance ?? null }, headers: noStore() };
}
