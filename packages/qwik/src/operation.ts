/** The request an `auth.api` operation is made for, from Qwik City's request event. */
import type { RequestLike } from "@authlib/core";
import type { RequestEventCommon } from "@builder.io/qwik-city";

/**
 * The request's URL and headers, and the connection's address: core's per-client rate limits and a
 * session's recorded network count by it (see core's `rateLimit.clientAddress`). Not the `Request` itself:
 * an action's request has a body, which core would have to copy the headers to drop.
 */
export function operationRequest(ev: RequestEventCommon): RequestLike {
  return { url: ev.request.url, headers: ev.request.headers, clientAddress: ev.clientConn.ip };
}
