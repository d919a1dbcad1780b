/**
 * Grants (features/authorization-server/grants.ts), driven directly on the in-memory store: when a grant
 * is refreshable and for how long, what the token response holds for its scopes, what revoking it changes
 * (the grant, the consent, the audit row) for each reason, and when a grant counts as live.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { loadAuditWriter } from "../../src/audit/index.js";
import { grantRevoked, isLive, newGrant, revokeGrant, tokenResponse } from "../../src/features/authorization-server/grants.js";
import { parseRefreshToken, readAccessToken, refreshTokenIssued } from "../../src/features/authorization-server/tokens.js";
import type { AuthorizationServerConfig, OAuthClient, OAuthGrant } from "../../src/types/authorization-server.js";
import type { InternalOptions, RequestInternal } from "../../src/types/internal.js";
import type { AuditEvent } from "../../src/types/telemetry.js";
import { memoryAuthorizationServer } from "../helpers/memory-authorization-server.js";

const T0 = Date.UTC(2026, 0, 1);
const DAY = 24 * 60 * 60 * 1000;
const approval = { userId: "user-1", authTime: 1_700_000_000, aal: 2, amr: ["pwd", "otp"] };

function client(grantTypes: OAuthClient["grantTypes"] = ["authorization_code", "refresh_token"]): OAuthClient {
  return {
    clientId: "app",
    clientSecretHash: null,
    name: "App",
    redirectUris: [],
    grantTypes,
    tokenEndpointAuthMethod: "none",
    scopes: null,
    jwks: null,
    clientUri: null,
    logoUri: null,
    source: "config",
    createdAt: new Date(0),
  };
}

let oauth = memoryAuthorizationServer();
let audit: AuditEvent[] = [];
let attributes: Record<string, unknown> = {};
let users: Record<string, { id: string; email: string; emailVerified: Date | null; name: string; image: string }> = {};

function optionsWith(server: AuthorizationServerConfig = {}): InternalOptions {
  return {
    config: { authorizationServer: server },
    authUrl: "https://as.example/auth",
    secret: ["grants-test-secret-0123456789abcdef!!"],
    adapter: { ...oauth.methods, getUser: (id: string) => users[id] ?? null },
    audit: { config: { store: { write: (event: AuditEvent) => void audit.push(event) } }, logger: console, providers: [], features: [] },
  } as unknown as InternalOptions;
}

/** A request whose span keeps its attributes in `attributes` (or, `traced: false`, a request without telemetry). */
const request = (traced = true) =>
  ({
    trace: traced ? { span: { setAttribute: (name: string, value: unknown) => Object.assign(attributes, { [name]: value }) } } : undefined,
    headers: new Headers(),
  }) as unknown as RequestInternal;

/** The audit rows written so far (the writer runs off the request's path). */
async function rows(): Promise<AuditEvent[]> {
  await loadAuditWriter();
  await new Promise((resolve) => setImmediate(resolve));
  return audit;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(T0);
  oauth = memoryAuthorizationServer();
  audit = [];
  attributes = {};
  users = {
    "user-1": { id: "user-1", email: "ada@example.com", emailVerified: new Date(0), name: "Ada", image: "https://img.example/ada" },
  };
});

afterEach(() => {
  vi.useRealTimers();
});

describe("newGrant", () => {
  it("is refreshable with offline_access for a client allowed refresh tokens, until refreshTokenMaxAge", () => {
    const grant = newGrant(
      optionsWith({ refreshTokenMaxAge: 3600 }),
      client(),
      approval,
      ["openid", "offline_access"],
      ["https://api.example"],
    );
    expect(grant).toMatchObject({
      userId: "user-1",
      clientId: "app",
      scopes: ["openid", "offline_access"],
      resources: ["https://api.example"],
      generation: 0,
      refreshable: true,
      authTime: approval.authTime,
      aal: 2,
      amr: ["pwd", "otp"],
      revokedAt: null,
    });
    expect(grant.createdAt.getTime()).toBe(T0);
    expect(grant.lastUsedAt.getTime()).toBe(T0);
    expect(grant.expiresAt?.getTime()).toBe(T0 + 3600 * 1000);
    expect(grant.id).toMatch(/^[0-9a-f]{32}$/);
    expect(grant.secret).toMatch(/^[0-9a-f]{64}$/);
  });

  it("expires after 30 days by default", () => {
    const grant = newGrant(optionsWith(), client(), approval, ["offline_access"], []);
    expect(grant.expiresAt?.getTime()).toBe(T0 + 30 * DAY);
  });

  it("is not refreshable without offline_access, nor for a client without the refresh_token grant", () => {
    for (const grant of [
      newGrant(optionsWith(), client(), approval, ["openid"], []),
      newGrant(optionsWith(), client(["authorization_code"]), approval, ["openid", "offline_access"], []),
    ]) {
      expect(grant.refreshable).toBe(false);
      expect(grant.expiresAt).toBeNull();
    }
  });

  it("gives every grant its own id and secret", () => {
    const a = newGrant(optionsWith(), client(), approval, [], []);
    const b = newGrant(optionsWith(), client(), approval, [], []);
    expect(a.id).not.toBe(b.id);
    expect(a.secret).not.toBe(b.secret);
  });
});

describe("tokenResponse", () => {
  it("answers a Bearer access token for the scopes, a refresh token of the generation, and an ID token with the user's claims", async () => {
    const options = optionsWith({ accessTokenMaxAge: 120 });
    const grant = newGrant(options, client(), approval, ["openid", "email", "profile", "offline_access"], ["https://api.example"]);
    const body = await tokenResponse(options, request(), grant, ["openid", "email", "profile"], ["https://api.example"], "n-1", 3);
    expect(body).toMatchObject({ token_type: "Bearer", expires_in: 120, scope: "openid email profile" });
    const access = await readAccessToken(options, body.access_token as string);
    expect(access).toMatchObject({
      sub: "user-1",
      client_id: "app",
      grant_id: grant.id,
      aud: "https://api.example",
      scope: "openid email profile",
    });
    const refresh = parseRefreshToken(body.refresh_token as string);
    expect(refresh).toMatchObject({ grantId: grant.id, generation: 3 });
    expect(await refreshTokenIssued(options, grant, refresh as NonNullable<typeof refresh>)).toBe(true);
    const [, payload] = (body.id_token as string).split(".");
    expect(JSON.parse(Buffer.from(payload as string, "base64url").toString())).toMatchObject({
      sub: "user-1",
      aud: "app",
      azp: "app",
      nonce: "n-1",
      auth_time: approval.authTime,
      amr: ["pwd", "otp"],
      acr: "urn:authlib:aal2",
      email: "ada@example.com",
      email_verified: true,
      name: "Ada",
      picture: "https://img.example/ada",
    });
    expect(attributes).toMatchObject({ "authlib.oauth.client_id": "app", "authlib.oauth.grant_id": grant.id });
    expect((await rows()).map((row) => [row.type, row.userId, row.detail])).toEqual([
      ["oauthTokenIssued", "user-1", `client=app grant=${grant.id} generation=3`],
    ]);
  });

  it("gives no refresh token to a grant that is not refreshable, and no ID token without openid", async () => {
    const options = optionsWith();
    const grant = newGrant(options, client(), approval, ["email"], []);
    const body = await tokenResponse(options, request(false), grant, ["email"], [], null, 0);
    expect(Object.keys(body).sort()).toEqual(["access_token", "expires_in", "scope", "token_type"]);
    expect(body).toMatchObject({ expires_in: 600, scope: "email" });
  });
});

describe("revokeGrant and grantRevoked", () => {
  async function stored(): Promise<{ options: InternalOptions; grant: OAuthGrant }> {
    const options = optionsWith();
    const grant = newGrant(options, client(), approval, ["offline_access"], []);
    await oauth.methods.createOAuthGrant(grant);
    await oauth.methods.saveOAuthConsent({ userId: "user-1", clientId: "app", scopes: ["offline_access"], updatedAt: new Date() });
    return { options, grant };
  }

  it("a revocation ends the grant, forgets the consent (the client asks again) and is audited as oauthGrantRevoked", async () => {
    const { options, grant } = await stored();
    vi.setSystemTime(T0 + 1000);
    await revokeGrant(options, request(), grant, "revoked");
    expect(oauth.grants.get(grant.id)?.revokedAt?.getTime()).toBe(T0 + 1000);
    expect(oauth.consents.size).toBe(0);
    expect(attributes["authlib.oauth.revoked"]).toBe("revoked");
    expect((await rows()).map((row) => [row.type, row.userId, row.detail])).toEqual([
      ["oauthGrantRevoked", "user-1", `client=app grant=${grant.id} reason=revoked`],
    ]);
  });

  it.each([
    ["reuse", "oauthRefreshReused"],
    ["replay", "oauthCodeReplayed"],
  ] as const)("a %s ends the grant but keeps the consent (the user did consent), audited as %s", async (reason, type) => {
    const { options, grant } = await stored();
    await revokeGrant(options, request(), grant, reason);
    expect(oauth.grants.get(grant.id)?.revokedAt).not.toBeNull();
    expect(oauth.consents.size).toBe(1);
    expect(attributes["authlib.oauth.revoked"]).toBe(reason);
    expect((await rows()).map((row) => [row.type, row.detail])).toEqual([[type, `client=app grant=${grant.id} reason=${reason}`]]);
  });

  it("revokes the same way for a request without telemetry", async () => {
    const { options, grant } = await stored();
    await revokeGrant(options, request(false), grant, "reuse");
    expect(oauth.grants.get(grant.id)?.revokedAt).not.toBeNull();
    expect((await rows()).map((row) => row.type)).toEqual(["oauthRefreshReused"]);
  });

  it("everywhere (every grant of the user ended in one write) forgets the consent and audits oauthGrantRevoked", async () => {
    const { options, grant } = await stored();
    await grantRevoked(options, undefined, grant, "everywhere");
    expect(oauth.consents.size).toBe(0);
    expect((await rows()).map((row) => row.type)).toEqual(["oauthGrantRevoked"]);
  });
});

describe("isLive", () => {
  const options = optionsWith({ accessTokenMaxAge: 600 });
  const grantAt = (fields: Partial<OAuthGrant>): OAuthGrant => ({
    ...newGrant(options, client(), approval, [], []),
    ...fields,
  });

  it("a revoked grant is not live, even before it expires", () => {
    expect(isLive(options, grantAt({ revokedAt: new Date(T0), expiresAt: new Date(T0 + DAY) }), T0)).toBe(false);
    expect(isLive(options, grantAt({ revokedAt: new Date(T0), lastUsedAt: new Date(T0) }), T0)).toBe(false);
  });

  it("a refreshable grant is live until the instant its refresh token expires", () => {
    const grant = grantAt({ expiresAt: new Date(T0 + 1000), lastUsedAt: new Date(T0 - DAY) });
    expect(isLive(options, grant, T0 + 999)).toBe(true);
    expect(isLive(options, grant, T0 + 1000)).toBe(false);
  });

  it("a grant without a refresh token is live while its last access token is (accessTokenMaxAge after its last use)", () => {
    const grant = grantAt({ expiresAt: null, lastUsedAt: new Date(T0) });
    expect(isLive(options, grant, T0 + 600 * 1000 - 1)).toBe(true);
    expect(isLive(options, grant, T0 + 600 * 1000)).toBe(false);
  });

  it("is measured against the clock when no time is given", () => {
    const grant = grantAt({ expiresAt: new Date(T0 + 1000) });
    expect(isLive(options, grant)).toBe(true);
    vi.setSystemTime(T0 + 1000);
    expect(isLive(options, grant)).toBe(false);
  });
});
