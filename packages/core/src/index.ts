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

export type * from "./adapters.js";
export type {
  AuthApi,
  ChangePasswordInput,
  EmailCodeInput,
  PasswordResetRequestInput,
  RedirectResult,
  RequestLike,
  ResetPasswordInput,
  RevokeResult,
  RevokeUserSessionsInput,
  SessionResult,
  SignInInput,
  SignOutInput,
  SignUpInput,
} from "./api.js";
export type { RecentAuthInput, TotpEnrollment, TwoFactorApi, TwoFactorStatus } from "./api-two-factor.js";
export { Auth, getSession } from "./auth.js";
export type { EnvWarnings } from "./env/defaults.js";
export { setEnvDefaults } from "./env/defaults.js";
export type { EnvSource } from "./env/read.js";
export * from "./errors.js";
export type { Cookie } from "./http/cookies.js";
export type { MessageKey, MessageOverrides, Messages, Translator } from "./i18n/types.js";
export type { AuthInstance } from "./instance.js";
export { createAuth } from "./instance.js";
export type { DefaultJWT, GetTokenParams, JWT, JWTDecodeParams, JWTEncodeParams, JWTOptions } from "./jwt.js";
export { decode, encode, getToken } from "./jwt.js";
export type { AccountUnlinkedMessage, LinkedAccount, UnlinkAccountInput } from "./linked-account-types.js";
export type { ListedPasskey, PasskeyChangedMessage, RemovePasskeyInput, RenamePasskeyInput } from "./passkey-types.js";
export type { AuthRequestOptions } from "./pipeline.js";
export type * from "./providers/types.js";
export type { MemoryRateLimitStoreOptions, RateLimitStore, RateLimitWindow } from "./rate-limit/store.js";
export { memoryRateLimitStore } from "./rate-limit/store.js";
export type {
  ClientAddressFunction,
  ClientRequestLimit,
  CredentialsRateLimit,
  EmailRateLimit,
  EmailRateLimits,
  RateLimitConfig,
  TwoFactorRateLimits,
} from "./rate-limit-types.js";
export type { MemorySessionStoreOptions } from "./session/memory-store.js";
export { memorySessionStore } from "./session/memory-store.js";
export type {
  ListedSession,
  SessionRecord,
  SessionRegistry,
  SessionRevocationReason,
  SessionRevokedMessage,
} from "./session-registry-types.js";
export { skipCSRFCheck } from "./symbols.js";
export type { AuditConfig, AuditEvent, AuditEventType, AuditStore, TelemetryConfig } from "./telemetry/types.js";
export type * from "./types.js";
