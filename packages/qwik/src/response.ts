/**
 * Moving what core answers onto Qwik City's response, without losing anything on the way.
 *
 * Core hands over cookies as objects, and core's serialiser (`serializeCookie`, on the `cookie` package)
 * is the only one: it writes `name=value; attributes`. Qwik's `ev.cookie.append(name, rest)` writes
 * `name=` followed by `rest`, so giving it everything after `name=` makes each cookie reach the client
 * byte for byte, all attributes included; `append` (unlike `set`) keeps two cookies of the same name
 * apart. `ev.headers.append("Set-Cookie", …)` would not do: the Node adapter sets headers one `setHeader`
 * call per entry (the last Set-Cookie wins) and then overwrites them with the cookie jar's.
 */
import type { AuthAnswer, Cookie } from "@authlib/core/integration";
import { isDev } from "@builder.io/qwik/build";
import type { RequestEventCommon } from "@builder.io/qwik-city";
import type { AbortMessage } from "@builder.io/qwik-city/middleware/request-handler";
import type { Core } from "./core.js";
import { devPageHeader } from "./dev-page-policy.js";

/** Adds core's cookies to the Qwik response, serialised by core. */
export function appendCookies(ev: RequestEventCommon, core: Core, cookies: readonly Cookie[]): void {
  for (const cookie of cookies) ev.cookie.append(cookie.name, core.serializeCookie(cookie).slice(cookie.name.length + 1));
}

/**
 * Sends core's answer as the Qwik response: status, every header, every cookie, the body (under the dev
 * server, a page's policy lets the dev server's additions run: see dev-page-policy.ts). Returns Qwik's abort
 * message, to `throw`.
 */
export function sendAnswer(ev: RequestEventCommon, core: Core, answer: AuthAnswer): AbortMessage {
  for (const [key, value] of Object.entries(answer.headers)) ev.headers.set(key, isDev ? devPageHeader(key, value) : value);
  appendCookies(ev, core, answer.cookies);
  return ev.send(answer.status, answer.body ?? "");
}
