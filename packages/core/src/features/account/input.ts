/**
 * The typed input of the account page's own forms.
 *
 * @module features/account/input
 */
import { InvalidEmailAddress } from "../../address/normalize.js";
import { Verification } from "../../errors.js";
import { field, inputSchema } from "../../http/input.js";

/** A link's token: a few hundred characters; a longer or missing one is no link (`Verification`). */
const token = field.string({ max: 8192, refuse: Verification });
const callbackUrl = field.optional(field.string({ max: 4096 }));

export const changeEmailInput = inputSchema({ email: field.string({ max: 1024, refuse: InvalidEmailAddress }), callbackUrl });
export const linkInput = inputSchema({ token });
export const deleteAccountInput = inputSchema({ currentPassword: field.optional(field.string({ max: 4096 })), callbackUrl });
