/**
 * What every OAuth / OIDC preset shares: merging the user's options over the preset's defaults, and a
 * factory for providers that have no preset.
 *
 * @module providers/oauth
 */

import type { User } from "../types/config.js";
import type { OAuthConfig } from "../types/providers.js";

/** The options a preset accepts: any provider field; endpoint `params`, `client` and `style` are merged. */
export type OAuthUserConfig<P> = Partial<OAuthConfig<P>>;

/**
 * What a preset returns: the provider typed with its own profile shape `P` (so `profile()` and
 * `userinfo.request` overrides are typed), usable wherever a provider with the generic `Profile` is
 * expected (`providers: [GitHub()]`). The engine hands `profile()` exactly what the provider's userinfo
 * or ID token contained, which is `P`.
 */
export type OAuthPresetConfig<P> = OAuthConfig<P> & OAuthConfig;

/**
 * One endpoint option over another: a string replaces the default; an object is merged into it (its
 * `url` replaces the default URL, its `params` are added to the default ones).
 */
function mergeEndpoint<E>(defaults: E | undefined, option: E | undefined): E | undefined {
  if (option === undefined) return defaults;
  if (typeof option !== "object" || option === null || defaults === undefined) return option;
  const base: Record<string, unknown> = typeof defaults === "object" && defaults !== null ? { ...(defaults as object) } : { url: defaults };
  const overrides = option as Record<string, unknown>;
  const merged: Record<string, unknown> = { ...base, ...overrides };
  if (base.params !== undefined || overrides.params !== undefined) {
    merged.params = { ...(base.params as object | undefined), ...(overrides.params as object | undefined) };
  }
  return merged as E;
}

/**
 * The preset `defaults` with the user's `options` over them: top-level fields replace the defaults
 * (`undefined` ones are ignored), `authorization` / `token` / `userinfo` are merged as endpoints (a
 * string replaces, an object adds to the default URL and `params`), `client` and `style` are merged
 * per key. The user's options are kept in `options`.
 */
export function mergeProviderOptions<P>(defaults: OAuthConfig<P>, options: OAuthUserConfig<P> = {}): OAuthPresetConfig<P> {
  const defined = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as OAuthUserConfig<P>;
  const merged: OAuthConfig<P> = { ...defaults, ...defined, options };
  merged.authorization = mergeEndpoint(defaults.authorization, options.authorization);
  merged.token = mergeEndpoint(defaults.token, options.token);
  merged.userinfo = mergeEndpoint(defaults.userinfo, options.userinfo);
  if (defaults.client || options.client) merged.client = { ...defaults.client, ...options.client };
  if (defaults.style || options.style) merged.style = { ...defaults.style, ...options.style };
  // The one place where the provider's own profile type meets the generic one (see OAuthPresetConfig).
  return merged as OAuthPresetConfig<P>;
}

/**
 * A provider without a preset: an OpenID Connect provider needs `id`, `name`, `type: "oidc"` and
 * `issuer`; a plain OAuth 2 provider `type: "oauth"` and its `authorization`, `token` and `userinfo`
 * URLs (or an `issuer` to discover them from).
 *
 * ```ts
 * OAuthProvider({ id: "corp", name: "Corp SSO", type: "oidc", issuer: "https://sso.corp.example" })
 * ```
 */
export function OAuthProvider<P>(config: OAuthConfig<P>): OAuthPresetConfig<P> {
  return mergeProviderOptions(config, {});
}

/** The standard OpenID Connect claims a `profile()` of an OIDC preset reads. */
export interface StandardClaims {
  sub: string;
  name?: string | null;
  preferred_username?: string | null;
  email?: string | null;
  picture?: string | null;
}

/** Maps standard OIDC claims to a `User`: `sub`, `name` (else `preferred_username`), `email`, `picture`. */
export function standardClaimsProfile(profile: StandardClaims): User & { id: string } {
  return {
    id: profile.sub,
    name: profile.name ?? profile.preferred_username ?? null,
    email: profile.email ?? null,
    image: profile.picture ?? null,
  };
}

/**
 * The claims of an OpenID Connect ID token with the `profile` and `email` scopes (OpenID Connect Core 1.0,
 * §2 and §5.1), the shape a preset's own profile type extends with its provider's extra claims.
 */
export interface IdTokenClaims extends StandardClaims {
  iss: string;
  aud: string | string[];
  exp: number;
  iat: number;
  given_name?: string;
  family_name?: string;
  email_verified?: boolean;
  [claim: string]: unknown;
}

/** What a preset built by {@link issuerOidcPreset} states itself; the rest is shared. */
export interface IssuerOidcPresetDefaults<P> {
  id: string;
  name: string;
  style: { brandColor: string; text: string };
  /** Maps the claims to a user. Default: {@link standardClaimsProfile}. */
  profile?: (profile: P) => User & { id: string };
}

/**
 * A preset for an OpenID Connect provider found through its `issuer` (discovery gives the endpoints): the
 * scopes `openid profile email`, the standard-claims profile unless `defaults.profile` says otherwise, and
 * `trustEmail: false` — the token's `email_verified` claim decides whether the address is proven
 * (SECURITY.md, "Identity"). The user's `options` are merged over it as by {@link mergeProviderOptions}.
 */
export function issuerOidcPreset<P extends StandardClaims>(
  defaults: IssuerOidcPresetDefaults<P>,
  options?: OAuthUserConfig<P>,
): OAuthPresetConfig<P> {
  const { profile = standardClaimsProfile, ...named } = defaults;
  return mergeProviderOptions<P>(
    { ...named, type: "oidc", trustEmail: false, authorization: { params: { scope: "openid profile email" } }, profile },
    options,
  );
}
