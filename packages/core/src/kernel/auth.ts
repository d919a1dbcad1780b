/**
 * `Auth(request, config)` and `getSession(request, config)`: the spec's functions, as thin wrappers over
 * an instance kept per configuration object. New code creates the instance itself (`createAuth`).
 *
 * The instance of an object is reused while its top-level fields keep their values (`config.callbacks =
 * …` makes a new one; a change inside a field, `config.providers.push(…)`, is not seen). A configuration
 * with an error still gets an instance: `Auth()` answers that error per request, as it always has.
 *
 * @module auth
 */
import type { Cookie } from "../http/cookies.js";
import type { AuthConfig, Session } from "../types/config.js";
import { type AuthInstance, instanceOver } from "./instance.js";
import type { AuthRequestOptions } from "./pipeline.js";
import { resolveConfig } from "./resolve.js";

/** An instance, and the top-level values of the configuration it was made from. */
interface CachedInstance {
  instance: AuthInstance;
  keys: string[];
  values: unknown[];
}

const instances = new WeakMap<AuthConfig, CachedInstance>();

function fieldsOf(config: AuthConfig): { keys: string[]; values: unknown[] } {
  const keys = Object.keys(config);
  return { keys, values: keys.map((key) => (config as unknown as Record<string, unknown>)[key]) };
}

function unchanged(cached: CachedInstance, now: { keys: string[]; values: unknown[] }): boolean {
  if (now.keys.length !== cached.keys.length) return false;
  return now.keys.every((key, i) => key === cached.keys[i] && now.values[i] === cached.values[i]);
}

/** The instance of `config`, made on first use and kept while its top-level fields are unchanged. Never throws. */
export function instanceFor(config: AuthConfig): AuthInstance {
  const cached = instances.get(config);
  const now = fieldsOf(config);
  if (cached && unchanged(cached, now)) return cached.instance;
  const instance = instanceOver(resolveConfig(config));
  instances.set(config, { instance, ...now });
  return instance;
}

/**
 * Answers a request under `config.basePath` (default `/auth`): `createAuth(config).handler(request)`, with
 * the instance kept per configuration object (pass the same object on every request). Never throws: bad
 * input gets a 4xx or the error page, a configuration error a generic 500 whose details go to the server
 * log only.
 */
export function Auth(request: Request, config: AuthConfig, options?: AuthRequestOptions): Promise<Response> {
  return instanceFor(config).handler(request, options);
}

/**
 * The session of `request` (or `null`) and the cookies to set on the response (a refreshed session), for
 * server code outside a framework integration. Fails closed: any error gives `data: null` (and is logged).
 */
export async function getSession(request: Request, config: AuthConfig): Promise<{ cookie: Cookie[]; data: Session | null }> {
  try {
    const { session, cookies } = await instanceFor(config).api.getSession(request);
    return { cookie: cookies, data: session };
  } catch {
    // Logged already: a configuration error when it was resolved, any other by the pipeline.
    return { cookie: [], data: null };
  }
}
