/**
 * Two authorization servers in two real processes (`server-process.ts`) on one PostgreSQL database
 * (the hosted-db adapter): a code issued by A is exchanged at B; a grant the user revokes on A is refused
 * by B's token endpoint at once (the refresh family lives in the database), and by B's `protectResource`
 * within its revocation bound. Skipped, saying why, when PostgreSQL does not answer.
 */
import { randomUUID } from "node:crypto";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HostedDbAdapter, HostedDbClient } from "../../../hosted-db-adapter/src/index.js";
import { dropBranch, postgresAnswers, randomBranch, testDatabaseURL } from "../../../hosted-db-adapter/test/helpers.js";
import { pkceChallenge } from "../../src/features/authorization-server/pkce.js";
import { httpClient } from "../helpers/auth-client.js";
import { type ForkedInstance, forkInstance } from "../helpers/forked-instance.js";
import { authorizeIn } from "./app.js";

const url = testDatabaseURL();
const postgres = await postgresAnswers(url, "the authorization server across processes");
const ISSUER = "https://as.example/auth";
const RESOURCE = "https://api.example/";
const CLIENT_SECRET = "two-instances-client-secret-0123456789abcd";
const VERIFIER = "two-instances-verifier-0123456789-abcdefghijklmnopq";
/** The revocation bound of `protectResource` on each instance, in seconds. */
const BOUND = 2;

describe.skipIf(!postgres)("two authorization servers in two processes, one PostgreSQL database", () => {
  let database: HostedDbClient;
  let a: ForkedInstance<object, { origin: string }>;
  let b: ForkedInstance<object, { origin: string }>;
  let originA: string;
  let originB: string;
  let userId: string;
  let clientKey: CryptoKey;

  beforeAll(async () => {
    database = new HostedDbClient({ databaseURL: url, branch: randomBranch("oauth_two") });
    await database.migrate();
    userId = (await HostedDbAdapter(database).createUser({ id: randomUUID(), email: "ada@example.com", emailVerified: new Date() })).id;
    const keys = await generateKeyPair("ES256", { extractable: true });
    clientKey = keys.privateKey;
    const env = {
      CLIENT_JWK: JSON.stringify({ ...(await exportJWK(keys.publicKey)), kid: "k1", alg: "ES256" }),
      DATABASE_URL: url,
      BRANCH: database.branch,
      USER_ID: userId,
      RESOURCE,
      ISSUER,
      BOUND: String(BOUND),
      AUTH_SECRET: "two-instances-secret-0123456789abcdefgh",
      CLIENT_SECRET,
    };
    const script = new URL("./server-process.ts", import.meta.url);
    [a, b] = await Promise.all([
      forkInstance<object, { origin: string }>(script, env),
      forkInstance<object, { origin: string }>(script, env),
    ]);
    [originA, originB] = [(await a.ask({})).origin, (await b.ask({})).origin];
  }, 30_000);

  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    if (database) {
      await dropBranch(database, database.branch);
      await database.close();
    }
  });

  async function token(origin: string, form: Record<string, string>) {
    const response = await fetch(`${origin}/auth/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${btoa(`web:${CLIENT_SECRET}`)}` },
      body: new URLSearchParams(form),
    });
    return (await response.json()) as Record<string, string>;
  }

  const me = (origin: string, accessToken: string) => fetch(`${origin}/api/me`, { headers: { authorization: `Bearer ${accessToken}` } });

  it("a code from A is exchanged at B; a grant revoked on A is refused by B at once for refresh, within the bound for access tokens", async () => {
    const browser = httpClient(originA);
    const csrfToken = await browser.csrf();
    await browser.send("/auth/callback/credentials", { form: { csrfToken, username: "ada", password: "x", callbackUrl: "/" } });
    const query = new URLSearchParams({
      client_id: "web",
      redirect_uri: "https://app.example/callback",
      response_type: "code",
      scope: "offline_access",
      resource: RESOURCE,
      code_challenge: await pkceChallenge(VERIFIER),
      code_challenge_method: "S256",
    });
    const { location } = await authorizeIn(browser, `${originA}/auth/oauth2/authorize?${query}`);
    const code = new URL(location).searchParams.get("code") as string;
    expect(new URL(location).searchParams.get("iss")).toBe(ISSUER);
    const tokens = await token(originB, {
      grant_type: "authorization_code",
      code,
      redirect_uri: "https://app.example/callback",
      code_verifier: VERIFIER,
    });
    expect(tokens.access_token).toBeTruthy();
    // B issued it; A's resource accepts it too (the keys are shared through the database).
    expect(await (await me(originA, tokens.access_token as string)).json()).toEqual({ userId });
    expect((await me(originB, tokens.access_token as string)).status).toBe(200);

    const grants = await (await browser.send("/auth/oauth2/grants")).json();
    const grantId = (grants as { grants: Array<{ id: string }> }).grants[0]?.id as string;
    const revoked = await browser.send("/auth/oauth2/revoke-grant", { form: { csrfToken: await browser.csrf(), grantId } });
    expect(revoked.status).toBe(200);

    expect((await token(originB, { grant_type: "refresh_token", refresh_token: tokens.refresh_token as string })).error).toBe(
      "invalid_grant",
    );
    await expect
      .poll(async () => (await me(originB, tokens.access_token as string)).status, { timeout: BOUND * 1000 + 4000, interval: 100 })
      .toBe(401);
    const refused = await me(originB, tokens.access_token as string);
    expect(refused.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });

  it("a client assertion (private_key_jwt) used on A is refused on B: its jti is spent in the shared database", async () => {
    const assertion = await new SignJWT({ jti: randomUUID() })
      .setProtectedHeader({ alg: "ES256", kid: "k1" })
      .setIssuer("signed")
      .setSubject("signed")
      .setAudience(ISSUER)
      .setIssuedAt()
      .setExpirationTime("2m")
      .sign(clientKey);
    const revoke = (origin: string) =>
      fetch(`${origin}/auth/oauth2/revoke`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          token: "not-a-token",
          client_id: "signed",
          client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
          client_assertion: assertion,
        }),
      });
    expect((await revoke(originA)).status).toBe(200);
    const replayed = await revoke(originB);
    expect(replayed.status).toBe(401);
    expect(await replayed.json()).toMatchObject({ error: "invalid_client" });
  });
});
