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

/**
 * The default cookies. With `useSecureCookies`, names get the `__Secure-` prefix (`__Host-` for the CSRF
 * cookie, which is then bound to the exact host) and are only sent over https.
 */
export function defaultCookies(useSecureCookies: boolean): CookiesOptions {
  const prefix = useSecureCookies ? "__Secure-" : "";
  const options = { httpOnly: true, sameSite: "lax", path: "/", secure: useSecureCookies } as const;
  return {
    sessionToken: { name: `${prefix}authlib.session-token`, options: { ...options } },
    callbackUrl: { name: `${prefix}authlib.callback-url`, options: { ...options } },
    csrfToken: { name: `${useSecureCookies ? "__Host-" : ""}authlib.csrf-token`, options: { ...options } },
    pkceCodeVerifier: { name: `${prefix}authlib.pkce.code_verifier`, options: { ...options, maxAge: CHECK_COOKIE_MAX_AGE } },
    state: { name: `${prefix}authlib.state`, options: { ...options, maxAge: CHECK_COOKIE_MAX_AGE } },
    nonce: { name: `${prefix}authlib.nonce`, options: { ...options, maxAge: CHECK_COOKIE_MAX_AGE } },
    webauthnChallenge: { name: `${prefix}authlib.challenge`, options: { ...options, maxAge: CHECK_COOKIE_MAX_AGE } },
  };
}

/** The default cookies with the user's overrides deep-merged per cookie and per option. */
export function resolveCookies(useSecureCookies: boolean, overrides: Partial<CookiesOptions> = {}): CookiesOptions {
  const defaults = defaultCookies(useSecureCookies);
  for (const key of Object.keys(defaults) as Array<keyof CookiesOptions>) {
    const override = overrides[key];
    if (!override) continue;
    defaults[key] = {
      name: override.name ?? defaults[key].name,
      options: { ...defaults[key].options, ...override.options },
    };
  }
  return defaults;
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
