/**
 * Start-up checks of a configuration. A mistake an operator can make is reported here, by name, before
 * any action runs; the user sees a generic error page and the details go to the server log only.
 */

import {
  type AdapterCapabilities,
  accountTokenMethods,
  adapterCapabilities,
  emailMethods,
  missingMethods,
  sessionMethods,
  sessionRecordMethods,
  userMethods,
  webAuthnMethods,
} from "../adapter/capabilities.js";
import { processEnv, providerEnvPrefix, readEnv } from "../env/read.js";
import {
  AuthError,
  DuplicateConditionalUI,
  ExperimentalFeatureNotEnabled,
  InvalidEndpoints,
  InvalidProvider,
  InvalidSessionConfig,
  MissingAdapter,
  MissingAdapterMethods,
  MissingAuthorize,
  MissingSecret,
  MissingWebAuthnAutocomplete,
  UntrustedHost,
  WeakSecret,
} from "../errors.js";
import { checkOriginConfig } from "../http/origin.js";
import { isOAuthProvider, isRefreshingProvider } from "../provider-kind.js";
import type { Adapter } from "../types/adapters.js";
import type { AuthConfig, SessionStrategy } from "../types/config.js";
import type { ProviderConfig } from "../types/providers.js";
import { listedFeatures } from "./features.js";

/** The shortest secret accepted in production, in bytes (UTF-8): what `npx authlib secret` prints is 32 random bytes. */
export const MIN_SECRET_BYTES = 32;

/** The length of a secret in bytes, as key derivation sees it (UTF-8). */
export function secretByteLength(secret: string): number {
  return new TextEncoder().encode(secret).byteLength;
}

/**
 * `WeakSecret` when, in production, a secret of the rotation list is shorter than
 * {@link MIN_SECRET_BYTES}. The message says which entry (by position in a list), never the secret.
 */
export function weakSecretError(secrets: readonly unknown[], nodeEnv: string | undefined): WeakSecret | undefined {
  if (nodeEnv !== "production") return undefined;
  const index = secrets.findIndex((s) => typeof s === "string" && s && secretByteLength(s) < MIN_SECRET_BYTES);
  if (index < 0) return undefined;
  return new WeakSecret(
    `The secret${secrets.length > 1 ? ` #${index + 1}` : ""} has ${secretByteLength(secrets[index] as string)} bytes; production needs ${MIN_SECRET_BYTES}: \`npx authlib secret\`.`,
  );
}

function hasEndpoint(value: unknown): boolean {
  return typeof value === "string" || (typeof value === "object" && value !== null && typeof (value as { url?: unknown }).url === "string");
}

/** The first configuration error, or `undefined` when the configuration is usable. */
export function assertConfig(config: AuthConfig, providers: ProviderConfig[], strategy: SessionStrategy): AuthError | undefined {
  return (
    hostAndSecretError(config) ??
    providersError(config, providers) ??
    webAuthnConfigError(config, providers) ??
    sessionConfigError(config, strategy) ??
    featureConfigError(config, providers) ??
    ownerPresentConfigError(config) ??
    adapterError(config.adapter, providers, strategy, featureAdapterNeeds(config))
  );
}

/** The first error in the origin settings, the host's trust or the secrets, or `undefined`. */
function hostAndSecretError(config: AuthConfig): AuthError | undefined {
  const originError = checkOriginConfig(config);
  if (originError) return originError;
  // A canonical URL or a trusted-host list is an explicit decision about the origin; so is trustHost.
  if (!config.trustHost && config.url === undefined && !(config.trustedHosts && config.trustedHosts.length > 0)) {
    return new UntrustedHost(
      "The host is not trusted. Set AUTHLIB_URL (or `url`) to the app's URL; or set AUTH_TRUSTED_HOSTS (`trustedHosts`), or `trustHost: true` (AUTH_TRUST_HOST=true) when a proxy you control sets the Host header.",
    );
  }
  const secrets = Array.isArray(config.secret) ? config.secret : [config.secret];
  if (!secrets.some((s) => typeof s === "string" && s.length > 0)) {
    return new MissingSecret("No secret is configured. Set AUTH_SECRET (e.g. `npx authlib secret`) or `secret` in the config.");
  }
  return weakSecretError(secrets, readEnv(processEnv(), "NODE_ENV"));
}

/** The first provider with an invalid or duplicate id or an incomplete configuration, as its error. */
function providersError(config: AuthConfig, providers: ProviderConfig[]): AuthError | undefined {
  const ids = new Set<string>();
  for (const provider of providers) {
    if (!provider?.id || typeof provider.id !== "string" || !/^[A-Za-z0-9_-]+$/.test(provider.id)) {
      return new InvalidProvider(`A provider has an invalid id (${String(provider?.id)}): use letters, digits, "-" and "_".`);
    }
    if (ids.has(provider.id)) return new InvalidProvider(`Two providers share the id "${provider.id}". Give one of them another \`id\`.`);
    ids.add(provider.id);
    const error = providerConfigError(config, provider, providers);
    if (error) return error;
  }
  return undefined;
}

/** The first error in one provider's own settings (client id, endpoints, `authorize`, its `checkConfig`). */
function providerConfigError(config: AuthConfig, provider: ProviderConfig, providers: ProviderConfig[]): AuthError | undefined {
  if (isOAuthProvider(provider) && (typeof provider.clientId !== "string" || provider.clientId === "")) {
    return new InvalidProvider(`Provider "${provider.id}" has no client id: set ${providerEnvPrefix(provider.id)}ID or \`clientId\`.`);
  }
  if (isOAuthProvider(provider) && !provider.issuer) {
    for (const key of ["authorization", "token", "userinfo"] as const) {
      if (key === "userinfo" && provider.type === "oidc") continue;
      if (!hasEndpoint(provider[key])) {
        return new InvalidEndpoints(`Provider "${provider.id}" has neither an \`issuer\` nor a \`${key}\` endpoint. Set one of them.`);
      }
    }
  }
  if (provider.type === "credentials" && typeof provider.authorize !== "function") {
    return new MissingAuthorize(`The credentials provider "${provider.id}" needs an \`authorize(credentials, request)\` function.`);
  }
  const own = provider.checkConfig?.({ provider, providers, adapter: config.adapter });
  if (own) return own instanceof AuthError ? own : new InvalidProvider(own.message);
  return undefined;
}

/** The first error in the WebAuthn providers' settings (experimental flag, conditional UI), or `undefined`. */
function webAuthnConfigError(config: AuthConfig, providers: ProviderConfig[]): AuthError | undefined {
  const webAuthn = providers.filter((p) => p.type === "webauthn");
  if (webAuthn.length > 0 && !config.experimental?.enableWebAuthn) {
    return new ExperimentalFeatureNotEnabled(
      "WebAuthn is experimental. To use it, set `experimental: { enableWebAuthn: true }` in the config.",
    );
  }
  const conditionalUI = webAuthn.filter((p) => p.enableConditionalUI);
  if (conditionalUI.length > 1) {
    return new DuplicateConditionalUI("Only one WebAuthn provider may enable conditional UI.");
  }
  const withoutAutocomplete = conditionalUI.find(
    (p) =>
      !Object.values(p.formFields ?? {}).some(
        (field) => typeof field.autocomplete === "string" && field.autocomplete.split(/\s+/).includes("webauthn"),
      ),
  );
  if (withoutAutocomplete) {
    return new MissingWebAuthnAutocomplete(
      `The WebAuthn provider "${withoutAutocomplete.id}" enables conditional UI, so one of its \`formFields\` needs \`autocomplete\` containing "webauthn" (e.g. "username webauthn").`,
    );
  }
  return undefined;
}

const registryMethods = ["create", "get", "listByUser", "touch", "delete"] as const;

/** The first error in `session`'s registry options, or `undefined`. */
function sessionConfigError(config: AuthConfig, strategy: SessionStrategy): AuthError | undefined {
  const session = config.session ?? {};
  if (session.revocation !== undefined && session.revocation !== "strict" && session.revocation !== "eventual") {
    return new InvalidSessionConfig(`session.revocation must be "strict" or "eventual", not ${JSON.stringify(session.revocation)}.`);
  }
  const { revalidateAfter, maxPerUser } = session;
  if (revalidateAfter !== undefined && !(Number.isFinite(revalidateAfter) && revalidateAfter >= 0)) {
    return new InvalidSessionConfig("session.revalidateAfter must be a number of seconds, 0 or more.");
  }
  if (maxPerUser !== undefined && !(Number.isInteger(maxPerUser) && maxPerUser >= 1)) {
    return new InvalidSessionConfig("session.maxPerUser must be a whole number, 1 or more.");
  }
  const store = session.store as unknown as Record<string, unknown> | undefined;
  if (store !== undefined) {
    const missing = registryMethods.filter((m) => typeof store?.[m] !== "function");
    if (missing.length > 0) {
      return new InvalidSessionConfig(
        `session.store is not a session store (missing ${missing.join(", ")}): use memorySessionStore(), redisSessionStore({ client }) or hostedDbSessionStore(client).`,
      );
    }
  }
  const adapter = config.adapter;
  if (adapter && sessionRecordMethods.some((m) => typeof adapter[m] === "function")) {
    const missing = missingMethods(adapter, sessionRecordMethods);
    if (missing.length > 0)
      return new MissingAdapterMethods(`Session records need these adapter methods, which are missing: ${missing.join(", ")}.`);
  }
  return sessionControlError(config, strategy);
}

const sessionControlOptions = ["maxPerUser", "revocation", "revalidateAfter"] as const;

/**
 * Session control asked for by name (a limit, a revocation rule) works only with a session registry: the
 * adapter's session records, or `session.store` for JWT sessions. Without one these options would do
 * nothing, so the configuration is refused. A database strategy without an adapter is left to
 * {@link adapterError} (`MissingAdapter`).
 */
function sessionControlError(config: AuthConfig, strategy: SessionStrategy): AuthError | undefined {
  const session = config.session ?? {};
  const asked = sessionControlOptions.filter((option) => session[option] !== undefined).map((option) => `session.${option}`);
  if (asked.length === 0 || (strategy === "jwt" && session.store !== undefined)) return undefined;
  const feature = `Session records (${asked.join(", ")})`;
  const adapter = config.adapter;
  if (!adapter) {
    if (strategy === "database") return undefined;
    return new InvalidSessionConfig(
      `${feature} need a session registry: set session.store (memorySessionStore(), redisSessionStore({ client }), hostedDbSessionStore(client)) or use an adapter with the session record methods.`,
    );
  }
  const missing = missingMethods(adapter, sessionRecordMethods);
  if (missing.length === 0) return undefined;
  const alternative = strategy === "jwt" ? "session.store, or " : "";
  return new MissingAdapterMethods(`${feature} need ${alternative}these adapter methods, which are missing: ${missing.join(", ")}.`);
}

/**
 * The first error a feature's own start-up check finds in its part of the configuration (`FeatureDefinition.check`,
 * on or off: a part that is wrong is refused even where it would turn nothing on), or `undefined`.
 */
function featureConfigError(config: AuthConfig, providers: ProviderConfig[]): AuthError | undefined {
  for (const feature of listedFeatures(config)) {
    // A feature's check makes its error with the classes of `errors.ts`: an `AuthError` like the checks here.
    const error = feature.check?.(config, providers) as AuthError | undefined;
    if (error) return error;
  }
  return undefined;
}

/** The adapter methods the features' parts of the configuration need (`FeatureDefinition.adapterNeeds`), in the list's order. */
function featureAdapterNeeds(config: AuthConfig): Array<[string, ReadonlyArray<keyof Adapter>]> {
  return listedFeatures(config).flatMap((feature) => {
    const needs = feature.adapterNeeds?.(config);
    return needs ? [[needs.feature, needs.methods] as [string, ReadonlyArray<keyof Adapter>]] : [];
  });
}

/** An `ownerPresent` option that is not `{ maxAge }` of 60 to 86400 seconds, or `undefined`. */
function ownerPresentConfigError(config: AuthConfig): AuthError | undefined {
  const maxAge = config.ownerPresent?.maxAge;
  if (maxAge === undefined || (Number.isInteger(maxAge) && maxAge >= 60 && maxAge <= 86400)) return undefined;
  return new AuthError("ownerPresent.maxAge is the age a recent sign-in may have: a whole number of seconds from 60 to 86400.");
}

/** The first missing adapter (method) for the features in use, or `undefined`. */
function adapterError(
  adapter: Adapter | undefined,
  providers: ProviderConfig[],
  strategy: SessionStrategy,
  featureNeeds: Array<[string, ReadonlyArray<keyof Adapter>]>,
): AuthError | undefined {
  // The features' needs first (their checks come before the core's), then the core's.
  const needs: Array<[string, ReadonlyArray<keyof Adapter>]> = [...featureNeeds];
  if (providers.some((p) => p.type === "email")) needs.push(["Email sign-in", emailMethods]);
  if (strategy === "database") needs.push(["Database sessions", [...userMethods, ...sessionMethods]]);
  // With an adapter, an OAuth sign-in stores its user and account there.
  if (adapter && providers.some(isOAuthProvider)) needs.push(["OAuth sign-in with an adapter", userMethods]);
  if (strategy === "database" && providers.some(isRefreshingProvider)) {
    needs.push(["Access-token refresh with database sessions", accountTokenMethods]);
  }
  if (providers.some((p) => p.type === "webauthn")) needs.push(["WebAuthn", webAuthnMethods]);
  for (const [feature, methods] of needs) {
    if (!adapter) return new MissingAdapter(`${feature} needs a database adapter: set \`adapter\` in the config.`);
    const missing = missingMethods(adapter, methods);
    if (missing.length > 0)
      return new MissingAdapterMethods(`${feature} needs these adapter methods, which are missing: ${missing.join(", ")}.`);
  }
  return passkeyManagementError(adapter);
}

/**
 * Managing passkeys (`actions/passkeys.ts`) is optional, and checked when its routes are used; an adapter
 * with one of its two methods and not the other was meant to have both, and is refused here.
 */
function passkeyManagementError(adapter: Adapter | undefined): AuthError | undefined {
  const methods: ReadonlyArray<keyof Adapter> = ["updateAuthenticator", "deleteAuthenticator"];
  const missing = adapter ? missingMethods(adapter, methods) : [];
  if (missing.length !== 1) return undefined;
  return new MissingAdapterMethods(`Managing passkeys needs both updateAuthenticator and deleteAuthenticator; missing: ${missing[0]}.`);
}

/** The outcome of the start-up check: the first configuration error, or the adapter's typed capabilities. */
export type StartupCheck = { ok: false; error: AuthError } | { ok: true; capabilities: AdapterCapabilities };

/**
 * The start-up check: {@link assertConfig}, then the capabilities of `adapter` (the wrapped adapter, whose
 * methods the check looked at on `config.adapter`). Every feature the configuration enables has its
 * capability present when `ok`.
 */
export function startupCheck(
  config: AuthConfig,
  providers: ProviderConfig[],
  strategy: SessionStrategy,
  adapter: Adapter | undefined,
): StartupCheck {
  const error = assertConfig(config, providers, strategy);
  return error ? { ok: false, error } : { ok: true, capabilities: adapterCapabilities(adapter) };
}
