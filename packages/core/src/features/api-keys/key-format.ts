/**
 * The format of an API key: the shared bearer-key format (`crypto/key-format.ts`), which SCIM tokens use too.
 *
 * @module features/api-keys/key-format
 */
export type { KeyParts } from "../../crypto/key-format.js";
export {
  CHECKSUM_LENGTH,
  checksumText,
  crc32,
  formatKey,
  ID_LENGTH,
  isKeyId,
  newKey,
  parseKey,
  randomBase62,
  SECRET_LENGTH,
  startOf,
} from "../../crypto/key-format.js";
