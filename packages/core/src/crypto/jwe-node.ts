/**
 * Session tokens on `node:crypto`, synchronously: no WebCrypto promise, no thread-pool round trip. The
 * keys are derived once per (enc, salt, secret) and kept as `KeyObject`s in a bounded cache; the MAC is
 * checked with `timingSafeEqual` before anything is decrypted. The checks themselves are
 * `crypto/jwe-rules`, shared with the WebCrypto decoder.
 *
 * `node:crypto` is found through `process.getBuiltinModule`, not imported, so bundles for edge runtimes
 * carry no `node:` import; where it is missing (or does not work) {@link nodeJwe} is undefined and the
 * WebCrypto decoder is used.
 *
 * @module crypto/jwe-node
 */
import { builtin, type NodeCrypto } from "./builtin.js";
import type { ContentEncryption } from "./derive-key.js";
import {
  aadLengthBlock,
  type CheckedHeader,
  checkClaims,
  checkHeader,
  checkParts,
  noMatchingSecret,
  notCompact,
  rejected,
  USE_JOSE,
} from "./jwe-rules.js";

type KeyObject = import("node:crypto").KeyObject;
type BufferClass = typeof import("node:buffer").Buffer;
type Buffer = import("node:buffer").Buffer;

/** A synchronous JWE codec for session tokens. */
export interface SyncJwe {
  /** The claims of `token`, or {@link USE_JOSE}; throws `JWTSessionError` for a token jose would refuse. */
  decrypt(token: string, secrets: readonly string[], salt: string): Record<string, unknown> | typeof USE_JOSE;
  /** A compact `dir` + `A256CBC-HS512` JWE of `claims` under `secret` + `salt`. */
  encrypt(claims: Record<string, unknown>, secret: string, salt: string): string;
}

/** What the protected header decides for a token, and the bytes its MAC covers before the ciphertext. */
type HeaderFacts =
  | { checked: CheckedHeader; aad: Buffer; aadLength: Uint8Array }
  // A compressed token: jose decodes it.
  | typeof USE_JOSE;

interface NodeKey {
  kid: string;
  /** base64url of `{"alg":"dir","enc":…,"kid":…}`, the protected header `encrypt` writes. */
  header: string;
  /** A256CBC-HS512: the first half of the key (HMAC-SHA-512). */
  mac?: KeyObject;
  /** A256CBC-HS512: the second half (AES-256-CBC); A256GCM: the whole key. */
  cipher: KeyObject;
}

const MAX_CACHED_KEYS = 128;
/**
 * Protected headers whose verdict is remembered: every token of one key and `enc` has the same header, so
 * an app has a handful. A header is attacker-chosen, so the memo is bounded (oldest out) and only short
 * headers are kept; what it holds is a pure function of the header text, never a decision about a token.
 */
const MAX_CACHED_HEADERS = 64;
const MAX_CACHED_HEADER_LENGTH = 512;
const keyLengths: Record<ContentEncryption, number> = { "A256CBC-HS512": 64, A256GCM: 32 };
const encoder = new TextEncoder();

/**
 * The keys of `secret` + `salt` for `enc`, derived as Auth.js v5 does. `Buffer` comes from node:buffer
 * too: not every runtime with node:crypto has a global Buffer.
 */
function deriveNodeKey(nc: NodeCrypto, Buffer: BufferClass, enc: ContentEncryption, secret: string, salt: string): NodeKey {
  const length = keyLengths[enc];
  // Auth.js v5's derivation: HKDF-SHA-256, salt = the salt argument, a fixed info naming it.
  const info = encoder.encode(`Auth.js Generated Encryption Key (${salt})`);
  const raw = Buffer.from(nc.hkdfSync("sha256", encoder.encode(secret), encoder.encode(salt), info, length));
  // The key id is the RFC 7638 thumbprint of the oct JWK, hashed with SHA-(key bits) as Auth.js does.
  const jwk = `{"k":"${raw.toString("base64url")}","kty":"oct"}`;
  const kid = nc
    .createHash(`sha${length * 8}`)
    .update(jwk)
    .digest("base64url");
  const header = Buffer.from(JSON.stringify({ alg: "dir", enc, kid })).toString("base64url");
  const key: NodeKey =
    enc === "A256CBC-HS512"
      ? { kid, header, mac: nc.createSecretKey(raw.subarray(0, 32)), cipher: nc.createSecretKey(raw.subarray(32)) }
      : { kid, header, cipher: nc.createSecretKey(raw) };
  raw.fill(0);
  return key;
}

/** The canonical bytes of a base64url part (one spelling per token: see jwt.ts), or `notCompact`. */
function canonicalPart(Buffer: BufferClass, text: string): Buffer {
  const bytes = Buffer.from(text, "base64url");
  if (bytes.toString("base64url") !== text) throw notCompact();
  return bytes;
}

function cbcTag(nc: NodeCrypto, mac: KeyObject, aad: Buffer, iv: Uint8Array, ciphertext: Uint8Array, aadLength: Uint8Array): Buffer {
  const hmac = nc.createHmac("sha512", mac).update(aad).update(iv).update(ciphertext).update(aadLength);
  return hmac.digest().subarray(0, 32);
}

/** The verdict on a canonical encoded header: {@link checkHeader}'s, which throws for a header jose refuses. */
function readHeaderFacts(Buffer: BufferClass, encodedHeader: string, bytes: Buffer): HeaderFacts {
  const checked = checkHeader(bytes);
  // The claims check reads the header (replicated iss/sub/aud): frozen, so no reader can change it for the next token.
  return checked === USE_JOSE
    ? USE_JOSE
    : {
        checked: { ...checked, header: Object.freeze(checked.header) },
        // The AAD is the encoded header's ASCII bytes (canonical base64url is ASCII).
        aad: Buffer.from(encodedHeader, "latin1"),
        aadLength: aadLengthBlock(encodedHeader.length),
      };
}

/** The parts of a compact JWE after its header, each as its canonical bytes. */
interface BodyParts {
  iv: Buffer;
  ciphertext: Buffer;
  tag: Buffer;
}

/** The plaintext of a token's ciphertext under `key`, authenticated first; any failure is "decryption failed". */
function decryptContent(
  nc: NodeCrypto,
  Buffer: BufferClass,
  key: NodeKey,
  facts: Exclude<HeaderFacts, typeof USE_JOSE>,
  { iv, ciphertext, tag }: BodyParts,
): Buffer {
  const { aad, aadLength } = facts;
  try {
    if (key.mac) {
      // Encrypt-then-MAC: nothing is decrypted until the tag is proven, in constant time.
      if (!nc.timingSafeEqual(tag, cbcTag(nc, key.mac, aad, iv, ciphertext, aadLength))) throw rejected("bad tag");
      const decipher = nc.createDecipheriv("aes-256-cbc", key.cipher, iv);
      return Buffer.concat([decipher.update(ciphertext), decipher.final()]);
    }
    const decipher = nc.createDecipheriv("aes-256-gcm", key.cipher, iv, { authTagLength: 16 });
    decipher.setAAD(aad);
    decipher.setAuthTag(tag);
    // final() throws on a wrong tag; the bytes update() returned are used only after it passed.
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  } catch {
    throw rejected("decryption failed");
  }
}

/** A compact `dir` + `A256CBC-HS512` JWE of `claims` under `key`. */
function encryptClaims(nc: NodeCrypto, Buffer: BufferClass, key: NodeKey, claims: Record<string, unknown>): string {
  const iv = nc.randomBytes(16);
  const cipher = nc.createCipheriv("aes-256-cbc", key.cipher, iv);
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(claims), "utf8"), cipher.final()]);
  const aad = Buffer.from(key.header, "latin1");
  const tag = cbcTag(nc, key.mac as KeyObject, aad, iv, ciphertext, aadLengthBlock(aad.length));
  return `${key.header}..${iv.toString("base64url")}.${ciphertext.toString("base64url")}.${tag.toString("base64url")}`;
}

/**
 * The derived keys of one codec: bounded (oldest out), plus the key the last token was read with (an app
 * reads nearly every token with one key, and this skips building and hashing the cache id per token).
 */
class NodeKeyCache {
  readonly #keys = new Map<string, NodeKey>();
  #last: { enc: ContentEncryption; secret: string; salt: string; key: NodeKey } | undefined;

  constructor(
    readonly nc: NodeCrypto,
    readonly Buffer: BufferClass,
  ) {}

  derive(enc: ContentEncryption, secret: string, salt: string): NodeKey {
    const id = `${enc}\u0000${salt}\u0000${secret}`;
    const cached = this.#keys.get(id);
    if (cached) return cached;
    const key = deriveNodeKey(this.nc, this.Buffer, enc, secret, salt);
    if (this.#keys.size >= MAX_CACHED_KEYS) this.#keys.delete(this.#keys.keys().next().value as string);
    this.#keys.set(id, key);
    return key;
  }

  /** {@link derive}, remembering the last key. */
  derived(enc: ContentEncryption, secret: string, salt: string): NodeKey {
    const last = this.#last;
    if (last !== undefined && last.enc === enc && last.secret === secret && last.salt === salt) return last.key;
    const key = this.derive(enc, secret, salt);
    this.#last = { enc, secret, salt, key };
    return key;
  }
}

/** The codec over `nc`, with its caches: derived keys and header verdicts. */
function createNodeJwe(nc: NodeCrypto, Buffer: BufferClass): SyncJwe {
  const keys = new NodeKeyCache(nc, Buffer);
  const headers = new Map<string, HeaderFacts>();

  function keyFor(checked: CheckedHeader, secrets: readonly string[], salt: string): NodeKey {
    for (const secret of secrets) {
      const key = keys.derived(checked.enc, secret, salt);
      // A token without a kid can only come from the first (current) secret.
      if (checked.kid === undefined || key.kid === checked.kid) return key;
    }
    throw noMatchingSecret();
  }

  /** {@link readHeaderFacts}, parsed once per header text (see {@link MAX_CACHED_HEADERS}); refusals are not kept. */
  function headerFacts(encodedHeader: string, bytes: Buffer): HeaderFacts {
    const facts = readHeaderFacts(Buffer, encodedHeader, bytes);
    if (encodedHeader.length <= MAX_CACHED_HEADER_LENGTH) {
      if (headers.size >= MAX_CACHED_HEADERS) headers.delete(headers.keys().next().value as string);
      headers.set(encodedHeader, facts);
    }
    return facts;
  }

  return {
    decrypt(token, secrets, salt) {
      // The compact form's five parts, each canonical base64url (as jwe-rules' splitCompact checks them); a
      // header seen before was canonical then, so only its text is compared.
      const parts = token.split(".");
      if (parts.length !== 5) throw notCompact();
      const [encodedHeader, encryptedKeyText, ivText, ciphertextText, tagText] = parts as [string, string, string, string, string];
      const known = headers.get(encodedHeader);
      const headerBytes = known === undefined ? canonicalPart(Buffer, encodedHeader) : undefined;
      const encryptedKey = canonicalPart(Buffer, encryptedKeyText);
      const body: BodyParts = {
        iv: canonicalPart(Buffer, ivText),
        ciphertext: canonicalPart(Buffer, ciphertextText),
        tag: canonicalPart(Buffer, tagText),
      };
      const facts = known ?? headerFacts(encodedHeader, headerBytes as Buffer);
      if (facts === USE_JOSE) return USE_JOSE;
      const key = keyFor(facts.checked, secrets, salt);
      checkParts(facts.checked.enc, encryptedKey, body.iv, body.tag);
      return checkClaims(facts.checked.header, decryptContent(nc, Buffer, key, facts, body));
    },

    encrypt(claims, secret, salt) {
      return encryptClaims(nc, Buffer, keys.derive("A256CBC-HS512", secret, salt), claims);
    },
  };
}

/**
 * Known answers made by jose (`{"sub":"self-test"}` under the secret and salt below, one per `enc`): a
 * runtime that exposes `node:crypto` but implements it partly or wrongly (an edge runtime's compatibility
 * layer) must not break sessions, so the codec is used only after it reads both and round-trips its own.
 */
const SELF_TEST = {
  secret: "authlib node:crypto self-test",
  salt: "self-test",
  tokens: [
    "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2Q0JDLUhTNTEyIiwia2lkIjoieDRMSjZIdWw3QldxYzlhUjZwVU50amI2XzgyZjdWUkdKNjRUS1RYbmpPWnVGYzNwOHk3ek5ieWxVazFLRGVSbTRibVVaYlZ4NzR3NDBOYWFicDJDNHcifQ..gA5TNqoSKqcRvJW2Ai4XJw.iyJupHdRRS0U2bsW4VVMbokcyeRqLdJNL0b-UfvMtF4.-HZJ6Bfasf_eq2IH9oiQG1w0GULYL4T8kvi6ZLnmj74",
    "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIiwia2lkIjoibWNYbVBVeEdrRDRxVk4xTjVDU09laVBNMTZVTE9sU3lfa1pwaFZEZS1GbyJ9..3tnl2kUWS8_lNT1u.jI_WtsQPQUTJ0YYAm_CejAeO5Q.zhfLpVD-AITLuinKocha2g",
  ],
};

function selfTest(jwe: SyncJwe): boolean {
  const { secret, salt, tokens } = SELF_TEST;
  try {
    const own = jwe.encrypt({ sub: "self-test" }, secret, salt);
    return [...tokens, own].every((token) => {
      const claims = jwe.decrypt(token, [secret], salt);
      return claims !== USE_JOSE && claims.sub === "self-test" && Object.keys(claims).length === 1;
    });
  } catch {
    return false;
  }
}

let memo: SyncJwe | null | undefined;

/** The node:crypto codec, or undefined where the runtime has no working `node:crypto`. */
export function nodeJwe(): SyncJwe | undefined {
  if (memo === undefined) {
    const nc = builtin<NodeCrypto>("node:crypto");
    const buffer = builtin<typeof import("node:buffer")>("node:buffer");
    const usable = nc && buffer && typeof nc.hkdfSync === "function" && typeof nc.createSecretKey === "function";
    const candidate = usable ? createNodeJwe(nc, buffer.Buffer) : undefined;
    memo = candidate && selfTest(candidate) ? candidate : null;
  }
  return memo ?? undefined;
}
