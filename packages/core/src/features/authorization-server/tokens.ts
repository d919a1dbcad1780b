/**
 * The tokens the authorization server issues: JWT access tokens (RFC 9068), ID tokens (OpenID Connect
 * Core §2) and opaque refresh tokens. A refresh token is `<grant id>.<generation>.<mac>`: the MAC (keyed by
 * the app's secret, over the grant's own random value) proves it was issued for that generation, so a
 * token of an earlier generation is recognised as a reuse without storing any token.
 *
 * @module features/authorization-server/tokens
 */
import { timingSafeEqual } from "../../crypto/compare.js";
import { hmacHex, randomHex } from "../../crypto/digest.js";
import type { OAuthGrant } from "../../types/authorization-server.js";
import type { InternalOptions } from "../../types/internal.js";
import { decodeJws, signJws, verifiedBy } from "./jws.js";
import { currentSigner, publishedKeys } from "./keys.js";
import { issuerOf, settingsOf } from "./settings.js";

/** What an access token says: who, for which client, with which scopes, for which resources. */
export interface AccessTokenFacts {
  userId: string;
  clientId: string;
  scopes: readonly string[];
  resources: readonly string[];
  grantId: string;
  authTime: number;
}

/** An access token and its lifetime in seconds. */
export async function accessToken(options: InternalOptions, facts: AccessTokenFacts): Promise<{ token: string; expiresIn: number }> {
  const { accessTokenMaxAge } = settingsOf(options);
  const signer = await currentSigner(options);
  const now = Math.floor(Date.now() / 1000);
  const payload = {
    iss: issuerOf(options),
    sub: facts.userId,
    aud: facts.resources.length === 1 ? (facts.resources[0] as string) : [...facts.resources],
    client_id: facts.clientId,
    scope: facts.scopes.join(" "),
    grant_id: facts.grantId,
    auth_time: facts.authTime,
    iat: now,
    exp: now + accessTokenMaxAge,
    jti: randomHex(16),
  };
  const token = await signJws({ kid: signer.kid, typ: "at+jwt" }, payload, signer.key);
  return { token, expiresIn: accessTokenMaxAge };
}

/** What an ID token says beyond the subject: the client, the sign-in, the nonce, and the claims its scopes give. */
export interface IdTokenFacts {
  userId: string;
  clientId: string;
  authTime: number;
  aal: number;
  amr: readonly string[];
  nonce: string | null;
  claims: Record<string, unknown>;
}

/** An ID token for `clientId` (its audience), signed like the access tokens. */
export async function idToken(options: InternalOptions, facts: IdTokenFacts): Promise<string> {
  const signer = await currentSigner(options);
  const now = Math.floor(Date.now() / 1000);
  const payload: Record<string, unknown> = {
    ...facts.claims,
    auth_time: facts.authTime,
    amr: [...facts.amr],
    acr: facts.aal >= 2 ? "urn:authlib:aal2" : "urn:authlib:aal1",
    azp: facts.clientId,
  };
  if (facts.nonce !== null) payload.nonce = facts.nonce;
  const claims = {
    iss: issuerOf(options),
    sub: facts.userId,
    aud: facts.clientId,
    iat: now,
    exp: now + settingsOf(options).accessTokenMaxAge,
  };
  return signJws({ kid: signer.kid, typ: "JWT" }, { ...payload, ...claims }, signer.key);
}

/** A refresh token's parts, as it was presented. */
export interface PresentedRefresh {
  grantId: string;
  generation: number;
  mac: string;
}

const REFRESH = /^([0-9a-f]{32})\.(0|[1-9][0-9]{0,8})\.([0-9a-f]{64})$/;

/** The parts of a presented refresh token, or `undefined` for anything that is not one. */
export function parseRefreshToken(token: string): PresentedRefresh | undefined {
  const match = REFRESH.exec(token);
  if (!match) return undefined;
  return { grantId: match[1] as string, generation: Number(match[2]), mac: match[3] as string };
}

function macOf(secret: string, grant: OAuthGrant, generation: number): string | Promise<string> {
  return hmacHex(secret, `authlib.oauth.refresh.${grant.id}.${generation}.${grant.secret}`);
}

/** The refresh token of `grant` at `generation`. */
export async function refreshToken(options: InternalOptions, grant: OAuthGrant, generation: number): Promise<string> {
  return `${grant.id}.${generation}.${await macOf(options.secret[0] as string, grant, generation)}`;
}

/** True when `presented` was issued for its grant and generation (by any of the app's secrets). */
export async function refreshTokenIssued(options: InternalOptions, grant: OAuthGrant, presented: PresentedRefresh): Promise<boolean> {
  for (const secret of options.secret) if (timingSafeEqual(await macOf(secret, grant, presented.generation), presented.mac)) return true;
  return false;
}

/** The claims of an access token this server signed (any of its published keys), or `undefined`: forged, expired, or not an access token. */
export async function readAccessToken(options: InternalOptions, token: string): Promise<Record<string, unknown> | undefined> {
  const jws = decodeJws(token);
  if (jws?.header.alg !== "ES256" || jws.header.typ !== "at+jwt") return undefined;
  const key = (await publishedKeys(options)).find((candidate) => candidate.kid === jws.header.kid);
  if (!key || !(await verifiedBy(jws, key as JsonWebKey))) return undefined;
  const { payload } = jws;
  const now = Math.floor(Date.now() / 1000);
  const live = typeof payload.exp === "number" && payload.exp + CLOCK_SKEW > now;
  const named = payload.iss === issuerOf(options) && typeof payload.grant_id === "string" && typeof payload.sub === "string";
  return live && named ? payload : undefined;
}

/** The seconds a clock may be ahead of ours. */
const CLOCK_SKEW = 5;
