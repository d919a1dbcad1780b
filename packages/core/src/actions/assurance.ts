/**
 * `GET <basePath>/two-factor/assurance` (`auth.api.requireRecentAuth`): how the request's session was
 * signed in to, and step-up. A session's fact, kept at its historical path; it answers with or without
 * second factors turned on.
 *
 * @module actions/assurance
 */
import { SessionRequired } from "../errors.js";
import { type FieldParser, field, inputSchema } from "../http/input.js";
import { noStoreHeaders } from "../http/response.js";
import { type RecentAuthRequirement, requireRecentSignIn } from "../session/recent-auth.js";
import type { SessionAssurance } from "../types/base.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../types/internal.js";
import type { InputOf } from "../types/operation.js";

function noStore() {
  return { ...noStoreHeaders };
}

/** The level asked for: 2 (`2` or `"2"`), else 1. */
const aal: FieldParser<1 | 2> = (value) => (value === 2 || value === "2" ? 2 : 1);

/** `maxAge` (seconds, 0 or more: `UnknownAction` otherwise) and `aal`, from the query or `auth.api.requireRecentAuth`. */
export const assuranceInput = inputSchema({
  maxAge: field.optional(
    field.number({ min: 0, max: Number.MAX_SAFE_INTEGER, message: "`maxAge` must be a number of seconds, 0 or more." }),
  ),
  aal,
});

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
