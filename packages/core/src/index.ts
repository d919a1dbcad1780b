/**
 * authlib core: framework-agnostic authentication on Web-standard `Request`/`Response`.
 *
 * ```ts
 * import { createAuth } from "@authlib/core";
 * import Credentials from "@authlib/core/providers/credentials";
 *
 * export const auth = createAuth({ providers: [Credentials({ authorize: checkPassword })], secret: process.env.AUTH_SECRET, trustHost: true });
 * export const handler = (request: Request) => auth.handler(request);
 * export const currentSession = async (request: Request) => (await auth.api.getSession(request)).session;
 * ```
 *
 * @module @authlib/core
 */

export type { EnvWarnings } from "./env/defaults.js";
export { setEnvDefaults } from "./env/defaults.js";
export type { EnvSource } from "./env/read.js";
export * from "./errors.js";
export type {
  FeatureDefinition,
  FieldParser,
  Fields,
  HandlerBody,
  HandlerInput,
  InputOf,
  InputSchema,
  ModuleHandler,
  OperationDeclaration,
  OperationHandler,
  OperationNeeds,
  Presentation,
  RecordRule,
  Refusal,
  RefusalRule,
  StringRule,
} from "./features/define.js";
export { defineFeature, defineOperation, field, inputSchema, lazyHandler } from "./features/define.js";
export type { Cookie } from "./http/cookies.js";
export type { DefaultJWT, GetTokenParams, JWT, JWTDecodeParams, JWTEncodeParams, JWTOptions } from "./jwt.js";
export { decode, encode, getToken } from "./jwt.js";
export { Auth, getSession } from "./kernel/auth.js";
// The built-in features' own public types (each feature's `types.ts`, which also adds to the shared ones).
export type {
  AdminApi,
  ApiKeyRateLimits,
  ApiKeysApi,
  AuthorizationServerApi,
  AuthorizationServerRateLimits,
  CreatedApiKey,
  CreatedScimToken,
  ImpersonationApi,
  ImpersonationResult,
  ListedApiKey,
  ListedGrant,
  ListedScimToken,
  ScimApi,
  SsoApi,
  StopImpersonationResult,
  TotpEnrollment,
  TwoFactorApi,
  TwoFactorRateLimits,
  TwoFactorStatus,
  VerifiedApiKey,
} from "./kernel/features.js";
export { defaultRoles, defineRoles, ORGANIZATION_PERMISSIONS } from "./kernel/features.js";
export type { AuthInstance } from "./kernel/instance.js";
export { createAuth } from "./kernel/instance.js";
export type { AuthRequestOptions } from "./kernel/pipeline.js";
export type * from "./providers/types.js";
export type { MemoryRateLimitStoreOptions, RateLimitStore, RateLimitWindow } from "./rate-limit/store.js";
export { memoryRateLimitStore } from "./rate-limit/store.js";
export type { MemorySessionStoreOptions } from "./session/memory-store.js";
export { memorySessionStore } from "./session/memory-store.js";
export { skipCSRFCheck } from "./symbols.js";
export type * from "./types/adapters.js";
export type * from "./types/admin.js";
export type {
  AuthApi,
  ChangePasswordInput,
  EmailCodeInput,
  OperationResult,
  OrganizationsApi,
  PasswordResetRequestInput,
  RecentAuthInput,
  RedirectResult,
  RequestLike,
  ResetPasswordInput,
  RevokeResult,
  RevokeUserSessionsInput,
  SessionResult,
  SignInInput,
  SignOutInput,
  SignUpInput,
} from "./types/api.js";
export type * from "./types/api-keys.js";
export type * from "./types/authorization-server.js";
export type * from "./types/config.js";
export type { MessageKey, MessageOverrides, Messages, Translator } from "./types/i18n.js";
export type { AccountUnlinkedMessage, LinkedAccount, UnlinkAccountInput } from "./types/linked-accounts.js";
export type * from "./types/organizations.js";
export type { ListedPasskey, PasskeyChangedMessage, RemovePasskeyInput, RenamePasskeyInput } from "./types/passkeys.js";
export type {
  ClientAddressFunction,
  ClientRequestLimit,
  CredentialsRateLimit,
  EmailRateLimit,
  EmailRateLimits,
  RateLimitConfig,
} from "./types/rate-limit.js";
export type * from "./types/scim.js";
export type {
  ListedSession,
  SessionRecord,
  SessionRegistry,
  SessionRevocationReason,
  SessionRevokedMessage,
} from "./types/session-registry.js";
export type * from "./types/sso.js";
export type { AuditConfig, AuditEvent, AuditEventType, AuditStore, TelemetryConfig } from "./types/telemetry.js";
