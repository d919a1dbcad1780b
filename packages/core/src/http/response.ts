/** Turns what an action returns into a Web `Response`. */
import { serialize } from "cookie";
import type { ResponseInternal } from "../internal-types.js";
import type { Cookie } from "./cookies.js";

/** Headers that keep a response out of every cache: it carries a session or a token. */
export const noStoreHeaders = { "Cache-Control": "private, no-cache, no-store", Expires: "0", Pragma: "no-cache" } as const;

/** Serialises one cookie for a `Set-Cookie` header. */
export function serializeCookie(cookie: Cookie): string {
  return serialize(cookie.name, cookie.value, cookie.options);
}

/**
 * Builds the `Response`. Every cookie becomes its own `Set-Cookie` header. With `returnRedirectAsJson`
 * (the `X-Auth-Return-Redirect` request header), a redirect is answered as 200 `{url}` for fetch clients.
 */
export function toResponse(internal: ResponseInternal, returnRedirectAsJson: boolean): Response {
  const headers = new Headers(internal.headers);
  for (const cookie of internal.cookies ?? []) headers.append("Set-Cookie", serializeCookie(cookie));

  if (internal.redirect) {
    if (returnRedirectAsJson) {
      headers.set("Content-Type", "application/json");
      return new Response(JSON.stringify({ url: internal.redirect }), { status: 200, headers });
    }
    headers.set("Location", internal.redirect);
    return new Response(null, { status: 302, headers });
  }

  let body: string | null = null;
  if (typeof internal.body === "string") {
    body = internal.body;
  } else if (internal.body !== undefined) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(internal.body);
  }
  return new Response(body, { status: internal.status ?? 200, headers });
}

/** A small JSON response for requests authlib refuses before any action runs. */
export function jsonError(status: number, type: string, message: string): Response {
  return new Response(JSON.stringify({ error: type, message }), { status, headers: { "Content-Type": "application/json" } });
}
