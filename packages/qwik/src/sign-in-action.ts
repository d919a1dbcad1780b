/**
 * The bodies of `useSignIn` and `useSignOut`: not entries of the operation table (`operation-actions.ts`),
 * because a sign-in is reached through its provider (`auth.api.signIn` picks the operation) and its
 * refusals are shown as the sign-in page shows them.
 */
import { CredentialsSignin, InvalidProvider, RateLimited } from "@authlib/core/errors";
import type { RequestEventAction } from "@builder.io/qwik-city";
import { type FrameworkAuthConfigQrl, loadAuthContext } from "./context.js";
import { CREDENTIALS_SIGNIN_MESSAGE, INVALID_ADDRESS_MESSAGE, RATE_LIMITED_MESSAGE } from "./messages.js";
import { isInvalidAddress, startSignIn, startSignOut } from "./sign-in.js";
import { type SignInFailure, signInSchema, signOutSchema } from "./validation.js";

/**
 * Signs in with the validated form (`options.redirectTo` wins over `redirectTo`); redirects on success.
 * Rejected credentials, a rate limit, an unknown provider and an address core sends no mail to are form
 * failures; anything else is thrown.
 */
export async function signInAction(ev: RequestEventAction, configQrl: FrameworkAuthConfigQrl, form: unknown) {
  const { providerId, redirectTo, options, authorizationParams } = signInSchema.parse(form);
  const context = await loadAuthContext(ev, configQrl);
  const { redirectTo: optionsRedirectTo, ...fields } = options ?? {};
  try {
    await startSignIn(ev, context, providerId, { ...fields, redirectTo: optionsRedirectTo ?? redirectTo }, authorizationParams);
  } catch (error) {
    if (error instanceof CredentialsSignin) {
      return ev.fail(401, { formErrors: [CREDENTIALS_SIGNIN_MESSAGE], fieldErrors: {}, code: error.code } satisfies SignInFailure);
    }
    if (error instanceof RateLimited) {
      if (error.retryAfter !== undefined) ev.headers.set("Retry-After", String(error.retryAfter));
      return ev.fail(429, { formErrors: [RATE_LIMITED_MESSAGE], fieldErrors: {}, code: error.type } satisfies SignInFailure);
    }
    if (error instanceof InvalidProvider) {
      return ev.fail(400, { formErrors: [], fieldErrors: { providerId: [error.message] } } satisfies SignInFailure);
    }
    if (isInvalidAddress(error)) {
      return ev.fail(400, { formErrors: [INVALID_ADDRESS_MESSAGE], fieldErrors: {}, code: error.type } satisfies SignInFailure);
    }
    throw error;
  }
  return undefined;
}

/** Signs out with the validated form, then redirects to `redirectTo` (default: the current page). */
export async function signOutAction(ev: RequestEventAction, configQrl: FrameworkAuthConfigQrl, form: unknown): Promise<void> {
  const { redirectTo } = signOutSchema.parse(form);
  await startSignOut(ev, await loadAuthContext(ev, configQrl), redirectTo);
}
