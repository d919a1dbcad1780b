/**
 * The admin feature's texts (types only): its keys of the catalog, complete in each language.
 *
 * @module features/admin/messages/keys
 */
import type { Messages } from "../../../types/i18n.js";
import type { AdminMessages } from "../types.js";

/** Every text of the admin pages, the ban refusal and the owner notice, in one language. */
export type AdminTexts = Readonly<Pick<Messages, keyof AdminMessages>>;
