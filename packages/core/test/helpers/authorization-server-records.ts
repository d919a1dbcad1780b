/**
 * Records of the authorization server for the store conformance suite: every field set to a value that
 * shows whether it round-trips (lists with several entries, a nested JWK, dates with a millisecond part),
 * fresh keys each call so tests may share one store.
 */
import { randomUUID } from "node:crypto";
import type {
  OAuthAuthorizationCode,
  OAuthClient,
  OAuthDeviceCode,
  OAuthGrant,
  OAuthSigningKey,
} from "../../src/types/authorization-server.js";

/** A date `offset` ms from now with a non-zero millisecond part, to prove millisecond round trips. */
export function dateIn(offset: number): Date {
  return new Date(Math.floor((Date.now() + offset) / 1000) * 1000 + 123);
}

/** A random hex string of 64 characters: what a SHA-256 hash looks like. */
export const hash = () => (randomUUID() + randomUUID()).replaceAll("-", "");

/** A confidential client with every optional field set. */
export function newClient(overrides: Partial<OAuthClient> = {}): OAuthClient {
  return {
    clientId: `client-${randomUUID()}`,
    clientSecretHash: hash(),
    name: "Acme CLI",
    redirectUris: ["https://acme.example/callback", "http://127.0.0.1/callback"],
    grantTypes: ["authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"],
    tokenEndpointAuthMethod: "private_key_jwt",
    scopes: ["openid", "projects:read"],
    jwks: [{ kty: "EC", kid: "k1", crv: "P-256", x: "x-coordinate", y: "y-coordinate", use: "sig" }],
    clientUri: "https://acme.example",
    logoUri: "https://acme.example/logo.png",
    source: "registered",
    createdAt: dateIn(-60_000),
    ...overrides,
  };
}

/** An unused authorization code of `userId` for `clientId`. */
export function newCode(userId: string, clientId: string, overrides: Partial<OAuthAuthorizationCode> = {}): OAuthAuthorizationCode {
  return {
    codeHash: hash(),
    clientId,
    userId,
    redirectUri: "https://acme.example/callback",
    scopes: ["openid", "offline_access"],
    resources: ["https://api.acme.example", "https://files.acme.example"],
    codeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    nonce: "n-0S6_WzA2Mj",
    authTime: 1_767_225_600,
    aal: 2,
    amr: ["pwd", "otp"],
    expiresAt: dateIn(60_000),
    usedAt: null,
    grantId: null,
    ...overrides,
  };
}

/** A refreshable grant at generation 0 of `userId` for `clientId`. */
export function newGrant(userId: string, clientId: string, overrides: Partial<OAuthGrant> = {}): OAuthGrant {
  return {
    id: randomUUID(),
    userId,
    clientId,
    scopes: ["openid", "offline_access", "projects:read"],
    resources: ["https://api.acme.example"],
    secret: hash(),
    generation: 0,
    refreshable: true,
    authTime: 1_767_225_600,
    aal: 1,
    amr: ["webauthn"],
    createdAt: dateIn(-60_000),
    lastUsedAt: dateIn(-30_000),
    expiresAt: dateIn(30 * 86_400_000),
    revokedAt: null,
    ...overrides,
  };
}

/** A user code as the store keeps it: upper case, no dash. */
export const userCode = () => randomUUID().replaceAll("-", "").slice(0, 8).toUpperCase();

/** A pending device authorization for `clientId`. */
export function newDeviceCode(clientId: string, overrides: Partial<OAuthDeviceCode> = {}): OAuthDeviceCode {
  return {
    deviceCodeHash: hash(),
    userCode: userCode(),
    clientId,
    scopes: ["openid", "projects:read"],
    resources: ["https://api.acme.example"],
    status: "pending",
    userId: null,
    authTime: null,
    aal: null,
    amr: null,
    interval: 5,
    lastPolledAt: null,
    expiresAt: dateIn(600_000),
    createdAt: dateIn(-1000),
    ...overrides,
  };
}

/** A signing key made `age` ms ago that stops being published `expiresIn` ms from now. */
export function newSigningKey(age: number, expiresIn: number): OAuthSigningKey {
  const kid = randomUUID();
  return {
    kid,
    alg: "ES256",
    publicJwk: { kty: "EC", kid, alg: "ES256", use: "sig", crv: "P-256", x: "x-coordinate", y: "y-coordinate" },
    sealedPrivateJwk: `sealed.${hash()}`,
    createdAt: dateIn(-age),
    retiresAt: dateIn(-age + 30 * 86_400_000),
    expiresAt: dateIn(expiresIn),
  };
}
