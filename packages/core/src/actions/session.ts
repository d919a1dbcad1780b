/**
 * GET /session reads the session; POST /session (with a CSRF token and `data`) updates it through the
 * `jwt` (JWT strategy) or `session` (database strategy) callback with `trigger: "update"`.
 */
import { assertCsrf } from "../http/csrf.js";
import { noStoreHeaders } from "../http/response.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../internal-types.js";

export async function sessionAction(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal> {
  const isUpdate = request.method === "POST";
  if (isUpdate) assertCsrf("session update", options.csrfTokenVerified);
  const { session, cookies } = await options.sessionStrategy.read(options, request, isUpdate ? { data: request.body.data } : undefined);
  return { body: session, cookies, headers: { "Content-Type": "application/json", ...noStoreHeaders } };
}
