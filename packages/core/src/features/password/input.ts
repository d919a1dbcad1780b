/**
 * The typed input of the password forms (`password/<form>`), the same for a form post, JSON and
 * `auth.api`.
 *
 * @module features/password/input
 */
import { InvalidEmailAddress } from "../../address/normalize.js";
import { InvalidName, Verification } from "../../errors.js";
import { field, inputSchema } from "../../http/input.js";
import type { InputOf, InputSchema } from "../../types/operation.js";

// The limits are the schema's guard against oversized values; the password rules (`Password({ maxLength })`,
// the name's 64 characters, an address's 254) still refuse with their own errors below them.
const email = field.string({ max: 1024, refuse: InvalidEmailAddress });
const password = field.optional(field.string({ max: 4096 }));
/** A link's token: a few hundred characters; a longer or missing one is no link (`Verification`). */
const token = field.string({ max: 8192, refuse: Verification });
const callbackUrl = field.optional(field.string({ max: 4096 }));

/** The input of each form (`callbackUrl`: where the flow leads afterwards, checked by the `redirect` callback). */
const schemas = {
  "sign-up": inputSchema({ email, password, name: field.optional(field.string({ max: 1024, refuse: InvalidName })), callbackUrl }),
  verify: inputSchema({ token }),
  forgot: inputSchema({ email, callbackUrl }),
  reset: inputSchema({ token, password }),
  resend: inputSchema({ token }),
  change: inputSchema({ password, currentPassword: field.optional(field.string({ max: 4096 })), callbackUrl }),
};

/** The forms that post to `password/<form>`. */
export type PasswordPost = keyof typeof schemas;

/** The typed input of each form posted to `password/<form>`. */
export type PasswordInputs = { [F in PasswordPost]: InputOf<(typeof schemas)[F]> };
export type PasswordInput<F extends PasswordPost> = PasswordInputs[F];
export const passwordInputs: { [F in PasswordPost]: InputSchema<PasswordInputs[F]> } = schemas;
