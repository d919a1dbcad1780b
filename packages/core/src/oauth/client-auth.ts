/**
 * The client's identity at the token endpoint: its metadata for oauth4webapi, and how it authenticates
 * (`provider.client.token_endpoint_auth_method`).
 *
 * @module oauth/client-auth
 */
import * as oauth from "oauth4webapi";
import { InvalidProvider } from "../errors.js";
import type { OAuthConfig } from "../types/providers.js";
import { CLOCK_TOLERANCE_SECONDS } from "./token-response.js";

function isJsonValue(value: unknown): value is oauth.JsonValue {
  if (value === null || ["string", "number", "boolean"].includes(typeof value)) return true;
  if (Array.isArray(value)) return value.every(isJsonValue);
  if (typeof value === "object") return Object.values(value as object).every((v) => v === undefined || isJsonValue(v));
  return false;
}

function envName(provider: OAuthConfig, suffix: string): string {
  return `AUTH_${provider.id.toUpperCase().replace(/-/g, "_")}_${suffix}`;
}

/**
 * The client metadata oauth4webapi validates responses with: `client_id` plus `provider.client`, and
 * the clock tolerance authlib's own ID token checks use too.
 */
export function clientMetadata(provider: OAuthConfig): oauth.Client {
  if (!provider.clientId) {
    throw new InvalidProvider(`Provider "${provider.id}" has no clientId: set ${envName(provider, "ID")} or \`clientId\`.`);
  }
  const client: oauth.Client = { client_id: provider.clientId, [oauth.clockTolerance]: CLOCK_TOLERANCE_SECONDS };
  for (const [key, value] of Object.entries(provider.client ?? {})) {
    if (key !== "client_id" && isJsonValue(value)) client[key] = value;
  }
  return client;
}

/**
 * How the client authenticates at the token endpoint:
 * - `client_secret_basic` (default): HTTP Basic with the client id and `clientSecret`;
 * - `client_secret_post`: both in the form body;
 * - `private_key_jwt`: a JWT assertion signed with `clientPrivateKey` (audience: the issuer);
 * - `none`: a public client (PKCE is then its only proof).
 *
 * Throws `InvalidProvider` when the method needs a secret or key that is not configured.
 */
export function clientAuthentication(provider: OAuthConfig): oauth.ClientAuth {
  const method = provider.client?.token_endpoint_auth_method ?? "client_secret_basic";
  switch (method) {
    case "client_secret_basic":
    case "client_secret_post": {
      if (!provider.clientSecret) {
        throw new InvalidProvider(
          `Provider "${provider.id}" authenticates with ${method} but has no clientSecret: set ${envName(provider, "SECRET")} or \`clientSecret\`.`,
        );
      }
      return method === "client_secret_basic"
        ? oauth.ClientSecretBasic(provider.clientSecret)
        : oauth.ClientSecretPost(provider.clientSecret);
    }
    case "private_key_jwt": {
      if (!provider.clientPrivateKey) {
        throw new InvalidProvider(`Provider "${provider.id}" authenticates with private_key_jwt but has no \`clientPrivateKey\`.`);
      }
      return oauth.PrivateKeyJwt(provider.clientPrivateKey);
    }
    case "none":
      return oauth.None();
    default:
      throw new InvalidProvider(`Provider "${provider.id}" uses an unsupported token_endpoint_auth_method: ${String(method)}.`);
  }
}
