/**
 * The authorization server's adapter methods (`AuthorizationServerAdapterMethods`) on plain maps, for the
 * tests that drive the authorization server: the rules a database keeps are kept here too (a taken key
 * throws, a consent per user and client, the three compare-and-set methods change a record only from the
 * state they expect), and records are copied in and out, so a caller changing a record it gave or got
 * changes nothing stored. Each compare-and-set reads and writes with no `await` between: atomic by
 * construction on one event loop. The hosted-db adapter is held to the same suite on PGlite and PostgreSQL.
 */
import type {
  AuthorizationServerAdapterMethods,
  OAuthAuthorizationCode,
  OAuthClient,
  OAuthConsent,
  OAuthDeviceCode,
  OAuthGrant,
  OAuthSigningKey,
} from "../../src/types/authorization-server.js";

/** The in-memory methods and the maps they keep, for a test that looks at what was stored. */
export interface MemoryAuthorizationServer {
  methods: Required<AuthorizationServerAdapterMethods>;
  clients: Map<string, OAuthClient>;
  /** By `userId` and `clientId`, joined with a space (neither holds one). */
  consents: Map<string, OAuthConsent>;
  codes: Map<string, OAuthAuthorizationCode>;
  grants: Map<string, OAuthGrant>;
  deviceCodes: Map<string, OAuthDeviceCode>;
  signingKeys: Map<string, OAuthSigningKey>;
}

const copy = <T>(value: T): T => structuredClone(value);

/** Puts `value` under `key` of `map`, or throws as a database's primary key would. */
function insert<T>(map: Map<string, T>, key: string, value: T, what: string): void {
  if (map.has(key)) throw new Error(`unique violation: ${what} ${JSON.stringify(key)}`);
  map.set(key, copy(value));
}

/** A fresh in-memory store of the authorization server's records. */
export function memoryAuthorizationServer(): MemoryAuthorizationServer {
  const clients = new Map<string, OAuthClient>();
  const consents = new Map<string, OAuthConsent>();
  const codes = new Map<string, OAuthAuthorizationCode>();
  const grants = new Map<string, OAuthGrant>();
  const deviceCodes = new Map<string, OAuthDeviceCode>();
  const signingKeys = new Map<string, OAuthSigningKey>();
  const consentKey = (userId: string, clientId: string) => `${userId} ${clientId}`;
  const live = (expiresAt: Date) => expiresAt.getTime() > Date.now();

  const methods: Required<AuthorizationServerAdapterMethods> = {
    createOAuthClient(client) {
      insert(clients, client.clientId, client, "client");
      return copy(client);
    },
    getOAuthClient: (clientId) => copy(clients.get(clientId) ?? null),
    updateOAuthClient(client) {
      if (!clients.has(client.clientId)) throw new Error(`no such client ${JSON.stringify(client.clientId)}`);
      clients.set(client.clientId, copy(client));
      return copy(client);
    },
    getOAuthConsent: (userId, clientId) => copy(consents.get(consentKey(userId, clientId)) ?? null),
    saveOAuthConsent(consent) {
      consents.set(consentKey(consent.userId, consent.clientId), copy(consent));
    },
    deleteOAuthConsent(userId, clientId) {
      consents.delete(consentKey(userId, clientId));
    },
    createOAuthAuthorizationCode(code) {
      insert(codes, code.codeHash, code, "authorization code");
    },
    getOAuthAuthorizationCode: (codeHash) => copy(codes.get(codeHash) ?? null),
    useOAuthAuthorizationCode(codeHash, usedAt, grantId) {
      const code = codes.get(codeHash);
      if (!code || code.usedAt !== null) return false;
      code.usedAt = new Date(usedAt);
      code.grantId = grantId;
      return true;
    },
    createOAuthGrant(grant) {
      insert(grants, grant.id, grant, "grant");
      return copy(grant);
    },
    getOAuthGrant: (id) => copy(grants.get(id) ?? null),
    listOAuthGrantsByUser: (userId) =>
      copy([...grants.values()].filter((grant) => grant.userId === userId).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())),
    advanceOAuthGrant(id, generation, usedAt) {
      const grant = grants.get(id);
      if (!grant || grant.revokedAt !== null || grant.generation !== generation) return false;
      grant.generation = generation + 1;
      grant.lastUsedAt = new Date(usedAt);
      return true;
    },
    revokeOAuthGrant(id, revokedAt) {
      const grant = grants.get(id);
      if (grant && grant.revokedAt === null) grant.revokedAt = new Date(revokedAt);
    },
    revokeOAuthGrantsByUser(userId, revokedAt) {
      for (const grant of grants.values()) if (grant.userId === userId && grant.revokedAt === null) grant.revokedAt = new Date(revokedAt);
    },
    createOAuthDeviceCode(code) {
      insert(deviceCodes, code.deviceCodeHash, code, "device code");
    },
    getOAuthDeviceCode: (deviceCodeHash) => copy(deviceCodes.get(deviceCodeHash) ?? null),
    getOAuthDeviceCodeByUserCode(userCode) {
      const found = [...deviceCodes.values()]
        .filter((code) => code.userCode === userCode && live(code.expiresAt))
        .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
      return copy(found[0] ?? null);
    },
    updateOAuthDeviceCode(deviceCodeHash, expectedStatus, change) {
      const code = deviceCodes.get(deviceCodeHash);
      if (!code || code.status !== expectedStatus) return false;
      // Only the fields the contract lets change: the keys stay whatever a caller slips in.
      const { deviceCodeHash: _hash, userCode: _userCode, clientId: _clientId, ...allowed } = copy(change) as Partial<OAuthDeviceCode>;
      const defined = Object.fromEntries(Object.entries(allowed).filter(([, value]) => value !== undefined));
      deviceCodes.set(deviceCodeHash, { ...code, ...defined });
      return true;
    },
    listOAuthSigningKeys: () =>
      copy([...signingKeys.values()].filter((key) => live(key.expiresAt)).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())),
    createOAuthSigningKey(key) {
      insert(signingKeys, key.kid, key, "signing key");
    },
  };
  return { methods, clients, consents, codes, grants, deviceCodes, signingKeys };
}
