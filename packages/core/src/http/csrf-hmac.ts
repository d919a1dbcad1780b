/**
 * HMAC-SHA256 (hex) for the CSRF cookie, made cheap: `GET /csrf` and every form and POST compute one.
 * Where the runtime has `node:crypto` (Node, Deno, Bun, workerd with `nodejs_compat`) it is synchronous,
 * with the key object made once per secret; elsewhere WebCrypto, with the imported `CryptoKey` cached per
 * secret (importing a key per call cost as much as signing). Both give the same bytes as
 * `crypto/compare.ts`'s `hmacHex`.
 *
 * `node:crypto` is found through `process.getBuiltinModule`, not imported, so edge bundles neither follow
 * nor stub it (see packaging.test.ts).
 *
 * @module http/csrf-hmac
 */

type NodeCrypto = typeof import("node:crypto");
type SecretKey = ReturnType<NodeCrypto["createSecretKey"]>;

const encoder = new TextEncoder();
/** Secrets an app uses at once: a handful (rotation lists); the caches are emptied past this. */
const MAX_KEYS = 16;

let nodeCrypto: NodeCrypto | null | undefined;

/** `node:crypto` with `createHmac`, or `null` where the runtime has none. */
function loadNodeCrypto(): NodeCrypto | null {
  if (nodeCrypto !== undefined) return nodeCrypto;
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  try {
    const found = proc?.getBuiltinModule?.("node:crypto") as NodeCrypto | undefined;
    nodeCrypto = typeof found?.createHmac === "function" && typeof found.createSecretKey === "function" ? found : null;
  } catch {
    nodeCrypto = null;
  }
  return nodeCrypto;
}

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

/** HMAC-SHA256 of `value` keyed by `secret`, lowercase hex, through WebCrypto (key imported once per secret). */
export async function webCryptoHmacHex(secret: string, value: string): Promise<string> {
  const key = await remember(webKeys, secret, () =>
    crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]),
  );
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(value)));
  let out = "";
  for (const byte of mac) out += byte.toString(16).padStart(2, "0");
  return out;
}

/** HMAC-SHA256 of `value` keyed by `secret`, lowercase hex: synchronous on `node:crypto`, else WebCrypto. */
export function csrfHmacHex(secret: string, value: string): string | Promise<string> {
  const node = loadNodeCrypto();
  if (!node) return webCryptoHmacHex(secret, value);
  const key = remember(nodeKeys, secret, () => node.createSecretKey(encoder.encode(secret)));
  return node.createHmac("sha256", key).update(value, "utf8").digest("hex");
}
