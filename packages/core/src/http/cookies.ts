/**
 * Cookie names and options, and the cookies an action wants to set on its response.
 */
import type { CookieOption, CookiesOptions } from "../types.js";
import { cookieNamesOf, splitIntoChunks } from "./cookie-chunks.js";

/** A cookie to write on the response. A `maxAge` of 0 deletes it. */
export interface Cookie {
  name: string;
  value: string;
  options: CookieOption["options"];
}

/** Lifetime of the short-lived check cookies (PKCE, state, nonce, WebAuthn challenge): 15 minutes. */
export const CHECK_COOKIE_MAX_AGE = 15 * 60;

/** The prefix of every default cookie name on https. */
export const HOST_PREFIX = "__Host-";
/** The prefix the session cookie had on https before `__Host-` (still read, see {@link legacySessionCookieName}). */
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
 * The name the session cookie had on https before it became `__Host-`, when the default name is in use:
 * a session issued then is still read, re-issued under the new name, and the old cookie cleared.
 */
export function legacySessionCookieName(cookies: CookiesOptions): string | undefined {
  const { name } = cookies.sessionToken;
  return name === `${HOST_PREFIX}authlib.session-token` ? `${LEGACY_SECURE_PREFIX}authlib.session-token` : undefined;
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
