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
}
