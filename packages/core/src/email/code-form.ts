/**
 * The verify-request page's form for the mailed code: shown in the browser that asked for a sign-in mail
 * (it holds the flow cookie) of an email provider that sends codes.
 *
 * @module email/code-form
 */
import type { InternalOptions, RequestInternal } from "../types/internal.js";
import { openEmailFlow } from "./flow-cookie.js";
import { codeLengthOf } from "./settings.js";

/** The code form for `?provider=` (and `?error=` after a refused code), or `undefined` when there is none to show. */
export async function codeFormOf(options: InternalOptions, request: RequestInternal) {
  const provider = options.providers.find((p) => p.id === request.query.provider);
  if (provider?.type !== "email" || (request.query.type ?? "email") !== "email") return undefined;
  const length = codeLengthOf(provider);
  if (length === undefined || !(await openEmailFlow(options, request, provider.id))) return undefined;
  return { actionUrl: provider.callbackUrl, length, csrfToken: options.csrfToken, error: request.query.error };
}
