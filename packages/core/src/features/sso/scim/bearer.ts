/**
 * Who a SCIM request acts for: the organization of the live token in its `Authorization: Bearer` header.
 * The token's format and checksum are checked first (a malformed or cut token never reaches the store), then
 * its keyed hash is compared in constant time (an unknown id does the same work as a wrong secret). Every
 * later read of the request is keyed by the organization found here, never by anything the body says.
 *
 * @module features/sso/scim/bearer
 */
import { parseKey } from "../../../crypto/key-format.js";
import { ScimUnauthorized } from "../../../errors.js";
import type { InternalOptions, RequestInternal } from "../../../types/internal.js";
import type { ScimTokenRecord } from "../../../types/scim.js";
import { storeOf } from "./store.js";
import { SCIM_TOKEN_PREFIX, scimTokenHashing } from "./tokens.js";

/** How often a token's `lastUsedAt` is written (a busy directory sync makes many requests a minute). */
const TOUCH_INTERVAL_MS = 60_000;

const REFUSAL = "Send a live SCIM token of the organization as `Authorization: Bearer scim_…`.";

/** The token the request carries, as stored and live; `ScimUnauthorized` otherwise. */
export async function scimCaller(options: InternalOptions, request: RequestInternal): Promise<ScimTokenRecord> {
  const header = request.headers.get("authorization") ?? "";
  const match = /^bearer +(\S+)\s*$/i.exec(header);
  const parts = match ? parseKey(SCIM_TOKEN_PREFIX, match[1] as string) : undefined;
  if (!parts) throw new ScimUnauthorized(REFUSAL);
  const store = storeOf(options);
  const record = await store.getScimToken(parts.id);
  const matches = await scimTokenHashing.keyMatches(options.secret, parts, record?.hash);
  if (!record || !matches || record.revokedAt !== null) throw new ScimUnauthorized(REFUSAL);
  const now = Date.now();
  if (record.lastUsedAt === null || record.lastUsedAt.getTime() < now - TOUCH_INTERVAL_MS)
    await store.touchScimToken(record.id, new Date(now));
  return record;
}
