/**
 * The refresh token grant (RFC 6749 §6, OAuth 2.1 §4.3.1) at the token endpoint in process, through
 * `Auth()` on the in-memory store: each use moves the grant to its next generation; a token of any other
 * generation revokes the whole family; a token that is not one of ours (wrong client, tampered, another
 * grant's) is refused without touching the family; scopes and resources only narrow.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { parseRefreshToken } from "../../src/features/authorization-server/tokens.js";
import { API_A, API_B, claimsOf, tokenApp } from "./token-app.js";

let app: Awaited<ReturnType<typeof tokenApp>>;
const INVALID = {
  status: 400,
  body: { error: "invalid_grant", error_description: "The refresh token is not valid, was revoked, or has expired." },
};

beforeEach(async () => {
  app = await tokenApp();
});
afterEach(() => {
  vi.useRealTimers();
});

const refresh = (refreshToken: unknown, form: Record<string, unknown> = {}, client: string | null = "web") =>
  app.token({ grant_type: "refresh_token", refresh_token: refreshToken, ...form }, client);
const stored = (id: string) => app.oauth.grants.get(id);
const rowsOf = async (type: string) => (await app.rows()).filter((row) => row.type === type);

describe("a refresh", () => {
  it("answers new tokens and moves the grant to its next generation: the new refresh token is of that generation", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { grant, refresh: token } = await app.grant({ lastUsedAt: new Date(0) });
    const answer = await refresh(token);
    expect(answer).toMatchObject({ status: 200, body: { token_type: "Bearer", scope: "openid email offline_access", expires_in: 600 } });
    expect(parseRefreshToken(answer.body.refresh_token)).toMatchObject({ grantId: grant.id, generation: 1 });
    expect(stored(grant.id)).toMatchObject({ generation: 1, revokedAt: null });
    expect(stored(grant.id)?.lastUsedAt.getTime()).toBe(Date.now());
    expect(claimsOf(answer.body.access_token)).toMatchObject({ sub: app.userId, grant_id: grant.id, aud: [API_A, API_B] });
    const id = claimsOf(answer.body.id_token);
    expect(id).toMatchObject({ sub: app.userId, aud: "web", email: "ada@example.com" });
    expect(id).not.toHaveProperty("nonce");
    const second = await refresh(answer.body.refresh_token);
    expect(parseRefreshToken(second.body.refresh_token)?.generation).toBe(2);
    expect((await rowsOf("oauthTokenIssued")).map((row) => row.detail)).toEqual([
      `client=web grant=${grant.id} generation=1`,
      `client=web grant=${grant.id} generation=2`,
    ]);
  });

  it("reusing a refresh token (an earlier generation) is refused and revokes the whole family, keeping the consent", async () => {
    const { grant, refresh: first } = await app.grant();
    await app.oauth.methods.saveOAuthConsent({ userId: app.userId, clientId: "web", scopes: ["openid"], updatedAt: new Date() });
    const next = (await refresh(first)).body.refresh_token;
    expect(await refresh(first)).toMatchObject(INVALID);
    expect(stored(grant.id)?.revokedAt).not.toBeNull();
    expect(stored(grant.id)?.generation).toBe(1);
    expect(await refresh(next)).toMatchObject(INVALID);
    expect(app.oauth.consents.size).toBe(1);
    expect((await rowsOf("oauthRefreshReused")).map((row) => [row.userId, row.detail])).toEqual([
      [app.userId, `client=web grant=${grant.id} reason=reuse`],
    ]);
  });

  it("a token of a generation the grant has not reached is a reuse too", async () => {
    const { grant, refresh: ahead } = await app.grant({}, 1);
    expect(await refresh(ahead)).toMatchObject(INVALID);
    expect(stored(grant.id)?.revokedAt).not.toBeNull();
  });

  it("a revoked family refuses even its current token, without a second revocation; the refusal's audit row names the user", async () => {
    const revokedAt = new Date(Date.now() - 1000);
    const { grant, refresh: token } = await app.grant({ revokedAt });
    expect(await refresh(token)).toMatchObject(INVALID);
    expect(stored(grant.id)?.revokedAt).toEqual(revokedAt);
    expect(await rowsOf("oauthRefreshReused")).toEqual([]);
    expect((await rowsOf("oauthRefused")).map((row) => row.userId)).toEqual([app.userId]);
  });

  it("works until the instant the family expires, then is refused without revoking it", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const live = await app.grant({ expiresAt: new Date(Date.now() + 1) });
    expect((await refresh(live.refresh)).status).toBe(200);
    const expired = await app.grant({ expiresAt: new Date(Date.now()) });
    expect(await refresh(expired.refresh)).toMatchObject(INVALID);
    expect(stored(expired.grant.id)).toMatchObject({ generation: 0, revokedAt: null });
  });

  it("a grant without an expiry keeps refreshing", async () => {
    const { refresh: token } = await app.grant({ expiresAt: null });
    expect((await refresh(token)).status).toBe(200);
  });
});

describe("tokens that are not this client's current refresh token", () => {
  it("refuses a missing, malformed or unknown token (invalid_grant)", async () => {
    expect(await app.token({ grant_type: "refresh_token" })).toMatchObject(INVALID);
    expect(await refresh("not-a-refresh-token")).toMatchObject(INVALID);
    expect(await refresh(`${"a".repeat(32)}.0.${"b".repeat(64)}`)).toMatchObject(INVALID);
  });

  it("refuses another client's token, and leaves that client's family alive and unmoved", async () => {
    const { grant, refresh: token } = await app.grant({ clientId: "native" });
    expect(await refresh(token)).toMatchObject(INVALID);
    expect(stored(grant.id)).toMatchObject({ generation: 0, revokedAt: null });
    expect((await rowsOf("oauthRefused")).map((row) => row.userId)).toEqual([null]);
    expect((await refresh(token, {}, "native")).status).toBe(200);
  });

  it("refuses a tampered token (its MAC does not match) without revoking the family: forging it proves no use", async () => {
    const { grant, refresh: token } = await app.grant();
    const [id, , mac] = token.split(".") as [string, string, string];
    const tampered = `${id}.0.${mac.replace(/^./, (c) => (c === "0" ? "1" : "0"))}`;
    expect(await refresh(tampered)).toMatchObject(INVALID);
    // An earlier generation's token forged without the MAC: no reuse, no revocation.
    expect(await refresh(`${id}.5.${mac}`)).toMatchObject(INVALID);
    expect(stored(grant.id)).toMatchObject({ generation: 0, revokedAt: null });
    expect((await refresh(token)).status).toBe(200);
  });

  it("refuses a token of a grant that has no refresh token (issued without offline_access)", async () => {
    const { grant, refresh: token } = await app.grant({ refreshable: false, expiresAt: null });
    expect(await refresh(token)).toMatchObject(INVALID);
    expect(stored(grant.id)?.generation).toBe(0);
  });

  it("refuses a token sent twice in one request (invalid_request)", async () => {
    const { refresh: token } = await app.grant();
    expect(await refresh([token, token])).toMatchObject({ status: 400, body: { error: "invalid_request" } });
  });
});

describe("scopes and resources on refresh", () => {
  it("narrows the scopes to those asked, keeping the grant's for the next refresh", async () => {
    const { grant, refresh: token } = await app.grant();
    const answer = await refresh(token, { scope: "openid offline_access" });
    expect(answer.body.scope).toBe("openid offline_access");
    expect(claimsOf(answer.body.access_token).scope).toBe("openid offline_access");
    expect(answer.body).toHaveProperty("refresh_token");
    expect(stored(grant.id)?.scopes).toEqual(["openid", "email", "offline_access"]);
    const without = await refresh(answer.body.refresh_token, { scope: "offline_access" });
    expect(without.body).not.toHaveProperty("id_token");
    expect((await refresh(without.body.refresh_token)).body.scope).toBe("openid email offline_access");
  });

  it("refuses a scope the grant does not have (invalid_scope), without using the token", async () => {
    const { grant, refresh: token } = await app.grant({ scopes: ["openid", "offline_access"] });
    expect(await refresh(token, { scope: "openid email" })).toMatchObject({
      status: 400,
      body: { error: "invalid_scope", error_description: "A refresh cannot add scopes." },
    });
    expect(await refresh(token, { scope: "openid unknown:scope" })).toMatchObject({ status: 400, body: { error: "invalid_scope" } });
    expect(stored(grant.id)).toMatchObject({ generation: 0, revokedAt: null });
    expect((await refresh(token)).status).toBe(200);
  });

  it("narrows the token to one granted resource, and refuses one not granted (invalid_target) without using the token", async () => {
    const { grant, refresh: token } = await app.grant({ resources: [API_A] });
    expect(await refresh(token, { resource: API_B })).toMatchObject({ status: 400, body: { error: "invalid_target" } });
    expect(stored(grant.id)?.generation).toBe(0);
    const answer = await refresh(token, { resource: API_A });
    expect(claimsOf(answer.body.access_token).aud).toBe(API_A);
    const wide = await app.grant();
    expect(claimsOf((await refresh(wide.refresh, { resource: API_B })).body.access_token).aud).toBe(API_B);
  });
});

describe("two uses of one token at once", () => {
  it("the one that loses the compare-and-set is refused and revokes the family (one of the two is not the client)", async () => {
    const { grant, refresh: token } = await app.grant();
    const advance = app.oauth.methods.advanceOAuthGrant;
    app.adapter.advanceOAuthGrant = async (id, generation, usedAt) => {
      await advance(id, generation, usedAt);
      return advance(id, generation, usedAt);
    };
    expect(await refresh(token)).toMatchObject(INVALID);
    expect(stored(grant.id)?.revokedAt).not.toBeNull();
    expect((await rowsOf("oauthRefreshReused")).map((row) => row.detail)).toEqual([`client=web grant=${grant.id} reason=reuse`]);
    expect(await rowsOf("oauthTokenIssued")).toEqual([]);
  });
});
