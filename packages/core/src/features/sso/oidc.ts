/**
 * A sign-in through an OIDC connection: the shared OAuth client (`oauth/`: discovery at the connection's
 * issuer, the authorization request, the callback's checks and ID-token validation with oauth4webapi)
 * with a provider built from the connection: its issuer, client id and decrypted secret, with PKCE, state
 * and nonce bound to this browser as for the configured providers. The validated claims, read through the
 * connection's attribute mapping, go to `ssoSignIn` (`identity.ts`): the issuer's `sub` is the subject.
 *
 * Routes: `POST sso-signin/<connectionId>` (CSRF-checked) starts it, `GET sso-callback/<connectionId>`
 * finishes it. A failure reaches the sign-in page with its type (`SsoSignInFailed`, or the OAuth layer's).
 *
 * @module features/sso/oidc
 */
import { AuthError } from "../../errors.js";
import { bindingOf, currentSubject, requestBinding } from "../../http/flow-binding.js";
import { oauthContext } from "../../sign-in/oauth-context.js";
import type { Profile } from "../../types/config.js";
import type { InternalOptions, InternalProvider, RequestInternal, ResponseInternal } from "../../types/internal.js";
import type { OAuthConfig } from "../../types/providers.js";
import type { SsoConnection } from "../../types/sso.js";
import { failed, recordSsoRefusal, type SsoClaims, ssoSignIn, traceConnection } from "./identity.js";
import { openSecret } from "./secrets.js";
import { storeOf } from "./store.js";

/** The id the OAuth layer knows a connection's provider by (its cookies and errors name it). */
const providerIdOf = (connection: Pick<SsoConnection, "id">) => `sso-${connection.id}`;

/** The OIDC connection the request's path names, or `SsoSignInFailed` (`connectionGone`). */
async function connectionOf(
  options: InternalOptions,
  request: RequestInternal,
): Promise<SsoConnection & { oidc: NonNullable<SsoConnection["oidc"]> }> {
  const id = request.providerId;
  const connection = id ? await storeOf(options).getSsoConnection(id) : null;
  if (!connection?.oidc || connection.protocol !== "oidc")
    throw failed("connectionGone", "This SSO connection does not exist (any more): ask your organization's admin.");
  traceConnection(request, connection);
  return connection as SsoConnection & { oidc: NonNullable<SsoConnection["oidc"]> };
}

/** The OAuth provider of `connection`, routed under this instance's `authUrl`. */
async function providerOf(
  options: InternalOptions,
  connection: SsoConnection & { oidc: NonNullable<SsoConnection["oidc"]> },
): Promise<InternalProvider & OAuthConfig> {
  const clientSecret = await openSecret(options.secret, connection.id, "oidc.clientSecret", connection.oidc.clientSecret);
  const provider: OAuthConfig = {
    id: providerIdOf(connection),
    name: connection.name,
    type: "oidc",
    issuer: connection.oidc.issuer,
    clientId: connection.oidc.clientId,
    clientSecret,
    checks: ["pkce", "state", "nonce"],
    authorization: { params: { scope: "openid email profile" } },
  };
  return {
    ...provider,
    signinUrl: `${options.authUrl}/sso-signin/${encodeURIComponent(connection.id)}`,
    callbackUrl: `${options.authUrl}/sso-callback/${encodeURIComponent(connection.id)}`,
    spanLabel: "sso",
  } as InternalProvider & OAuthConfig;
}

/** POST sso-signin/<connectionId>: sends the browser to the connection's identity provider (OIDC or SAML). */
export async function connectionSignInStart(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal> {
  const id = request.providerId;
  const connection = id ? await storeOf(options).getSsoConnection(id) : null;
  if (!connection) throw failed("connectionGone", "This SSO connection does not exist (any more): ask your organization's admin.");
  traceConnection(request, connection);
  return startConnection(options, request, connection);
}

/**
 * Sends the browser to `connection`'s identity provider (the sign-in page's address step, the start
 * route). A SAML connection's sign-in starts at the SAML routes, which are not part of this module.
 */
export async function startConnection(options: InternalOptions, request: RequestInternal, given: SsoConnection): Promise<ResponseInternal> {
  if (given.protocol === "saml") return (await import("./saml-flow.js")).startSamlConnection(options, request, given);
  if (given.protocol !== "oidc" || !given.oidc)
    throw failed("protocol", "This connection's sign-in does not start here: ask your organization's admin.");
  const connection = given as SsoConnection & { oidc: NonNullable<SsoConnection["oidc"]> };
  const provider = await providerOf(options, connection);
  const flow = { binding: await bindingOf(options.csrfToken, await currentSubject(options, request)) };
  try {
    const { startAuthorization } = await import("../../oauth/index.js");
    const { url, cookies } = await startAuthorization(oauthContext(options, request, provider, flow), {});
    return { redirect: url, cookies };
  } catch (error) {
    if (error instanceof AuthError) throw error;
    throw failed("provider", `Could not start the sign-in with ${connection.name}: the organization's admin checks the connection.`);
  }
}

/** A string claim of `profile` (`undefined` when absent or not a string). */
function textClaim(profile: Profile, name: string): string | undefined {
  const value = (profile as Record<string, unknown>)[name];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** The groups claim of `profile`: a list of strings, or one string. */
function groupsClaim(profile: Profile, name: string): string[] | undefined {
  const value = (profile as Record<string, unknown>)[name];
  if (typeof value === "string") return [value];
  return Array.isArray(value) ? value.filter((group): group is string => typeof group === "string") : undefined;
}

/** The claims of a validated OIDC answer, through the connection's attribute mapping. */
export function oidcClaims(connection: Pick<SsoConnection, "attributeMapping">, profile: Profile): SsoClaims {
  const mapping = connection.attributeMapping;
  const claims: SsoClaims = { subject: textClaim(profile, "sub") ?? "" };
  const email = textClaim(profile, mapping.email ?? "email");
  const name = textClaim(profile, mapping.name ?? "name");
  const groups = groupsClaim(profile, mapping.groups ?? "groups");
  if (email) claims.email = email;
  if (name) claims.name = name;
  if (groups) claims.groups = groups;
  return claims;
}

/** GET sso-callback/<connectionId>: checks the identity provider's answer, then signs its user in. */
export async function oidcCallback(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal> {
  const connection = await connectionOf(options, request);
  const provider = await providerOf(options, connection);
  const flow = { binding: await requestBinding(options, request) };
  const { finishAuthorization } = await import("../../oauth/index.js");
  let result: Awaited<ReturnType<typeof finishAuthorization>>;
  try {
    result = await finishAuthorization(oauthContext(options, request, provider, flow), new URLSearchParams(request.query));
  } catch (error) {
    // The OAuth layer's refusal (a state this browser never had, the provider's own error...) by its type.
    const refusal =
      error instanceof AuthError ? error : failed("provider", `The answer of ${connection.name} could not be checked: sign in again.`);
    recordSsoRefusal(options, request, connection, error instanceof AuthError ? `oidc.${error.type}` : "provider");
    throw refusal;
  }
  if (result.kind === "proxy-redirect") return { redirect: result.url };
  const signedIn = await ssoSignIn(options, request, connection, oidcClaims(connection, result.profile));
  return { ...signedIn, cookies: [...result.cookies, ...(signedIn.cookies ?? [])] };
}
