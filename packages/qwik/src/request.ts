/**
 * The request hook: requests under `basePath` are answered by core; every other request only gets an
 * auth context, and pays for nothing until something asks for the session.
 */
import { Auth } from "@authlib/core";
import type { RequestEventCommon } from "@builder.io/qwik-city";
import { type FrameworkAuthConfigQrl, loadAuthContext } from "./context.js";
import { sendResponse } from "./response.js";

/** Answers `basePath` requests through core `Auth()` (CSRF check on); prepares the context for the others. */
export async function handleRequest(ev: RequestEventCommon, configQrl: FrameworkAuthConfigQrl): Promise<void> {
  const context = await loadAuthContext(ev, configQrl);
  const { pathname } = new URL(ev.request.url);
  if (pathname !== context.basePath && !pathname.startsWith(`${context.basePath}/`)) return;
  const response = await Auth(ev.request, context.config);
  throw await sendResponse(ev, response);
}
