/**
 * `getSession(request, config)`: the session of a request, for server code outside a framework
 * integration. Fails closed: any error gives `data: null`, never an error object.
 */

import type { Cookie } from "./http/cookies.js";
import { readSession } from "./integration.js";
import { resolveAuth } from "./resolve.js";
import type { AuthConfig, Session } from "./types.js";

/** The session of `request` (or `null`) and the cookies to set on the response (a refreshed session). */
export async function getSession(request: Request, config: AuthConfig): Promise<{ cookie: Cookie[]; data: Session | null }> {
  try {
    const { session, cookies } = await readSession(request, config);
    return { cookie: cookies, data: session };
  } catch (error) {
    const resolved = resolveAuth(config);
    // A configuration error was logged once, when the configuration was resolved.
    if (error !== resolved.error) resolved.logger.error(error as Error);
    return { cookie: [], data: null };
  }
}
