/**
 * The typed input of the passkey operations.
 *
 * @module features/passkeys/input
 */
import { InvalidName, PasskeyNotFound } from "../../errors.js";
import { field, inputSchema } from "../../http/input.js";

/** Longest passkey id taken from a request: a credential id has at most 1023 bytes, 1364 in base64. */
const MAX_ID_LENGTH = 1400;

/** The passkey named: no id, or one longer than any credential's, names none of the caller's (`PasskeyNotFound`). */
const id = field.string({ max: MAX_ID_LENGTH, refuse: PasskeyNotFound });

/** The name is checked by the passkey-name rules (`InvalidName`: blank, over 64 characters, not one line). */
export const renameInput = inputSchema({ id, name: field.optional(field.string({ max: 1024, refuse: InvalidName })) });
/** `currentPassword` is the owner-present rule's, when the user proves presence with it. */
export const removeInput = inputSchema({ id, currentPassword: field.optional(field.string({ max: 4096 })) });
