/**
 * The server's metadata: RFC 8414's document (`/.well-known/oauth-authorization-server<basePath>`, which the
 * request parser maps under the base path) and OpenID Connect Discovery's (`<issuer>/.well-known/openid-configuration`),
 * one document for both; and the JWKS of its signing keys (`oauth2/jwks`).
 *
 * @module features/authorization-server/metadata
 */
import type { InternalOptions, ResponseInternal } from "../../types/internal.js";
import { publishedKeys } from "./keys.js";
import { CORS, oauthJson } from "./respond.js";
import { endpointUrl, issuerOf, settingsOf } from "./settings.js";

/** The metadata document. */
export function serverMetadata(options: InternalOptions): Record<string, unknown> {
  const settings = settingsOf(options);
  const url = (name: string) => endpointUrl(options, name);
  const metadata: Record<string, unknown> = {
    issuer: issuerOf(options),
    authorization_endpoint: url("authorize"),
    token_endpoint: url("token"),
    jwks_uri: url("jwks"),
    userinfo_endpoint: url("userinfo"),
    revocation_endpoint: url("revoke"),
    introspection_endpoint: url("introspect"),
    device_authorization_endpoint: url("device_authorization"),
    scopes_supported: Object.keys(settings.scopes),
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["none", "client_secret_basic", "client_secret_post", "private_key_jwt"],
    token_endpoint_auth_signing_alg_values_supported: ["ES256", "RS256", "PS256", "EdDSA"],
    revocation_endpoint_auth_methods_supported: ["none", "client_secret_basic", "client_secret_post", "private_key_jwt"],
    introspection_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "private_key_jwt"],
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: ["ES256"],
    claims_supported: [
      "sub",
      "iss",
      "aud",
      "exp",
      "iat",
      "auth_time",
      "nonce",
      "acr",
      "amr",
      "azp",
      "email",
      "email_verified",
      "name",
      "picture",
    ],
    prompt_values_supported: ["none", "login", "consent"],
    authorization_response_iss_parameter_supported: true,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
    client_id_metadata_document_supported: settings.clientMetadataDocuments !== false,
  };
  if (settings.registration !== false) metadata.registration_endpoint = url("register");
  return metadata;
}

/** The handler of both metadata routes. */
export async function metadataRoute(options: InternalOptions): Promise<ResponseInternal> {
  return {
    ...oauthJson(serverMetadata(options)),
    headers: { "Content-Type": "application/json", "Cache-Control": "public, max-age=300", ...CORS },
  };
}

/** The handler of `GET oauth2/jwks`. */
export async function jwksRoute(options: InternalOptions): Promise<ResponseInternal> {
  const keys = await publishedKeys(options);
  return { status: 200, body: { keys }, headers: { "Content-Type": "application/json", "Cache-Control": "public, max-age=60", ...CORS } };
}
