/**
 * The clients of the authorization server and the users' consents to them (`authlib_oauth_clients`,
 * `authlib_oauth_consents`, migration 8). A client's id is its primary key, so a second client with a taken
 * id fails on the key; a consent is one row per (user, client), written by one upsert, and goes with its
 * user (foreign key).
 *
 * @module oauth-clients
 */
import type {
  AuthorizationServerAdapterMethods,
  ClientAuthMethod,
  ClientJwk,
  OAuthClient,
  OAuthConsent,
  OAuthGrantType,
} from "@authlib/core";
import type { HostedDbClient } from "./client.js";
import { HostedDbError } from "./errors.js";
import { jsonParameter, OAUTH_TABLES, oauthTable, onlyRow, type Row, RowReader } from "./oauth-rows.js";

type Methods<Keys extends keyof AuthorizationServerAdapterMethods> = Pick<Required<AuthorizationServerAdapterMethods>, Keys>;

const CLIENT_COLUMNS = `"client_id", "client_secret_hash", "name", "redirect_uris", "grant_types", "token_endpoint_auth_method",
  "scopes", "jwks", "client_uri", "logo_uri", "source", "created_at"`;

const AUTH_METHODS: readonly ClientAuthMethod[] = ["none", "client_secret_basic", "client_secret_post", "private_key_jwt"];
const SOURCES: readonly OAuthClient["source"][] = ["config", "registered", "metadata-document"];
const GRANT_TYPES: readonly OAuthGrantType[] = ["authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"];

/** The client methods over `client`: create (a taken id throws), read, replace. */
export function oauthClientMethods(client: HostedDbClient): Methods<"createOAuthClient" | "getOAuthClient" | "updateOAuthClient"> {
  const clients = oauthTable(client, "clients");
  return {
    async createOAuthClient(given) {
      const { rows } = await client.query<Row>(
        `INSERT INTO ${clients} (${CLIENT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, $11, $12)
         RETURNING ${CLIENT_COLUMNS}`,
        clientParameters(given),
      );
      return toClient(onlyRow(rows, "createOAuthClient"));
    },
    async getOAuthClient(clientId) {
      const { rows } = await client.query<Row>(`SELECT ${CLIENT_COLUMNS} FROM ${clients} WHERE "client_id" = $1`, [clientId]);
      return rows[0] === undefined ? null : toClient(rows[0]);
    },
    async updateOAuthClient(given) {
      const { rows } = await client.query<Row>(
        `UPDATE ${clients} SET "client_secret_hash" = $2, "name" = $3, "redirect_uris" = $4, "grant_types" = $5,
           "token_endpoint_auth_method" = $6, "scopes" = $7, "jwks" = $8::jsonb, "client_uri" = $9, "logo_uri" = $10,
           "source" = $11, "created_at" = $12, "updated_at" = now()
         WHERE "client_id" = $1 RETURNING ${CLIENT_COLUMNS}`,
        clientParameters(given),
      );
      if (rows[0] === undefined)
        throw new HostedDbError("NotFound", `updateOAuthClient: there is no client ${JSON.stringify(given.clientId)}.`);
      return toClient(rows[0]);
    },
  };
}

/** The consent methods over `client`: one row per (user, client), replaced by a save. */
export function oauthConsentMethods(client: HostedDbClient): Methods<"getOAuthConsent" | "saveOAuthConsent" | "deleteOAuthConsent"> {
  const consents = oauthTable(client, "consents");
  return {
    async getOAuthConsent(userId, clientId) {
      const { rows } = await client.query<Row>(
        `SELECT "user_id", "client_id", "scopes", "updated_at" FROM ${consents} WHERE "user_id" = $1 AND "client_id" = $2`,
        [userId, clientId],
      );
      return rows[0] === undefined ? null : toConsent(rows[0]);
    },
    async saveOAuthConsent({ userId, clientId, scopes, updatedAt }) {
      await client.query(
        `INSERT INTO ${consents} ("user_id", "client_id", "scopes", "updated_at") VALUES ($1, $2, $3, $4)
         ON CONFLICT ("user_id", "client_id") DO UPDATE SET "scopes" = EXCLUDED."scopes", "updated_at" = EXCLUDED."updated_at"`,
        [userId, clientId, [...scopes], updatedAt],
      );
    },
    async deleteOAuthConsent(userId, clientId) {
      await client.query(`DELETE FROM ${consents} WHERE "user_id" = $1 AND "client_id" = $2`, [userId, clientId]);
    },
  };
}

/** The parameters $1…$12 of a client, in the order of `CLIENT_COLUMNS`. */
function clientParameters(given: OAuthClient): unknown[] {
  return [
    given.clientId,
    given.clientSecretHash,
    given.name,
    [...given.redirectUris],
    [...given.grantTypes],
    given.tokenEndpointAuthMethod,
    given.scopes === null ? null : [...given.scopes],
    jsonParameter(given.jwks),
    given.clientUri,
    given.logoUri,
    given.source,
    given.createdAt,
  ];
}

function toClient(row: Row): OAuthClient {
  const read = new RowReader(OAUTH_TABLES.clients, row);
  return {
    clientId: read.text("client_id"),
    clientSecretHash: read.nullableText("client_secret_hash"),
    name: read.text("name"),
    redirectUris: read.texts("redirect_uris"),
    grantTypes: read.textsOf("grant_types", GRANT_TYPES),
    tokenEndpointAuthMethod: read.oneOf("token_endpoint_auth_method", AUTH_METHODS),
    scopes: read.nullableTexts("scopes"),
    // The stored JSON is the list of keys core wrote (it checks a client's metadata before it stores it).
    jwks: row.jwks == null ? null : (read.json("jwks") as ClientJwk[]),
    clientUri: read.nullableText("client_uri"),
    logoUri: read.nullableText("logo_uri"),
    source: read.oneOf("source", SOURCES),
    createdAt: read.date("created_at"),
  };
}

function toConsent(row: Row): OAuthConsent {
  const read = new RowReader(OAUTH_TABLES.consents, row);
  return {
    userId: read.text("user_id"),
    clientId: read.text("client_id"),
    scopes: read.texts("scopes"),
    updatedAt: read.date("updated_at"),
  };
}
