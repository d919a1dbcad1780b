/**
 * The audit trail's internal shapes, shared by the always-loaded part (`index.ts`) and the writer.
 *
 * @module audit/types
 */

import type { AuthConfig, LoggerInstance } from "./config.js";
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
}

/** What a feature says about an event; the rest of the row comes from the request. */
export interface AuditEventInput {
  type: AuditEventType;
  outcome?: AuditEvent["outcome"];
  userId?: string | null;
  provider?: string | null;
  detail?: string | null;
}
