/**
 * Enterprise SSO's methods of `HostedDbAdapter` (core's `SsoAdapterMethods`), on the tables of migration 12
 * (`authlib_sso_connections`, `authlib_sso_identities`). The rules are the database's: the primary keys
 * refuse a taken connection id and a second identity for one connection and subject; the foreign keys
 * delete a connection with its organization, and an identity with its connection or its user.
 *
 * @module sso
 */
import type { SsoAdapterMethods, SsoConnection, SsoIdentity } from "@authlib/core";
import type { HostedDbClient } from "./client.js";
import { jsonParameter, onlyRow, type Row, RowReader } from "./oauth-rows.js";
import { quoteIdentifier } from "./sql.js";

/** The tables of migration 12. */
export const SSO_TABLES = { connections: "authlib_sso_connections", identities: "authlib_sso_identities" } as const;

const CONNECTION_COLUMNS = `"id", "organization_id", "protocol", "name", "default_role", "attribute_mapping", "group_roles", "sso_required", "saml", "oidc", "created_at", "updated_at"`;
const IDENTITY_COLUMNS = `"connection_id", "subject", "user_id", "created_at"`;

/** A table's name on `client`'s branch, quoted for SQL text. */
function tableOf(client: HostedDbClient, table: keyof typeof SSO_TABLES): string {
  return `${quoteIdentifier(client.branch)}.${quoteIdentifier(SSO_TABLES[table])}`;
}

/** The parameters of a connection row, in `CONNECTION_COLUMNS` order. */
function connectionParameters(connection: SsoConnection): unknown[] {
  return [
    connection.id,
    connection.organizationId,
    connection.protocol,
    connection.name,
    connection.defaultRole,
    jsonParameter(connection.attributeMapping),
    jsonParameter(connection.groupRoles ?? null),
    connection.ssoRequired,
    jsonParameter(connection.saml ?? null),
    jsonParameter(connection.oidc ?? null),
    connection.createdAt,
    connection.updatedAt,
  ];
}

/** Every SSO method of `Adapter`, over `client`. */
export function ssoMethods(client: HostedDbClient): Required<SsoAdapterMethods> {
  return { ...connectionMethods(client), ...identityMethods(client) };
}

type ConnectionMethod = "createSsoConnection" | "getSsoConnection" | "listSsoConnections" | "updateSsoConnection" | "deleteSsoConnection";

/** The connection methods. */
function connectionMethods(client: HostedDbClient): Pick<Required<SsoAdapterMethods>, ConnectionMethod> {
  const connections = tableOf(client, "connections");
  return {
    async createSsoConnection(connection) {
      const { rows } = await client.query<Row>(
        `INSERT INTO ${connections} (${CONNECTION_COLUMNS})
         VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8, $9::jsonb, $10::jsonb, $11, $12) RETURNING ${CONNECTION_COLUMNS}`,
        connectionParameters(connection),
      );
      return toConnection(onlyRow(rows, "createSsoConnection"));
    },
    async getSsoConnection(id) {
      const { rows } = await client.query<Row>(`SELECT ${CONNECTION_COLUMNS} FROM ${connections} WHERE "id" = $1`, [id]);
      return rows[0] === undefined ? null : toConnection(rows[0]);
    },
    async listSsoConnections(organizationId) {
      const { rows } = await client.query<Row>(
        `SELECT ${CONNECTION_COLUMNS} FROM ${connections} WHERE "organization_id" = $1 ORDER BY "created_at", "id"`,
        [organizationId],
      );
      return rows.map(toConnection);
    },
    async updateSsoConnection(connection) {
      // The organization, the protocol and the creation time of a connection never change: they are not written.
      const { rows } = await client.query<Row>(
        `UPDATE ${connections} SET "name" = $2, "default_role" = $3, "attribute_mapping" = $4::jsonb, "group_roles" = $5::jsonb,
           "sso_required" = $6, "saml" = $7::jsonb, "oidc" = $8::jsonb, "updated_at" = $9
         WHERE "id" = $1 RETURNING ${CONNECTION_COLUMNS}`,
        [
          connection.id,
          connection.name,
          connection.defaultRole,
          jsonParameter(connection.attributeMapping),
          jsonParameter(connection.groupRoles ?? null),
          connection.ssoRequired,
          jsonParameter(connection.saml ?? null),
          jsonParameter(connection.oidc ?? null),
          connection.updatedAt,
        ],
      );
      return toConnection(onlyRow(rows, "updateSsoConnection"));
    },
    async deleteSsoConnection(id) {
      await client.query(`DELETE FROM ${connections} WHERE "id" = $1`, [id]);
    },
  };
}

/** The identity methods. */
function identityMethods(client: HostedDbClient): Pick<Required<SsoAdapterMethods>, "getSsoIdentity" | "createSsoIdentity"> {
  const identities = tableOf(client, "identities");
  return {
    async getSsoIdentity(connectionId, subject) {
      const { rows } = await client.query<Row>(
        `SELECT ${IDENTITY_COLUMNS} FROM ${identities} WHERE "connection_id" = $1 AND "subject" = $2`,
        [connectionId, subject],
      );
      return rows[0] === undefined ? null : toIdentity(rows[0]);
    },
    async createSsoIdentity(identity) {
      const { rows } = await client.query<Row>(
        `INSERT INTO ${identities} (${IDENTITY_COLUMNS}) VALUES ($1, $2, $3, $4) RETURNING ${IDENTITY_COLUMNS}`,
        [identity.connectionId, identity.subject, identity.userId, identity.createdAt],
      );
      return toIdentity(onlyRow(rows, "createSsoIdentity"));
    },
  };
}

function toConnection(row: Row): SsoConnection {
  const read = new RowReader(SSO_TABLES.connections, row);
  const connection: SsoConnection = {
    id: read.text("id"),
    organizationId: read.text("organization_id"),
    protocol: read.oneOf("protocol", ["saml", "oidc"] as const),
    name: read.text("name"),
    defaultRole: read.text("default_role"),
    attributeMapping: read.json("attribute_mapping") as SsoConnection["attributeMapping"],
    ssoRequired: read.boolean("sso_required"),
    createdAt: read.date("created_at"),
    updatedAt: read.date("updated_at"),
  };
  // jsonb NULL is SQL NULL: a connection without the part has no key for it (as core made it).
  if (row.group_roles !== null) connection.groupRoles = read.json("group_roles") as Record<string, string>;
  if (row.saml !== null) connection.saml = read.json("saml") as SsoConnection["saml"];
  if (row.oidc !== null) connection.oidc = read.json("oidc") as SsoConnection["oidc"];
  return connection;
}

function toIdentity(row: Row): SsoIdentity {
  const read = new RowReader(SSO_TABLES.identities, row);
  return {
    connectionId: read.text("connection_id"),
    subject: read.text("subject"),
    userId: read.text("user_id"),
    createdAt: read.date("created_at"),
  };
}
