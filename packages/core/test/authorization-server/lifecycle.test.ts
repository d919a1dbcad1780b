/**
 * The authorization server over time and in its records: a `private_key_jwt` client (openid-client signs
 * its assertions), signing keys rotated without breaking verification, a device code that expires, and
 * the audit rows of an authorization, an issuance, a reuse and a revocation.
 */
import { exportJWK, generateKeyPair } from "jose";
import * as client from "openid-client";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { pkceChallenge } from "../../src/features/authorization-server/pkce.js";
import type { AuditEvent } from "../../src/types/telemetry.js";
import { authorizeIn, type Browser, PASSWORD, post, startServerApp } from "./app.js";

const REDIRECT = "https://app.example/callback";
const VERIFIER = "lifecycle-verifier-0123456789-abcdefghijklmnopqrstuv";
const DAY = 24 * 60 * 60 * 1000;

const keys = await generateKeyPair("ES256");
const publicJwk = { ...(await exportJWK(keys.publicKey)), kid: "k1", alg: "ES256" };
const audit: AuditEvent[] = [];

let app: Awaited<ReturnType<typeof startServerApp>>;
let ada: Browser & { userId: string };

beforeAll(async () => {
  app = await startServerApp({
    config: {
      audit: { store: { write: (event) => void audit.push(event) } },
      authorizationServer: {
        clients: [
          { clientId: "signed", name: "Signed", redirectUris: [REDIRECT], jwks: [publicJwk] },
          { clientId: "cli", name: "CLI", redirectUris: [], grantTypes: ["urn:ietf:params:oauth:grant-type:device_code"] },
        ],
        deviceCode: { maxAge: 60 },
      },
    },
  });
  ada = await app.signedUp("ada@example.com");
});

afterAll(async () => {
  await app.close();
});

afterEach(() => {
  vi.useRealTimers();
});

const insecure = { execute: [client.allowInsecureRequests] };

/** Ada signs in again (her session may have expired in the test's time). */
async function signIn(): Promise<void> {
  await post(ada, "/auth/callback/password", { email: "ada@example.com", password: PASSWORD, callbackUrl: "/" });
}

async function signedClientTokens(scope = "openid offline_access") {
  const config = await client.discovery(new URL(app.issuer), "signed", undefined, client.PrivateKeyJwt(keys.privateKey), insecure);
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT,
    scope,
    code_challenge: await pkceChallenge(VERIFIER),
    code_challenge_method: "S256",
    state: "s",
  });
  const { location } = await authorizeIn(ada, url.href);
  if (!location.startsWith(REDIRECT)) throw new Error(`not redirected to the client: ${location}`);
  const tokens = await client.authorizationCodeGrant(config, new URL(location), { pkceCodeVerifier: VERIFIER, expectedState: "s" });
  return { config, tokens };
}

describe("the authorization server over time", () => {
  it("a private_key_jwt client authenticates with assertions openid-client signs; a replayed or foreign assertion is refused", async () => {
    const { config, tokens } = await signedClientTokens();
    expect(tokens.claims()?.sub).toBe(ada.userId);
    expect((await client.refreshTokenGrant(config, tokens.refresh_token as string)).access_token).toBeTruthy();
    // An assertion signed by another key, and the same assertion twice.
    const other = await generateKeyPair("ES256");
    const now = Math.floor(Date.now() / 1000);
    const { SignJWT } = await import("jose");
    const assertion = (key: CryptoKey, jti: string) =>
      new SignJWT({ jti })
        .setProtectedHeader({ alg: "ES256", kid: "k1" })
        .setIssuer("signed")
        .setSubject("signed")
        .setAudience(`${app.issuer}/oauth2/token`)
        .setIssuedAt(now)
        .setExpirationTime(now + 60)
        .sign(key);
    const post = async (clientAssertion: string) =>
      (await (
        await fetch(`${app.issuer}/oauth2/token`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({
            grant_type: "refresh_token",
            refresh_token: "nope",
            client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
            client_assertion: clientAssertion,
          }),
        })
      ).json()) as { error: string };
    expect((await post(await assertion(other.privateKey, "a"))).error).toBe("invalid_client");
    const once = await assertion(keys.privateKey, "b");
    expect((await post(once)).error).toBe("invalid_grant");
    expect((await post(once)).error).toBe("invalid_client");
  });

  it("rotates its signing key after keyRotation, and still publishes the old one while its tokens live", async () => {
    const jwks = async () => ((await (await fetch(`${app.issuer}/oauth2/jwks`)).json()) as { keys: Array<{ kid: string }> }).keys;
    const before = await jwks();
    expect(before).toHaveLength(1);
    const kidOf = (token: string) => JSON.parse(Buffer.from(token.split(".")[0] as string, "base64url").toString()).kid as string;
    const { tokens } = await signedClientTokens("openid");
    expect(kidOf(tokens.access_token)).toBe(before[0]?.kid);
    // A minute after the key's 30 days: a new key signs, the old one is still published (its tokens live 10 more minutes).
    vi.useFakeTimers({ now: Date.now() + 30 * DAY + 60_000, toFake: ["Date"] });
    // A month on, the session has expired: Ada signs in again.
    await signIn();
    const { tokens: later } = await signedClientTokens("openid");
    const after = await jwks();
    expect(kidOf(later.access_token)).not.toBe(before[0]?.kid);
    expect(after.map((key) => key.kid)).toContain(before[0]?.kid);
    expect(after).toHaveLength(2);
    vi.useFakeTimers({ now: Date.now() + 1 * DAY, toFake: ["Date"] });
    await signIn();
    const { tokens: latest } = await signedClientTokens("openid");
    expect(kidOf(latest.access_token)).toBe(kidOf(later.access_token));
    expect((await jwks()).map((key) => key.kid)).not.toContain(before[0]?.kid);
  });

  it("a device code expires: the device is told expired_token", async () => {
    const started = (await (
      await fetch(`${app.issuer}/oauth2/device_authorization`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ client_id: "cli" }),
      })
    ).json()) as { device_code: string; expires_in: number };
    expect(started.expires_in).toBe(60);
    vi.useFakeTimers({ now: Date.now() + 61_000, toFake: ["Date"] });
    const polled = (await (
      await fetch(`${app.issuer}/oauth2/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          client_id: "cli",
          grant_type: "urn:ietf:params:oauth:grant-type:device_code",
          device_code: started.device_code,
        }),
      })
    ).json()) as { error: string };
    expect(polled.error).toBe("expired_token");
  });

  it("writes an audit row for the authorization, each issuance, a refresh reuse and the revocation, none holding a token", async () => {
    await signIn();
    audit.length = 0;
    const { config, tokens } = await signedClientTokens();
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token as string);
    await expect(client.refreshTokenGrant(config, tokens.refresh_token as string)).rejects.toMatchObject({ error: "invalid_grant" });
    await expect
      .poll(() => audit.map((event) => event.type))
      .toEqual(expect.arrayContaining(["oauthAuthorized", "oauthTokenIssued", "oauthRefreshReused", "oauthRefused"]));
    const issued = audit.filter((event) => event.type === "oauthTokenIssued");
    expect(issued.length).toBeGreaterThanOrEqual(2);
    expect(issued.every((event) => event.userId === ada.userId && event.outcome === "success")).toBe(true);
    const serialized = JSON.stringify(audit);
    for (const secret of [tokens.access_token, tokens.refresh_token as string, refreshed.access_token])
      expect(serialized).not.toContain(secret);
  });
});
