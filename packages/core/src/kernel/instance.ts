/**
 * `createAuth(config)`: the instance every request and operation goes through. It resolves and checks
 * the whole configuration once (providers, cookies, secrets, origin rule, limits, pages, callbacks) and
 * keeps every per-configuration value; nothing per configuration lives in module state.
 *
 * @module instance
 */

import { answerToResponse } from "../http/response.js";
import type { AuthApi } from "../types/api.js";
import type { AuthConfig } from "../types/config.js";
import { builtInApi } from "./features.js";
import { type AuthRequestOptions, answer } from "./pipeline.js";
import { type ResolvedAuth, resolveConfig } from "./resolve.js";

/** An authlib instance: the HTTP surface and the in-process operations of one configuration. */
export interface AuthInstance {
  /** `config.basePath`, normalised (default `/auth`): the requests under it go to {@link AuthInstance.handler}. */
  readonly basePath: string;
  /**
   * Answers a request under `basePath` (sign-in page, callbacks, session, sign-out, …). Never throws:
   * bad input gets a 4xx or the error page; a failure inside an action, its page or status.
   */
  handler(request: Request, options?: AuthRequestOptions): Promise<Response>;
  /** The operations for the app's own server code (see {@link AuthApi}). */
  readonly api: AuthApi;
}

/** The resolved configuration behind each instance, for the integration entry point. */
const resolvedOf = new WeakMap<AuthInstance, ResolvedAuth>();

/**
 * Creates the instance of `config`. Throws the configuration's `AuthError` (`MissingSecret`,
 * `InvalidOriginConfig`, `InvalidProvider`, `MissingAdapter`, …) here, at start-up, never per request.
 *
 * @example
 * ```ts
 * export const auth = createAuth({ providers: [GitHub], secret: process.env.AUTH_SECRET, url: "https://app.example" });
 * // a route under /auth:          auth.handler(request)
 * // anywhere on the server:       const { session } = await auth.api.getSession(request);
 * ```
 */
export function createAuth(config: AuthConfig): AuthInstance {
  const resolved = resolveConfig(config);
  if (resolved.error) throw resolved.error;
  return instanceOver(resolved);
}

/**
 * The instance of a resolved configuration, even one with an error (for `Auth()`, which answers that
 * error per request). Its `api` then throws the configuration's error on every call.
 */
export function instanceOver(resolved: ResolvedAuth): AuthInstance {
  const api = resolved.error || !resolved.options ? refusingApi(resolved) : lazyApi(resolved);
  const instance: AuthInstance = {
    basePath: resolved.basePath,
    handler: async (request, options) => answerToResponse(await answer(resolved, request, options)),
    api,
  };
  resolvedOf.set(instance, resolved);
  return instance;
}

/** The resolved configuration of `instance` (created by this module). */
export function resolvedConfigOf(instance: AuthInstance): ResolvedAuth {
  const resolved = resolvedOf.get(instance);
  if (!resolved) throw new TypeError("Not an authlib instance: create it with createAuth(config).");
  return resolved;
}

/** The operations of {@link AuthApi} the kernel itself makes (a test checks the whole list against `createApi`). */
const SHARED_API_OPERATIONS = [
  "getSession",
  "signIn",
  "signInWithEmailCode",
  "signOut",
  "listSessions",
  "revokeSession",
  "revokeOtherSessions",
  "revokeUserSessions",
  "listAccounts",
  "unlinkAccount",
  "listPasskeys",
  "renamePasskey",
  "removePasskey",
  "signUp",
  "verifyEmail",
  "requestPasswordReset",
  "resetPassword",
  "resendPasswordReset",
  "changePassword",
  "changeEmail",
  "addEmail",
  "confirmEmail",
  "deleteAccount",
  "run",
] as const satisfies ReadonlyArray<keyof AuthApi>;

/** Every operation of {@link AuthApi}: the shared ones, then the built-in features' own (`FeatureDefinition.api`). */
export const API_OPERATIONS: readonly string[] = [...SHARED_API_OPERATIONS, ...Object.keys(builtInApi)];

type Operation = (...args: unknown[]) => Promise<unknown>;

/**
 * The API of a usable configuration, its code (`api.ts`) loaded with the first operation: an app that
 * only answers `handler` requests never loads it (`scripts/bundle-budget.mjs`).
 */
function lazyApi(resolved: ResolvedAuth): AuthApi {
  let made: Record<string, Operation> | undefined;
  let loading: Promise<Record<string, Operation>> | undefined;
  const load = () => {
    loading ??= Promise.all([import("./api.js"), resolved.ready]).then(([module]) => {
      if (resolved.error || !resolved.options) throw resolved.error;
      made = module.createApi(resolved as Parameters<typeof module.createApi>[0]) as unknown as Record<string, Operation>;
      return made;
    });
    return loading;
  };
  const operation =
    (name: string): Operation =>
    (...args) =>
      made ? (made[name] as Operation)(...args) : load().then((api) => (api[name] as Operation)(...args));
  return Object.fromEntries(API_OPERATIONS.map((name) => [name, operation(name)])) as unknown as AuthApi;
}

/** The API of a configuration with an error: each operation throws that error (logged when resolved). */
function refusingApi(resolved: ResolvedAuth): AuthApi {
  const refuse = async (): Promise<never> => {
    throw resolved.error;
  };
  // Every operation, present and future, refuses the same way.
  return new Proxy({} as AuthApi, { get: () => refuse });
}
