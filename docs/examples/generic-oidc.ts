/**
 * docs/providers-guide.md: a generic OpenID Connect provider (endpoints discovered from the issuer) and a
 * plain OAuth 2 provider (endpoints given, profile mapped by hand).
 */
import type { OAuthConfig, OIDCConfig } from "@authlib/core";

/**
 * Any OpenID Provider: `AUTH_ACME_ID`, `AUTH_ACME_SECRET` and `AUTH_ACME_ISSUER` (e.g.
 * `https://sso.acme.example`) fill the blanks. A value written here wins over its env variable.
 */
export const acme: OIDCConfig = {
  id: "acme",
  name: "Acme SSO",
  type: "oidc",
  authorization: { params: { scope: "openid email profile" } },
};

/** The profile of a provider that is not OpenID Connect. */
interface ForgeProfile {
  id: number;
  login: string;
  email: string | null;
  avatar_url: string;
}

/** A plain OAuth 2 provider: no discovery, so every endpoint is given. */
export const forge: OAuthConfig<ForgeProfile> = {
  id: "forge",
  name: "Forge",
  type: "oauth",
  authorization: { url: "https://forge.example/oauth/authorize", params: { scope: "read:user user:email" } },
  token: "https://forge.example/oauth/token",
  userinfo: "https://api.forge.example/user",
  profile: (profile) => ({ id: String(profile.id), name: profile.login, email: profile.email, image: profile.avatar_url }),
  // Forge verifies every address it returns; without this the email is not stored (see SECURITY.md).
  trustEmail: true,
};
