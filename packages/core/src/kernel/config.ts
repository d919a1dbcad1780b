/**
 * The parts of a configuration with defaults: base path, session options, callbacks, and the wrapped
 * events and adapter. `resolve.ts` puts them together once per configuration object.
 */

import { DEFAULT_BASE_PATH } from "../env/defaults.js";
import { AdapterError, EventError } from "../errors.js";
import { defaultRedirect } from "../http/redirect.js";
import { DEFAULT_MAX_AGE } from "../jwt.js";
import { inSpan, type Telemetry } from "../telemetry/index.js";
import type { Adapter } from "../types/adapters.js";
import type { AuthConfig, CallbacksOptions, EventCallbacks, LoggerInstance, Session, SessionOptions } from "../types/config.js";

/**
 * `basePath` as routes are built from it: a leading `/`, no trailing `/`, and `""` for the site root, so
 * that `${basePath}/signin` is always a path (never `//signin`, which a browser reads as a host).
 */
export function normaliseBasePath(basePath: string | undefined): string {
  const trimmed = (basePath ?? DEFAULT_BASE_PATH).replace(/^\/+|\/+$/g, "");
  return trimmed === "" ? "" : `/${trimmed}`;
}

/** Session options with defaults. */
export function resolveSessionOptions(config: AuthConfig): SessionOptions {
  return {
    strategy: config.session?.strategy ?? (config.adapter ? "database" : "jwt"),
    maxAge: config.session?.maxAge ?? DEFAULT_MAX_AGE,
    updateAge: config.session?.updateAge ?? 24 * 60 * 60,
    generateSessionToken: config.session?.generateSessionToken ?? (() => crypto.randomUUID()),
    store: config.session?.store,
    revocation: config.session?.revocation ?? "eventual",
    revalidateAfter: config.session?.revalidateAfter ?? 60,
    maxPerUser: config.session?.maxPerUser ?? 50,
  };
}

const defaultCallbacks: CallbacksOptions = {
  signIn: () => true,
  redirect: defaultRedirect,
  // The user and the expiry, as Auth.js answers; and the active organization, when the session has one.
  session: ({ session }) =>
    ({
      user: { name: session.user?.name ?? null, email: session.user?.email ?? null, image: session.user?.image ?? null },
      expires: session.expires,
      ...(session.activeOrganizationId === undefined
        ? {}
        : { activeOrganizationId: session.activeOrganizationId, activeOrganizationRole: session.activeOrganizationRole }),
      // An admin acting as the user (`impersonateUser`): who, so that an app can show it.
      ...(session.act === undefined ? {} : { act: session.act, impersonator: session.impersonator }),
      // Signed in through an organization's SSO connection: which, so that an app can show it.
      ...(session.sso === undefined ? {} : { sso: session.sso }),
    }) as Session,
  jwt: ({ token }) => token,
};

/** The app's callbacks over the defaults. */
export function resolveCallbacks(callbacks: Partial<CallbacksOptions> | undefined): CallbacksOptions {
  return { ...defaultCallbacks, ...callbacks };
}

/**
 * Events wrapped so that a failing handler is logged as `EventError` and never breaks the flow: the shared
 * ones and `features`, those the features fire (`FeatureDefinition.events`).
 */
export function wrapEvents(
  events: Partial<EventCallbacks> | undefined,
  logger: LoggerInstance,
  features: readonly string[] = [],
): EventCallbacks {
  const wrap = <K extends keyof EventCallbacks>(name: K) =>
    (async (message: Parameters<EventCallbacks[K]>[0]) => {
      const handler = events?.[name] as ((m: typeof message) => unknown) | undefined;
      if (!handler) return;
      try {
        await handler(message);
      } catch (error) {
        logger.error(new EventError(`The ${name} event handler threw.`, { cause: error as Error }));
      }
    }) as EventCallbacks[K];
  return {
    signIn: wrap("signIn"),
    signOut: wrap("signOut"),
    createUser: wrap("createUser"),
    updateUser: wrap("updateUser"),
    linkAccount: wrap("linkAccount"),
    session: wrap("session"),
    sessionRevoked: wrap("sessionRevoked"),
    accountUnlinked: wrap("accountUnlinked"),
    passkeyAdded: wrap("passkeyAdded"),
    passkeyRemoved: wrap("passkeyRemoved"),
    passwordChanged: wrap("passwordChanged"),
    userDeleted: wrap("userDeleted"),
    ...Object.fromEntries(features.map((name) => [name, wrap(name as keyof EventCallbacks)])),
  } as EventCallbacks;
}

/** The adapter with every method wrapped: failures become `AdapterError`, calls are debug-logged and traced. */
export function wrapAdapter(adapter: Adapter | undefined, logger: LoggerInstance, telemetry?: Telemetry): Adapter | undefined {
  if (!adapter) return undefined;
  const wrapped: Adapter = {};
  for (const [name, method] of Object.entries(adapter)) {
    if (typeof method !== "function") continue;
    const call = async (args: unknown[]) => {
      logger.debug(`adapter_${name}`);
      try {
        return await method.apply(adapter, args);
      } catch (error) {
        throw new AdapterError(`The adapter's ${name} failed.`, { cause: error as Error });
      }
    };
    // A span per call (`authlib.adapter.<method>`) inside the instance's traced requests.
    const attributes = { "authlib.adapter.method": name };
    (wrapped as Record<string, unknown>)[name] = telemetry
      ? (...args: unknown[]) => inSpan(`authlib.adapter.${name}`, attributes, () => call(args))
      : (...args: unknown[]) => call(args);
  }
  return wrapped;
}
