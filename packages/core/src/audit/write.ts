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
import type { AuditEvent, AuditEventType } from "../types/telemetry.js";
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
      // A sign-in that took a second step names its second factor (a recovery code's use shows).
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
    twoFactorChanged: (message) => {
      writeAuditEvent(audit, request, { type: TWO_FACTOR_CHANGES[message.change], userId: message.userId, provider: null });
      return events.twoFactorChanged(message);
    },
  };
}

/** The audit row of each second-factor change. */
const TWO_FACTOR_CHANGES = {
  enabled: "twoFactorEnabled",
  disabled: "twoFactorDisabled",
  recoveryCodesCreated: "recoveryCodesCreated",
} as const satisfies Record<Parameters<EventCallbacks["twoFactorChanged"]>[0]["change"], AuditEventType>;

/**
 * The routes (templates) that check a second factor's code: the second step, turning TOTP on and off,
 * new recovery codes, and the account page's forms that run them.
 */
const SECOND_FACTOR_ROUTES: ReadonlySet<string> = new Set([
  "two-factor",
  "two-factor/confirm",
  "two-factor/disable",
  "two-factor/recovery-codes",
  "account/two-factor-confirm",
  "account/two-factor-disable",
  "account/two-factor-recovery-codes",
]);

/** True for a POST to a route that checks a second factor's code. */
function checksSecondFactor(request: RequestInternal): boolean {
  // The matched route template (a sub-route is never in `providerId`).
  return request.method === "POST" && request.route !== undefined && SECOND_FACTOR_ROUTES.has(request.route);
}

/**
 * Sign-ins end on a callback: a failure there is a failed sign-in; a refusal where a second factor is
 * checked is a failed second factor (a wrong code turning TOTP off may be someone who holds the session
 * but not the app); a wrong current password for an account change is a failed re-authentication (the
 * same someone, guessing the password). The row names the user when the route learnt who it concerns
 * (`request.auditUserId`).
 */
export function auditFailure(audit: Audit, request: RequestInternal, error: AuthError, rateLimited: boolean): void {
  const provider = request.providerId ?? null;
  const failure = { outcome: "failure", userId: request.auditUserId, detail: error.type } as const;
  if (rateLimited) writeAuditEvent(audit, request, { type: "rateLimited", provider, ...failure });
  else if (checksSecondFactor(request)) writeAuditEvent(audit, request, { type: "twoFactorFailed", provider: null, ...failure });
  else if (error.type === "IncorrectPassword")
    writeAuditEvent(audit, request, { type: "reauthenticationFailed", provider: null, ...failure });
  else if (request.action === "callback" || (request.action === "signin" && request.method === "POST"))
    writeAuditEvent(audit, request, { type: "signInFailed", provider, ...failure });
}
