/**
 * The audit trail: the events of `audit.store`, recorded off the request's path. A store's failure is
 * logged (`audit-write-failed`) and counted, and never fails the request.
 *
 * The one entry point for every feature is {@link recordAuditEvent}; the pipeline also records the
 * events (`signIn`, `signOut`, `sessionRevoked`, `linkAccount`, `accountUnlinked`, `passkeyAdded`,
 * `passkeyRemoved`, `passwordChanged`, `userDeleted`, and the events a feature declares in its `audit`)
 * and the failures of each request, thrown or answered as a page (`ResponseInternal.failure`). The code
 * that writes (`write.ts`) loads with the first event.
 *
 * @module audit
 */

import type { Telemetry } from "../telemetry/index.js";
import type { Audit, AuditEventInput, FeatureAudit } from "../types/audit.js";
import type { AuthConfig, LoggerInstance } from "../types/config.js";
import type { InternalOptions, RequestInternal } from "../types/internal.js";

/** The audit trail of `config` (none without `config.audit`), kept on the instance's options, with what its `features` audit. */
export function createAudit(
  config: AuthConfig,
  logger: LoggerInstance,
  telemetry: Telemetry | undefined,
  providers: string[],
  features: readonly FeatureAudit[] = [],
): Audit | undefined {
  if (!config.audit) return undefined;
  return { config: config.audit, logger, telemetry, providers, rateLimit: config.rateLimit, features };
}

/** The writing half, loaded with the first event of any instance that has an audit trail. */
let writer: Promise<typeof import("./write.js")> | undefined;

/** Loads (once) the module that writes audit rows. */
export function loadAuditWriter(): Promise<typeof import("./write.js")> {
  writer ??= import("./write.js");
  return writer;
}

/**
 * Records an audit event of the request `request` (when the app set `audit`; nothing otherwise). Returns
 * at once: the store writes off the request's path.
 *
 * @example
 * ```ts
 * recordAuditEvent(options, undefined, { type: "sessionRevoked", userId, detail: "server" });
 * ```
 */
export function recordAuditEvent(
  options: Pick<InternalOptions, "audit">,
  request: RequestInternal | undefined,
  input: AuditEventInput,
): void {
  const { audit } = options;
  if (audit) void loadAuditWriter().then(({ writeAuditEvent }) => writeAuditEvent(audit, request, input));
}
