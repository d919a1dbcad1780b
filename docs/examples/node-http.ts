/**
 * docs/frameworks.md: authlib in a plain `node:http` server: `toNodeHandler` answers `/auth/*`, the rest of
 * the app reads the session with `getSession`.
 */
import { createServer } from "node:http";
import { type AuthConfig, getSession } from "@authlib/core";
import { toNodeHandler } from "@authlib/core/node";
import GitHub from "@authlib/core/providers/github";

const config: AuthConfig = { providers: [GitHub] }; // AUTH_SECRET, AUTHLIB_URL, AUTH_GITHUB_* from the env
const handleAuth = toNodeHandler(config); // fills `config` from process.env once

const server = createServer(async (req, res) => {
  if (req.url?.startsWith("/auth/")) return handleAuth(req, res);
  // Anywhere else: the session, from the cookies (no body needed).
  const request = new Request(new URL(req.url ?? "/", config.url ?? `http://${req.headers.host}`), {
    headers: { cookie: req.headers.cookie ?? "" },
  });
  const { data: session } = await getSession(request, config);
  res.setHeader("content-type", "text/plain; charset=utf-8");
  res.end(session?.user ? `Hello ${session.user.name}` : "Not signed in: /auth/signin");
});

export function start(port = 3000): void {
  server.listen(port);
}
