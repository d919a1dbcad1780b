/**
 * The typed input of the second factor's operations.
 *
 * @module features/two-factor/input
 */
import { IncorrectCode } from "../../errors.js";
import { type FieldParser, field, inputSchema } from "../../http/input.js";

/**
 * A code of the authenticator app or a recovery code, as typed (spaces and dashes are ignored): a longer
 * one is no code (`IncorrectCode`). Absent, it is checked (and counted) as a wrong code.
 */
const code = field.optional(field.string({ max: 64, refuse: IncorrectCode }));

/** `confirmTotp`, `disableTotp`. */
export const codeInput = inputSchema({ code });

/** The second step: a `code`, or a passkey's `action` and response (`data`), checked by the passkey routes. */
export const secondStepInput = inputSchema({ code, action: field.value(), data: field.value() });

/** The level asked for: 2 (`2` or `"2"`), else 1. */
const aal: FieldParser<1 | 2> = (value) => (value === 2 || value === "2" ? 2 : 1);

/** `maxAge` (seconds, 0 or more: `UnknownAction` otherwise) and `aal`, from the query or `auth.api.requireRecentAuth`. */
export const assuranceInput = inputSchema({
  maxAge: field.optional(
    field.number({ min: 0, max: Number.MAX_SAFE_INTEGER, message: "`maxAge` must be a number of seconds, 0 or more." }),
  ),
  aal,
});
