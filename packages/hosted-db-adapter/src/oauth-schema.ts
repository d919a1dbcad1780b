/**
 * The SQL of migration 8 (the authorization server's tables), in one file of its own because it is long.
 * Like every migration's, it never changes once released (test/shipped-migrations.json holds it frozen): a
 * change to these tables is a new migration.
 *
 * @module oauth-schema
 */

/** The statements of migration 8 for the quoted schema name, one statement each, in order. */
export function authorizationServerTables(s: string): string[] {
  return [...clientTables(s), ...codeTables(s), ...grantTables(s), ...deviceCodeTables(s), ...signingKeyTables(s)];
}

/** Clients (no user: they are the app's) and the users' consents to them. */
function clientTables(s: string): string[] {
  return [
    `CREATE TABLE ${s}."authlib_oauth_clients" (
      "client_id" text PRIMARY KEY,
      "client_secret_hash" text,
      "name" text NOT NULL,
      "redirect_uris" text[] NOT NULL,
      "grant_types" text[] NOT NULL,
      "token_endpoint_auth_method" text NOT NULL
        CHECK ("token_endpoint_auth_method" IN ('none', 'client_secret_basic', 'client_secret_post', 'private_key_jwt')),
      "scopes" text[],
      "jwks" jsonb,
      "client_uri" text,
      "logo_uri" text,
      "source" text NOT NULL CHECK ("source" IN ('config', 'registered', 'metadata-document')),
      "created_at" timestamptz NOT NULL,
      "updated_at" timestamptz NOT NULL DEFAULT now())`,
    `CREATE TABLE ${s}."authlib_oauth_consents" (
      "user_id" text NOT NULL REFERENCES ${s}."authlib_users" ("id") ON DELETE CASCADE,
      "client_id" text NOT NULL,
      "scopes" text[] NOT NULL,
      "updated_at" timestamptz NOT NULL,
      PRIMARY KEY ("user_id", "client_id"))`,
  ];
}

/** Authorization codes: a user's, found by hash; `expires_at` is pruned. */
function codeTables(s: string): string[] {
  return [
    `CREATE TABLE ${s}."authlib_oauth_codes" (
      "code_hash" text PRIMARY KEY,
      "client_id" text NOT NULL,
      "user_id" text NOT NULL REFERENCES ${s}."authlib_users" ("id") ON DELETE CASCADE,
      "redirect_uri" text NOT NULL,
      "scopes" text[] NOT NULL,
      "resources" text[] NOT NULL,
      "code_challenge" text NOT NULL,
      "nonce" text,
      "auth_time" bigint NOT NULL,
      "aal" smallint NOT NULL,
      "amr" text[] NOT NULL,
      "expires_at" timestamptz NOT NULL,
      "used_at" timestamptz,
      "grant_id" text)`,
    `CREATE INDEX "authlib_oauth_codes_user_id_idx" ON ${s}."authlib_oauth_codes" ("user_id")`,
    `CREATE INDEX "authlib_oauth_codes_expires_at_idx" ON ${s}."authlib_oauth_codes" ("expires_at")`,
  ];
}

/** Grants: a user's, listed by user. */
function grantTables(s: string): string[] {
  return [
    `CREATE TABLE ${s}."authlib_oauth_grants" (
      "id" text PRIMARY KEY,
      "user_id" text NOT NULL REFERENCES ${s}."authlib_users" ("id") ON DELETE CASCADE,
      "client_id" text NOT NULL,
      "scopes" text[] NOT NULL,
      "resources" text[] NOT NULL,
      "secret" text NOT NULL,
      "generation" integer NOT NULL,
      "refreshable" boolean NOT NULL,
      "auth_time" bigint NOT NULL,
      "aal" smallint NOT NULL,
      "amr" text[] NOT NULL,
      "created_at" timestamptz NOT NULL,
      "last_used_at" timestamptz NOT NULL,
      "expires_at" timestamptz,
      "revoked_at" timestamptz)`,
    `CREATE INDEX "authlib_oauth_grants_user_id_idx" ON ${s}."authlib_oauth_grants" ("user_id", "created_at")`,
  ];
}

/** Device authorizations: found by hash and by live user code; `expires_at` is pruned. */
function deviceCodeTables(s: string): string[] {
  return [
    `CREATE TABLE ${s}."authlib_oauth_device_codes" (
      "device_code_hash" text PRIMARY KEY,
      "user_code" text NOT NULL,
      "client_id" text NOT NULL,
      "scopes" text[] NOT NULL,
      "resources" text[] NOT NULL,
      "status" text NOT NULL CHECK ("status" IN ('pending', 'approved', 'denied', 'used')),
      "user_id" text REFERENCES ${s}."authlib_users" ("id") ON DELETE CASCADE,
      "auth_time" bigint,
      "aal" smallint,
      "amr" text[],
      "interval" integer NOT NULL,
      "last_polled_at" timestamptz,
      "expires_at" timestamptz NOT NULL,
      "created_at" timestamptz NOT NULL)`,
    `CREATE INDEX "authlib_oauth_device_codes_user_code_idx" ON ${s}."authlib_oauth_device_codes" ("user_code", "expires_at")`,
    `CREATE INDEX "authlib_oauth_device_codes_user_id_idx" ON ${s}."authlib_oauth_device_codes" ("user_id")`,
    `CREATE INDEX "authlib_oauth_device_codes_expires_at_idx" ON ${s}."authlib_oauth_device_codes" ("expires_at")`,
  ];
}

/** Signing keys: few, listed whole. */
function signingKeyTables(s: string): string[] {
  return [
    `CREATE TABLE ${s}."authlib_oauth_signing_keys" (
      "kid" text PRIMARY KEY,
      "alg" text NOT NULL CHECK ("alg" IN ('ES256')),
      "public_jwk" jsonb NOT NULL,
      "sealed_private_jwk" text NOT NULL,
      "created_at" timestamptz NOT NULL,
      "retires_at" timestamptz NOT NULL,
      "expires_at" timestamptz NOT NULL)`,
  ];
}
