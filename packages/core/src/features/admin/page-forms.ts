/**
 * The forms of the admin's user page (`admin/form-*`): each runs a JSON operation of this feature by name
 * through the kernel (`options.handlerOf`, its input parsed from the form by that operation's schema) and
 * sends the browser back to the user's page with `?done=`, or, refused, with `?error=<type>`. A deleted
 * user's form goes back to the list. The ban form's `hours` become the operation's `expiresIn`.
 *
 * @module features/admin/page-forms
 */
import { AuthError, isClientSafeError, SessionRequired, UnknownAction } from "../../errors.js";
import { withCallbackUrl } from "../../sign-in/flow.js";
import { signInUrl } from "../../sign-in/urls.js";
import type { AuthErrorShape } from "../../types/errors.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../../types/internal.js";
import { adminPageUrl } from "./pages.js";

/** The error types a page shows (by type only): the client-safe ones, and the refusals of an admin's act. */
function shown(error: AuthErrorShape): error is AuthError {
  return isClientSafeError(error) || (error instanceof AuthError && ["AccessDenied", "MissingCSRF"].includes(error.type));
}

function formField(request: RequestInternal, name: string): string | undefined {
  const value = request.body[name];
  return typeof value === "string" && value !== "" ? value.slice(0, 128) : undefined;
}

/** A form's refusal: back to the user's page with `?error=<type>`; signed out, to sign in and back. */
export function formRefusal(options: InternalOptions, request: RequestInternal, error: AuthErrorShape): ResponseInternal | undefined {
  if (!shown(error)) return undefined;
  const userId = formField(request, "userId");
  if (error instanceof SessionRequired) return { redirect: withCallbackUrl(signInUrl(options), adminPageUrl(options, userId)) };
  return { redirect: adminPageUrl(options, userId, { error: error.type }), failure: error };
}

/** A form that runs the operation `name` and comes back to the user's page (the list, after a deletion) with `?done=<done>`. */
export async function runForm(options: InternalOptions, request: RequestInternal, name: string, done: string): Promise<ResponseInternal> {
  const handler = options.handlerOf?.(name);
  if (!handler) throw new UnknownAction(`The operation "${name}" is not turned on in this configuration.`);
  const hours = request.body.hours;
  if (name === "banUser" && typeof hours === "string" && hours.trim() !== "") {
    const count = Number(hours);
    request.body.expiresIn = Number.isFinite(count) ? String(Math.round(count * 3600)) : hours;
  }
  await handler(options, request);
  const userId = name === "deleteUser" ? undefined : formField(request, "userId");
  return { redirect: adminPageUrl(options, userId, { done }) };
}
