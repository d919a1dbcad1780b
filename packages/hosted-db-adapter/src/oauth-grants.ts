/**
 * Grants, with their refresh-token families, and the authorization server's signing keys
 * (`authlib_oauth_grants`, `authlib_oauth_signing_keys`, migration 8). Advancing a grant is ONE conditional
 * UPDATE (`… WHERE "generation" = $2 AND "revoked_at" IS NULL`) whose returned rows say whether this call
 * moved it, so of two instances redeeming one refresh token exactly one does; revoking sets `revoked_at`
 * only where it is unset, so a grant keeps the time it was first revoked (the time pruning counts from).
 *
 * @module oauth-grants
 */
import type { AuthorizationServerAdapterMethods, ClientJwk, OAuthGrant, OAuthSigningKey } from "@authlib/core";
import type { HostedDbClient } from "./client.js";
import { jsonParameter, OAUTH_TABLES, oauthTable, onlyRow, type Row, RowReader } from "./oauth-rows.js";

type Methods<Keys extends keyof AuthorizationServerAdapterMethods> = Pick<Required<AuthorizationServerAdapterMethods>, Keys>;

const GRANT_COLUMNS = `"id", "user_id", "client_id", "scopes", "resources", "secret", "generation", "refreshable", "auth_time", "aal",
  "amr", "created_at", "last_used_at", "expires_at", "revoked_at"`;

/** The grant methods over `client`: create, read, list a user's, advance once per generation, revoke. */
export function grantMethods(
  client: HostedDbClient,
): Methods<
  "createOAuthGrant" | "getOAuthGrant" | "listOAuthGrantsByUser" | "advanceOAuthGrant" | "revokeOAuthGrant" | "revokeOAuthGrantsByUser"
> {
  const grants = oauthTable(client, "grants");
  return {
    async createOAuthGrant(grant) {
      const { rows } = await client.query<Row>(
        `INSERT INTO ${grants} (${GRANT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
         RETURNING ${GRANT_COLUMNS}`,
        [
          grant.id,
          grant.userId,
          grant.clientId,
          [...grant.scopes],
          [...grant.resources],
          grant.secret,
          grant.generation,
          grant.refreshable,
          grant.authTime,
          grant.aal,
          [...grant.amr],
          grant.createdAt,
          grant.lastUsedAt,
          grant.expiresAt,
          grant.revokedAt,
        ],
      );
      return toGrant(onlyRow(rows, "createOAuthGrant"));
    },
    async getOAuthGrant(id) {
      const { rows } = await client.query<Row>(`SELECT ${GRANT_COLUMNS} FROM ${grants} WHERE "id" = $1`, [id]);
      return rows[0] === undefined ? null : toGrant(rows[0]);
    },
    async listOAuthGrantsByUser(userId) {
      const { rows } = await client.query<Row>(`SELECT ${GRANT_COLUMNS} FROM ${grants} WHERE "user_id" = $1 ORDER BY "created_at", "id"`, [
        userId,
      ]);
      return rows.map(toGrant);
    },
    async advanceOAuthGrant(id, generation, usedAt) {
      const { rows } = await client.query(
        `UPDATE ${grants} SET "generation" = "generation" + 1, "last_used_at" = $3
         WHERE "id" = $1 AND "generation" = $2 AND "revoked_at" IS NULL RETURNING 1`,
        [id, generation, usedAt],
      );
      return rows.length === 1;
    },
    async revokeOAuthGrant(id, revokedAt) {
      await client.query(`UPDATE ${grants} SET "revoked_at" = $2 WHERE "id" = $1 AND "revoked_at" IS NULL`, [id, revokedAt]);
    },
    async revokeOAuthGrantsByUser(userId, revokedAt) {
      await client.query(`UPDATE ${grants} SET "revoked_at" = $2 WHERE "user_id" = $1 AND "revoked_at" IS NULL`, [userId, revokedAt]);
    },
  };
}

const KEY_COLUMNS = `"kid", "alg", "public_jwk", "sealed_private_jwk", "created_at", "retires_at", "expires_at"`;

/** The signing key methods over `client`: create, and list the published ones (not expired), newest first. */
export function signingKeyMethods(client: HostedDbClient): Methods<"listOAuthSigningKeys" | "createOAuthSigningKey"> {
  const keys = oauthTable(client, "signingKeys");
  return {
    async listOAuthSigningKeys() {
      const { rows } = await client.query<Row>(
        `SELECT ${KEY_COLUMNS} FROM ${keys} WHERE "expires_at" > now() ORDER BY "created_at" DESC, "kid"`,
      );
      return rows.map(toSigningKey);
    },
    async createOAuthSigningKey(key) {
      await client.query(`INSERT INTO ${keys} (${KEY_COLUMNS}) VALUES ($1, $2, $3::jsonb, $4, $5, $6, $7)`, [
        key.kid,
        key.alg,
        jsonParameter(key.publicJwk),
        key.sealedPrivateJwk,
        key.createdAt,
        key.retiresAt,
        key.expiresAt,
      ]);
    },
  };
}

function toGrant(row: Row): OAuthGrant {
  const read = new RowReader(OAUTH_TABLES.grants, row);
  return {
    id: read.text("id"),
    userId: read.text("user_id"),
    clientId: read.text("client_id"),
    scopes: read.texts("scopes"),
    resources: read.texts("resources"),
    secret: read.text("secret"),
    generation: read.number("generation"),
    refreshable: read.boolean("refreshable"),
    authTime: read.number("auth_time"),
    aal: read.number("aal"),
    amr: read.texts("amr"),
    createdAt: read.date("created_at"),
    lastUsedAt: read.date("last_used_at"),
    expiresAt: read.nullableDate("expires_at"),
    revokedAt: read.nullableDate("revoked_at"),
  };
}

function toSigningKey(row: Row): OAuthSigningKey {
  const read = new RowReader(OAUTH_TABLES.signingKeys, row);
  return {
    kid: read.text("kid"),
    alg: read.oneOf("alg", ["ES256"] as const),
    // The stored JSON is the public JWK core wrote.
    publicJwk: read.json("public_jwk") as ClientJwk,
    sealedPrivateJwk: read.text("sealed_private_jwk"),
    createdAt: read.date("created_at"),
    retiresAt: read.date("retires_at"),
    expiresAt: read.date("expires_at"),
  };
}
