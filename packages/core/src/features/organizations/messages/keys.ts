/**
 * The organizations' texts (types only): its keys of the catalog, complete in each language.
 *
 * @module features/organizations/messages/keys
 */
import type { Messages, OrganizationMessageKey } from "../../../types/i18n.js";

/** Every text of the organizations' pages and mails, in one language. */
export type OrganizationTexts = Readonly<Pick<Messages, OrganizationMessageKey>>;
