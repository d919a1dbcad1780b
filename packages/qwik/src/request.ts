/**
 * The request hook: requests under `basePath` are answered by core; every other request only gets an
 * auth context, and pays for nothing until something asks for the session.
 */
import type { RequestEventCommon } from "@builder.io/qwik-city";
import { type FrameworkAuthConfigQrl, loadAuthContext } from "./context.js";
import { loadCore } from "./core.js";
import { sendAnswer } from "./response.js";
import { answerSession } from "./session-route.js";

const QDATA_SUFFIX = "/q-data.json";

/** Answers `basePath` requests as core's `Auth()` would (CSRF check on); prepares the context for the others. */
export async function handleRequest(ev: RequestEventCommon, configQrl: FrameworkAuthConfigQrl): Promise<void> {
  const context = await loadAuthContext(ev, configQrl);
  const { pathname, search } = new URL(ev.request.url);
  if (pathname !== context.basePath && !pathname.startsWith(`${context.basePath}/`)) return;
  if (pathname.endsWith(QDATA_SUFFIX)) {
    // Qwik's client asks for `<page>/q-data.json` when it navigates, and follows a redirect (say, from a
    // protected route to the sign-in page) by asking for the target's q-data too. authlib's pages are
    // not Qwik routes: send the client to the page itself, which Qwik's client then loads as a document.
    // (Sent as a response, not `ev.redirect`, which Qwik would turn back into a q-data URL.)
    const location = `${pathname.slice(0, -QDATA_SUFFIX.length)}${search}`;
    ev.headers.set("Location", location);
    ev.headers.set("Cache-Control", "no-store");
    throw ev.send(302, "");
  }
  const core = await loadCore();
  if (ev.method === "GET" && pathname === `${context.basePath}/session`) {
    const answer = await answerSession(ev, context, core);
    if (answer) throw answer;
  }
  // The connection's address: core's per-client rate limits count by it (see `rateLimit.clientAddress`).
  throw sendAnswer(ev, core, await core.answerRequest(context.auth, ev.request, { clientAddress: ev.clientConn.ip }));
}
