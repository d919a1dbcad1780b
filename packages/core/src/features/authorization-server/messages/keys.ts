/**
 * The authorization server's texts (types only): its keys of the catalog, complete in each language.
 *
 * @module features/authorization-server/messages/keys
 */
import type { Messages } from "../../../types/i18n.js";
import type { AuthorizationServerMessages } from "../types.js";

/** Every text of the authorization server's pages, account section and owner notice, in one language. */
export type AuthorizationServerTexts = Readonly<Pick<Messages, keyof AuthorizationServerMessages>>;
