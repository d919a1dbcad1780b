/**
 * `POST oauth2/register`: Dynamic Client Registration (RFC 7591), when `registration` is on. The metadata is
 * checked (`client-registration.ts`), the app's `admit` rule decides (default: public clients only, which
 * is what MCP clients register), and registrations are counted per client address: an anonymous caller
 * can make the server store only so many clients.
 *
 * @module features/authorization-server/register
 */
import { recordAuditEvent } from "../../audit/index.js";
import { randomHex } from "../../crypto/digest.js";
import type { OAuthClient } from "../../types/authorization-server.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../../types/internal.js";
import { registeredClient } from "./client-registration.js";
import { OAuthError } from "./oauth-error.js";
import { countAnonymousRequest } from "./rate-limit.js";
import { oauthJson } from "./respond.js";
import { settingsOf } from "./settings.js";
import { storeOf } from "./store.js";

const admitPublic = (client: OAuthClient) => client.tokenEndpointAuthMethod === "none";

/** The handler of `POST oauth2/register`. */
export async function register(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal> {
  const registration = settingsOf(options).registration;
  if (registration === false) throw new OAuthError("access_denied", "Client registration is off on this server.", 403);
  if (!(request.headers.get("content-type") ?? "").includes("application/json"))
    throw new OAuthError("invalid_client_metadata", "Send the client metadata as JSON.");
  await countAnonymousRequest(options, request, "registration");
  const { client, response } = await registeredClient(
    request.body,
    new Date(),
    () => `client_${randomHex(16)}`,
    () => randomHex(32),
  );
  const admit = "admit" in registration && registration.admit ? registration.admit : admitPublic;
  if (!(await admit(client, request.request))) throw new OAuthError("invalid_client_metadata", "This server does not admit this client.");
  await storeOf(options).createOAuthClient(client);
  recordAuditEvent(options, request, { type: "oauthClientRegistered", userId: null, provider: null, detail: `client=${client.clientId}` });
  return oauthJson(response, 201);
}
