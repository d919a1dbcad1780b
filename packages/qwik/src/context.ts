/**
 * The per-request state of the integration: the configuration (from the app's QRL, then env defaults)
 * and the session once something asked for it. It lives in `ev.sharedMap`, so each is computed at most
 * once per request however many loaders, actions and handlers need it.
 */
import type { AuthConfig, LoggerInstance, Session } from "@authlib/core";
import type { QRL } from "@builder.io/qwik";
import type { RequestEventCommon } from "@builder.io/qwik-city";
import { loadCore } from "./core.js";

/** The configuration of {@link FrameworkAuth$}: authlib's `AuthConfig` (`basePath` defaults to `/auth`). */
export type FrameworkAuthConfig = AuthConfig;

/** The app's configuration function, as a QRL: called once per request with the request event. */
export type FrameworkAuthConfigQrl = QRL<(ev: RequestEventCommon) => FrameworkAuthConfig | Promise<FrameworkAuthConfig>>;

/** What one request knows about authentication. */
export interface AuthContext {
  /** The resolved configuration: the app's, completed from env variables. */
  readonly config: FrameworkAuthConfig;
  /** `config.basePath` without a trailing slash. */
  readonly basePath: string;
  /** The session, read on first use (see `session.ts`). */
  session?: Promise<Session | null>;
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
  const { normaliseBasePath, setEnvDefaults } = await loadCore();
  // A copy, because setEnvDefaults fills it in place and the app may return the same object every time.
  const config: FrameworkAuthConfig = { ...(await configQrl(ev)) };
  setEnvDefaults(ev.env, config, warnOnce(config.logger));
  return { config, basePath: normaliseBasePath(config.basePath) };
}

// Env warnings would otherwise repeat on every request, since the configuration is rebuilt per request.
const warned = new Set<string>();
function warnOnce(logger: Partial<LoggerInstance> | undefined): Pick<LoggerInstance, "warn"> {
  return {
    warn(code) {
      if (warned.has(code)) return;
      warned.add(code);
      if (logger?.warn) logger.warn(code);
      else console.warn(`[authlib][warn][${code}]`);
    },
  };
}
