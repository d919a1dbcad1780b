/**
 * The built-in account page's forms, whichever feature runs them (the address and deletion, linked
 * accounts, passkeys): where the page is, and how a refused form comes back to it.
 *
 * @module sign-in/account-form
 */
import { isClientSafeError, RecentSignInRequired } from "../errors.js";
import type { AuthErrorShape } from "../types/errors.js";
import type { InternalOptions, RequestInternal, ResponseInternal, RouteNeeds } from "../types/internal.js";
import { signInAgain } from "./owner-present.js";

/** Pages and forms: a CSRF token (minted if new) for their forms, and where to go afterwards. */
export const formNeeds: RouteNeeds = { csrf: "mint", callbackUrl: true };

/** The built-in account page. */
export function accountUrl(options: InternalOptions): string {
  return `${options.authUrl}/account`;
}

/**
 * A browser's refused account form: back to the page with `?error=<type>` (answered as a page: `failure`
 * has the pipeline log, trace and audit it), and `?form=<form>` when the page shows the error next to that
 * form's field. An error that is the operator's takes the general policy.
 */
export function accountFormRefusal(
  options: InternalOptions,
  request: RequestInternal,
  error: AuthErrorShape,
  form?: string,
): ResponseInternal | undefined {
  if (error instanceof RecentSignInRequired) return signInAgain(options, accountUrl(options), error);
  if (!isClientSafeError(error)) return undefined;
  // The delete form's wrong password and a section's own field errors are shown next to their field
  // (`form`); any other error at the top.
  const query = new URLSearchParams({ error: error.type });
  if (request.route === "account/delete") query.set("form", "delete");
  else if (form !== undefined) query.set("form", form);
  return { redirect: `${accountUrl(options)}?${query}`, failure: error };
}
