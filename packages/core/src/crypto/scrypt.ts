/**
 * scrypt on every runtime: `node:crypto` where the runtime has it (Node, Deno, Bun, workerd with
 * `nodejs_compat`: native and fast), else `@noble/hashes` (audited, pure JS). Both implement RFC 7914,
 * so they derive the same key from the same inputs and a hash made by one verifies with the other.
 *
 * @module crypto/scrypt
 */

/** scrypt's cost parameters and the derived key's length. */
export interface ScryptParams {
  N: number;
  r: number;
  p: number;
  dkLen: number;
}

/** Derives `params.dkLen` bytes from `password` (UTF-8 bytes) and `salt`. */
export type ScryptFunction = (password: Uint8Array, salt: Uint8Array, params: ScryptParams) => Promise<Uint8Array>;

import { nodeCrypto } from "./builtin.js";

/** scrypt needs 128·N·r bytes; Node refuses more than its `maxmem` (32 MiB by default), so allow what the parameters need. */
const memoryOf = ({ N, r }: ScryptParams) => 128 * N * r * 2;

/**
 * `node:crypto`'s scrypt, or undefined where the runtime has none. Found through `process.getBuiltinModule`
 * (Node >= 20.16, Deno, Bun, workerd with `nodejs_compat`): it is not an import, so bundlers for browsers
 * and edge runtimes neither follow nor stub it.
 */
export function nodeScrypt(): ScryptFunction | undefined {
  // Without it (or with a runtime that has the lookup but not the module) the portable implementation is used.
  const scrypt = nodeCrypto()?.scrypt;
  if (typeof scrypt !== "function") return undefined;
  return (password, salt, params) =>
    new Promise((resolve, reject) => {
      const { N, r, p, dkLen } = params;
      scrypt(password, salt, dkLen, { N, r, p, maxmem: memoryOf(params) }, (error, key) =>
        error ? reject(error) : resolve(new Uint8Array(key.buffer, key.byteOffset, key.byteLength)),
      );
    });
}

/** `@noble/hashes` scrypt, loaded on first use (Node never loads it). */
export const nobleScrypt: ScryptFunction = async (password, salt, params) => {
  const { scryptAsync } = await import("@noble/hashes/scrypt.js");
  const { N, r, p, dkLen } = params;
  return scryptAsync(password, salt, { N, r, p, dkLen, maxmem: memoryOf(params) });
};

/** The scrypt this runtime uses: native where present, else portable. */
export function defaultScrypt(): ScryptFunction {
  return nodeScrypt() ?? nobleScrypt;
}
