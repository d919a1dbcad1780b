/**
 * Multi-tenant issuers (Microsoft Entra ID `…/common/v2.0`, `…/organizations/v2.0`, `…/consumers/v2.0`).
 * Their discovery document names a template issuer (`https://login.microsoftonline.com/{tenantid}/v2.0`)
 * and each ID token carries the issuer of the user's tenant. The token response is validated against
 * that tenant's own discovery document, found through the ID token's `tid` claim: oauth4webapi then
 * checks `iss` (the tenant's issuer), `aud`, `nonce` and the times as for any provider.
 * Accepting any tenant is what a multi-tenant issuer means; configure a tenant-specific issuer to admit
 * one tenant only.
 *
 * @module oauth/tenant
 */
import { decodeJwt } from "jose/jwt/decode";
import { parsedJson } from "./bounded-fetch.js";
import { discover, type ResolvedServer } from "./discovery.js";

/** A tenant id as it may appear in an issuer URL path segment. */
const TENANT_ID = /^[\w-]{1,64}$/;

/**
 * The server to validate `response` (a token endpoint response, not yet read) against: the tenant's
 * when `server` is a multi-tenant template and the ID token names a tenant, else `server` itself.
 */
export async function serverForTokenResponse(server: ResolvedServer, response: Response): Promise<ResolvedServer> {
  const template = server.tenantIssuerTemplate;
  if (template === undefined) return server;
  let tenant: unknown;
  try {
    const body = (await parsedJson(response)) as { id_token?: unknown } | null;
    if (typeof body?.id_token !== "string") return server;
    // Only selects which issuer to validate against; the validation itself is oauth4webapi's.
    tenant = decodeJwt(body.id_token).tid;
  } catch {
    return server;
  }
  if (typeof tenant !== "string" || !TENANT_ID.test(tenant)) return server;
  return discover(template.replace("{tenantid}", tenant), server.maxResponseBytes);
}
