/**
 * API keys' methods of `HostedDbAdapter` (core's `ApiKeyAdapterMethods`), on the table of migration 9
 * (`authlib_api_keys`). The rules are the database's: the primary key refuses a taken id; the foreign key
 * deletes a user's keys with the user; revoking sets `revoked_at` only where it is unset (a key keeps the
 * time it was first revoked); `touchApiKey` is ONE conditional UPDATE, so of several instances one writes
 * `last_used_at` per interval.
 *
 * @module api-keys
 */
import type { ApiKeyAdapterMethods, ApiKeyRecord } from "@authlib/core";
import type { HostedDbClient } from "./client.js";
import { onlyRow, type Row, RowReader } from "./oauth-rows.js";
import { quoteIdentifier } from "./sql.js";

/** The table of migration 9. */
export const API_KEYS_TABLE = "authlib_api_keys";

const COLUMNS = `"id", "hash", "user_id", "organization_id", "name", "start", "scopes", "created_at", "expires_at", "last_used_at", "revoked_at"`;

/** The table's name on `client`'s branch, quoted for SQL text. */
export function apiKeysTable(client: HostedDbClient): string {
  return `${quoteIdentifier(client.branch)}.${quoteIdentifier(API_KEYS_TABLE)}`;
}

/** Every API-key method of `Adapter`, over `client`. */
export function apiKeyMethods(client: HostedDbClient): Required<ApiKeyAdapterMethods> {
  const table = apiKeysTable(client);
  return {
    async createApiKey(key) {
      const { rows } = await client.query<Row>(
        `INSERT INTO ${table} (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING ${COLUMNS}`,
        [
          key.id,
          key.hash,
          key.userId,
          key.organizationId,
          key.name,
          key.start,
          [...key.scopes],
          key.createdAt,
          key.expiresAt,
          key.lastUsedAt,
          key.revokedAt,
        ],
      );
      return toApiKey(onlyRow(rows, "createApiKey"));
    },
    async getApiKey(id) {
      const { rows } = await client.query<Row>(`SELECT ${COLUMNS} FROM ${table} WHERE "id" = $1`, [id]);
      return rows[0] === undefined ? null : toApiKey(rows[0]);
    },
    async listApiKeysByUser(userId) {
      const { rows } = await client.query<Row>(`SELECT ${COLUMNS} FROM ${table} WHERE "user_id" = $1 ORDER BY "created_at", "id"`, [
        userId,
      ]);
      return rows.map(toApiKey);
    },
    async listApiKeysByOrganization(organizationId) {
      const { rows } = await client.query<Row>(`SELECT ${COLUMNS} FROM ${table} WHERE "organization_id" = $1 ORDER BY "created_at", "id"`, [
        organizationId,
      ]);
      return rows.map(toApiKey);
    },
    async revokeApiKey(id, revokedAt) {
      await client.query(`UPDATE ${table} SET "revoked_at" = $2 WHERE "id" = $1 AND "revoked_at" IS NULL`, [id, revokedAt]);
    },
    async revokeApiKeysByUser(userId, revokedAt) {
      await client.query(`UPDATE ${table} SET "revoked_at" = $2 WHERE "user_id" = $1 AND "revoked_at" IS NULL`, [userId, revokedAt]);
    },
    async touchApiKey(id, usedAt, minInterval) {
      const { rows } = await client.query(
        `UPDATE ${table} SET "last_used_at" = $2
         WHERE "id" = $1 AND ("last_used_at" IS NULL OR "last_used_at" <= $2::timestamptz - make_interval(secs => $3::double precision / 1000))
         RETURNING 1`,
        [id, usedAt, minInterval],
      );
      return rows.length === 1;
    },
  };
}

function toApiKey(row: Row): ApiKeyRecord {
  const read = new RowReader(API_KEYS_TABLE, row);
  return {
    id: read.text("id"),
    hash: read.text("hash"),
    userId: read.text("user_id"),
    organizationId: read.nullableText("organization_id"),
    name: read.text("name"),
    start: read.text("start"),
    scopes: read.texts("scopes"),
    createdAt: read.date("created_at"),
    expiresAt: read.nullableDate("expires_at"),
    lastUsedAt: read.nullableDate("last_used_at"),
    revokedAt: read.nullableDate("revoked_at"),
  };
}
