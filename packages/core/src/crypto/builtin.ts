/**
 * Node built-in modules where the runtime has them (Node >= 20.16, Deno, Bun, workerd with
 * `nodejs_compat`), found through `process.getBuiltinModule`: not an import, so bundlers for browsers and
 * edge runtimes neither follow nor stub them, and code that uses them keeps a WebCrypto (or portable)
 * path for runtimes without.
 *
 * @module crypto/builtin
 */

/** `node:crypto`'s module type (type-only: nothing is imported). */
export type NodeCrypto = typeof import("node:crypto");

/** The built-in module `id` (e.g. `"node:crypto"`), or `undefined` where the runtime has none. */
export function builtin<T>(id: string): T | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  // Stryker disable BlockStatement: equivalent (see mutation notes: builtin-catch)
  try {
    return proc?.getBuiltinModule?.(id) as T | undefined;
  } catch {
    // A runtime that has the function but not the module.
    return undefined;
  }
}

// Stryker restore BlockStatement
let nodeCryptoModule: NodeCrypto | null | undefined;

/** `node:crypto` (looked up once), or `null` where the runtime has none. */
export function nodeCrypto(): NodeCrypto | null {
  if (nodeCryptoModule === undefined) {
    const found = builtin<NodeCrypto>("node:crypto");
    nodeCryptoModule = typeof found?.createHmac === "function" && typeof found.createHash === "function" ? found : null;
  }
  return nodeCryptoModule;
}
