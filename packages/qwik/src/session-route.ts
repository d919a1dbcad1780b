/**
 * `GET <basePath>/session` answered from the session itself: the session this request already read (a
 * plugin's `onRequest` that called `getSession`), else one direct read through the instance's `api.getSession`,
 * without the rest of `Auth()`'s request path (no action routing, no Response in between). The answer is
 * what `Auth()` sends: the session as JSON (`null` when signed out), not cached, with the cookies the
 * read refreshes or clears.
 */
import type { RequestEventCommon } from "@builder.io/qwik-city";
import type { AbortMessage } from "@builder.io/qwik-city/middleware/request-handler";
import type { AuthContext } from "./context.js";
import type { Core } from "./core.js";
import { appendCookies } from "./response.js";

/** The headers `Auth()` puts on `GET /session` (core's `noStoreHeaders` and the JSON type). */
const SESSION_HEADERS = {
  "Content-Type": "application/json",
  "Cache-Control": "private, no-cache, no-store",
  Expires: "0",
  Pragma: "no-cache",
} as const;

/**
 * Sends the session as the answer, or returns `undefined` when it cannot be read here (an untrusted host,
 * a configuration error, a database that failed): `Auth()` then answers, with its one error policy.
 */
export async function answerSession(ev: RequestEventCommon, context: AuthContext, core: Core): Promise<AbortMessage | undefined> {
  let session: unknown;
  if (context.session) {
    // Read earlier in this request; its cookies are on the response already.
    session = await context.session;
  } else {
    try {
      const read = await context.auth.api.getSession(ev.request);
      session = read.session;
      context.session = Promise.resolve(read.session);
      appendCookies(ev, core, read.cookies);
    } catch {
      return undefined;
    }
  }
  for (const [key, value] of Object.entries(SESSION_HEADERS)) ev.headers.set(key, value);
  return ev.send(200, JSON.stringify(session ?? null));
}
