/**
 * The public shapes of the `telemetry` and `audit` options (types only: importing this module loads nothing).
 *
 * @module telemetry/types
 */

/**
 * The `telemetry` option. authlib reports spans and metrics through `@opentelemetry/api` when that package
 * is installed and the app registered an OpenTelemetry SDK; `false` turns it off. Attributes come from a
 * closed set (route, action, provider id, outcome, error type): never an email, name, token, code, cookie,
 * secret or full address.
 */
export interface TelemetryConfig {
  /**
   * Name the signed-in user on sign-in spans by a keyed hash of their id (`authlib.user.hash`: an HMAC whose
   * key is derived from the secret, so it cannot be reversed or recomputed without it). Default: no user.
   */
  userId?: "hashed";
}

/**
 * The kinds of audit events authlib records, by name: the shared ones here, a built-in feature's added by
 * declaration merging in its `types.ts`.
 */
export interface AuditEventTypes {
  signIn: true;
  signInFailed: true;
  signOut: true;
  sessionRevoked: true;
  linkAccount: true;
  accountUnlinked: true;
  passkeyAdded: true;
  passkeyRemoved: true;
  passwordChanged: true;
  userDeleted: true;
  rateLimited: true;
  reauthenticationFailed: true;
  organizationChanged: true;
  organizationRefused: true;
}

/** The kinds of audit events authlib records. */
export type AuditEventType = keyof AuditEventTypes;

/** One row of the audit trail. No email, name, token, cookie, full address or raw user-agent header. */
export interface AuditEvent {
  /** When it happened. */
  time: Date;
  type: AuditEventType;
  /** `"success"`, or `"failure"` for failures and refusals. */
  outcome: "success" | "failure";
  /** The user's id, when known. */
  userId: string | null;
  /** The provider's id, when the event concerns one. */
  provider: string | null;
  /** The client's address cut to its network: IPv4 /24 (`203.0.113.0/24`), IPv6 /48. */
  clientAddressPrefix: string | null;
  /** The browser family and OS read from the user-agent header (`"Chrome on Linux"`), never the header itself. */
  userAgentLabel: string | null;
  /**
   * The error's type (`CredentialsSignin`, `RateLimited`, …) for a failure; the reason of a revocation; the
   * second factor (`otp`, `recovery`, `hwk`) of a sign-in that took two steps.
   */
  detail: string | null;
  /**
   * The admin who acted as `userId` (an impersonated session, `impersonateUser`): every row of such a
   * session's requests names both. `null` (or absent, from a store that does not keep it) otherwise.
   */
  impersonatorId?: string | null;
}

/** Where audit events go: `hostedDbAuditStore(client)` from `@authlib/hosted-db-adapter`, or the app's own. */
export interface AuditStore {
  /**
   * Stores one event. Called off the request's path: a failure (a throw or a rejection) never fails the
   * request; it is logged (`audit-write-failed`) and counted (`authlib.audit.write_failures`).
   */
  write(event: AuditEvent): unknown;
}

/** The `audit` option: record sign-ins, sign-outs, revocations, links, failures and limit refusals. */
export interface AuditConfig {
  store: AuditStore;
}
