/**
 * The types of enterprise SSO (`sso` in the configuration, docs/sso.md): SAML 2.0 and OIDC connections that
 * belong to one organization, domain discovery, and SCIM provisioning.
 *
 * @module types/sso
 */

/** The `sso` option: enterprise SSO per organization (needs `organizations`). */
export interface SsoConfig {
  /**
   * How far (in seconds) a SAML assertion's `NotBefore`/`NotOnOrAfter` may be off this server's clock, for
   * identity providers whose clocks drift. Default 60; at most 300.
   */
  clockSkew?: number;
  /** SCIM 2.0 provisioning of each organization's directory (`<basePath>/scim/v2/…`); on with `sso`. */
  scim?: ScimConfig;
}

/** The `sso.scim` option. */
export interface ScimConfig {
  /** The most resources one list answers (`count` is cut to it; RFC 7644 §3.4.2.4). Default 100, at most 1000. */
  maxResults?: number;
}
