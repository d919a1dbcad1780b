/**
 * Reading the endpoint options of a provider (`authorization`, `token`, `userinfo`): a URL string, or
 * `{ url?, params? }` (and for `userinfo`, a `request` hook).
 *
 * @module oauth/endpoints
 */
import type { EndpointConfig, OAuthConfig } from "../types/providers.js";

/** The URL of an endpoint option, if it names one. */
export function endpointUrl(endpoint: OAuthConfig["userinfo"] | EndpointConfig | undefined): string | undefined {
  if (endpoint === undefined) return undefined;
  if (typeof endpoint === "string") return endpoint;
  return endpoint.url;
}

/** The extra parameters of an endpoint option (`{ url, params }`), or none. */
export function endpointParams(endpoint: OAuthConfig["userinfo"] | EndpointConfig | undefined): Record<string, unknown> {
  if (endpoint === undefined || typeof endpoint === "string") return {};
  return "params" in endpoint && endpoint.params ? endpoint.params : {};
}

/** True when `provider.userinfo` is a `{ request }` hook. */
export function hasUserinfoRequest(provider: OAuthConfig): boolean {
  const userinfo = provider.userinfo;
  return typeof userinfo === "object" && "request" in userinfo && typeof userinfo.request === "function";
}

/** A configured parameter as it is sent: objects (such as `claims`) as JSON, everything else as a string. */
export function paramString(value: unknown): string {
  return typeof value === "object" && value !== null ? JSON.stringify(value) : String(value);
}

/** The `params` of an endpoint option as form parameters, without `null` / `undefined` entries. */
export function endpointSearchParams(endpoint: OAuthConfig["userinfo"] | EndpointConfig | undefined): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(endpointParams(endpoint))) {
    if (value !== undefined && value !== null) params.set(key, paramString(value));
  }
  return params;
}
