/**
 * Session tokens on WebCrypto, for runtimes without `node:crypto`. Unlike a plain `jose` call, the
 * imported `CryptoKey`s are cached (not the raw key bytes, which jose would import twice per call) and
 * the CBC tag is compared in constant time in JavaScript (jose spends three more WebCrypto calls on it):
 * a decode is one HMAC and one decryption. The checks are `crypto/jwe-rules`, shared with the
 * node:crypto codec.
 *
 * @module crypto/jwe-webcrypto
 */
import * as base64url from "jose/base64url";
import { type ContentEncryption, deriveEncryptionKey } from "./derive-key.js";
import {
  aadLengthBlock,
  bytesEqual,
  type CheckedHeader,
  checkClaims,
  checkHeader,
  checkParts,
  noMatchingSecret,
  rejected,
  splitCompact,
  USE_JOSE,
} from "./jwe-rules.js";

interface WebKey {
  kid: string;
  header: string;
  /** A256CBC-HS512: HMAC-SHA-512 over the first half of the key. */
  mac?: CryptoKey;
  /** AES-CBC over the second half, or AES-GCM over the whole key. */
  cipher: CryptoKey;
}

/** WebCrypto's typings want ArrayBuffer-backed views; every view here is one. */
type Bytes = Uint8Array<ArrayBuffer>;

const MAX_CACHED_KEYS = 128;
const keys = new Map<string, Promise<WebKey>>();
const encoder = new TextEncoder();

async function importKeys(enc: ContentEncryption, secret: string, salt: string): Promise<WebKey> {
  const derived = await deriveEncryptionKey(enc, secret, salt);
  const { kid } = derived;
  const key = derived.key as Bytes;
  const header = base64url.encode(JSON.stringify({ alg: "dir", enc, kid }));
  try {
    if (enc === "A256GCM") {
      return { kid, header, cipher: await crypto.subtle.importKey("raw", key, "AES-GCM", false, ["encrypt", "decrypt"]) };
    }
    const [mac, cipher] = await Promise.all([
      crypto.subtle.importKey("raw", key.subarray(0, 32), { name: "HMAC", hash: "SHA-512" }, false, ["sign"]),
      crypto.subtle.importKey("raw", key.subarray(32), "AES-CBC", false, ["encrypt", "decrypt"]),
    ]);
    return { kid, header, mac, cipher };
  } finally {
    // Only the non-extractable CryptoKeys are kept.
    key.fill(0);
  }
}

function keysFor(enc: ContentEncryption, secret: string, salt: string): Promise<WebKey> {
  const id = `${enc}\u0000${salt}\u0000${secret}`;
  const cached = keys.get(id);
  if (cached) return cached;
  const imported = importKeys(enc, secret, salt);
  // Never cache a failure.
  imported.catch(() => keys.delete(id));
  if (keys.size >= MAX_CACHED_KEYS) keys.delete(keys.keys().next().value as string);
  keys.set(id, imported);
  return imported;
}

async function keyFor(checked: CheckedHeader, secrets: readonly string[], salt: string): Promise<WebKey> {
  for (const secret of secrets) {
    const key = await keysFor(checked.enc, secret, salt);
    // A token without a kid can only come from the first (current) secret.
    if (checked.kid === undefined || key.kid === checked.kid) return key;
  }
  throw noMatchingSecret();
}

function canonical(part: string): Uint8Array | undefined {
  try {
    const bytes = base64url.decode(part);
    return base64url.encode(bytes) === part ? bytes : undefined;
  } catch {
    return undefined;
  }
}

function concat(...chunks: Uint8Array[]): Bytes {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

async function cbcTag(mac: CryptoKey, aad: Uint8Array, iv: Uint8Array, ciphertext: Uint8Array): Promise<Uint8Array> {
  const signature = await crypto.subtle.sign("HMAC", mac, concat(aad, iv, ciphertext, aadLengthBlock(aad.length)));
  return new Uint8Array(signature, 0, 32);
}

/** The claims of `token`, or {@link USE_JOSE}; rejects with `JWTSessionError` for a token jose would refuse. */
export async function webCryptoDecrypt(
  token: string,
  secrets: readonly string[],
  salt: string,
): Promise<Record<string, unknown> | typeof USE_JOSE> {
  const { encodedHeader, header: headerBytes, encryptedKey, iv, ciphertext, tag } = splitCompact(token, canonical);
  const checked = checkHeader(headerBytes);
  if (checked === USE_JOSE) return USE_JOSE;
  const key = await keyFor(checked, secrets, salt);
  checkParts(checked.enc, encryptedKey, iv, tag);
  const aad = encoder.encode(encodedHeader);
  let plaintext: Uint8Array;
  try {
    if (key.mac) {
      // Encrypt-then-MAC: nothing is decrypted until the tag is proven, in constant time.
      if (!bytesEqual(tag, await cbcTag(key.mac, aad, iv, ciphertext))) throw rejected("bad tag");
      plaintext = new Uint8Array(await crypto.subtle.decrypt({ name: "AES-CBC", iv: iv as Bytes }, key.cipher, ciphertext as Bytes));
    } else {
      const sealed = concat(ciphertext, tag);
      plaintext = new Uint8Array(
        await crypto.subtle.decrypt({ name: "AES-GCM", iv: iv as Bytes, additionalData: aad, tagLength: 128 }, key.cipher, sealed),
      );
    }
  } catch {
    throw rejected("decryption failed");
  }
  return checkClaims(checked.header, plaintext);
}

/** A compact `dir` + `A256CBC-HS512` JWE of `claims` under `secret` + `salt`. */
export async function webCryptoEncrypt(claims: Record<string, unknown>, secret: string, salt: string): Promise<string> {
  const key = await keysFor("A256CBC-HS512", secret, salt);
  const iv = crypto.getRandomValues(new Uint8Array(16));
  const ciphertext = new Uint8Array(
    await crypto.subtle.encrypt({ name: "AES-CBC", iv }, key.cipher, encoder.encode(JSON.stringify(claims))),
  );
  const tag = await cbcTag(key.mac as CryptoKey, encoder.encode(key.header), iv, ciphertext);
  return `${key.header}..${base64url.encode(iv)}.${base64url.encode(ciphertext)}.${base64url.encode(tag)}`;
}
