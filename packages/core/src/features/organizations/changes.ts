/**
 * What every organization change shares: the JSON answer, and the event the audit trail records (who, which
 * organization, what).
 *
 * @module features/organizations/changes
 */
import { noStoreHeaders } from "../../http/response.js";
import type { ConfigOptions, Cookie, ResponseInternal } from "../../types/internal.js";
import type { OrganizationChangedMessage } from "../../types/organizations.js";

const json = { "Content-Type": "application/json", ...noStoreHeaders };

/** A JSON answer of `body` (and the cookies to set). */
export function answer<Body>(body: Body, cookies?: Cookie[]): ResponseInternal<Body> {
  return cookies && cookies.length > 0 ? { body, headers: json, cookies } : { body, headers: json };
}

/** Fires `organizationChanged` (its handler's failure is logged, never the request's). */
export async function changed(options: ConfigOptions, message: OrganizationChangedMessage): Promise<void> {
  await options.events.organizationChanged(message);
}
