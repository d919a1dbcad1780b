/**
 * Writing audit rows: the row built from the request (address prefix, user-agent label), the store
 * called without waiting, its failure logged and counted. Loaded with an instance's first event.
 *
 * @module audit/write
 */
import type { AuthError } from "../errors.js";
import { defaultClientAddress } from "../rate-limit/client-address.js";
import type { Audit, AuditEventInput } from "../types/audit.js";
import type { EventCallbacks } from "../types/config.js";
import type { RequestInternal } from "../types/internal.js";
import type { AuditEvent } from "../types/telemetry.js";
import { addressPrefix, userAgentLabel } from "./client.js";

/** `input` as a row, written without waiting; a failure is logged and counted. */
export function writeAuditEvent(audit: Audit, request: RequestInternal | undefined, input: AuditEventInput): void {
  let address: string | undefined;
  try {
    const clientAddress = (audit.rateLimit || undefined)?.clientAddress ?? defaultClientAddress;
    address = request ? clientAddress(request.request, request.connectionAddress) : undefined;
  } catch {
    address = undefined;
  }
  const event: AuditEvent = {
    time: new Date(),
    type: input.type,
    outcome: input.outcome ?? "success",
    userId: input.userId ?? null,
    provider: input.provider && audit.providers.includes(input.provider) ? input.provider : null,
    clientAddressPrefix: addressPrefix(address),
    userAgentLabel: request ? userAgentLabel(request.headers.get("user-agent")) : null,
    detail: input.detail ?? null,
    impersonatorId: input.impersonatorId ?? request?.impersonatorId ?? null,
  };
  const failed = () => {
    audit.logger.warn("audit-write-failed");
    audit.telemetry?.runtime?.auditWriteFailed();
  };
  try {
    Promise.resolve(audit.config.store.write(event)).catch(failed);
  } catch {
    failed();
  }
}

/** `events` for one request: each of the audited ones also records its row with the request's client. */
export function auditedEvents(audit: Audit, events: EventCallbacks, request: RequestInternal): EventCallbacks {
  const provider = request.providerId ?? null;
  return {
    ...events,
    signIn: (message) => {
      const userId = message.user.id ?? null;
      // A sign-in that took a second step names its second factor (a backup code's use shows).
      writeAuditEvent(audit, request, {
        type: "signIn",
        userId,
        provider: message.account?.provider ?? provider,
        detail: request.secondFactor,
      });
      return events.signIn(message);
    },
    signOut: (message) => {
      const userId =
        "session" in message ? (message.session?.userId ?? null) : typeof message.token?.sub === "string" ? message.token.sub : null;
      writeAuditEvent(audit, request, { type: "signOut", userId });
      return events.signOut(message);
    },
    sessionRevoked: (message) => {
      writeAuditEvent(audit, request, { type: "sessionRevoked", userId: message.userId, detail: message.reason });
      return events.sessionRevoked(message);
    },
    linkAccount: (message) => {
      writeAuditEvent(audit, request, { type: "linkAccount", userId: message.user.id ?? null, provider: message.account.provider });
      return events.linkAccount(message);
    },
    accountUnlinked: (message) => {
      writeAuditEvent(audit, request, { type: "accountUnlinked", userId: message.userId, provider: message.account.provider });
      return events.accountUnlinked(message);
    },
    passkeyAdded: (message) => {
      writeAuditEvent(audit, request, { type: "passkeyAdded", userId: message.userId, provider });
      return events.passkeyAdded(message);
    },
    passkeyRemoved: (message) => {
      writeAuditEvent(audit, request, { type: "passkeyRemoved", userId: message.userId, provider: null });
      return events.passkeyRemoved(message);
    },
    passwordChanged: (message) => {
      writeAuditEvent(audit, request, { type: "passwordChanged", userId: message.userId, provider: null, detail: message.reason });
      return events.passwordChanged(message);
    },
    userDeleted: (message) => {
      writeAuditEvent(audit, request, { type: "userDeleted", userId: message.user.id ?? null, provider: null });
      return events.userDeleted(message);
    },
    ...featureEvents(audit, events, request),
  };
}

/** The events the features audit (`FeatureDefinition.audit.events`): each writes its row, then runs the app's handler. */
function featureEvents(audit: Audit, events: EventCallbacks, request: RequestInternal): Partial<EventCallbacks> {
  const audited: Record<string, (message: never) => unknown> = {};
  for (const feature of audit.features ?? []) {
    for (const [name, row] of Object.entries(feature.events ?? {}) as Array<[keyof EventCallbacks, (message: never) => AuditEventInput]>) {
      const next = events[name] as (message: never) => unknown;
      audited[name] = (message) => {
        writeAuditEvent(audit, request, row(message));
        return next(message);
      };
    }
  }
  return audited as Partial<EventCallbacks>;
}

/**
 * The kind of failure a refused POST to a feature's route is (`FeatureDefinition.audit.failures`: the
 * second factor's routes that check a code are failed second factors), or `undefined`.
 */
function featureFailureType(audit: Audit, request: RequestInternal): AuditEventInput["type"] | undefined {
  // The matched route template (a sub-route is never in `providerId`).
  const route = request.route;
  if (request.method !== "POST" || route === undefined) return undefined;
  return audit.features?.find((feature) => feature.failures?.routes.includes(route))?.failures?.type;
}

/**
 * Sign-ins end on a callback: a failure there is a failed sign-in; a refusal at a feature's route that
 * checks a factor is the failure its feature names (`FeatureDefinition.audit.failures`); a wrong current password for an account change is a failed re-authentication (the
 * same someone, guessing the password). The row names the user when the route learnt who it concerns
 * (`request.auditUserId`).
 */
export function auditFailure(audit: Audit, request: RequestInternal, error: AuthError, rateLimited: boolean): void {
  const provider = request.providerId ?? null;
  const failure = { outcome: "failure", userId: request.auditUserId, detail: error.type } as const;
  const featureFailure = featureFailureType(audit, request);
  if (rateLimited) writeAuditEvent(audit, request, { type: "rateLimited", provider, ...failure });
  else if (featureFailure) writeAuditEvent(audit, request, { type: featureFailure, provider: null, ...failure });
  else if (error.type === "IncorrectPassword")
    writeAuditEvent(audit, request, { type: "reauthenticationFailed", provider: null, ...failure });
  else if (request.action === "callback" || (request.action === "signin" && request.method === "POST"))
    writeAuditEvent(audit, request, { type: "signInFailed", provider, ...failure });
}
