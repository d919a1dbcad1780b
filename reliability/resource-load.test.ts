/**
 * Load test of the resource side (issue 47): an authorization server on the hosted-db adapter over a
 * PostgreSQL database of its own issues 100 grants (100 code flows of one user through the real CSRF,
 * consent and token endpoints), then `protectResource` checks 100,000 requests with their access tokens
 * (200 in flight), its revocation asked of the database through `auth.api.isGrantRevoked` at most once per
 * grant per second. Then 10 grants are revoked and, once the bound has passed, 10,000 more checks refuse
 * exactly those grants' tokens. Every answer must be the expected one. Throughput is recorded in
 * test-artifacts/reliability.json, not asserted.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pkceChallenge } from "../packages/core/src/features/authorization-server/pkce.js";
import { createAuth } from "../packages/core/src/kernel/instance.js";
import Credentials from "../packages/core/src/providers/credentials.js";
import { InvalidToken, protectResource, revocationWithin } from "../packages/core/src/resource/index.js";
import type { AuthConfig } from "../packages/core/src/types/config.js";
import { authClient } from "../packages/core/test/helpers/auth-client.js";
import { HostedDbAdapter, HostedDbClient } from "../packages/hosted-db-adapter/src/index.js";
import { postgresAnswers } from "../packages/hosted-db-adapter/test/helpers.js";
import { recordFigures } from "./helpers/figures.js";
import { runBounded, timed } from "./helpers/measure.js";
import { createScratchDatabase, type ScratchDatabase, SHARED_SERVER_URL } from "./helpers/scratch-database.js";

const GRANTS = 100;
const CHECKS = Number(process.env.LOAD_CHECKS ?? 100_000);
const IN_FLIGHT = 200;
const REVOKED = 10;
const ORIGIN = "http://localhost:3000";
const RESOURCE = "https://api.example/";
const ISSUER = `${ORIGIN}/auth`;
const SECRET = "resource-load-client-secret-0123456789abcd";
const VERIFIER = "resource-load-verifier-0123456789-abcdefghijklmnopqr";

const available = await postgresAnswers(SHARED_SERVER_URL, "the resource load test");

let database: ScratchDatabase;
let client: HostedDbClient;
let auth: ReturnType<typeof createAuth>;
let config: AuthConfig;
const tokens: Array<{ accessToken: string; grantId: string }> = [];

beforeAll(async () => {
  if (!available) return;
  database = await createScratchDatabase();
  client = new HostedDbClient({ databaseURL: database.url, branch: "main" });
  await client.migrate();
  const user = await HostedDbAdapter(client).createUser({ id: "load-user", email: "ada@example.com", emailVerified: new Date() });
  config = {
    secret: "resource-load-secret-0123456789abcdefghij",
    trustHost: true,
    adapter: HostedDbAdapter(client),
    session: { strategy: "jwt" },
    providers: [Credentials({ authorize: () => ({ id: user.id, email: user.email }) })],
    authorizationServer: {
      resources: [RESOURCE],
      clients: [{ clientId: "web", clientSecret: SECRET, name: "Web", redirectUris: ["https://app.example/cb"] }],
    },
    logger: { error: (error) => console.error(error), warn: () => {}, debug: () => {} },
  };
  auth = createAuth(config);
});

afterAll(async () => {
  await client?.close();
  await database?.drop();
});

/** One code flow of the signed-in browser: the access token and its grant. */
async function issue(browser: ReturnType<typeof authClient>): Promise<{ accessToken: string; grantId: string }> {
  const query = new URLSearchParams({
    client_id: "web",
    redirect_uri: "https://app.example/cb",
    response_type: "code",
    resource: RESOURCE,
    code_challenge: await pkceChallenge(VERIFIER),
    code_challenge_method: "S256",
    prompt: "consent",
  });
  const page = await (await browser.send(`/auth/oauth2/authorize?${query}`)).text();
  const sealed = /name="request" value="([^"]+)"/.exec(page)?.[1] as string;
  const decided = await browser.send("/auth/oauth2/consent", {
    form: { csrfToken: await browser.csrf(), request: sealed, decision: "allow" },
  });
  const code = new URL(decided.headers.get("location") as string).searchParams.get("code") as string;
  const response = await auth.handler(
    new Request(`${ISSUER}/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${btoa(`web:${SECRET}`)}` },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        redirect_uri: "https://app.example/cb",
        code_verifier: VERIFIER,
      }),
    }),
  );
  const body = (await response.json()) as { access_token: string };
  const claims = JSON.parse(Buffer.from(body.access_token.split(".")[1] as string, "base64url").toString()) as { grant_id: string };
  return { accessToken: body.access_token, grantId: claims.grant_id };
}

/** What `protectResource` answers for the token of grant `index` (mod the grants): ok, refused, or an error. */
async function checkAt(index: number, options: Parameters<typeof protectResource>[1]): Promise<string> {
  const { accessToken } = tokens[index % GRANTS] as (typeof tokens)[number];
  const request = new Request(RESOURCE, { headers: { authorization: `Bearer ${accessToken}` } });
  try {
    return (await protectResource(request, options)).userId === "load-user" ? "ok" : "wrong-user";
  } catch (error) {
    return error instanceof InvalidToken ? "refused" : `error: ${(error as Error).message}`;
  }
}

describe.skipIf(!available)(`${CHECKS} protectResource checks on PostgreSQL`, () => {
  it(`issues ${GRANTS} grants, then ${CHECKS} checks all pass; after ${REVOKED} revocations and the bound, exactly their tokens are refused`, async () => {
    const browser = authClient(config, ORIGIN);
    await browser.send("/auth/callback/credentials", {
      form: { csrfToken: await browser.csrf(), username: "ada", password: "x", callbackUrl: "/" },
    });
    for (let i = 0; i < GRANTS; i++) tokens.push(await issue(browser));
    const jwks = (await (await auth.handler(new Request(`${ISSUER}/oauth2/jwks`))).json()) as { keys: never[] };
    const revocation = revocationWithin({ isRevoked: (grantId) => auth.api.isGrantRevoked(grantId) }, 1);
    const options = { issuer: ISSUER, resource: RESOURCE, jwks, revocation };
    const indexes = Array.from({ length: CHECKS }, (_, i) => i);
    const { result, wallMillis } = await timed(() => runBounded(indexes, IN_FLIGHT, (index) => checkAt(index, options)));
    const answers = new Map<string, number>();
    for (const answer of result) answers.set(answer, (answers.get(answer) ?? 0) + 1);
    expect(Object.fromEntries(answers)).toEqual({ ok: CHECKS });

    for (const { grantId } of tokens.slice(0, REVOKED)) expect(await auth.api.isGrantRevoked(grantId)).toBe(false);
    const store = HostedDbAdapter(client);
    for (const { grantId } of tokens.slice(0, REVOKED)) await store.revokeOAuthGrant?.(grantId, new Date());
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const after = await runBounded(
      Array.from({ length: CHECKS / 10 }, (_, i) => i),
      IN_FLIGHT,
      async (index) => ({ revoked: index % GRANTS < REVOKED, answer: await checkAt(index, options) }),
    );
    const wrong = after.filter(({ revoked, answer }) => answer !== (revoked ? "refused" : "ok"));
    expect(wrong).toEqual([]);
    recordFigures("protectResource", {
      grants: GRANTS,
      checks: CHECKS,
      inFlight: IN_FLIGHT,
      checksPerSecond: Math.round(CHECKS / (wallMillis / 1000)),
      errors: CHECKS - (answers.get("ok") ?? 0),
      afterRevocation: { checks: CHECKS / 10, refused: after.filter(({ answer }) => answer === "refused").length },
    });
  });
});
