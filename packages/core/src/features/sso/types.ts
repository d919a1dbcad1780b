/**
 * What enterprise SSO adds to the shared types by declaration merging: its `auth.api` methods, its audit
 * events, its texts. The records and the option are in `types/sso.ts`.
 *
 * @module features/sso/types
 */
import type { SsoApi } from "../../types/sso.js";

/** Enterprise SSO's texts (`sso.*`), in every shipped language. */
export interface SsoMessages {
  "sso.continue": string;
  "sso.emailLabel": string;
  "sso.emailHint": string;
  "sso.required": string;
  "sso.failed": string;
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
