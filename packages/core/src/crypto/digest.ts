/**
 * SHA-256 and HMAC-SHA256 as lowercase hex, made cheap: every form, CSRF check and flow step computes a
 * few. Where the runtime has `node:crypto` they are synchronous, with the HMAC key object made once per
 * secret; elsewhere WebCrypto, with the imported `CryptoKey` cached per secret (importing a key per call
 * cost as much as signing). Both paths give the same bytes.
 *
 * The results may be a value or a promise: `await` them.
 *
 * @module crypto/digest
 */
import { type NodeCrypto, nodeCrypto } from "./builtin.js";

type SecretKey = ReturnType<NodeCrypto["createSecretKey"]>;

const encoder = new TextEncoder();
/** Secrets an app uses at once: a handful (rotation lists); the caches are emptied past this. */
const MAX_KEYS = 16;

const nodeKeys = new Map<string, SecretKey>();
const webKeys = new Map<string, Promise<CryptoKey>>();

function remember<V>(cache: Map<string, V>, secret: string, make: () => V): V {
  let value = cache.get(secret);
  if (value === undefined) {
    if (cache.size >= MAX_KEYS) cache.clear();
    value = make();
    cache.set(secret, value);
  }
  return value;
}

function toHex(bytes: Uint8Array): string {
  let out = "";
  for (const byte of bytes) out += byte.toString(16).padStart(2, "0");
  return out;
}

/** HMAC-SHA256 of `value` keyed by `secret`, through WebCrypto (key imported once per secret). */
export async function webCryptoHmacHex(secret: string, value: string): Promise<string> {
  const key = await remember(webKeys, secret, () =>
    crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]),
  );
  return toHex(new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(value))));
}

/** SHA-256 of `value` (UTF-8), through WebCrypto. */
export async function webCryptoSha256Hex(value: string): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(value))));
}

/** HMAC-SHA256 of `value` keyed by `secret`, lowercase hex: synchronous on `node:crypto`, else WebCrypto. */
export function hmacHex(secret: string, value: string): string | Promise<string> {
  const node = nodeCrypto();
  if (!node) return webCryptoHmacHex(secret, value);
  const key = remember(nodeKeys, secret, () => node.createSecretKey(encoder.encode(secret)));
  return node.createHmac("sha256", key).update(value, "utf8").digest("hex");
}

/** SHA-256 of `value` (UTF-8), lowercase hex: synchronous on `node:crypto`, else WebCrypto. */
export function sha256Hex(value: string): string | Promise<string> {
  const node = nodeCrypto();
  if (!node) return webCryptoSha256Hex(value);
  return node.createHash("sha256").update(value, "utf8").digest("hex");
}

/** `bytes` random bytes as lowercase hex. */
export function randomHex(bytes = 32): string {
  return toHex(crypto.getRandomValues(new Uint8Array(bytes)));
}
