/**
 * Home realm discovery (`ssoDiscover`, the sign-in page's email step): an address at a domain that an
 * organization has proven, and which has a connection, signs in there; any other address the normal way.
 * The answer depends on the domain only: it never says whether an account exists.
 *
 * @module features/sso/discovery
 */
import { InvalidSsoConnection } from "../../errors.js";
import { noStoreHeaders } from "../../http/response.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../../types/internal.js";
import type { InputOf } from "../../types/operation.js";
import type { SsoDiscovery } from "../../types/sso.js";
import { connectionForAddress, domainOf } from "./domains.js";
import type { discoverInput } from "./input.js";

/** Where a connection's sign-in starts. */
export function connectionSignInUrl(options: Pick<InternalOptions, "authUrl">, connectionId: string): string {
  return `${options.authUrl}/sso-signin/${encodeURIComponent(connectionId)}`;
}

/**
 * POST sso/start, the sign-in page's address step: an address routed to a connection goes to its identity
 * provider; any other comes back to the sign-in page, prefilled in its other forms.
 */
export async function ssoEmailStep(
  options: InternalOptions,
  request: RequestInternal,
  input: InputOf<typeof discoverInput>,
): Promise<ResponseInternal> {
  const email = input.email.trim();
  const connection = domainOf(email) ? await connectionForAddress(options, email) : undefined;
  if (connection) return (await import("./oidc.js")).startConnection(options, request, connection);
  const page = new URL(`${options.authUrl}/signin`);
  page.searchParams.set("email", email);
  page.searchParams.set("callbackUrl", options.callbackUrl);
  return { redirect: page.href };
}

/** POST sso/discover: where `email` signs in. */
export async function ssoDiscover(
  options: InternalOptions,
  _request: RequestInternal,
  input: InputOf<typeof discoverInput>,
): Promise<ResponseInternal<SsoDiscovery>> {
  if (!domainOf(input.email)) throw new InvalidSsoConnection("`email` is not an email address.");
  const connection = await connectionForAddress(options, input.email);
  const body: SsoDiscovery = connection
    ? { sso: true, connectionId: connection.id, signInUrl: connectionSignInUrl(options, connection.id) }
    : { sso: false };
  return { body, headers: { "Content-Type": "application/json", ...noStoreHeaders } };
}
