/**
 * Compact JWS (RFC 7515) on Web Crypto: signing the server's tokens with its ES256 keys, and verifying
 * a signature by a key of the server's or a client's. The claims are checked by the callers. (jose is not
 * used here: its modules are shared with the session code every app loads, and what this feature used of
 * them would have grown every app's bundle, not only those that turn the feature on.)
 *
 * @module features/authorization-server/jws
 */
import { decode as base64urlDecode, encode as base64urlEncode } from "jose/base64url";

const encoder = new TextEncoder();

/** How Web Crypto imports and verifies a key of each signature algorithm accepted. */
const ALGORITHMS: Readonly<
  Record<string, { key: EcKeyImportParams | RsaHashedImportParams | Algorithm; verify: Algorithm | EcdsaParams | RsaPssParams }>
> = {
  ES256: { key: { name: "ECDSA", namedCurve: "P-256" }, verify: { name: "ECDSA", hash: "SHA-256" } as EcdsaParams },
  RS256: { key: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, verify: { name: "RSASSA-PKCS1-v1_5" } },
  PS256: { key: { name: "RSA-PSS", hash: "SHA-256" }, verify: { name: "RSA-PSS", saltLength: 32 } as RsaPssParams },
  EdDSA: { key: { name: "Ed25519" }, verify: { name: "Ed25519" } },
};

/** A compact JWS of `payload` with `header`, signed by the ES256 `key`. */
export async function signJws(header: Record<string, unknown>, payload: Record<string, unknown>, key: CryptoKey): Promise<string> {
  const input = `${base64urlEncode(JSON.stringify({ ...header, alg: "ES256" }))}.${base64urlEncode(JSON.stringify(payload))}`;
  const signature = await crypto.subtle.sign(ALGORITHMS.ES256?.verify as EcdsaParams, key, encoder.encode(input));
  return `${input}.${base64urlEncode(new Uint8Array(signature))}`;
}

/** A compact JWS taken apart: its header and payload (objects), or `undefined` for anything else. */
export interface DecodedJws {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
  input: string;
  signature: Uint8Array<ArrayBuffer>;
}

function objectOf(part: string): Record<string, unknown> | undefined {
  const value: unknown = JSON.parse(new TextDecoder().decode(base64urlDecode(part)));
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** The parts of `token` when it is a compact JWS of two JSON objects, else `undefined` (nothing is verified). */
export function decodeJws(token: string): DecodedJws | undefined {
  const parts = token.split(".");
  if (parts.length !== 3 || token.length > 16_384) return undefined;
  try {
    const header = objectOf(parts[0] as string);
    const payload = objectOf(parts[1] as string);
    if (!header || !payload) return undefined;
    return { header, payload, input: `${parts[0]}.${parts[1]}`, signature: new Uint8Array(base64urlDecode(parts[2] as string)) };
  } catch {
    return undefined;
  }
}

/** True when `jws` is signed by the public `jwk` with the algorithm its header names (one of `ALGORITHMS`). */
export async function verifiedBy(jws: DecodedJws, jwk: JsonWebKey): Promise<boolean> {
  const alg = jws.header.alg;
  const algorithm = typeof alg === "string" && Object.hasOwn(ALGORITHMS, alg) ? ALGORITHMS[alg] : undefined;
  if (!algorithm || (jwk.alg !== undefined && jwk.alg !== alg)) return false;
  try {
    const key = await crypto.subtle.importKey("jwk", jwk, algorithm.key, false, ["verify"]);
    return await crypto.subtle.verify(algorithm.verify, key, jws.signature, encoder.encode(jws.input));
  } catch {
    return false;
  }
}
