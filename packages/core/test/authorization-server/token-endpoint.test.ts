/**
 * The token endpoint (features/authorization-server/token.ts) in process, through `Auth()` on the in-memory
 * store: which grant types and clients it takes, and the authorization code grant (RFC 6749 §4.1.3, PKCE
 * RFC 7636 §4.6, resources RFC 8707 §2.2). Every refusal is stated with its RFC error and with what it
 * left in the store: nothing is used up by a request that fails, a replayed code revokes what it gave.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { registerInMemorySdk } from "../telemetry/otel-sdk.js";
import { API_A, API_B, claimsOf, DEVICE, REDIRECT, tokenApp, VERIFIER } from "./token-app.js";

const sdk = registerInMemorySdk();
let app: Awaited<ReturnType<typeof tokenApp>>;

beforeEach(async () => {
  app = await tokenApp();
});
afterEach(() => {
  vi.useRealTimers();
});
afterAll(async () => {
  await sdk.shutdown();
});

const exchange = (code: string, form: Record<string, unknown> = {}, client: string | null = "web") =>
  app.token({ grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: VERIFIER, ...form }, client);

/** The `authlib.oauth.grant_type` of the last finished request span. */
function lastGrantType(): unknown {
  const spans = sdk.finished().filter((span) => span.attributes["authlib.oauth.grant_type"] !== undefined);
  return spans.at(-1)?.attributes["authlib.oauth.grant_type"];
}

describe("grant types and clients", () => {
  it("refuses a grant type it does not support, and a request without one, as unsupported_grant_type", async () => {
    for (const form of [{ grant_type: "password", username: "ada", password: "x" }, {}]) {
      const answer = await app.token(form);
      expect(answer).toMatchObject({ status: 400, body: { error: "unsupported_grant_type" } });
      expect(answer.body.error_description).toContain("authorization_code, refresh_token");
    }
    expect(lastGrantType()).toBe("");
  });

  it("names the grant type on the request's span", async () => {
    await exchange(await app.code());
    expect(lastGrantType()).toBe("authorization_code");
  });

  it("authenticates the client before anything else: an unknown client is invalid_client (401), whatever the grant", async () => {
    const answer = await app.token({ grant_type: "password", client_id: "nobody" }, null);
    expect(answer).toMatchObject({ status: 401, body: { error: "invalid_client" } });
    const code = await app.code();
    const wrongSecret = await app.token(
      {
        grant_type: "authorization_code",
        code,
        redirect_uri: REDIRECT,
        code_verifier: VERIFIER,
        client_id: "post",
        client_secret: "wrong",
      },
      null,
    );
    expect(wrongSecret).toMatchObject({ status: 401, body: { error: "invalid_client" } });
    expect((await app.storedCode(code))?.usedAt).toBeNull();
  });

  it.each([
    ["authorization_code", "cli", { code: "x" }],
    ["refresh_token", "code-only", { refresh_token: "x" }],
    [DEVICE, "native", { device_code: "x" }],
  ])("refuses the %s grant to a client not registered for it (unauthorized_client)", async (grantType, client, form) => {
    const answer = await app.token({ grant_type: grantType, ...form }, client);
    expect(answer).toMatchObject({ status: 400, body: { error: "unauthorized_client" } });
    expect(answer.body.error_description).toBe(`This client may not use the ${grantType} grant.`);
  });

  it("answers JSON that is never cached", async () => {
    const answer = await exchange(await app.code());
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toContain("application/json");
    expect(answer.headers.get("cache-control")).toContain("no-store");
  });
});

describe("the authorization code grant", () => {
  it("exchanges a code once for the grant it approved: access, refresh and ID tokens, the code marked used with its grant", async () => {
    const code = await app.code({ scopes: ["openid", "email", "offline_access"], aal: 2, amr: ["pwd", "otp"] });
    const answer = await exchange(code);
    expect(answer).toMatchObject({ status: 200, body: { token_type: "Bearer", expires_in: 600, scope: "openid email offline_access" } });
    const [grant, ...others] = [...app.oauth.grants.values()];
    expect(others).toEqual([]);
    expect(grant).toMatchObject({
      userId: app.userId,
      clientId: "web",
      scopes: ["openid", "email", "offline_access"],
      resources: [API_A],
      generation: 0,
      refreshable: true,
      authTime: 1_700_000_000,
      aal: 2,
      amr: ["pwd", "otp"],
      revokedAt: null,
    });
    const stored = await app.storedCode(code);
    expect(stored?.usedAt).not.toBeNull();
    expect(stored?.grantId).toBe(grant?.id);
    expect(answer.body.refresh_token).toMatch(new RegExp(`^${grant?.id}\\.0\\.[0-9a-f]{64}$`));
    expect(claimsOf(answer.body.access_token)).toMatchObject({ sub: app.userId, aud: API_A, client_id: "web", grant_id: grant?.id });
    expect(claimsOf(answer.body.id_token)).toMatchObject({
      sub: app.userId,
      aud: "web",
      nonce: "nonce-1",
      acr: "urn:authlib:aal2",
      email: "ada@example.com",
    });
    expect((await app.rows()).filter((row) => row.type === "oauthTokenIssued")).toHaveLength(1);
  });

  it("a code without offline_access gives no refresh token, without openid no ID token", async () => {
    const answer = await exchange(await app.code({ scopes: [] }));
    expect(answer.status).toBe(200);
    expect(answer.body).not.toHaveProperty("refresh_token");
    expect(answer.body).not.toHaveProperty("id_token");
  });

  it("a confidential client may send its secret in the body when it registered client_secret_post", async () => {
    const answer = await exchange(await app.code({ clientId: "post" }), {}, "post");
    expect(answer.status).toBe(200);
    expect([...app.oauth.grants.values()][0]?.clientId).toBe("post");
  });

  it("refuses a request without a code (invalid_request) and an unknown code (invalid_grant)", async () => {
    expect(await app.token({ grant_type: "authorization_code", redirect_uri: REDIRECT, code_verifier: VERIFIER })).toMatchObject({
      status: 400,
      body: { error: "invalid_request", error_description: "The code is missing." },
    });
    expect(await exchange("")).toMatchObject({ body: { error: "invalid_request" } });
    expect(await exchange("no-such-code")).toMatchObject({
      status: 400,
      body: { error: "invalid_grant", error_description: "The code is not valid, was used, or has expired." },
    });
    expect(app.oauth.grants.size).toBe(0);
  });

  it("refuses a code sent twice in one request, or as a number (invalid_request)", async () => {
    expect(await exchange(["a", "b"] as never)).toMatchObject({ body: { error: "invalid_request" } });
    expect(await exchange(5 as never)).toMatchObject({ body: { error: "invalid_request" } });
  });

  it("refuses another client's code, and leaves it unused for its own client", async () => {
    const code = await app.code({ clientId: "native" });
    expect(await exchange(code)).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect((await app.storedCode(code))?.usedAt).toBeNull();
    expect(app.oauth.grants.size).toBe(0);
    expect((await exchange(code, {}, "native")).status).toBe(200);
  });

  it("a replayed code is refused and revokes the grant its first exchange made (its refresh token dies)", async () => {
    const code = await app.code();
    const first = await exchange(code);
    const again = await exchange(code);
    expect(again).toMatchObject({
      status: 400,
      body: { error: "invalid_grant", error_description: "The code is not valid, was used, or has expired." },
    });
    const grant = [...app.oauth.grants.values()][0];
    expect(grant?.revokedAt).not.toBeNull();
    expect(await app.token({ grant_type: "refresh_token", refresh_token: first.body.refresh_token })).toMatchObject({
      body: { error: "invalid_grant" },
    });
    const replays = (await app.rows()).filter((row) => row.type === "oauthCodeReplayed");
    expect(replays.map((row) => row.detail)).toEqual([`client=web grant=${grant?.id} reason=replay`]);
  });

  it("a code replayed after its grant was revoked, or used without a grant, is refused without a second revocation", async () => {
    const code = await app.code();
    await exchange(code);
    await exchange(code);
    await exchange(code);
    expect((await app.rows()).filter((row) => row.type === "oauthCodeReplayed")).toHaveLength(1);
    const orphan = await app.code({ usedAt: new Date(), grantId: null });
    expect(await exchange(orphan)).toMatchObject({ body: { error: "invalid_grant" } });
    const gone = await app.code({ usedAt: new Date(), grantId: "f".repeat(32) });
    expect(await exchange(gone)).toMatchObject({ body: { error: "invalid_grant" } });
    expect((await app.rows()).filter((row) => row.type === "oauthCodeReplayed")).toHaveLength(1);
  });

  it("a code works until the instant it expires", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const now = Date.now();
    const early = await app.code({ expiresAt: new Date(now + 1) });
    const late = await app.code({ expiresAt: new Date(now) });
    expect(await exchange(late)).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect((await app.storedCode(late))?.usedAt).toBeNull();
    expect((await exchange(early)).status).toBe(200);
  });

  it("refuses another redirect_uri, or none, than the code was issued for (invalid_grant), using nothing up", async () => {
    const code = await app.code();
    for (const redirect of [`${REDIRECT}/`, undefined]) {
      const form = { grant_type: "authorization_code", code, code_verifier: VERIFIER, ...(redirect ? { redirect_uri: redirect } : {}) };
      expect(await app.token(form)).toMatchObject({
        status: 400,
        body: { error: "invalid_grant", error_description: "The redirect_uri is not the one the code was issued for." },
      });
    }
    expect((await app.storedCode(code))?.usedAt).toBeNull();
    expect((await exchange(code)).status).toBe(200);
  });

  it("requires the PKCE verifier (invalid_request) and refuses one that does not match (invalid_grant), using nothing up", async () => {
    const code = await app.code();
    expect(await app.token({ grant_type: "authorization_code", code, redirect_uri: REDIRECT })).toMatchObject({
      status: 400,
      body: { error: "invalid_request", error_description: "PKCE is required: the code_verifier is missing." },
    });
    expect(await exchange(code, { code_verifier: `${VERIFIER}x` })).toMatchObject({
      status: 400,
      body: { error: "invalid_grant", error_description: "The code_verifier does not match the challenge." },
    });
    expect((await app.storedCode(code))?.usedAt).toBeNull();
    expect(app.oauth.grants.size).toBe(0);
    expect((await exchange(code)).status).toBe(200);
  });

  it("two exchanges at once: the loser gets invalid_grant and neither grant survives", async () => {
    const code = await app.code();
    const use = app.oauth.methods.useOAuthAuthorizationCode;
    // Another instance exchanges the code between this one's checks and its compare-and-set.
    app.adapter.useOAuthAuthorizationCode = async (codeHash, usedAt, grantId) => {
      const winner = await app.grant();
      await use(codeHash, usedAt, winner.grant.id);
      return use(codeHash, usedAt, grantId);
    };
    expect(await exchange(code)).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    const grants = [...app.oauth.grants.values()];
    expect(grants).toHaveLength(2);
    expect(grants.every((grant) => grant.revokedAt !== null)).toBe(true);
    expect((await app.rows()).filter((row) => row.type === "oauthCodeReplayed")).toHaveLength(2);
  });

  it("a lost race whose winner left no grant still refuses and revokes its own", async () => {
    const code = await app.code();
    app.adapter.useOAuthAuthorizationCode = async () => false;
    expect(await exchange(code)).toMatchObject({ body: { error: "invalid_grant" } });
    expect([...app.oauth.grants.values()].map((grant) => grant.revokedAt !== null)).toEqual([true]);
  });
});

describe("resources at the token endpoint (RFC 8707 §2.2)", () => {
  const granted = () => app.code({ resources: [API_A, API_B] });

  it("without resource, the token is for every granted resource", async () => {
    const answer = await exchange(await granted());
    expect(claimsOf(answer.body.access_token).aud).toEqual([API_A, API_B]);
  });

  it("narrows the token to the one resource asked (named twice or once)", async () => {
    expect(claimsOf((await exchange(await granted(), { resource: API_B })).body.access_token).aud).toBe(API_B);
    expect(claimsOf((await exchange(await granted(), { resource: [API_A, API_A] })).body.access_token).aud).toBe(API_A);
    const both = await exchange(await granted(), { resource: [API_B, API_A] });
    expect(claimsOf(both.body.access_token).aud).toEqual([API_B, API_A]);
    expect([...app.oauth.grants.values()].at(-1)?.resources).toEqual([API_A, API_B]);
  });

  it("refuses a resource this server does not issue tokens for, and one the code did not grant (invalid_target), using nothing up", async () => {
    const narrow = await app.code({ resources: [API_A] });
    expect(await exchange(narrow, { resource: "https://elsewhere.example/" })).toMatchObject({
      status: 400,
      body: { error: "invalid_target", error_description: "A resource asked for is not one this server issues tokens for." },
    });
    expect(await exchange(narrow, { resource: API_B })).toMatchObject({
      status: 400,
      body: { error: "invalid_target", error_description: "A resource asked for was not granted." },
    });
    expect(await exchange(narrow, { resource: [API_A, API_B] })).toMatchObject({ body: { error: "invalid_target" } });
    expect((await app.storedCode(narrow))?.usedAt).toBeNull();
    expect(app.oauth.grants.size).toBe(0);
  });

  it("refuses a resource that is not text (invalid_request)", async () => {
    for (const resource of [[API_A, 5], [null], 7]) {
      expect(await exchange(await granted(), { resource })).toMatchObject({
        status: 400,
        body: { error: "invalid_request", error_description: "resource must be a URL." },
      });
    }
  });
});

describe("without telemetry", () => {
  it("exchanges, refreshes and refuses a replay the same way", async () => {
    app = await tokenApp({ telemetry: false });
    const code = await app.code();
    const first = await exchange(code);
    expect(first.status).toBe(200);
    const refreshed = await app.token({ grant_type: "refresh_token", refresh_token: first.body.refresh_token });
    expect(refreshed.status).toBe(200);
    expect((await exchange(code)).body.error).toBe("invalid_grant");
    expect([...app.oauth.grants.values()][0]?.revokedAt).not.toBeNull();
  });
});
