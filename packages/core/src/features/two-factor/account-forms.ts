/**
 * The second factor's forms on the built-in account page (`account/two-factor-*`): owner-present
 * operations, as their `/two-factor` routes are, that run those routes' operations by name through the
 * kernel (`options.handlerOf`). Enroll, confirm and new codes answer the account page itself (the key and
 * QR code, then the recovery codes: secrets never put in a URL), with what they made handed to this feature's
 * section of it (`account-section.tsx`).
 *
 * @module features/two-factor/account-forms
 */
import { IncorrectCode, UnknownAction } from "../../errors.js";
import { accountUrl } from "../../sign-in/account-form.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../../types/internal.js";

type Post = (options: InternalOptions, request: RequestInternal) => Promise<ResponseInternal>;

/**
 * What a form's answer adds to the section: the set-up key and QR code, or the new recovery codes and the
 * notice the page says with them (`done`, as a redirect's `?done=` would).
 */
interface TwoFactorShown {
  setup?: { secret: string; qrSvg: string };
  /** The code typed for `setup` was refused: shown at its field. */
  setupError?: boolean;
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
  let answer: ResponseInternal;
  try {
    answer = await operation(options, "confirmTotp")(options, request);
  } catch (error) {
    return setupAgain(options, request, error);
  }
  return newCodesPage(options, request, answer, "two-factor-on");
};
export const regenerateForm: Post = async (options, request) =>
  newCodesPage(options, request, await operation(options, "regenerateRecoveryCodes")(options, request), "recovery-codes-new");

/** The page showing the recovery codes an operation just made (`{ recoveryCodes }`), once, with its notice. */
function newCodesPage(options: InternalOptions, request: RequestInternal, answer: ResponseInternal, done: string) {
  return accountPageShowing(options, request, { newRecoveryCodes: (answer.body as { recoveryCodes: string[] }).recoveryCodes, done });
}
/**
 * A wrong code while setting up: the page again with the same key and QR code, the error at the code field,
 * so the user types the next code instead of starting over. This form ran after its owner-present check, so
 * showing the pending key is showing it to its owner. Answered 400 and reported as the refusal it is (log,
 * audit). Any other error is thrown to the form's refusal.
 */
async function setupAgain(options: InternalOptions, request: RequestInternal, error: unknown): Promise<ResponseInternal> {
  if (!(error instanceof IncorrectCode)) throw error;
  const setup = await (await import("./settings.js")).pendingSetup(options, request);
  if (!setup) throw error;
  const page = await accountPageShowing(options, request, { setup, setupError: true });
  return { ...page, status: 400, failure: error };
}

export const disableForm: Post = async (options, request) => {
  await operation(options, "disableTotp")(options, request);
  return { redirect: `${accountUrl(options)}?done=two-factor-off` };
};
