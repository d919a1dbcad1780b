/**
 * What enterprise SSO adds to the shared types by declaration merging: its `auth.api` methods, its audit
 * events, its texts. The records and the option are in `types/sso.ts`.
 *
 * @module features/sso/types
 */
import type { RequestLike } from "../../types/api.js";
import type { CookieOption } from "../../types/config.js";
import type { ListedSsoConnection, SsoConnectionChanges, SsoConnectionInput, SsoDiscovery } from "../../types/sso.js";

/** Enterprise SSO's methods of `auth.api` (`sso` in the configuration). */
export interface SsoApi {
  /** A new connection of the organization (the caller's role grants `sso:manage`). */
  createSsoConnection(request: RequestLike, input: SsoConnectionInput): Promise<ListedSsoConnection>;
  /** Changes a connection. */
  updateSsoConnection(request: RequestLike, input: SsoConnectionChanges): Promise<ListedSsoConnection>;
  /** Deletes a connection and its identities. */
  deleteSsoConnection(request: RequestLike, input: { connectionId: string }): Promise<void>;
  /** The organization's connections, without their secrets. */
  listSsoConnections(request: RequestLike, input: { organizationId: string }): Promise<ListedSsoConnection[]>;
  /** Where `email` signs in: says only whether its domain uses SSO (never whether an account exists). */
  ssoDiscover(request: RequestLike, input: { email: string }): Promise<SsoDiscovery>;
}

/** Enterprise SSO's texts (`sso.*`), in every shipped language. */
export interface SsoMessages {
  "sso.continue": string;
  "sso.emailLabel": string;
  "sso.emailHint": string;
  "sso.required": string;
  "sso.failed": string;
  "sso.title": string;
  "sso.none": string;
  "sso.created": string;
  "sso.invalid": string;
  "sso.issuer": string;
  "sso.idpEntityId": string;
  "sso.redirectUri": string;
  "sso.spCertificate": string;
  "sso.spEntityId": string;
  "sso.acsUrl": string;
  "sso.requiredBadge": string;
  "sso.requiredLabel": string;
  "sso.addOidc": string;
  "sso.name": string;
  "sso.clientId": string;
  "sso.clientSecret": string;
  "sso.addSaml": string;
  "sso.metadataXml": string;
  "sso.metadataHint": string;
  "sso.metadataUrl": string;
  "sso.defaultRole": string;
  "sso.delete": string;
  "sso.deleted": string;
  "sso.invalidMetadata": string;
  "sso.notFound": string;
  "sso.forbidden": string;
  "sso.recentSignIn": string;
  "sso.signInAgain": string;
  "sso.scimTitle": string;
  "sso.scimIntro": string;
  "sso.scimBaseUrl": string;
  "sso.scimNone": string;
  "sso.scimCreated": string;
  "sso.scimLastUsed": string;
  "sso.scimNeverUsed": string;
  "sso.scimCreate": string;
  "sso.scimNewToken": string;
  "sso.scimCopyHint": string;
  "sso.scimRevoke": string;
  "sso.scimRevoked": string;
  "sso.scimNotFound": string;
}

declare module "../../types/api.js" {
  interface AuthApi extends SsoApi {}
}

declare module "../../types/i18n.js" {
  interface FeatureMessageTexts extends SsoMessages {}
}

declare module "../../types/telemetry.js" {
  interface AuditEventTypes {
    ssoConnectionCreated: true;
    ssoConnectionUpdated: true;
    ssoConnectionDeleted: true;
    ssoConnectionRefused: true;
    ssoSignIn: true;
    ssoSignInFailed: true;
  }
}

declare module "../../types/config.js" {
  interface CookiesOptions {
    /** A started SAML sign-in: its request id, sealed and bound to this browser. Present with `sso: {…}`. */
    ssoSamlRequest?: CookieOption;
  }
}
