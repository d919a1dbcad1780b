/**
 * The answers to a refused request (RFC 6750 §3): 401, 403 or 400 with a `WWW-Authenticate: Bearer`
 * challenge that names the resource's metadata (RFC 9728 §5.1) and the scopes it needs. The description
 * is one fixed phrase per error code: why a token failed stays in the server's log.
 *
 * @module resource/challenge
 */
import { InsufficientScope, InvalidRequest, InvalidToken } from "./errors.js";
import { protectedResourceMetadataUrl } from "./metadata.js";
import type { ProtectResourceOptions, ResourceCaller } from "./types.js";
import { protectResource } from "./verify.js";

/** Where the challenge points and which scopes it names. */
export interface ResourceErrorResponseOptions {
  /** The resource's metadata URL. Default: the well-known URL of `resource`. */
  resourceMetadataUrl?: string;
  /** This resource's identifier, for the default metadata URL. */
  resource?: string;
  /** The scopes the request needs. Default: those an `InsufficientScope` names. */
  scopes?: string[];
}

const DESCRIPTIONS = {
  invalid_token: "The access token is not valid",
  insufficient_scope: "The access token does not grant the required scope",
  invalid_request: "The request must carry one bearer access token in the Authorization header",
} as const;

/** A quoted-string (RFC 9110 §5.6.4). */
function quoted(value: string): string {
  return `"${value.replace(/[\\"]/g, "\\$&")}"`;
}

/** The RFC 6750 error code of a refusal; `undefined` when no token was sent (§3.1: no error code). */
function errorCodeOf(error: InvalidToken | InsufficientScope | InvalidRequest): keyof typeof DESCRIPTIONS | undefined {
  if (error instanceof InsufficientScope) return "insufficient_scope";
  if (error instanceof InvalidRequest) return "invalid_request";
  return error.code === "missing" ? undefined : "invalid_token";
}

/** True for the refusals `protectResource` throws (`InvalidToken`, `InsufficientScope`, `InvalidRequest`). */
export function isResourceError(error: unknown): error is InvalidToken | InsufficientScope | InvalidRequest {
  return error instanceof InvalidToken || error instanceof InsufficientScope || error instanceof InvalidRequest;
}

/** The `WWW-Authenticate` value of a refusal. */
export function bearerChallenge(
  error: InvalidToken | InsufficientScope | InvalidRequest,
  options: ResourceErrorResponseOptions = {},
): string {
  const params: string[] = [];
  const metadataUrl = options.resourceMetadataUrl ?? (options.resource ? protectedResourceMetadataUrl(options.resource) : undefined);
  if (metadataUrl) params.push(`resource_metadata=${quoted(metadataUrl)}`);
  const scopes = options.scopes ?? (error instanceof InsufficientScope ? error.scopes : undefined);
  if (scopes && scopes.length > 0) params.push(`scope=${quoted(scopes.join(" "))}`);
  const code = errorCodeOf(error);
  if (code) params.push(`error=${quoted(code)}`, `error_description=${quoted(DESCRIPTIONS[code])}`);
  return params.length > 0 ? `Bearer ${params.join(", ")}` : "Bearer";
}

/**
 * The response to a refusal of `protectResource`: its status (401, 403, 400), the `Bearer` challenge, and
 * a JSON body `{ error, error_description }` (none when no token was sent). Any other error is thrown again:
 * it is the server's, for the app's own error handling.
 */
export function resourceErrorResponse(error: unknown, options: ResourceErrorResponseOptions = {}): Response {
  if (!isResourceError(error)) throw error;
  const code = errorCodeOf(error);
  const headers = { "www-authenticate": bearerChallenge(error, options), "cache-control": "no-store" };
  if (!code) return new Response(null, { status: 401, headers });
  return Response.json({ error: code, error_description: DESCRIPTIONS[code] }, { status: error.status ?? 401, headers });
}

/**
 * Wraps a handler so that it runs only for a request with a valid access token (`protectResource`), with
 * the caller; a refused request gets `resourceErrorResponse`'s answer.
 *
 * @example
 * ```ts
 * export default { fetch: withProtectedResource((request, caller) => Response.json({ user: caller.userId }), options) };
 * ```
 */
export function withProtectedResource(
  handler: (request: Request, caller: ResourceCaller) => Response | Promise<Response>,
  options: ProtectResourceOptions,
): (request: Request) => Promise<Response> {
  const challenge = { resourceMetadataUrl: options.resourceMetadataUrl, resource: options.resource, scopes: options.scopes };
  return async (request) => {
    let caller: ResourceCaller;
    try {
      caller = await protectResource(request, options);
    } catch (error) {
      return resourceErrorResponse(error, challenge);
    }
    return handler(request, caller);
  };
}
