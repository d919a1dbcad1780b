/**
 * Authorization codes and device authorizations (`authlib_oauth_codes`, `authlib_oauth_device_codes`,
 * migration 8), keyed by the hash of their code. Using a code and changing a device code are each ONE
 * conditional UPDATE (`… WHERE "used_at" IS NULL`, `… WHERE "status" = $2`) whose returned rows say whether
 * this call changed it: of two instances racing, the second waits for the first's row lock, then finds the
 * condition false. "Not expired" is the database server's `now()`, as everywhere in this adapter.
 *
 * @module oauth-codes
 */
import type { AuthorizationServerAdapterMethods, OAuthAuthorizationCode, OAuthDeviceCode } from "@authlib/core";
import type { HostedDbClient } from "./client.js";
import { OAUTH_TABLES, oauthTable, type Row, RowReader } from "./oauth-rows.js";

type Methods<Keys extends keyof AuthorizationServerAdapterMethods> = Pick<Required<AuthorizationServerAdapterMethods>, Keys>;

const CODE_COLUMNS = `"code_hash", "client_id", "user_id", "redirect_uri", "scopes", "resources", "code_challenge", "nonce",
  "auth_time", "aal", "amr", "expires_at", "used_at", "grant_id"`;

/** The authorization code methods over `client`: create, read, use once. */
export function authorizationCodeMethods(
  client: HostedDbClient,
): Methods<"createOAuthAuthorizationCode" | "getOAuthAuthorizationCode" | "useOAuthAuthorizationCode"> {
  const codes = oauthTable(client, "codes");
  return {
    async createOAuthAuthorizationCode(code) {
      await client.query(`INSERT INTO ${codes} (${CODE_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`, [
        code.codeHash,
        code.clientId,
        code.userId,
        code.redirectUri,
        [...code.scopes],
        [...code.resources],
        code.codeChallenge,
        code.nonce,
        code.authTime,
        code.aal,
        [...code.amr],
        code.expiresAt,
        code.usedAt,
        code.grantId,
      ]);
    },
    async getOAuthAuthorizationCode(codeHash) {
      const { rows } = await client.query<Row>(`SELECT ${CODE_COLUMNS} FROM ${codes} WHERE "code_hash" = $1`, [codeHash]);
      return rows[0] === undefined ? null : toAuthorizationCode(rows[0]);
    },
    async useOAuthAuthorizationCode(codeHash, usedAt, grantId) {
      const { rows } = await client.query(
        `UPDATE ${codes} SET "used_at" = $2, "grant_id" = $3 WHERE "code_hash" = $1 AND "used_at" IS NULL RETURNING 1`,
        [codeHash, usedAt, grantId],
      );
      return rows.length === 1;
    },
  };
}

const DEVICE_CODE_COLUMNS = `"device_code_hash", "user_code", "client_id", "scopes", "resources", "status", "user_id", "auth_time",
  "aal", "amr", "interval", "last_polled_at", "expires_at", "created_at"`;

type DeviceCodeChange = Parameters<Required<AuthorizationServerAdapterMethods>["updateOAuthDeviceCode"]>[2];

/** The column of each field `updateOAuthDeviceCode` may change: the keys (hashes, user code, client) are not here. */
const CHANGEABLE_COLUMNS: { readonly [K in keyof Required<DeviceCodeChange>]: string } = {
  scopes: "scopes",
  resources: "resources",
  status: "status",
  userId: "user_id",
  authTime: "auth_time",
  aal: "aal",
  amr: "amr",
  interval: "interval",
  lastPolledAt: "last_polled_at",
  expiresAt: "expires_at",
  createdAt: "created_at",
};

const STATUSES: readonly OAuthDeviceCode["status"][] = ["pending", "approved", "denied", "used"];

/** The device code methods over `client`: create, read by hash or by live user code, change from a status. */
export function deviceCodeMethods(
  client: HostedDbClient,
): Methods<"createOAuthDeviceCode" | "getOAuthDeviceCode" | "getOAuthDeviceCodeByUserCode" | "updateOAuthDeviceCode"> {
  const deviceCodes = oauthTable(client, "deviceCodes");
  return {
    async createOAuthDeviceCode(code) {
      await client.query(
        `INSERT INTO ${deviceCodes} (${DEVICE_CODE_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
        [
          code.deviceCodeHash,
          code.userCode,
          code.clientId,
          [...code.scopes],
          [...code.resources],
          code.status,
          code.userId,
          code.authTime,
          code.aal,
          code.amr === null ? null : [...code.amr],
          code.interval,
          code.lastPolledAt,
          code.expiresAt,
          code.createdAt,
        ],
      );
    },
    async getOAuthDeviceCode(deviceCodeHash) {
      const { rows } = await client.query<Row>(`SELECT ${DEVICE_CODE_COLUMNS} FROM ${deviceCodes} WHERE "device_code_hash" = $1`, [
        deviceCodeHash,
      ]);
      return rows[0] === undefined ? null : toDeviceCode(rows[0]);
    },
    async getOAuthDeviceCodeByUserCode(userCode) {
      const { rows } = await client.query<Row>(
        `SELECT ${DEVICE_CODE_COLUMNS} FROM ${deviceCodes} WHERE "user_code" = $1 AND "expires_at" > now()
         ORDER BY "created_at" DESC LIMIT 1`,
        [userCode],
      );
      return rows[0] === undefined ? null : toDeviceCode(rows[0]);
    },
    async updateOAuthDeviceCode(deviceCodeHash, expectedStatus, change) {
      const params: unknown[] = [deviceCodeHash, expectedStatus];
      const assignments: string[] = [];
      for (const [field, column] of Object.entries(CHANGEABLE_COLUMNS)) {
        const value = change[field as keyof DeviceCodeChange];
        if (value === undefined) continue;
        params.push(Array.isArray(value) ? [...value] : value);
        assignments.push(`"${column}" = $${params.length}`);
      }
      // Nothing to change is still a compare: true exactly when the status is the one expected.
      if (assignments.length === 0) assignments.push(`"status" = "status"`);
      const { rows } = await client.query(
        `UPDATE ${deviceCodes} SET ${assignments.join(", ")} WHERE "device_code_hash" = $1 AND "status" = $2 RETURNING 1`,
        params,
      );
      return rows.length === 1;
    },
  };
}

function toAuthorizationCode(row: Row): OAuthAuthorizationCode {
  const read = new RowReader(OAUTH_TABLES.codes, row);
  return {
    codeHash: read.text("code_hash"),
    clientId: read.text("client_id"),
    userId: read.text("user_id"),
    redirectUri: read.text("redirect_uri"),
    scopes: read.texts("scopes"),
    resources: read.texts("resources"),
    codeChallenge: read.text("code_challenge"),
    nonce: read.nullableText("nonce"),
    authTime: read.number("auth_time"),
    aal: read.number("aal"),
    amr: read.texts("amr"),
    expiresAt: read.date("expires_at"),
    usedAt: read.nullableDate("used_at"),
    grantId: read.nullableText("grant_id"),
  };
}

function toDeviceCode(row: Row): OAuthDeviceCode {
  const read = new RowReader(OAUTH_TABLES.deviceCodes, row);
  return {
    deviceCodeHash: read.text("device_code_hash"),
    userCode: read.text("user_code"),
    clientId: read.text("client_id"),
    scopes: read.texts("scopes"),
    resources: read.texts("resources"),
    status: read.oneOf("status", STATUSES),
    userId: read.nullableText("user_id"),
    authTime: read.nullableNumber("auth_time"),
    aal: read.nullableNumber("aal"),
    amr: read.nullableTexts("amr"),
    interval: read.number("interval"),
    lastPolledAt: read.nullableDate("last_polled_at"),
    expiresAt: read.date("expires_at"),
    createdAt: read.date("created_at"),
  };
}
