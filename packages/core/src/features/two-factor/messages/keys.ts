/**
 * The second factor's texts (types only): its keys of the catalog, complete in each language.
 *
 * @module features/two-factor/messages/keys
 */
import type { Messages } from "../../../types/i18n.js";
import type { TwoFactorMessages } from "../types.js";

/** Every text of the second factor's pages, account section, errors and owner notices, in one language. */
export type TwoFactorTexts = Readonly<Pick<Messages, keyof TwoFactorMessages>>;
