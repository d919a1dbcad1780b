/**
 * Updating the session from the browser, the way authlib's JSON endpoints expect it: fetch a CSRF token,
 * then POST the data to /auth/session. The `jwt` callback sees it as `trigger: "update"`.
 */
import type { Session } from "@authlib/qwik";

/** Sends `data` to the session update endpoint and returns the updated session. */
export async function updateSession(data: Record<string, unknown>, basePath = "/auth"): Promise<Session | null> {
  const { csrfToken } = (await (await fetch(`${basePath}/csrf`)).json()) as { csrfToken: string };
  const response = await fetch(`${basePath}/session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ csrfToken, data }),
  });
  if (!response.ok) throw new Error(`The session update failed with status ${response.status}.`);
  return (await response.json()) as Session | null;
}
