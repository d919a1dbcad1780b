/**
 * The user's profile at the provider: the validated ID token claims for `oidc` providers (merged with
 * the userinfo response when `idToken` and the claims call for it, see {@link loadProfile}), the
 * userinfo endpoint for `oauth`.
 *
 * @module oauth/userinfo
 */
import * as oauth from "oauth4webapi";
import { InvalidEndpoints, OAuthCallbackError } from "../errors.js";
import { inSpan, providerAttributes } from "../telemetry/index.js";
import type { LoggerInstance, Profile } from "../types/config.js";
import type { OAuthConfig, TokenSet } from "../types/providers.js";
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
  /** Where a failed optional userinfo request is said (`userinfo-unavailable`). */
  logger?: Pick<LoggerInstance, "warn">;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The provider's profile of the signed-in user. For `oidc`, the ID token's claims are the profile, and
 * the userinfo response is fetched and merged over them when {@link userinfoMode} says so; the ID
 * token's `sub` is kept, and a userinfo `sub` that differs from it fails the sign-in (OIDC Core 5.3.2).
 * For `oauth`, `userinfo.request` or a GET of the userinfo URL with the access token.
 */
export async function loadProfile(source: ProfileSource): Promise<Profile> {
  const { provider } = source;
  if (provider.type === "oidc") {
    const claims = oauth.getValidatedIdTokenClaims(source.response);
    if (!claims) throw new OAuthCallbackError(`Provider "${provider.id}" returned no ID token.`, { cause: { providerId: provider.id } });
    const profile: Profile = { ...claims };
    const mode = userinfoMode(source, claims);
    const userinfo =
      mode === "skip" ? undefined : await inSpan("authlib.oauth.userinfo", attributesOf(source), () => oidcUserinfo(source, mode));
    if (userinfo) {
      if (userinfo.sub !== undefined && userinfo.sub !== claims.sub) {
        throw new OAuthCallbackError("The userinfo subject differs from the ID token subject.", {
          cause: { providerId: provider.id, claim: "sub" },
        });
      }
      Object.assign(profile, userinfo, { sub: claims.sub });
    }
    const appleUser = parseJsonObject(source.params.get("user"));
    if (appleUser && profile.user === undefined) profile.user = appleUser;
    return profile;
  }
  return inSpan("authlib.oauth.userinfo", attributesOf(source), () => userinfoForOAuth(source));
}

/** The userinfo span's attributes: the provider's (`providerAttributes`). */
function attributesOf(source: ProfileSource): Record<string, string> {
  return providerAttributes(source.provider);
}

/**
 * Whether an `oidc` sign-in asks the userinfo endpoint too, and whether its failure fails the sign-in:
 * - `"required"`: `idToken: false` (the profile comes from userinfo, as in Auth.js), or a configured
 *   `userinfo` (URL or `request`);
 * - `"complete"` (the default): the ID token lacks `email` or `name` and the provider has a userinfo
 *   endpoint (discovered). Many providers, oidc-provider's default among them, put only `sub` in the ID
 *   token of the code flow and the rest in userinfo. A failing request is logged (`userinfo-unavailable`)
 *   and the ID token's claims are used;
 * - `"skip"`: `idToken: true`, or nothing is missing.
 */
export function userinfoMode(source: ProfileSource, claims: Record<string, unknown>): "required" | "complete" | "skip" {
  const { provider } = source;
  if (provider.idToken === true) return "skip";
  if (provider.idToken === false || provider.userinfo !== undefined) return "required";
  const incomplete = typeof claims.email !== "string" || typeof claims.name !== "string";
  return incomplete && typeof source.server.as.userinfo_endpoint === "string" ? "complete" : "skip";
}

/** The userinfo response for an `oidc` sign-in; in `"complete"` mode, `undefined` (logged) when it fails. */
async function oidcUserinfo(source: ProfileSource, mode: "required" | "complete"): Promise<Profile | undefined> {
  try {
    return await userinfoForOidc(source);
  } catch (error) {
    if (mode === "required") throw error;
    source.logger?.warn("userinfo-unavailable");
  }
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

/** The userinfo of an `oidc` sign-in: `userinfo.request`, or the endpoint (its `sub` is compared by the caller). */
async function userinfoForOidc(source: ProfileSource): Promise<Profile> {
  const fromHook = await runUserinfoRequest(source);
  if (fromHook) return fromHook;
  const as: oauth.AuthorizationServer = { ...source.server.as, userinfo_endpoint: userinfoUrl(source).href };
  const response = await oauth.userInfoRequest(
    as,
    source.client,
    source.response.access_token,
    requestOptions(source.server.allowInsecure, source.server.maxResponseBytes),
  );
  return (await oauth.processUserInfoResponse(as, source.client, oauth.skipSubjectCheck, response)) as Profile;
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
