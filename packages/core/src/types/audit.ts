/**
 * The audit trail's internal shapes, shared by the always-loaded part (`index.ts`) and the writer.
 *
 * @module audit/types
 */

import type { AuthConfig, EventCallbacks, LoggerInstance } from "./config.js";
import type { AuditConfig, AuditEvent, AuditEventType } from "./telemetry.js";

/** One instance's audit trail. */
export interface Audit {
  config: AuditConfig;
  logger: LoggerInstance;
  /** The instance's telemetry (`telemetry/index.ts`), for the count of failed writes. */
  telemetry: { runtime?: { auditWriteFailed(): void } } | undefined;
  /** The configured providers' ids: a row names no other (a path segment is the client's text). */
  providers: string[];
  /** The app's `rateLimit` option: its `clientAddress` says where the client's address comes from. */
  rateLimit: AuthConfig["rateLimit"];
  /** What the instance's features audit themselves (`FeatureDefinition.audit`), in the list's order. */
  features?: readonly FeatureAudit[];
}

/**
 * What a feature adds to the audit trail that the pipeline records for it: the rows of its events, and
 * the kind of failure its routes' refusals are (`FeatureDefinition.audit`).
 */
export interface FeatureAudit {
  /** For each of its events (`config.events`), the row a message of it writes. */
  events?: { readonly [K in keyof EventCallbacks]?: (message: Parameters<EventCallbacks[K]>[0]) => AuditEventInput };
  /** A refused POST to one of `routes` (route templates) is a failure of this `type`, not a failed sign-in. */
  failures?: { readonly routes: readonly string[]; readonly type: AuditEventType };
}

/** What a feature says about an event; the rest of the row comes from the request. */
export interface AuditEventInput {
  type: AuditEventType;
  outcome?: AuditEvent["outcome"];
  userId?: string | null;
  provider?: string | null;
  detail?: string | null;
  /** The admin acting as the user (an impersonated session); the request's own (`request.impersonatorId`) when absent. */
  impersonatorId?: string | null;
}
