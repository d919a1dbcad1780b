/**
 * The transport of a provider preset's own requests, and the timeout every provider request has. Apart
 * from `oauth/http.ts` (which needs oauth4webapi) so that presets and the session code load without the
 * OAuth client: that loads on a sign-in's first OAuth step.
 *
 * @module oauth/provider-fetch
 */
import { boundedFetch, type ReadResponse, responseLimitOf } from "./bounded-fetch.js";

/** How long one request to a provider may take before it is aborted. */
export const PROVIDER_REQUEST_TIMEOUT_MS = 10_000;

/**
 * A request of a provider preset's own (GitHub's `/user/emails`, Bitbucket's `/2.0/user`): the same
 * timeout and byte limit as every other provider request. The body is read (and, for JSON, parsed) once;
 * throws `ProviderResponseTooLarge` past the provider's `maxResponseBytes`.
 */
export function providerFetch(
  provider: { id: string; maxResponseBytes?: number },
  url: string,
  init: RequestInit = {},
): Promise<ReadResponse> {
  return boundedFetch(responseLimitOf(provider))(url, { ...init, signal: AbortSignal.timeout(PROVIDER_REQUEST_TIMEOUT_MS) });
}
