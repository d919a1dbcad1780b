/**
 * The documented facts of a preset that its provider object does not carry: where each `User` field
 * comes from, when the preset vouches for the email, how it reaches a self-hosted instance, and its
 * documentation page. Each preset module exports one as `meta`; `docs/providers.md` is generated from
 * them and the provider objects (`npm run docs:providers`). Type only: nothing here runs.
 *
 * @module providers/meta
 */

/** Facts about one OAuth / OIDC preset, for the generated provider table. */
export interface PresetMeta {
  /** Where each `User` field comes from in the provider's profile (a field path); `null` when the preset leaves it empty. */
  maps: { id: string; name: string | null; email: string | null; image: string | null };
  /** When `trustEmail` depends on the profile, or the provider sends `email_verified`: the condition, in a few words. */
  emailTrustedWhen?: string;
  /**
   * How to point the preset at a self-hosted or per-tenant instance: the option that moves every
   * endpoint (`"baseUrl"`, `"issuer"`), with its env variable where there is one.
   */
  selfHosted?: { option: string; env?: string; required?: boolean };
  /** The provider's documentation page the endpoints and profile shape come from. */
  docs: string;
}
