/**
 * The typed input of the SCIM token operations: an organization's id and a token's public id, each refused
 * with `ScimInvalidRequest` when it is not one.
 *
 * @module features/sso/scim/input
 */
import { isKeyId } from "../../../crypto/key-format.js";
import { ScimInvalidRequest } from "../../../errors.js";
import type { FieldParser } from "../../../http/input.js";
import { field, inputSchema } from "../../../http/input.js";

const organizationId = field.string({ max: 128, refuse: ScimInvalidRequest });

/** A token's public id (16 base62 characters). */
const tokenId: FieldParser<string> = (value, fieldName) => {
  if (!isKeyId(value)) throw new ScimInvalidRequest(`\`${fieldName}\` is not a SCIM token id.`);
  return value;
};

export const tokenListInput = inputSchema({ organizationId });
export const tokenInput = inputSchema({ organizationId, tokenId });
/** The organization page's revoke form (its organization is in the form's action). */
export const tokenFormInput = inputSchema({ tokenId });
