/**
 * Cookie names and options, and the cookies an action wants to set on its response.
 */
import type { Cookie } from "../internal-types.js";
import type { CookieOption, CookiesOptions } from "../types.js";
import { cookieNamesOf, hasChunkedCookie, splitIntoChunks } from "./cookie-chunks.js";

export type { Cookie };

/** Lifetime of the short-lived check cookies (PKCE, state, nonce, WebAuthn challenge): 15 minutes. */
export const CHECK_COOKIE_MAX_AGE = 15 * 60;

/** The prefix of every default cookie name on https. */
export const HOST_PREFIX = "__Host-";
/** The prefix the session cookie had on https before `__Host-` (still read, see {@link legacySessionCookieNames}). */
export const LEGACY_SECURE_PREFIX = "__Secure-";

/**
 * The default cookies. With `useSecureCookies` (https), every name gets the `__Host-` prefix: the browser
 * then accepts the cookie only from this exact host, `Secure`, with `Path=/` and without `Domain`, so no
 * other host (a sibling subdomain included) can plant or overwrite it ("cookie tossing").
 */
export function defaultCookies(useSecureCookies: boolean): CookiesOptions {
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
  };
}

/**
 * The default cookies with the user's overrides deep-merged per cookie and per option. Overrides weaken
 * the defaults: a `domain` (or a `path` other than `/`) is not allowed on a `__Host-` cookie, so a cookie
 * given one without a name of its own falls back to the `__Secure-` prefix, which a sibling subdomain can
 * plant (and `secure: false` drops the prefix). The flow binding (http/flow-binding.ts) still protects the check cookies as long as the CSRF
 * cookie keeps its `__Host-` name.
 */
export function resolveCookies(useSecureCookies: boolean, overrides: Partial<CookiesOptions> = {}): CookiesOptions {
  const defaults = defaultCookies(useSecureCookies);
  for (const key of Object.keys(defaults) as Array<keyof CookiesOptions>) {
    const override = overrides[key];
    if (!override) continue;
    const options = { ...defaults[key].options, ...override.options };
    const hostOnly = options.domain === undefined && options.path === "/";
    const prefix = !options.secure ? "" : hostOnly ? HOST_PREFIX : LEGACY_SECURE_PREFIX;
    const defaultName = defaults[key].name.replace(HOST_PREFIX, prefix);
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
 * The names a session may still arrive under besides the configured one, tried in this order when the
 * request has no cookie of the configured name: the `__Secure-` name sessions had on https before
 * `__Host-` (only while the default name is in use), then, with `acceptAuthjs`, Auth.js's name. A session
 * read under one of them is re-issued under the configured name and the old cookie cleared.
 */
export function legacySessionCookieNames(cookies: CookiesOptions, acceptAuthjs: boolean): string[] {
  const { name, options } = cookies.sessionToken;
  const names: string[] = [];
  if (name === `${HOST_PREFIX}authlib.session-token`) names.push(`${LEGACY_SECURE_PREFIX}authlib.session-token`);
  if (acceptAuthjs) names.push(authjsSessionCookieName(options.secure === true));
  return names.filter((legacy) => legacy !== name);
}

/**
 * The name this request's session is read from: the configured one when the request has a cookie (or a
 * chunk) of it, else the first {@link legacySessionCookieNames} entry it has, else the configured one. A
 * legacy name never wins over a present configured cookie, so a planted legacy cookie cannot replace a
 * session.
 */
export function incomingSessionCookieName(
  cookies: CookiesOptions,
  requestCookies: Record<string, string | undefined>,
  acceptAuthjs: boolean,
): string {
  const { name } = cookies.sessionToken;
  if (hasChunkedCookie(requestCookies, name)) return name;
  return legacySessionCookieNames(cookies, acceptAuthjs).find((legacy) => hasChunkedCookie(requestCookies, legacy)) ?? name;
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
