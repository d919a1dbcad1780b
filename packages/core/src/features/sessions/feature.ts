/**
 * Session control (docs/sessions.md): the signed-in user's sessions, listed and ended. Its code (and the
 * registry's) loads with the first request to it.
 *
 * @module features/sessions
 */
import { defineFeature, defineOperation, lazyHandler } from "../define.js";
import { revokeInput } from "./input.js";

const routes = () => import("./routes.js");

// Reading the list needs no token; ending a session is a POST that must prove it.
export const listSessions = defineOperation({
  name: "listSessions",
  method: "GET",
  path: "sessions",
  presentation: "json",
  handler: lazyHandler(routes, "listSessionsAction"),
});

export const revokeSession = defineOperation({
  name: "revokeSession",
  method: "POST",
  path: "sessions/revoke",
  needs: { csrf: "mint", ownerPresent: "revokeSessions" },
  presentation: "json",
  input: revokeInput,
  handler: lazyHandler(routes, "revokeAction"),
});

export const sessionsFeature = defineFeature({ name: "sessions", operations: [listSessions, revokeSession] });
