/**
 * The typed input of the second factor's operations.
 *
 * @module features/two-factor/input
 */
import { IncorrectCode } from "../../errors.js";
import { field, inputSchema } from "../../http/input.js";

/**
 * A code of the authenticator app or a recovery code, as typed (spaces and dashes are ignored): a longer
 * one is no code (`IncorrectCode`). Absent, it is checked (and counted) as a wrong code.
 */
const code = field.optional(field.string({ max: 64, refuse: IncorrectCode }));

/** `confirmTotp`, `disableTotp`. */
export const codeInput = inputSchema({ code });

/** The second step: a `code`, or a passkey's `action` and response (`data`), checked by the passkey routes. */
export const secondStepInput = inputSchema({ code, action: field.value(), data: field.value() });
