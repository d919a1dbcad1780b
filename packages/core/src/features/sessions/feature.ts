/**
 * Session control (docs/sessions.md): the signed-in user's sessions, listed and ended. Its code (and the
 * registry's) loads with the first request to it.
 *
 * @module features/sessions
 */
import { defineFeature, lazyHandler } from "../define.js";

const routes = () => import("./routes.js");

export const sessionsFeature = defineFeature({
  name: "sessions",
  operations: [
    // Reading the list needs no token; ending a session is a POST that must prove it.
    { name: "listSessions", method: "GET", path: "sessions", presentation: "json", handler: lazyHandler(routes, "listSessionsAction") },
    {
      name: "revokeSession",
      method: "POST",
      path: "sessions/revoke",
      needs: { csrf: "mint", ownerPresent: "revokeSessions" },
      presentation: "json",
      handler: lazyHandler(routes, "revokeAction"),
    },
  ],
});
