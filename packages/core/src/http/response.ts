/** Turns what an action returns into a Web `Response`. */
import { serialize } from "cookie";
import type { ResponseInternal } from "../types/internal.js";
import type { Cookie } from "./cookies.js";

/** Headers that keep a response out of every cache: it carries a session or a token. */
export const noStoreHeaders = { "Cache-Control": "private, no-cache, no-store", Expires: "0", Pragma: "no-cache" } as const;

/** Serialises one cookie for a `Set-Cookie` header. */
export function serializeCookie(cookie: Cookie): string {
  return serialize(cookie.name, cookie.value, cookie.options);
}

/**
 * A complete answer to an HTTP request, as data: what `Auth()` sends as a `Response`, and what an
 * integration copies onto its framework's response (cookies as objects, for its own cookie jar).
 */
export interface AuthAnswer {
  status: number;
  /** Every header except `Set-Cookie` (`Location` for a redirect). */
  headers: Record<string, string>;
  /** Cookies to set, in order (a `maxAge` of 0 deletes one). Serialise each with {@link serializeCookie}. */
  cookies: Cookie[];
  /** The body text (HTML, JavaScript or JSON), or `null`. */
  body: string | null;
}

/**
 * The answer to what an action returned. A redirect is a 302 with `Location`, or, with
 * `returnRedirectAsJson` (the `X-Auth-Return-Redirect` request header), 200 `{url}` for fetch clients.
 */
export function toAnswer(internal: ResponseInternal, returnRedirectAsJson: boolean): AuthAnswer {
  // One copy, then written in place (a spread into a literal grows the object key by key: the hot path notices).
  const headers: Record<string, string> = Object.assign({}, internal.headers);
  const cookies = internal.cookies ?? [];
  if (internal.redirect) {
    if (returnRedirectAsJson) {
      headers["Content-Type"] = "application/json";
      return { status: 200, headers, cookies, body: JSON.stringify({ url: internal.redirect }) };
    }
    headers.Location = internal.redirect;
    return { status: 302, headers, cookies, body: null };
  }
  let body: string | null = null;
  if (typeof internal.body === "string") {
    body = internal.body;
  } else if (internal.body !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(internal.body);
  }
  return { status: internal.status ?? 200, headers, cookies, body };
}

/** The Web `Response` of an answer: every cookie becomes its own `Set-Cookie` header. */
export function answerToResponse(answer: AuthAnswer): Response {
  const headers = new Headers(answer.headers);
  for (const cookie of answer.cookies) headers.append("Set-Cookie", serializeCookie(cookie));
  return new Response(answer.body, { status: answer.status, headers });
}

/** The `Response` of what an action returned (see {@link toAnswer}). */
export function toResponse(internal: ResponseInternal, returnRedirectAsJson: boolean): Response {
  return answerToResponse(toAnswer(internal, returnRedirectAsJson));
}

/** A small JSON answer for requests authlib refuses before any action runs. */
export function jsonErrorAnswer(status: number, type: string, message: string): AuthAnswer {
  return { status, headers: { "Content-Type": "application/json" }, cookies: [], body: JSON.stringify({ error: type, message }) };
}

/** {@link jsonErrorAnswer} as a `Response`. */
export function jsonError(status: number, type: string, message: string): Response {
  return answerToResponse(jsonErrorAnswer(status, type, message));
}
