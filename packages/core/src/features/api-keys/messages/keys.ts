/**
 * API keys' texts (types only): their keys of the catalog, complete in each language.
 *
 * @module features/api-keys/messages/keys
 */
import type { Messages } from "../../../types/i18n.js";
import type { ApiKeyMessages } from "../types.js";

/** Every text of the API keys' account section and owner notice, in one language. */
export type ApiKeyTexts = Readonly<Pick<Messages, keyof ApiKeyMessages>>;
