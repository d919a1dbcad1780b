/**
 * The user's profile at the provider: the validated ID token claims for `oidc` providers (merged with
 * the userinfo response when `idToken` and the claims call for it, see {@link loadProfile}), the
 * userinfo endpoint for `oauth`.
 *
 * @module oauth/userinfo
 */
import * as oauth from "oauth4webapi";
import { InvalidEndpoints, OAuthCallbackError } from "../errors.js";
import type { OAuthConfig, TokenSet } from "../providers/types.js";
import type { Profile } from "../types.js";
import type { ResolvedServer } from "./discovery.js";
import { endpointSearchParams, endpointUrl } from "./endpoints.js";
import { requestOptions } from "./http.js";

/** What loading the profile needs. */
export interface ProfileSource {
  provider: OAuthConfig;
  server: ResolvedServer;
  client: oauth.Client;
  /** The processed (and, for oidc, validated) token response. */
  response: oauth.TokenEndpointResponse;
  tokens: TokenSet;
  /** The callback parameters (Apple posts the user's name as `user` on the first sign-in). */
  params: URLSearchParams;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The provider's profile of the signed-in user. For `oidc`, the ID token's claims are the profile; a
 * configured `userinfo` (URL or `request`) is fetched too and merged over them (its `sub` must match the
 * ID token's). For `oauth`, `userinfo.request` or a GET of the userinfo URL with the access token.
 */
export async function loadProfile(source: ProfileSource): Promise<Profile> {
  const { provider } = source;
  if (provider.type === "oidc") {
    const claims = oauth.getValidatedIdTokenClaims(source.response);
    if (!claims) throw new OAuthCallbackError(`Provider "${provider.id}" returned no ID token.`, { cause: { providerId: provider.id } });
    const profile: Profile = { ...claims };
    if (wantsUserinfo(source, claims)) Object.assign(profile, await userinfoForOidc(source, claims.sub), { sub: claims.sub });
    const appleUser = parseJsonObject(source.params.get("user"));
    if (appleUser && profile.user === undefined) profile.user = appleUser;
    return profile;
  }
  return userinfoForOAuth(source);
}

/**
 * Whether an `oidc` sign-in fetches the userinfo endpoint too:
 * - `idToken: false`: always (the profile comes from userinfo, as in Auth.js);
 * - `idToken: true`: never (the ID token's claims are the whole profile);
 * - unset: when the provider configures `userinfo`, or when the ID token lacks `email` or `name` and the
 *   provider has a userinfo endpoint (discovered or configured). Many providers, oidc-provider's default
 *   among them, put only `sub` in the ID token of the code flow and the rest in userinfo.
 */
export function wantsUserinfo(source: ProfileSource, claims: Record<string, unknown>): boolean {
  const { provider } = source;
  if (provider.idToken === false) return true;
  if (provider.idToken === true) return false;
  if (provider.userinfo !== undefined) return true;
  const incomplete = typeof claims.email !== "string" || typeof claims.name !== "string";
  return incomplete && typeof source.server.as.userinfo_endpoint === "string";
}

function parseJsonObject(value: string | null): Record<string, unknown> | undefined {
  if (!value) return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

async function runUserinfoRequest(source: ProfileSource): Promise<Profile | undefined> {
  const userinfo = source.provider.userinfo;
  if (typeof userinfo !== "object" || !("request" in userinfo) || typeof userinfo.request !== "function") return undefined;
  const result: unknown = await userinfo.request({ tokens: source.tokens, provider: source.provider });
  if (!isRecord(result)) {
    throw new OAuthCallbackError(`The userinfo.request() of provider "${source.provider.id}" returned no object.`, {
      cause: { providerId: source.provider.id },
    });
  }
  return result as Profile;
}

function userinfoUrl(source: ProfileSource): URL {
  const configured = endpointUrl(source.provider.userinfo) ?? source.server.as.userinfo_endpoint;
  if (!configured) {
    throw new InvalidEndpoints(`Provider "${source.provider.id}" has no userinfo endpoint: set \`userinfo\` or \`issuer\`.`);
  }
  const url = new URL(configured);
  for (const [key, value] of endpointSearchParams(source.provider.userinfo)) url.searchParams.set(key, value);
  return url;
}

async function userinfoForOidc(source: ProfileSource, subject: string): Promise<Profile> {
  const fromHook = await runUserinfoRequest(source);
  if (fromHook) {
    if (fromHook.sub !== undefined && fromHook.sub !== subject) {
      throw new OAuthCallbackError("The userinfo subject differs from the ID token subject.", {
        cause: { providerId: source.provider.id },
      });
    }
    return fromHook;
  }
  const as: oauth.AuthorizationServer = { ...source.server.as, userinfo_endpoint: userinfoUrl(source).href };
  const response = await oauth.userInfoRequest(
    as,
    source.client,
    source.response.access_token,
    requestOptions(source.server.allowInsecure, source.server.maxResponseBytes),
  );
  return (await oauth.processUserInfoResponse(as, source.client, subject, response)) as Profile;
}

async function userinfoForOAuth(source: ProfileSource): Promise<Profile> {
  const fromHook = await runUserinfoRequest(source);
  if (fromHook) return fromHook;
  const url = userinfoUrl(source);
  const response = await oauth.protectedResourceRequest(
    source.response.access_token,
    "GET",
    url,
    new Headers({ accept: "application/json" }),
    null,
    requestOptions(source.server.allowInsecure, source.server.maxResponseBytes),
  );
  if (!response.ok) {
    throw new OAuthCallbackError(`The userinfo endpoint of provider "${source.provider.id}" answered HTTP ${response.status}.`, {
      cause: { providerId: source.provider.id, status: response.status },
    });
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch (error) {
    throw new OAuthCallbackError(`The userinfo endpoint of provider "${source.provider.id}" answered something that is not JSON.`, {
      cause: { providerId: source.provider.id, err: error as Error },
    });
  }
  if (!isRecord(body)) {
    throw new OAuthCallbackError(`The userinfo endpoint of provider "${source.provider.id}" answered no JSON object.`, {
      cause: { providerId: source.provider.id },
    });
  }
  return body as Profile;
}
