/**
 * The second factor's forms on the built-in account page (`account/two-factor-*`): owner-present
 * operations, as their `/two-factor` routes are, that run those routes' operations by name through the
 * kernel (`options.handlerOf`). Enroll, confirm and new codes answer the account page itself (the key and
 * QR code, then the recovery codes: secrets never put in a URL), with what they made handed to this feature's
 * section of it (`account-section.tsx`).
 *
 * @module features/two-factor/account-forms
 */
import { UnknownAction } from "../../errors.js";
import { accountUrl } from "../../sign-in/account-form.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../../types/internal.js";

type Post = (options: InternalOptions, request: RequestInternal) => Promise<ResponseInternal>;

/**
 * What a form's answer adds to the section: the set-up key and QR code, or the new recovery codes and the
 * notice the page says with them (`done`, as a redirect's `?done=` would).
 */
interface TwoFactorShown {
  setup?: { secret: string; qrSvg: string };
  newRecoveryCodes?: readonly string[];
  done?: string;
}

// What a form of this request made, for the section of the page it answers (one request, then gone).
const shownByRequest = new WeakMap<RequestInternal, TwoFactorShown>();

/** What a form of `request` made for the section (`{}` on a plain visit of the page). */
export function shownOn(request: RequestInternal): TwoFactorShown {
  return shownByRequest.get(request) ?? {};
}

/** The operation `name` (the second factor's settings, the account page), run through the kernel; `UnknownAction` when it is off. */
export function operation(options: InternalOptions, name: string): Post {
  const handler = options.handlerOf?.(name);
  if (!handler) throw new UnknownAction(`The operation "${name}" is not turned on in this configuration.`);
  return async (o, request) => handler(o, request);
}

/** The account page, answering `request`, with `shown` in this feature's section. */
function accountPageShowing(options: InternalOptions, request: RequestInternal, shown: TwoFactorShown): Promise<ResponseInternal> {
  shownByRequest.set(request, shown);
  return operation(options, "accountPage")(options, request);
}

export const enrollForm: Post = async (options, request) => {
  const { body } = await operation(options, "enrollTotp")(options, request);
  const { secret, qrSvg } = body as { secret: string; qrSvg: string };
  return accountPageShowing(options, request, { setup: { secret, qrSvg } });
};
export const confirmForm: Post = async (options, request) => {
  const { body } = await operation(options, "confirmTotp")(options, request);
  return accountPageShowing(options, request, {
    newRecoveryCodes: (body as { recoveryCodes: string[] }).recoveryCodes,
    done: "two-factor-on",
  });
};
export const regenerateForm: Post = async (options, request) => {
  const { body } = await operation(options, "regenerateRecoveryCodes")(options, request);
  const recoveryCodes = (body as { recoveryCodes: string[] }).recoveryCodes;
  return accountPageShowing(options, request, { newRecoveryCodes: recoveryCodes, done: "recovery-codes-new" });
};
export const disableForm: Post = async (options, request) => {
  await operation(options, "disableTotp")(options, request);
  return { redirect: `${accountUrl(options)}?done=two-factor-off` };
};
