/**
 * The per-request state of the integration: the configuration (from the app's QRL, then env defaults)
 * and the session once something asked for it. It lives in `ev.sharedMap`, so each is computed at most
 * once per request however many loaders, actions and handlers need it.
 */
import type { AuthConfig, AuthInstance, RequestLike, Session } from "@authlib/core";
import type { QRL } from "@builder.io/qwik";
import type { RequestEventCommon } from "@builder.io/qwik-city";
import { type Core, loadCore } from "./core.js";

/** The configuration of {@link FrameworkAuth$}: authlib's `AuthConfig` (`basePath` defaults to `/auth`). */
export type FrameworkAuthConfig = AuthConfig;

/** The app's configuration function, as a QRL: called once per request with the request event. */
export type FrameworkAuthConfigQrl = QRL<(ev: RequestEventCommon) => FrameworkAuthConfig | Promise<FrameworkAuthConfig>>;

/** What one request knows about authentication. */
export interface AuthContext {
  /** The resolved configuration: the app's, completed from env variables. */
  readonly config: FrameworkAuthConfig;
  /** The authlib instance of that configuration (one per configuration, not per request). */
  readonly auth: AuthInstance;
  /** `config.basePath` without a trailing slash. */
  readonly basePath: string;
  /** The session, read on first use (see `session.ts`). */
  session?: Promise<Session | null>;
  /** Where the session is read from once an operation of this request set its cookies (`readSessionAfter`). */
  sessionRequest?: RequestLike;
}

const CONTEXT_KEY = "@authlib/qwik:context";

/** The context of this request, creating it on first use. */
export function loadAuthContext(ev: RequestEventCommon, configQrl: FrameworkAuthConfigQrl): Promise<AuthContext> {
  const existing = ev.sharedMap.get(CONTEXT_KEY) as Promise<AuthContext> | undefined;
  if (existing) return existing;
  const created = resolveConfig(ev, configQrl);
  ev.sharedMap.set(CONTEXT_KEY, created);
  return created;
}

/**
 * The context `onRequest` created for this request. The module-level helpers (`getSession`, `signIn`,
 * `signOut`) have no configuration of their own and find it here.
 */
export function requireAuthContext(ev: RequestEventCommon): Promise<AuthContext> {
  const existing = ev.sharedMap.get(CONTEXT_KEY) as Promise<AuthContext> | undefined;
  if (!existing) {
    throw new Error(
      "authlib: no auth context on this request. Export `onRequest` from FrameworkAuth$ in src/routes/plugin@auth.ts so it runs first.",
    );
  }
  return existing;
}

async function resolveConfig(ev: RequestEventCommon, configQrl: FrameworkAuthConfigQrl): Promise<AuthContext> {
  const core = await loadCore();
  const appConfig = await configQrl(ev);
  const { config, auth } = filledConfig(appConfig, ev.env, core);
  return { config, auth, basePath: auth.basePath };
}

/** A configuration the app returned, filled from the env, its instance, and the env values that filling read. */
interface FilledConfig {
  config: FrameworkAuthConfig;
  auth: AuthInstance;
  envRead: Map<string, string | undefined>;
}

const filled = new WeakMap<object, FilledConfig>();

/**
 * The app's configuration completed by `setEnvDefaults`, and its ONE instance, for as long as the app
 * returns the same object and the env variables that were read keep their values. The instance resolves
 * the configuration once (providers, cookies, wrapped callbacks, the start-up check, its warnings), so an
 * app whose configuration function returns a module-level object pays for that once, not on every
 * request. A function that builds a new object per request still works; it is resolved per request.
 * A configuration error is answered per request, as core's `Auth()` does (`authFor`).
 */
function filledConfig(appConfig: FrameworkAuthConfig, env: RequestEventCommon["env"], core: Core): FilledConfig {
  const cached = filled.get(appConfig);
  if (cached && [...cached.envRead].every(([name, value]) => env.get(name) === value)) return cached;
  const envRead = new Map<string, string | undefined>();
  const recordingEnv = {
    get(name: string) {
      const value = env.get(name);
      envRead.set(name, value);
      return value;
    },
  };
  // A copy, because setEnvDefaults fills it in place and the app's object must stay as the app made it.
  const config: FrameworkAuthConfig = { ...appConfig };
  core.setEnvDefaults(recordingEnv, config, envWarnings(appConfig));
  const entry = { config, auth: core.authFor(config), envRead };
  filled.set(appConfig, entry);
  return entry;
}

/** Where `setEnvDefaults` warns: the app's logger, else the console. */
function envWarnings(appConfig: FrameworkAuthConfig): { warn(code: string): void } {
  return {
    warn(code) {
      if (appConfig.logger?.warn) appConfig.logger.warn(code as Parameters<NonNullable<AuthConfig["logger"]>["warn"] & object>[0]);
      else console.warn(`[authlib][warn][${code}]`);
    },
  };
}
