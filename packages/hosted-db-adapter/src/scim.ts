/**
 * SCIM provisioning's methods of `HostedDbAdapter` (core's `ScimAdapterMethods`), on the tables of migration
 * 13: `authlib_scim_tokens`, `authlib_scim_users`, `authlib_scim_groups`, `authlib_scim_group_members`.
 * The rules are the database's: primary keys refuse a taken id; a live user's `userName` and a group's
 * `displayName` are unique per organization without case (unique indexes on `lower(…)`); every directory
 * statement names the organization in its WHERE clause, so a row of another organization is never read or
 * written; revoking sets `revoked_at` only where it is unset; an organization's deletion deletes its tokens
 * and directory, a user's deletion their directory entries (foreign keys).
 *
 * @module scim
 */
import type { ScimAdapterMethods, ScimGroupRecord, ScimObject, ScimTokenRecord, ScimUserRecord } from "@authlib/core";
import type { HostedDbClient } from "./client.js";
import { onlyRow, type Row, RowReader } from "./oauth-rows.js";
import { quoteIdentifier } from "./sql.js";

/** The tables of migration 13. */
export const SCIM_TABLES = {
  tokens: "authlib_scim_tokens",
  users: "authlib_scim_users",
  groups: "authlib_scim_groups",
  members: "authlib_scim_group_members",
} as const;

const TOKEN_COLUMNS = `"id", "organization_id", "hash", "start", "created_by", "created_at", "last_used_at", "revoked_at"`;
const USER_COLUMNS = `"id", "organization_id", "user_id", "external_id", "user_name", "active", "resource", "version", "created_at", "updated_at", "deleted_at"`;
const GROUP_COLUMNS = `"id", "organization_id", "external_id", "display_name", "resource", "version", "created_at", "updated_at"`;

/** The quoted names of the tables on `client`'s branch. */
function tablesOf(client: HostedDbClient) {
  const branch = quoteIdentifier(client.branch);
  return {
    tokens: `${branch}.${quoteIdentifier(SCIM_TABLES.tokens)}`,
    users: `${branch}.${quoteIdentifier(SCIM_TABLES.users)}`,
    groups: `${branch}.${quoteIdentifier(SCIM_TABLES.groups)}`,
    members: `${branch}.${quoteIdentifier(SCIM_TABLES.members)}`,
  };
}

/** Every SCIM method of `Adapter`, over `client`. */
export function scimMethods(client: HostedDbClient): Required<ScimAdapterMethods> {
  return { ...tokenMethods(client), ...userMethods(client), ...groupMethods(client), ...memberMethods(client) };
}

type Methods<K extends keyof ScimAdapterMethods> = Required<Pick<ScimAdapterMethods, K>>;

/** The organization's tokens. */
function tokenMethods(
  client: HostedDbClient,
): Methods<"createScimToken" | "getScimToken" | "listScimTokens" | "revokeScimToken" | "touchScimToken"> {
  const { tokens } = tablesOf(client);
  return {
    async createScimToken(token) {
      const { rows } = await client.query<Row>(
        `INSERT INTO ${tokens} (${TOKEN_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${TOKEN_COLUMNS}`,
        [token.id, token.organizationId, token.hash, token.start, token.createdBy, token.createdAt, token.lastUsedAt, token.revokedAt],
      );
      return toToken(onlyRow(rows, "createScimToken"));
    },
    async getScimToken(id) {
      const { rows } = await client.query<Row>(`SELECT ${TOKEN_COLUMNS} FROM ${tokens} WHERE "id" = $1`, [id]);
      return rows[0] === undefined ? null : toToken(rows[0]);
    },
    async listScimTokens(organizationId) {
      const { rows } = await client.query<Row>(
        `SELECT ${TOKEN_COLUMNS} FROM ${tokens} WHERE "organization_id" = $1 ORDER BY "created_at", "id"`,
        [organizationId],
      );
      return rows.map(toToken);
    },
    async revokeScimToken(organizationId, id, revokedAt) {
      await client.query(`UPDATE ${tokens} SET "revoked_at" = $3 WHERE "organization_id" = $1 AND "id" = $2 AND "revoked_at" IS NULL`, [
        organizationId,
        id,
        revokedAt,
      ]);
    },
    async touchScimToken(id, usedAt) {
      await client.query(`UPDATE ${tokens} SET "last_used_at" = $2 WHERE "id" = $1`, [id, usedAt]);
    },
  };
}

const userValues = (user: ScimUserRecord) => [
  user.id,
  user.organizationId,
  user.userId,
  user.externalId,
  user.userName,
  user.active,
  JSON.stringify(user.resource),
  user.version,
  user.createdAt,
  user.updatedAt,
  user.deletedAt,
];

/** The directory's users. */
function userMethods(
  client: HostedDbClient,
): Methods<"createScimUser" | "getScimUser" | "getScimUserByUserId" | "listScimUsers" | "updateScimUser"> {
  const { users } = tablesOf(client);
  return {
    async createScimUser(user) {
      const { rows } = await client.query<Row>(
        `INSERT INTO ${users} (${USER_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10, $11) RETURNING ${USER_COLUMNS}`,
        userValues(user),
      );
      return toUser(onlyRow(rows, "createScimUser"));
    },
    async getScimUser(organizationId, id) {
      const { rows } = await client.query<Row>(
        `SELECT ${USER_COLUMNS} FROM ${users} WHERE "organization_id" = $1 AND "id" = $2 AND "deleted_at" IS NULL`,
        [organizationId, id],
      );
      return rows[0] === undefined ? null : toUser(rows[0]);
    },
    async getScimUserByUserId(organizationId, userId) {
      // The live entry first, else the one deleted last.
      const { rows } = await client.query<Row>(
        `SELECT ${USER_COLUMNS} FROM ${users} WHERE "organization_id" = $1 AND "user_id" = $2
         ORDER BY ("deleted_at" IS NULL) DESC, "deleted_at" DESC, "id" LIMIT 1`,
        [organizationId, userId],
      );
      return rows[0] === undefined ? null : toUser(rows[0]);
    },
    async listScimUsers(organizationId) {
      const { rows } = await client.query<Row>(
        `SELECT ${USER_COLUMNS} FROM ${users} WHERE "organization_id" = $1 AND "deleted_at" IS NULL ORDER BY "created_at", "id"`,
        [organizationId],
      );
      return rows.map(toUser);
    },
    async updateScimUser(user) {
      const { rows } = await client.query<Row>(
        `UPDATE ${users} SET "user_id" = $3, "external_id" = $4, "user_name" = $5, "active" = $6, "resource" = $7::jsonb, "version" = $8,
           "created_at" = $9, "updated_at" = $10, "deleted_at" = $11
         WHERE "id" = $1 AND "organization_id" = $2 RETURNING ${USER_COLUMNS}`,
        userValues(user),
      );
      return toUser(onlyRow(rows, "updateScimUser"));
    },
  };
}

const groupValues = (group: ScimGroupRecord) => [
  group.id,
  group.organizationId,
  group.externalId,
  group.displayName,
  JSON.stringify(group.resource),
  group.version,
  group.createdAt,
  group.updatedAt,
];

/** The directory's groups. */
function groupMethods(
  client: HostedDbClient,
): Methods<"createScimGroup" | "getScimGroup" | "listScimGroups" | "updateScimGroup" | "deleteScimGroup"> {
  const { groups } = tablesOf(client);
  return {
    async createScimGroup(group) {
      const { rows } = await client.query<Row>(
        `INSERT INTO ${groups} (${GROUP_COLUMNS}) VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8) RETURNING ${GROUP_COLUMNS}`,
        groupValues(group),
      );
      return toGroup(onlyRow(rows, "createScimGroup"));
    },
    async getScimGroup(organizationId, id) {
      const { rows } = await client.query<Row>(`SELECT ${GROUP_COLUMNS} FROM ${groups} WHERE "organization_id" = $1 AND "id" = $2`, [
        organizationId,
        id,
      ]);
      return rows[0] === undefined ? null : toGroup(rows[0]);
    },
    async listScimGroups(organizationId) {
      const { rows } = await client.query<Row>(
        `SELECT ${GROUP_COLUMNS} FROM ${groups} WHERE "organization_id" = $1 ORDER BY "created_at", "id"`,
        [organizationId],
      );
      return rows.map(toGroup);
    },
    async updateScimGroup(group) {
      const { rows } = await client.query<Row>(
        `UPDATE ${groups} SET "external_id" = $3, "display_name" = $4, "resource" = $5::jsonb, "version" = $6, "created_at" = $7, "updated_at" = $8
         WHERE "id" = $1 AND "organization_id" = $2 RETURNING ${GROUP_COLUMNS}`,
        groupValues(group),
      );
      return toGroup(onlyRow(rows, "updateScimGroup"));
    },
    async deleteScimGroup(organizationId, id) {
      // Its members go with it (foreign key).
      await client.query(`DELETE FROM ${groups} WHERE "organization_id" = $1 AND "id" = $2`, [organizationId, id]);
    },
  };
}

/** Who is in which group. */
function memberMethods(client: HostedDbClient): Methods<"setScimGroupMembers" | "listScimGroupMembers" | "listScimGroupsOfUser"> {
  const { users, groups, members } = tablesOf(client);
  return {
    async setScimGroupMembers(organizationId, groupId, userIds) {
      await client.transaction(async (tx) => {
        // Only a group of the organization, and only users of the organization: the join refuses any other.
        await tx.query(`DELETE FROM ${members} WHERE "organization_id" = $1 AND "group_id" = $2`, [organizationId, groupId]);
        await tx.query(
          `INSERT INTO ${members} ("organization_id", "group_id", "scim_user_id")
           SELECT g."organization_id", g."id", u."id" FROM ${groups} g
           JOIN ${users} u ON u."organization_id" = g."organization_id" AND u."id" = ANY($3::text[])
           WHERE g."organization_id" = $1 AND g."id" = $2`,
          [organizationId, groupId, [...userIds]],
        );
      });
    },
    async listScimGroupMembers(organizationId, groupId) {
      const { rows } = await client.query<Row>(
        `SELECT "scim_user_id" FROM ${members} WHERE "organization_id" = $1 AND "group_id" = $2 ORDER BY "scim_user_id"`,
        [organizationId, groupId],
      );
      return rows.map((row) => new RowReader(SCIM_TABLES.members, row).text("scim_user_id"));
    },
    async listScimGroupsOfUser(organizationId, userId) {
      const { rows } = await client.query<Row>(
        `SELECT g."id" FROM ${members} m JOIN ${groups} g ON g."id" = m."group_id" AND g."organization_id" = m."organization_id"
         WHERE m."organization_id" = $1 AND m."scim_user_id" = $2 ORDER BY g."created_at", g."id"`,
        [organizationId, userId],
      );
      return rows.map((row) => new RowReader(SCIM_TABLES.groups, row).text("id"));
    },
  };
}

function toToken(row: Row): ScimTokenRecord {
  const read = new RowReader(SCIM_TABLES.tokens, row);
  return {
    id: read.text("id"),
    organizationId: read.text("organization_id"),
    hash: read.text("hash"),
    start: read.text("start"),
    createdBy: read.text("created_by"),
    createdAt: read.date("created_at"),
    lastUsedAt: read.nullableDate("last_used_at"),
    revokedAt: read.nullableDate("revoked_at"),
  };
}

function toUser(row: Row): ScimUserRecord {
  const read = new RowReader(SCIM_TABLES.users, row);
  return {
    id: read.text("id"),
    organizationId: read.text("organization_id"),
    userId: read.text("user_id"),
    externalId: read.nullableText("external_id"),
    userName: read.text("user_name"),
    active: read.boolean("active"),
    resource: read.json("resource") as ScimObject,
    version: read.number("version"),
    createdAt: read.date("created_at"),
    updatedAt: read.date("updated_at"),
    deletedAt: read.nullableDate("deleted_at"),
  };
}

function toGroup(row: Row): ScimGroupRecord {
  const read = new RowReader(SCIM_TABLES.groups, row);
  return {
    id: read.text("id"),
    organizationId: read.text("organization_id"),
    externalId: read.nullableText("external_id"),
    displayName: read.text("display_name"),
    resource: read.json("resource") as ScimObject,
    version: read.number("version"),
    createdAt: read.date("created_at"),
    updatedAt: read.date("updated_at"),
  };
}
