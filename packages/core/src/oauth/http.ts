/**
 * Transport options for oauth4webapi: a timeout on every request, a size cap on every response body
 * (see `oauth/bounded-fetch.ts`), and plain http only for loopback hosts.
 *
 * @module oauth/http
 */
import * as oauth from "oauth4webapi";
import { boundedFetch, DEFAULT_MAX_RESPONSE_BYTES } from "./bounded-fetch.js";
import { PROVIDER_REQUEST_TIMEOUT_MS } from "./provider-fetch.js";

/** True for `localhost`, `*.localhost`, 127.0.0.0/8 and `[::1]`: hosts that never leave the machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || host === "[::1]" || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * Whether oauth4webapi may talk plain http to these URLs: only when every http URL among them is on a
 * loopback host. One http URL elsewhere keeps the https requirement for all of them, so oauth4webapi
 * refuses that request instead of sending a code or token in the clear.
 */
export function allowsInsecureRequests(urls: ReadonlyArray<string | undefined>): boolean {
  let sawLoopbackHttp = false;
  for (const value of urls) {
    if (value === undefined) continue;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      continue;
    }
    if (url.protocol !== "http:") continue;
    if (!isLoopbackHost(url.hostname)) return false;
    sawLoopbackHttp = true;
  }
  return sawLoopbackHttp;
}

/** The options every oauth4webapi call gets. */
export interface ProviderRequestOptions {
  signal: (url: string) => AbortSignal;
  [oauth.customFetch]: ReturnType<typeof boundedFetch>;
  [oauth.allowInsecureRequests]?: boolean;
}

/**
 * Request options: a timeout, every response read through {@link boundedFetch} with at most
 * `maxResponseBytes` (the provider's option, default 1 MiB), and `allowInsecureRequests` when
 * {@link allowsInsecureRequests} says so.
 */
export function requestOptions(allowInsecure: boolean, maxResponseBytes = DEFAULT_MAX_RESPONSE_BYTES): ProviderRequestOptions {
  const options: ProviderRequestOptions = {
    signal: () => AbortSignal.timeout(PROVIDER_REQUEST_TIMEOUT_MS),
    [oauth.customFetch]: boundedFetch(maxResponseBytes),
  };
  if (allowInsecure) options[oauth.allowInsecureRequests] = true;
  return options;
}
