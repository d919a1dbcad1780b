/**
 * An organization's SCIM tokens, as its admins manage them (a member whose role grants `sso:manage`):
 * create (the token shown once), list, revoke. A token is the shared bearer-key format
 * (`crypto/key-format.ts`) with the prefix `scim`, stored only as its keyed hash under SCIM's own label
 * (`crypto/key-hash.ts`): an API key never verifies as a SCIM token, nor the other way round.
 *
 * Each operation acts through organizations' own check (`actingIn`): a member whose session meets the
 * organization's sign-in policy (`OrganizationPolicy` otherwise) and whose role grants `sso:manage`.
 * Creating and revoking are owner-present operations, as every other credential change: a token acts for
 * the whole organization's directory, so a stolen session older than the owner-present bound may neither
 * make one nor cut the identity provider off.
 *
 * @module features/sso/scim/tokens
 */
import { recordAuditEvent } from "../../../audit/index.js";
import { newKey, startOf } from "../../../crypto/key-format.js";
import { keyHashing } from "../../../crypto/key-hash.js";
import { OrganizationForbidden, ScimTokenNotFound } from "../../../errors.js";
import type { InternalOptions, RequestInternal } from "../../../types/internal.js";
import type { ScimTokenRecord } from "../../../types/scim.js";
import { organizationAccess } from "../../organizations/public.js";
import { storeOf } from "./store.js";
import type { CreatedScimToken, ListedScimToken } from "./types.js";

/** The prefix of every SCIM token: `scim_<id><secret><checksum>`. */
export const SCIM_TOKEN_PREFIX = "scim";
/** The permission that manages an organization's SSO connections and SCIM tokens. */
export const SSO_PERMISSION = "sso:manage";
/** How many live tokens one organization may hold (a rotation needs two at once). */
const MAX_LIVE_TOKENS = 10;

/** The keyed hash of SCIM tokens: a label of their own. */
export const scimTokenHashing = keyHashing("authlib.scim-token.hash-key.v1");

const NO_STORE = { "cache-control": "no-store" };

/** A token as its organization's admins see it in a list: never the token or its hash. */
export function listed(record: ScimTokenRecord): ListedScimToken {
  return {
    id: record.id,
    organizationId: record.organizationId,
    start: record.start,
    createdBy: record.createdBy,
    createdAt: record.createdAt,
    lastUsedAt: record.lastUsedAt,
  };
}

/** What an audit row says of a token: its organization and public id, never the token. */
const auditDetail = (record: Pick<ScimTokenRecord, "organizationId" | "id">) => `organization=${record.organizationId} token=${record.id}`;

/** The organization's live tokens. */
async function liveTokens(options: InternalOptions, organizationId: string): Promise<ScimTokenRecord[]> {
  return (await storeOf(options).listScimTokens(organizationId)).filter((record) => record.revokedAt === null);
}

/** The handler of `POST scim-tokens/create`: a new token of the organization, returned once. */
export async function createScimToken(
  options: InternalOptions,
  request: RequestInternal,
  input: { organizationId: string },
): Promise<{ body: CreatedScimToken; headers: Record<string, string> }> {
  const { userId } = await (await organizationAccess()).actingIn(options, request, input.organizationId, SSO_PERMISSION);
  if ((await liveTokens(options, input.organizationId)).length >= MAX_LIVE_TOKENS)
    throw new OrganizationForbidden(`The organization has ${MAX_LIVE_TOKENS} live SCIM tokens: revoke one first.`);
  const made = newKey(SCIM_TOKEN_PREFIX);
  const record: ScimTokenRecord = {
    id: made.id,
    organizationId: input.organizationId,
    hash: await scimTokenHashing.hashKey(options.secret, made),
    start: startOf(SCIM_TOKEN_PREFIX, made.id),
    createdBy: userId,
    createdAt: new Date(),
    lastUsedAt: null,
    revokedAt: null,
  };
  await storeOf(options).createScimToken(record);
  recordAuditEvent(options, request, { type: "scimTokenCreated", userId, detail: auditDetail(record) });
  return { body: { token: made.key, scimToken: listed(record) }, headers: NO_STORE };
}

/** The handler of `GET scim-tokens/list`: the organization's live tokens. */
export async function listScimTokens(
  options: InternalOptions,
  request: RequestInternal,
  input: { organizationId: string },
): Promise<{ body: { scimTokens: ListedScimToken[] }; headers: Record<string, string> }> {
  await (await organizationAccess()).actingIn(options, request, input.organizationId, SSO_PERMISSION);
  return { body: { scimTokens: (await liveTokens(options, input.organizationId)).map(listed) }, headers: NO_STORE };
}

/** The handler of `POST scim-tokens/revoke`: the token ends at once (a rotation: create the new one, then revoke the old). */
export async function revokeScimToken(
  options: InternalOptions,
  request: RequestInternal,
  input: { organizationId: string; tokenId: string },
): Promise<{ body: { revoked: true } }> {
  const { userId } = await (await organizationAccess()).actingIn(options, request, input.organizationId, SSO_PERMISSION);
  const record = await storeOf(options).getScimToken(input.tokenId);
  // Another organization's token is not found: its id tells nothing here.
  if (!record || record.organizationId !== input.organizationId || record.revokedAt !== null)
    throw new ScimTokenNotFound("The organization has no live SCIM token with this id.");
  await storeOf(options).revokeScimToken(input.organizationId, record.id, new Date());
  recordAuditEvent(options, request, { type: "scimTokenRevoked", userId, detail: auditDetail(record) });
  return { body: { revoked: true } };
}
