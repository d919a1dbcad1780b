/**
 * The format of a bearer key authlib issues (API keys, SCIM tokens): `<prefix>_<id><secret><checksum>`,
 * all base62 after the prefix.
 *
 * - `id`: 16 characters (~95 bits), public: how the key is looked up, shown in lists and audit rows;
 * - `secret`: 32 characters (~190 bits), never stored: only a keyed hash of the id and secret is;
 * - `checksum`: 6 characters, the CRC32 of everything before it (`<prefix>_<id><secret>`), base62 and
 *   zero-padded, as GitHub's tokens do: a secret scanner recognises the app's keys offline, and a key
 *   mistyped, cut short or tampered with is refused here, before any store read.
 *
 * The checksum is no secret and proves nothing about who made the key: anyone can compute it. It only
 * keeps typos and guesses away from the store.
 *
 * @module crypto/key-format
 */

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** Characters of the public id. */
export const ID_LENGTH = 16;
/** Characters of the secret. */
export const SECRET_LENGTH = 32;
/** Characters of the checksum: 62^6 > 2^32. */
export const CHECKSUM_LENGTH = 6;
const BODY_LENGTH = ID_LENGTH + SECRET_LENGTH + CHECKSUM_LENGTH;
const BASE62 = /^[0-9A-Za-z]+$/;

/** A key's parts, once its format and checksum are right. */
export interface KeyParts {
  id: string;
  secret: string;
}

/** `length` random base62 characters (rejection sampling: no bias toward the first characters). */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      // 248 = 4 × 62: bytes from 248 up would favour the first 8 characters.
      if (byte < 248) out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

let table: Uint32Array | undefined;

/** The CRC-32 (IEEE 802.3, as zlib's `crc32`) of `text`'s UTF-8 bytes. */
export function crc32(text: string): number {
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const byte of new TextEncoder().encode(text)) crc = (table[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** `value` (0 to 2^32 - 1) in base62, zero-padded to {@link CHECKSUM_LENGTH} characters. */
export function checksumText(value: number): string {
  let out = "";
  let rest = value;
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = ALPHABET[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}

/** The key of `prefix` with these parts and its checksum. */
export function formatKey(prefix: string, parts: KeyParts): string {
  const unsummed = `${prefix}_${parts.id}${parts.secret}`;
  return `${unsummed}${checksumText(crc32(unsummed))}`;
}

/** A new key of `prefix`: a fresh random id and secret. */
export function newKey(prefix: string): { key: string } & KeyParts {
  const parts = { id: randomBase62(ID_LENGTH), secret: randomBase62(SECRET_LENGTH) };
  return { key: formatKey(prefix, parts), ...parts };
}

/**
 * The parts of `key` when it is a key of `prefix` with the right length, alphabet and checksum; `undefined`
 * otherwise. Pure: nothing is read.
 */
export function parseKey(prefix: string, key: string): KeyParts | undefined {
  if (key.length !== prefix.length + 1 + BODY_LENGTH || !key.startsWith(`${prefix}_`)) return undefined;
  const body = key.slice(prefix.length + 1);
  if (!BASE62.test(body)) return undefined;
  const checksum = body.slice(ID_LENGTH + SECRET_LENGTH);
  if (checksumText(crc32(key.slice(0, key.length - CHECKSUM_LENGTH))) !== checksum) return undefined;
  return { id: body.slice(0, ID_LENGTH), secret: body.slice(ID_LENGTH, ID_LENGTH + SECRET_LENGTH) };
}

/** A public id's shape (16 base62 characters): what `keyId` inputs must be. */
export function isKeyId(value: unknown): value is string {
  return typeof value === "string" && value.length === ID_LENGTH && BASE62.test(value);
}

/** What lists show of a key: its prefix and the first 4 characters of its public id. */
export function startOf(prefix: string, id: string): string {
  return `${prefix}_${id.slice(0, 4)}`;
}
