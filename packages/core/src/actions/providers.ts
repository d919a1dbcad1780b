/** GET /providers: the configured providers and their URLs, for custom sign-in pages. */
import type { InternalOptions, ResponseInternal } from "../types/internal.js";

export function providersAction(options: InternalOptions): ResponseInternal {
  const body = Object.fromEntries(
    options.providers.map(({ id, name, type, signinUrl, callbackUrl }) => [id, { id, name, type, signinUrl, callbackUrl }]),
  );
  return { body, headers: { "Content-Type": "application/json" } };
}
