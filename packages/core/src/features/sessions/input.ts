/**
 * The typed input of the session-control operations.
 *
 * @module features/sessions/input
 */
import { InvalidSessionId } from "../../errors.js";
import { field, inputSchema } from "../../http/input.js";

/** `sessionId` (64 hex characters: more is no id), or `all: "others"`; `InvalidSessionId` otherwise, as always. */
export const revokeInput = inputSchema({
  sessionId: field.optional(field.string({ max: 128, refuse: InvalidSessionId })),
  all: field.optional(field.oneOf(["others"], { refuse: InvalidSessionId })),
});
