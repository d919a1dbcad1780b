/**
 * The typed input of the linked-account operations.
 *
 * @module features/accounts/input
 */
import { InvalidAccount } from "../../errors.js";
import { field, inputSchema } from "../../http/input.js";

/** Longest provider id or provider account id taken from a request (ids are far shorter; more is junk). */
const MAX_ID_LENGTH = 512;

const id = field.string({ max: MAX_ID_LENGTH, refuse: InvalidAccount });

/** The account to unlink: `provider` and `providerAccountId`; `InvalidAccount` when either is missing or not valid. */
export const unlinkInput = inputSchema({ provider: id, providerAccountId: id });
