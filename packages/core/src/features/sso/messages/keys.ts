/**
 * Enterprise SSO's texts (types only): their keys of the catalog, complete in each language.
 *
 * @module features/sso/messages/keys
 */
import type { Messages } from "../../../types/i18n.js";
import type { SsoMessages } from "../types.js";

/** Every text of enterprise SSO, in one language. */
export type SsoTexts = Readonly<Pick<Messages, keyof SsoMessages>>;
