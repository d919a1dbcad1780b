/**
 * The checks that tie a provider's callback to the browser that started the sign-in: PKCE, state and
 * nonce. Each value travels in its own cookie, sealed (encrypted JWE, salt = the cookie's name, 15
 * minutes) and bound to the provider id, issuer, client id and redirect URI of the flow. A value sealed
 * for one provider is rejected by every other one, which closes the IdP mix-up of CVE-2026-73419.
 *
 * Each value is also bound to the browser that started the flow (`ctx.flowBinding`, see
 * http/flow-binding.ts), so a check cookie planted from another browser is refused, and records whether
 * the flow was started as an explicit link of the account to the signed-in user (`ctx.link`).
 *
 * @module oauth/checks
 */

import type { AuthorizationServer } from "oauth4webapi";
import { InvalidCheck, JWTSessionError } from "../errors.js";
import { CHECK_COOKIE_MAX_AGE, type Cookie, expiredCookie } from "../http/cookies.js";
import { bindingMatches } from "../http/flow-binding.js";
import { decode, encode } from "../jwt.js";
import type { CookieOption, LoggerInstance } from "../types/config.js";
import type { OAuthConfig } from "../types/providers.js";
import type { OAuthContext } from "./context.js";
import { endpointUrl } from "./endpoints.js";

/** A check authlib can run on a callback. */
export type CheckName = "pkce" | "state" | "nonce";

/** What a sealed check value is bound to: the flow it was made for. */
export interface CheckBinding {
  provider: string;
  issuer: string;
  clientId: string;
  redirectUri: string;
}

/** The payload of a check cookie. */
interface SealedCheck extends CheckBinding {
  check: CheckName;
  value: string;
  /** The browser (CSRF token + subject) that started the flow. */
  browser: string;
  /** True when the flow was started as a link (POST /signin/:provider with `link=true`). */
  link: boolean;
}

/** The link intent of every check opened for a context, so the callback can tell whether the flow is a link. */
const openedIntents = new WeakMap<OAuthContext, boolean[]>();

/**
 * True when this context's callback opened at least one check cookie and every one of them was sealed
 * for a link. A flow without check cookies (`checks: ["none"]`) can never be a link.
 */
export function flowIsLink(ctx: OAuthContext): boolean {
  const intents = openedIntents.get(ctx) ?? [];
  return intents.length > 0 && intents.every(Boolean);
}

const cookieKeyOf = { pkce: "pkceCodeVerifier", state: "state", nonce: "nonce" } as const;

/** Display names used in error messages. */
const labelOf = { pkce: "PKCE code verifier", state: "state", nonce: "nonce" } as const;

/**
 * The checks a provider runs:
 * - `provider.checks`, default `["pkce", "state"]` for `oauth` and `["pkce", "state", "nonce"]` for
 *   `oidc` (an OpenID Provider must return a `nonce` sent in the request, OIDC Core §3.1.2.1 and
 *   §3.1.3.7; a provider that does not can set `checks` without it). `"none"` entries are ignored;
 * - plus `"state"` whenever a redirect proxy is in use (the proxy finds the flow's origin in the state);
 * - plus `"state"` when PKCE is configured without state and the server's metadata does not list `S256`
 *   in `code_challenge_methods_supported` (also when there is no metadata, i.e. explicit endpoints): a
 *   provider that ignores the verifier would otherwise accept a code from any browser. This is logged
 *   once per provider and instance (`warned`, the instance's set of warnings said) as the
 *   `pkce-unverified` warning.
 */
export function resolveChecks(
  provider: OAuthConfig,
  usesRedirectProxy: boolean,
  server: Pick<AuthorizationServer, "code_challenge_methods_supported">,
  logger: LoggerInstance,
  warned: Set<string> = new Set(),
): ReadonlySet<CheckName> {
  const configured = provider.checks ?? (provider.type === "oidc" ? ["pkce", "state", "nonce"] : ["pkce", "state"]);
  const checks = new Set<CheckName>(configured.filter((c): c is CheckName => c === "pkce" || c === "state" || c === "nonce"));
  if (usesRedirectProxy) checks.add("state");
  const pkceAdvertised = server.code_challenge_methods_supported?.includes("S256") === true;
  if (checks.has("pkce") && !checks.has("state") && !pkceAdvertised) {
    checks.add("state");
    const key = `pkce-unverified:${provider.id}`;
    if (!warned.has(key)) {
      warned.add(key);
      logger.warn("pkce-unverified");
      logger.debug("oauth: PKCE not advertised (no S256 in code_challenge_methods_supported), state check added", {
        provider: provider.id,
      });
    }
  }
  return checks;
}

/** The binding of the current flow. Without an issuer, the authorization URL identifies the server. */
export function checkBinding(provider: OAuthConfig, redirectUri: string): CheckBinding {
  return {
    provider: provider.id,
    issuer: provider.issuer ?? endpointUrl(provider.authorization) ?? "",
    clientId: provider.clientId ?? "",
    redirectUri,
  };
}

/** Name and options of the cookie that carries `check`. */
export function checkCookieOption(ctx: OAuthContext, check: CheckName): CookieOption {
  return ctx.cookies[cookieKeyOf[check]];
}

/** A cookie carrying `value` for `check`, sealed and bound to `binding`. */
export async function sealCheck(
  ctx: OAuthContext,
  check: CheckName,
  value: string,
  binding: CheckBinding,
  extraOptions: CookieOption["options"] = {},
): Promise<Cookie> {
  const option = checkCookieOption(ctx, check);
  const payload: SealedCheck = { ...binding, check, value, browser: ctx.flowBinding, link: ctx.link === true };
  const sealed = await encode<SealedCheck>({ token: payload, secret: ctx.secret, salt: option.name, maxAge: CHECK_COOKIE_MAX_AGE });
  return { name: option.name, value: sealed, options: { maxAge: CHECK_COOKIE_MAX_AGE, ...option.options, ...extraOptions } };
}

/**
 * The value of `check` from the request's cookie. Throws `InvalidCheck` when the cookie is missing,
 * tampered with, expired, sealed with another secret, bound to another flow, or made in another browser
 * (or for another signed-in user) than the one completing the flow.
 */
export async function openCheck(ctx: OAuthContext, check: CheckName, binding: CheckBinding): Promise<string> {
  const option = checkCookieOption(ctx, check);
  const sealed = ctx.requestCookies[option.name];
  if (!sealed) throw new InvalidCheck(`The ${labelOf[check]} cookie was missing. Start the sign-in again.`);
  let payload: Partial<SealedCheck> | null;
  try {
    payload = await decode<Partial<SealedCheck>>({ token: sealed, secret: ctx.secret, salt: option.name });
  } catch (error) {
    const cause = error instanceof JWTSessionError ? error : undefined;
    throw new InvalidCheck(`The ${labelOf[check]} cookie could not be read (tampered with, expired or sealed with another secret).`, {
      cause,
    });
  }
  if (!payload || payload.check !== check || typeof payload.value !== "string" || payload.value === "") {
    throw new InvalidCheck(`The ${labelOf[check]} cookie value could not be parsed.`);
  }
  const mismatch = (Object.keys(binding) as Array<keyof CheckBinding>).find((key) => payload[key] !== binding[key]);
  if (mismatch !== undefined) {
    throw new InvalidCheck(`The ${labelOf[check]} cookie belongs to another sign-in flow (its ${mismatch} differs).`, {
      cause: { check, mismatch },
    });
  }
  if (!bindingMatches(payload.browser, ctx.flowBinding)) {
    throw new InvalidCheck(`The ${labelOf[check]} cookie was made in another browser or session. Start the sign-in again.`, {
      cause: { check, mismatch: "browser" },
    });
  }
  openedIntents.set(ctx, [...(openedIntents.get(ctx) ?? []), payload.link === true]);
  return payload.value;
}

/** Cookies deleting the check cookies of `checks`. */
export function clearCheckCookies(ctx: OAuthContext, checks: Iterable<CheckName>, extraOptions: CookieOption["options"] = {}): Cookie[] {
  return [...checks].map((check) => {
    const option = checkCookieOption(ctx, check);
    return expiredCookie(option.name, { ...option.options, ...extraOptions });
  });
}
