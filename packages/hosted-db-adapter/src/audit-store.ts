/**
 * `hostedDbAuditStore`: authlib's audit trail (`audit: { store }`) in the hosted database, table
 * `authlib_audit_events` (migration 5; the impersonating admin's id, migration 11). One INSERT per event; reads newest first.
 *
 * @module audit-store
 */
import type { AuditEvent, AuditEventType, AuditStore } from "@authlib/core";
import type { HostedDbClient } from "./client.js";
import { quoteIdentifier } from "./sql.js";

/** The table the audit trail is kept in (created by migration 5). */
export const AUDIT_EVENTS_TABLE = "authlib_audit_events";

/** What {@link HostedDbAuditStore.list} returns. */
export interface HostedDbAuditQuery {
  /** Only this user's events. */
  userId?: string;
  /** Only events of these types. */
  types?: readonly AuditEventType[];
  /** Most rows returned, newest first. Default 100, at most 1,000. */
  limit?: number;
}

/** An {@link AuditStore} in the hosted database, which also reads its trail back. */
export interface HostedDbAuditStore extends AuditStore {
  /** Stores one event (one INSERT). */
  write(event: AuditEvent): Promise<void>;
  /** The stored events, newest first. */
  list(query?: HostedDbAuditQuery): Promise<AuditEvent[]>;
}

interface AuditRow {
  time: Date | string;
  type: AuditEventType;
  outcome: AuditEvent["outcome"];
  user_id: string | null;
  provider: string | null;
  client_address_prefix: string | null;
  user_agent_label: string | null;
  detail: string | null;
  impersonator_id: string | null;
}

/**
 * The audit trail in `client`'s branch. Run `client.migrate()` (or `npx authlib db migrate`) first. A
 * failed write rejects: authlib logs it (`audit-write-failed`), counts it, and the request goes on.
 *
 * @example
 * ```ts
 * const auth = createAuth({ ..., audit: { store: hostedDbAuditStore(client) } });
 * ```
 */
export function hostedDbAuditStore(client: HostedDbClient): HostedDbAuditStore {
  const table = `${quoteIdentifier(client.branch)}.${quoteIdentifier(AUDIT_EVENTS_TABLE)}`;
  const insertSql = `INSERT INTO ${table} ("time", "type", "outcome", "user_id", "provider", "client_address_prefix", "user_agent_label", "detail", "impersonator_id")
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`;
  return {
    async write(event) {
      await client.query(insertSql, [
        event.time,
        event.type,
        event.outcome,
        event.userId,
        event.provider,
        event.clientAddressPrefix,
        event.userAgentLabel,
        event.detail,
        event.impersonatorId ?? null,
      ]);
    },
    async list(query = {}) {
      const where: string[] = [];
      const values: unknown[] = [];
      if (query.userId !== undefined) {
        values.push(query.userId);
        where.push(`"user_id" = $${values.length}`);
      }
      if (query.types) {
        values.push([...query.types]);
        where.push(`"type" = ANY($${values.length}::text[])`);
      }
      values.push(Math.min(Math.max(1, Math.trunc(query.limit ?? 100)), 1000));
      const sql = `SELECT "time", "type", "outcome", "user_id", "provider", "client_address_prefix", "user_agent_label", "detail", "impersonator_id"
        FROM ${table} ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY "time" DESC, "id" DESC LIMIT $${values.length}`;
      const { rows } = await client.query<AuditRow>(sql, values);
      return rows.map((row) => ({
        time: new Date(row.time),
        type: row.type,
        outcome: row.outcome,
        userId: row.user_id,
        provider: row.provider,
        clientAddressPrefix: row.client_address_prefix,
        userAgentLabel: row.user_agent_label,
        detail: row.detail,
        impersonatorId: row.impersonator_id,
      }));
    },
  };
}
