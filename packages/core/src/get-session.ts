/**
 * `getSession(request, config)`: the session of a request, for server code outside a framework
 * integration. Fails closed: any error, any non-OK answer gives `data: null`, never an error object.
 */

import { assertConfig } from "./assert.js";
import { initOptions, normaliseBasePath, resolveProviders, resolveSessionOptions } from "./config.js";
import type { Cookie } from "./http/cookies.js";
import { parseRequest } from "./http/request.js";
import { createLogger } from "./logger.js";
import type { AuthConfig, Session } from "./types.js";

/** The session of `request` (or `null`) and the cookies to set on the response (a refreshed session). */
export async function getSession(request: Request, config: AuthConfig): Promise<{ cookie: Cookie[]; data: Session | null }> {
  const logger = createLogger(config);
  try {
    const configError = assertConfig(config, resolveProviders(config, ""), resolveSessionOptions(config).strategy);
    if (configError) {
      logger.error(configError);
      return { cookie: [], data: null };
    }
    const basePath = normaliseBasePath(config.basePath);
    const sessionUrl = new URL(`${basePath}/session`, request.url);
    const parsed = await parseRequest(new Request(sessionUrl, { headers: request.headers }), basePath);
    const { options } = await initOptions(parsed, config, logger);
    const { session, cookies } = await options.sessionStrategy.read(options, parsed);
    return { cookie: cookies, data: session && typeof session === "object" ? session : null };
  } catch (error) {
    logger.error(error as Error);
    return { cookie: [], data: null };
  }
}
