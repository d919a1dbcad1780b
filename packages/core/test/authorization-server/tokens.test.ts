/**
 * The tokens (features/authorization-server/tokens.ts), minted and read directly on the in-memory store:
 * the access token's claims and header (RFC 9068), the ID token's (OpenID Connect Core §2), the refresh
 * token's format `<grant id>.<generation>.<mac>` and what proves it, and what `readAccessToken` refuses.
 */
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify, SignJWT } from "jose";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { publishedKeys } from "../../src/features/authorization-server/keys.js";
import {
  accessToken,
  idToken,
  parseRefreshToken,
  readAccessToken,
  refreshToken,
  refreshTokenIssued,
} from "../../src/features/authorization-server/tokens.js";
import type { AuthorizationServerConfig, OAuthGrant } from "../../src/types/authorization-server.js";
import type { InternalOptions } from "../../src/types/internal.js";
import { memoryAuthorizationServer } from "../helpers/memory-authorization-server.js";

const T0 = Date.UTC(2026, 0, 1);
const NOW = T0 / 1000;
const ISSUER = "https://as.example/auth";
const SECRET = "tokens-test-secret-0123456789abcdef!!";
const OLD_SECRET = "tokens-test-old-secret-0123456789ab!!";

let oauth = memoryAuthorizationServer();

function optionsWith(server: AuthorizationServerConfig = {}, secret = [SECRET]): InternalOptions {
  return { config: { authorizationServer: server }, authUrl: ISSUER, secret, adapter: oauth.methods } as unknown as InternalOptions;
}

const facts = {
  userId: "user-1",
  clientId: "app",
  scopes: ["openid", "read"],
  resources: ["https://api.example"],
  grantId: "g".repeat(32),
  authTime: 1234,
};

const grant: OAuthGrant = {
  id: "0123456789abcdef0123456789abcdef",
  userId: "user-1",
  clientId: "app",
  scopes: ["offline_access"],
  resources: [],
  secret: "5".repeat(64),
  generation: 0,
  refreshable: true,
  authTime: 1,
  aal: 1,
  amr: [],
  createdAt: new Date(T0),
  lastUsedAt: new Date(T0),
  expiresAt: null,
  revokedAt: null,
};

/** The claims of `token` verified against the server's published keys. */
async function verified(options: InternalOptions, token: string) {
  const keys = createLocalJWKSet({ keys: (await publishedKeys(options)) as never });
  return (await jwtVerify(token, keys, { currentDate: new Date() })).payload;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(T0);
  oauth = memoryAuthorizationServer();
});

afterEach(() => {
  vi.useRealTimers();
});

describe("accessToken", () => {
  it("is an ES256 at+jwt signed by the published key, naming who, which client, scopes, resource and grant", async () => {
    const options = optionsWith({ accessTokenMaxAge: 300 });
    const { token, expiresIn } = await accessToken(options, facts);
    expect(expiresIn).toBe(300);
    const header = decodeProtectedHeader(token);
    expect(header).toEqual({ alg: "ES256", typ: "at+jwt", kid: [...oauth.signingKeys.keys()][0] });
    const claims = await verified(options, token);
    expect(claims).toEqual({
      iss: ISSUER,
      sub: "user-1",
      aud: "https://api.example",
      client_id: "app",
      scope: "openid read",
      grant_id: facts.grantId,
      auth_time: 1234,
      iat: NOW,
      exp: NOW + 300,
      jti: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
  });

  it("has a list audience for several resources (and an empty one for none), the configured issuer, and a new jti each time", async () => {
    const options = optionsWith({ issuer: "https://issuer.example" });
    const two = await accessToken(options, { ...facts, resources: ["https://a.example", "https://b.example"] });
    expect(decodeJwt(two.token)).toMatchObject({
      aud: ["https://a.example", "https://b.example"],
      iss: "https://issuer.example",
      exp: NOW + 600,
    });
    const none = await accessToken(options, { ...facts, resources: [] });
    expect(decodeJwt(none.token).aud).toEqual([]);
    expect(decodeJwt(two.token).jti).not.toBe(decodeJwt(none.token).jti);
  });
});

describe("idToken", () => {
  const base = { userId: "user-1", clientId: "app", authTime: 99, amr: ["pwd"], claims: { email: "a@example.com" } };

  it("is a JWT for the client (aud and azp) with the sign-in, the nonce and the claims, signed like the access tokens", async () => {
    const options = optionsWith({ accessTokenMaxAge: 60 });
    const token = await idToken(options, { ...base, aal: 1, nonce: "n-0" });
    expect(decodeProtectedHeader(token)).toEqual({ alg: "ES256", typ: "JWT", kid: [...oauth.signingKeys.keys()][0] });
    expect(await verified(options, token)).toEqual({
      iss: ISSUER,
      sub: "user-1",
      aud: "app",
      azp: "app",
      iat: NOW,
      exp: NOW + 60,
      auth_time: 99,
      amr: ["pwd"],
      acr: "urn:authlib:aal1",
      nonce: "n-0",
      email: "a@example.com",
    });
  });

  it("says aal2 from a second factor on, has no nonce when none was sent, and a claim cannot replace iss, sub or aud", async () => {
    const options = optionsWith();
    const claims = { iss: "https://evil.example", sub: "someone-else", aud: "other", email: "a@example.com" };
    const payload = decodeJwt(await idToken(options, { ...base, claims, aal: 2, nonce: null }));
    expect(payload).toMatchObject({ acr: "urn:authlib:aal2", iss: ISSUER, sub: "user-1", aud: "app" });
    expect(payload).not.toHaveProperty("nonce");
    expect(decodeJwt(await idToken(options, { ...base, aal: 3, nonce: null })).acr).toBe("urn:authlib:aal2");
  });
});

/**
 * tokens.ts loaded afresh: its refresh-token pattern is a module-level constant, which a mutation run only
 * sees changed when the module loads within the test that checks it (docs/testing.md).
 */
async function freshTokens() {
  vi.resetModules();
  return import("../../src/features/authorization-server/tokens.js");
}

describe("refresh tokens", () => {
  it("are <grant id>.<generation>.<64 hex>, and parse back to their parts", async () => {
    const { parseRefreshToken } = await freshTokens();
    const token = await refreshToken(optionsWith(), grant, 7);
    expect(token).toMatch(/^0123456789abcdef0123456789abcdef\.7\.[0-9a-f]{64}$/);
    expect(parseRefreshToken(token)).toEqual({ grantId: grant.id, generation: 7, mac: token.split(".")[2] });
  });

  it.each([
    ["an empty text", ""],
    ["a grant id of 31 characters", `${"a".repeat(31)}.0.${"b".repeat(64)}`],
    ["upper-case hex", `${"A".repeat(32)}.0.${"b".repeat(64)}`],
    ["a leading zero", `${"a".repeat(32)}.01.${"b".repeat(64)}`],
    ["a generation of ten digits", `${"a".repeat(32)}.1000000000.${"b".repeat(64)}`],
    ["a short mac", `${"a".repeat(32)}.0.${"b".repeat(63)}`],
    ["something before it", `x${"a".repeat(32)}.0.${"b".repeat(64)}`],
    ["something after it", `${"a".repeat(32)}.0.${"b".repeat(64)}x`],
  ])("anything else is not a refresh token: %s", async (_, token) => {
    const { parseRefreshToken } = await freshTokens();
    expect(parseRefreshToken(token)).toBeUndefined();
  });

  it("accepts the largest generation the format has, and generation 0", async () => {
    const { parseRefreshToken } = await freshTokens();
    expect(parseRefreshToken(`${"a".repeat(32)}.0.${"b".repeat(64)}`)?.generation).toBe(0);
    expect(parseRefreshToken(`${"a".repeat(32)}.999999999.${"b".repeat(64)}`)?.generation).toBe(999_999_999);
  });

  it("is proven for its grant and generation only, by any of the app's secrets (one rotated out still counts)", async () => {
    const rotated = optionsWith({}, [SECRET, OLD_SECRET]);
    const issued = parseRefreshToken(await refreshToken(optionsWith(), grant, 2));
    const byOld = parseRefreshToken(await refreshToken(optionsWith({}, [OLD_SECRET]), grant, 2));
    if (!issued || !byOld) throw new Error("not parsed");
    expect(await refreshTokenIssued(optionsWith(), grant, issued)).toBe(true);
    expect(await refreshTokenIssued(rotated, grant, byOld)).toBe(true);
    expect(await refreshTokenIssued(optionsWith(), grant, byOld)).toBe(false);
    expect(await refreshTokenIssued(optionsWith(), grant, { ...issued, generation: 3 })).toBe(false);
    expect(await refreshTokenIssued(optionsWith(), { ...grant, secret: "6".repeat(64) }, issued)).toBe(false);
    expect(await refreshTokenIssued(optionsWith(), { ...grant, id: "f".repeat(32) }, issued)).toBe(false);
    const flipped = issued.mac.replace(/^./, (c) => (c === "0" ? "1" : "0"));
    expect(await refreshTokenIssued(optionsWith(), grant, { ...issued, mac: flipped })).toBe(false);
  });
});

describe("readAccessToken", () => {
  it("reads back the claims of an access token this server signed, until it expires (5 s of clock skew)", async () => {
    const options = optionsWith({ accessTokenMaxAge: 100 });
    const { token } = await accessToken(options, facts);
    expect(await readAccessToken(options, token)).toMatchObject({ sub: "user-1", grant_id: facts.grantId, iss: ISSUER });
    vi.setSystemTime(T0 + 104_999);
    expect(await readAccessToken(options, token)).toBeDefined();
    vi.setSystemTime(T0 + 105_000);
    expect(await readAccessToken(options, token)).toBeUndefined();
  });

  it("refuses an ID token (typ JWT), a token of another issuer, a tampered payload, garbage, and a key it never published", async () => {
    const options = optionsWith();
    expect(await readAccessToken(options, await idToken(options, { ...facts, aal: 1, amr: [], nonce: null, claims: {} }))).toBeUndefined();
    const { token } = await accessToken(options, facts);
    expect(await readAccessToken(optionsWith({ issuer: "https://other.example" }), token)).toBeUndefined();
    const [header, , signature] = token.split(".") as [string, string, string];
    const changed = Buffer.from(JSON.stringify({ ...decodeJwt(token), sub: "mallory" })).toString("base64url");
    expect(await readAccessToken(options, `${header}.${changed}.${signature}`)).toBeUndefined();
    expect(await readAccessToken(options, "not.a.jwt")).toBeUndefined();
    expect(await readAccessToken(options, "")).toBeUndefined();
    const other = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign"]);
    const forged = await new SignJWT(decodeJwt(token))
      .setProtectedHeader({ alg: "ES256", typ: "at+jwt", kid: decodeProtectedHeader(token).kid as string })
      .sign((other as CryptoKeyPair).privateKey);
    expect(await readAccessToken(options, forged)).toBeUndefined();
    const unknownKid = await new SignJWT(decodeJwt(token))
      .setProtectedHeader({ alg: "ES256", typ: "at+jwt", kid: "unknown" })
      .sign((other as CryptoKeyPair).privateKey);
    expect(await readAccessToken(options, unknownKid)).toBeUndefined();
  });

  it("reads a token signed by an earlier key that is still published after a rotation, by its kid", async () => {
    const options = optionsWith({ keyRotation: 60, accessTokenMaxAge: 600 });
    const { token } = await accessToken(options, facts);
    vi.setSystemTime(T0 + 61_000);
    const newer = await accessToken(options, facts);
    expect(decodeProtectedHeader(newer.token).kid).not.toBe(decodeProtectedHeader(token).kid);
    expect((await publishedKeys(options)).map((key) => key.kid)).toEqual([
      decodeProtectedHeader(newer.token).kid,
      decodeProtectedHeader(token).kid,
    ]);
    expect(await readAccessToken(options, token)).toMatchObject({ sub: "user-1" });
    expect(await readAccessToken(options, newer.token)).toMatchObject({ sub: "user-1" });
  });

  it("refuses an access token signed with our key but without a number exp, a grant_id or a sub", async () => {
    const options = optionsWith();
    const { token } = await accessToken(options, facts);
    const claims = decodeJwt(token);
    const kid = decodeProtectedHeader(token).kid as string;
    const { jwk } = await import("../../src/crypto/jwe-jose.js").then(
      async ({ joseDecrypt }) =>
        (await joseDecrypt([...oauth.signingKeys.values()][0]?.sealedPrivateJwk as string, [SECRET], "authlib.oauth.signing-key")) as {
          jwk: JsonWebKey;
        },
    );
    const key = await crypto.subtle.importKey("jwk", jwk, { name: "ECDSA", namedCurve: "P-256" }, false, ["sign"]);
    const signed = (payload: Record<string, unknown>, typ = "at+jwt") =>
      new SignJWT(payload).setProtectedHeader({ alg: "ES256", typ, kid }).sign(key);
    expect(await readAccessToken(options, await signed(claims))).toBeDefined();
    expect(await readAccessToken(options, await signed({ ...claims, exp: String(claims.exp) }))).toBeUndefined();
    expect(await readAccessToken(options, await signed({ ...claims, grant_id: 1 }))).toBeUndefined();
    expect(await readAccessToken(options, await signed({ ...claims, sub: undefined }))).toBeUndefined();
    expect(await readAccessToken(options, await signed(claims, "JWT"))).toBeUndefined();
  });
});
