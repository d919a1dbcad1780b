/**
 * The API calls a preset makes itself, in a `userinfo.request` (a POST userinfo, a GraphQL query, an
 * access token in the path): bounded like every provider request, and aimed at the configured userinfo
 * URL so that pointing the preset elsewhere (a test fake, a sandbox) moves them too.
 *
 * @module providers/preset-request
 */
import { providerFetch } from "../oauth/provider-fetch.js";
import type { OAuthConfig } from "../types/providers.js";

/** The URL of the provider's `userinfo` option, or `fallback` when it names none. */
export function configuredUserinfoUrl(provider: Pick<OAuthConfig<never>, "userinfo">, fallback: string): string {
  const userinfo = provider.userinfo;
  return (typeof userinfo === "string" ? userinfo : userinfo?.url) ?? fallback;
}

/**
 * Calls one of the provider's APIs and returns its JSON body. Bounded by the provider's timeout and
 * `maxResponseBytes`; an answer other than 2xx throws (the sign-in then fails with `OAuthCallbackError`).
 */
export async function presetJson<T>(
  provider: { id: string; name: string; maxResponseBytes?: number },
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<T> {
  const response = await providerFetch(provider, url, { ...init, headers: { accept: "application/json", ...init.headers } });
  if (!response.ok)
    throw new Error(`${provider.name} answered HTTP ${response.status} to ${init.method ?? "GET"} ${new URL(url).pathname}`);
  return (await response.json()) as T;
}
