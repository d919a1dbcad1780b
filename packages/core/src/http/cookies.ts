/**
 * Cookie names and options, and the cookies an action wants to set on its response.
 */

import type { CookieOption, CookiesOptions } from "../types/config.js";
import type { Cookie } from "../types/internal.js";
import { cookieNamesOf, hasChunkedCookie, splitIntoChunks } from "./cookie-chunks.js";

export type { Cookie };

/** Lifetime of the short-lived check cookies (PKCE, state, nonce, WebAuthn challenge): 15 minutes. */
export const CHECK_COOKIE_MAX_AGE = 15 * 60;

/** Lifetime of the device token cookie of credentials sign-in: 1 year, renewed at each sign-in. */
export const DEVICE_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

/** The prefix of every default cookie name on https. */
export const HOST_PREFIX = "__Host-";
/** The prefix the session cookie had on https before `__Host-` (read only while migrating, see {@link legacySessionCookieNames}). */
export const LEGACY_SECURE_PREFIX = "__Secure-";

/**
 * The default cookies. With `useSecureCookies` (https), every name gets the `__Host-` prefix: the browser
 * then accepts the cookie only from this exact host, `Secure`, with `Path=/` and without `Domain`, so no
 * other host (a sibling subdomain included) can plant or overwrite it ("cookie tossing").
 */
export function defaultCookies(useSecureCookies: boolean, features: Readonly<Record<string, string>> = {}): CookiesOptions {
  const prefix = useSecureCookies ? HOST_PREFIX : "";
  const options = { httpOnly: true, sameSite: "lax", path: "/", secure: useSecureCookies } as const;
  return {
    sessionToken: { name: `${prefix}authlib.session-token`, options: { ...options } },
    callbackUrl: { name: `${prefix}authlib.callback-url`, options: { ...options } },
    csrfToken: { name: `${prefix}authlib.csrf-token`, options: { ...options } },
    pkceCodeVerifier: { name: `${prefix}authlib.pkce.code_verifier`, options: { ...options, maxAge: CHECK_COOKIE_MAX_AGE } },
    state: { name: `${prefix}authlib.state`, options: { ...options, maxAge: CHECK_COOKIE_MAX_AGE } },
    nonce: { name: `${prefix}authlib.nonce`, options: { ...options, maxAge: CHECK_COOKIE_MAX_AGE } },
    webauthnChallenge: { name: `${prefix}authlib.challenge`, options: { ...options, maxAge: CHECK_COOKIE_MAX_AGE } },
    deviceToken: { name: `${prefix}authlib.device-token`, options: { ...options, maxAge: DEVICE_COOKIE_MAX_AGE } },
    emailFlow: { name: `${prefix}authlib.email-flow`, options: { ...options } },
    sessionAssurance: { name: `${prefix}authlib.session-assurance`, options: { ...options } },
    // The features' own (`FeatureDefinition.cookies`), with the same defaults.
    ...Object.fromEntries(
      Object.entries(features).map(([key, name]) => [key, { name: `${prefix}authlib.${name}`, options: { ...options } }]),
    ),
  } as CookiesOptions;
}

/**
 * The default cookies with the user's overrides deep-merged per cookie and per option. Overrides weaken
 * the defaults: a `domain` (or a `path` other than `/`) is not allowed on a `__Host-` cookie, so a cookie
 * given one without a name of its own falls back to the `__Secure-` prefix, which a sibling subdomain can
 * plant (and `secure: false` drops the prefix). The flow binding (http/flow-binding.ts) still protects the check cookies as long as the CSRF
 * cookie keeps its `__Host-` name.
 */
export function resolveCookies(
  useSecureCookies: boolean,
  overrides: Partial<CookiesOptions> = {},
  features: Readonly<Record<string, string>> = {},
): CookiesOptions {
  const defaults = defaultCookies(useSecureCookies, features);
  for (const key of Object.keys(defaults) as Array<keyof CookiesOptions>) {
    const override = overrides[key];
    // A feature's cookie (optional in the type) is there whenever its key is.
    const given = defaults[key] as CookieOption;
    if (!override) continue;
    const options = { ...given.options, ...override.options };
    const hostOnly = options.domain === undefined && options.path === "/";
    const prefix = !options.secure ? "" : hostOnly ? HOST_PREFIX : LEGACY_SECURE_PREFIX;
    const defaultName = given.name.replace(HOST_PREFIX, prefix);
    defaults[key] = { name: override.name ?? defaultName, options };
  }
  return defaults;
}

/**
 * Auth.js v5's session cookie name (`AuthConfig.acceptAuthjsSessions`): `__Secure-authjs.session-token`
 * on https, `authjs.session-token` on http, as `@auth/core` names it by default.
 */
export function authjsSessionCookieName(secure: boolean): string {
  return secure ? "__Secure-authjs.session-token" : "authjs.session-token";
}

/**
 * The names a session may still arrive under besides the configured one, while the app migrates
 * (`acceptAuthjs`, the `acceptAuthjsSessions` option): the `__Secure-` name sessions had on https before
 * `__Host-` (only while the default name is in use), then Auth.js's name. Without the option there are
 * none: a legacy name has no `__Host-` prefix, so a sibling subdomain can plant a cookie under it, and
 * reading it would sign a signed-out browser into the planter's account. A session read under one of
 * them is re-issued under the configured name and the old cookie cleared.
 */
export function legacySessionCookieNames(cookies: CookiesOptions, acceptAuthjs: boolean): string[] {
  if (!acceptAuthjs) return [];
  const { name, options } = cookies.sessionToken;
  const names: string[] = [];
  if (name === `${HOST_PREFIX}authlib.session-token`) names.push(`${LEGACY_SECURE_PREFIX}authlib.session-token`);
  names.push(authjsSessionCookieName(options.secure === true));
  return names.filter((legacy) => legacy !== name);
}

/**
 * True when the request carries a `__Host-` cookie of authlib's (one of the configured `__Host-` names or
 * a chunk of one, or any `__Host-authlib.` name). Only this host can have set it, so the browser has
 * already talked to authlib since the migration: a session it has under a legacy name can only have been
 * planted (authlib clears legacy cookies when it moves a session), and is not read.
 */
function hasHostCookieOfAuthlib(cookies: CookiesOptions, requestCookies: Record<string, string | undefined>): boolean {
  const hostNames = Object.values(cookies)
    .map((option) => option.name)
    .filter((name) => name.startsWith(HOST_PREFIX));
  return Object.keys(requestCookies).some(
    (cookie) => cookie.startsWith(`${HOST_PREFIX}authlib.`) || hostNames.some((name) => cookie === name || cookie.startsWith(`${name}.`)),
  );
}

/**
 * The name this request's session is read from: the configured one when the request has a cookie (or a
 * chunk) of it, else the first {@link legacySessionCookieNames} entry it has, else the configured one. A
 * legacy name never wins over a present configured cookie, and is never read when the request carries any
 * `__Host-` cookie of authlib's (e.g. its CSRF cookie): a planted legacy cookie can neither replace a
 * session nor sign in a browser that has visited authlib since the migration.
 */
export function incomingSessionCookieName(
  cookies: CookiesOptions,
  requestCookies: Record<string, string | undefined>,
  acceptAuthjs: boolean,
): string {
  const { name } = cookies.sessionToken;
  if (hasChunkedCookie(requestCookies, name)) return name;
  const legacyNames = legacySessionCookieNames(cookies, acceptAuthjs);
  if (legacyNames.length === 0 || hasHostCookieOfAuthlib(cookies, requestCookies)) return name;
  return legacyNames.find((legacy) => hasChunkedCookie(requestCookies, legacy)) ?? name;
}

/** A cookie that deletes `name` (same path and flags as when it was set). */
export function expiredCookie(name: string, options: CookieOption["options"]): Cookie {
  const { expires: _expires, ...rest } = options;
  return { name, value: "", options: { ...rest, maxAge: 0 } };
}

/**
 * The cookies that write `value` under `option.name`, chunked when large, and delete every chunk of the
 * previous value that the new one does not overwrite. An empty value only deletes.
 */
export function writeChunkedCookie(
  option: CookieOption,
  value: string,
  requestCookies: Record<string, string | undefined>,
  extra: CookieOption["options"] = {},
): Cookie[] {
  const written = value ? splitIntoChunks(option.name, value).map((c) => ({ ...c, options: { ...option.options, ...extra } })) : [];
  const names = new Set(written.map((c) => c.name));
  const stale = cookieNamesOf(requestCookies, option.name)
    .filter((name) => !names.has(name))
    .map((name) => expiredCookie(name, option.options));
  return [...stale, ...written];
}

/** Cookies deleting every chunk of `option.name` present in the request. */
export function clearChunkedCookie(option: CookieOption, requestCookies: Record<string, string | undefined>): Cookie[] {
  return writeChunkedCookie(option, "", requestCookies);
}
