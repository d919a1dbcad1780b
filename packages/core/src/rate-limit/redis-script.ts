/**
 * What the Redis stores (rate limits, session records) share: the few script methods of the app's
 * connected client they call, and a Lua script run by its digest with a fallback to its source. Internal:
 * not an entry point of the package.
 *
 * @module redis-script
 */

/** Keys and arguments of a script call, as node-redis takes them. */
export interface RedisScriptArguments {
  keys: string[];
  arguments: string[];
}

/**
 * The script methods of a connected Redis client (node-redis 5 and 6 names and signatures): all that a
 * store made of Lua scripts calls (`@authlib/core/session/redis` is).
 */
export interface RedisScriptClient {
  /** `EVALSHA sha1 numkeys key… arg…`; rejects with a `NOSCRIPT …` error when the script is not cached. */
  evalSha(sha1: string, options: RedisScriptArguments): Promise<unknown>;
  /** `EVAL script numkeys key… arg…`. */
  eval(script: string, options: RedisScriptArguments): Promise<unknown>;
}

/**
 * A Lua script with its SHA-1, computed once (WebCrypto, so this runs on every runtime).
 */
export class CachedScript {
  readonly source: string;
  #sha1: Promise<string> | undefined;

  constructor(source: string) {
    this.source = source;
  }

  /**
   * Runs the script by digest; when that fails (Redis does not have it cached: first call, after a
   * restart or `SCRIPT FLUSH`), by source. Any other failure fails the second call too and is thrown from
   * it, so no error text is read to tell the two apart.
   */
  async run(client: RedisScriptClient, options: RedisScriptArguments): Promise<unknown> {
    this.#sha1 ??= sha1Hex(this.source);
    try {
      return await client.evalSha(await this.#sha1, options);
    } catch {
      return client.eval(this.source, options);
    }
  }
}

async function sha1Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-1", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}
