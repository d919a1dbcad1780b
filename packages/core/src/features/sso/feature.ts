/**
 * Enterprise SSO (docs/sso.md): SAML 2.0 and OIDC connections that belong to one organization, stored as
 * data, discovery by a proven email domain, and sign-ins that make their users members. JSON routes under
 * `<basePath>/sso/*` and `auth.api`. Turned on by `sso: {…}` (with `organizations`); its code loads with the
 * first request to it. Only the definition lives here: the logic is in its modules.
 *
 * @module features/sso/feature
 */
import { defineFeature } from "../define.js";
import { ssoApi } from "./api.js";
import { ssoConfigError } from "./config-check.js";
import { ssoMessages } from "./messages.js";
import * as declared from "./operations.js";
import { scimApi, scimMethods, scimOperations } from "./scim/public.js";
import { ssoMethods } from "./store.js";

export type { CreatedScimToken, ListedScimToken, ScimApi } from "./scim/public.js";
export type { SsoApi, SsoMessages } from "./types.js";

const required = () => import("./required.js");

const operations = [
  declared.createSsoConnection,
  declared.updateSsoConnection,
  declared.deleteSsoConnection,
  declared.listSsoConnections,
  declared.ssoDiscover,
  declared.ssoEmailStep,
  declared.ssoSignInStart,
  declared.ssoCallback,
  declared.createOidcConnectionForm,
  declared.createSamlConnectionForm,
  declared.deleteSsoConnectionForm,
  declared.samlAssertionConsumer,
  declared.samlAssertionContinue,
  declared.samlMetadata,
  declared.samlContinueScript,
  // SCIM provisioning (`scim/`): the organization admins' tokens and the SCIM 2.0 endpoint at `scim/v2/…`.
  ...scimOperations,
];

export const ssoFeature = defineFeature({
  name: "sso",
  enabled: (config) => config.sso !== undefined,
  turnedOnBy: "sso",
  api: { ...ssoApi, ...scimApi },
  // A started SAML sign-in's request id, sealed and bound to this browser (`saml-flow.ts`).
  cookies: { ssoSamlRequest: "sso-saml-request" },
  messages: ssoMessages,
  check: ssoConfigError,
  adapterNeeds: (config) =>
    config.sso === undefined ? undefined : { feature: "Enterprise SSO (`sso`)", methods: [...ssoMethods, ...scimMethods] },
  quietErrors: [
    "SsoConnectionNotFound",
    "InvalidSsoConnection",
    "SsoRequired",
    "SsoSignInFailed",
    "ScimUnauthorized",
    "ScimInvalidRequest",
    "ScimResourceNotFound",
    "ScimConflict",
    "ScimForbidden",
    "ScimPreconditionFailed",
    "ScimTokenNotFound",
  ],
  ownerOperations: {
    createScimToken: { label: "SCIM token creation" },
    revokeScimToken: { label: "SCIM token revoke" },
  },
  signInErrors: { SsoRequired: "sso.required", SsoSignInFailed: "sso.failed" },
  audit: {
    // A refused connection change (not a member, a role too low, a bad setting) is its own failure.
    failures: {
      routes: [
        declared.createSsoConnection.path,
        declared.updateSsoConnection.path,
        declared.deleteSsoConnection.path,
        declared.createOidcConnectionForm.path,
        declared.createSamlConnectionForm.path,
        declared.deleteSsoConnectionForm.path,
      ],
      type: "ssoConnectionRefused",
    },
  },
  // The organization page's SSO section: its connections (add OIDC or SAML, delete) and SCIM tokens.
  organizationSection: {
    render: async (options, request, page) => (await import("./organization-section.js")).ssoOrganizationSection(options, request, page),
  },
  // An SSO-only address is refused every other way in (`required.ts`).
  hooks: {
    signInRefusal: async (options, userId, method) => (await required()).ssoSignInRefusal(options, userId, method),
    addressRefusal: async (options, address, method) => (await required()).ssoAddressRefusal(options, address, method),
    // The sign-in page asks for the address first ("Continue with SSO").
    signInEmailStep: (options) => ({
      action: `${options.authUrl}/sso/start`,
      label: "sso.emailLabel",
      hint: "sso.emailHint",
      button: "sso.continue",
    }),
  },
  operations,
});
