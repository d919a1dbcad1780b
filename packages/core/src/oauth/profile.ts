/**
 * From a provider's answer to authlib's shapes: the token set, the `User` (`provider.profile()`) and the
 * `Account` (the whole token response, and the part of it that is stored: `provider.account()`).
 *
 * @module oauth/profile
 */
import type * as oauth from "oauth4webapi";
import { OAuthProfileParseError } from "../errors.js";
import type { Account, Profile, User } from "../types/config.js";
import type { OAuthConfig, TokenSet } from "../types/providers.js";

/**
 * The default `profile()`: `{ id: sub ?? id, name: name ?? nickname ?? preferred_username, email,
 * image: picture }`, without the keys the profile lacks.
 */
export function defaultProfile(profile: Profile): User {
  const id = profile.sub ?? profile.id;
  const name = profile.name ?? profile.nickname ?? profile.preferred_username;
  const image = typeof profile.picture === "string" ? profile.picture : undefined;
  return withoutUndefined({
    id: id === undefined || id === null ? undefined : String(id),
    name,
    email: profile.email,
    image,
  });
}

/**
 * The default `account()`: what an account row keeps of the token response, namely `access_token`,
 * `id_token`, `refresh_token`, `expires_at`, `scope`, `token_type` and `session_state`.
 */
export function defaultAccount(tokens: TokenSet): Partial<Account> {
  return withoutUndefined({
    access_token: tokens.access_token,
    id_token: tokens.id_token,
    refresh_token: tokens.refresh_token,
    expires_at: tokens.expires_at,
    scope: tokens.scope,
    token_type: tokens.token_type as Lowercase<string> | undefined,
    session_state: tokens.session_state,
  });
}

/** A token response as a `TokenSet`, with `expires_at` (seconds since the epoch) from `expires_in`. */
export function toTokenSet(response: oauth.TokenEndpointResponse): TokenSet {
  const tokens: TokenSet = { ...response };
  if (typeof response.expires_in === "number" && Number.isFinite(response.expires_in)) {
    tokens.expires_at = Math.floor(Date.now() / 1000) + Math.floor(response.expires_in);
  }
  return tokens;
}

/**
 * Runs `provider.profile()` (or {@link defaultProfile}). Throws `OAuthProfileParseError` when it throws,
 * or returns no object or no `id` (the provider account id is required to link the account).
 */
export async function mapProfile(provider: OAuthConfig, profile: Profile, tokens: TokenSet): Promise<User & { id: string }> {
  let user: unknown;
  try {
    user = await (provider.profile ?? defaultProfile)(profile, tokens);
  } catch (error) {
    throw new OAuthProfileParseError(`The profile() of provider "${provider.id}" threw.`, {
      cause: { providerId: provider.id, err: error instanceof Error ? error : new Error(String(error)) },
    });
  }
  if (typeof user !== "object" || user === null) {
    throw new OAuthProfileParseError(`The profile() of provider "${provider.id}" returned no object.`, {
      cause: { providerId: provider.id },
    });
  }
  const id = (user as User).id as unknown;
  if ((typeof id !== "string" && typeof id !== "number") || id === "") {
    throw new OAuthProfileParseError(`The profile() of provider "${provider.id}" returned no id.`, { cause: { providerId: provider.id } });
  }
  return { ...(user as User), id: String(id) };
}

/** The account given to callbacks and events: every token field plus who it belongs to. */
export function toAccount(provider: OAuthConfig, tokens: TokenSet, providerAccountId: string): Account {
  return {
    ...tokens,
    token_type: tokens.token_type as Lowercase<string> | undefined,
    provider: provider.id,
    type: provider.type,
    providerAccountId,
  };
}

/**
 * What an adapter stores of `account`: `provider.account(tokens)` (default {@link defaultAccount}) plus
 * `provider`, `type` and `providerAccountId`.
 */
export function storedAccount(provider: OAuthConfig, account: Account): Account {
  const picked = (provider.account ?? defaultAccount)(account) ?? {};
  return {
    ...withoutUndefined(picked),
    provider: account.provider,
    type: account.type,
    providerAccountId: account.providerAccountId,
  };
}

function withoutUndefined<T extends object>(record: T): T {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as T;
}
