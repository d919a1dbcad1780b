/**
 * OpenTelemetry traces and metrics over the OAuth/OIDC flows of the end-to-end tests (issue 34), with the
 * real SDK and its in-memory exporters: sign-in against a real OP (with and without userinfo), a refused
 * callback (forged state), access-token refresh and the JWT re-issued, and database sessions on PGlite
 * (read and extended, an in-process read, revocation through `auth.api`, sign-out, a due access token
 * refreshed). Every value the flows used that names a person or grants access is remembered; at the end no
 * span or metric text may hold one, and every attribute value must come from a closed grammar.
 */
import { context, trace } from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decode, encode } from "../../src/jwt.js";
import { createAuth } from "../../src/kernel/instance.js";
import type { AuthConfig } from "../../src/types/config.js";
import { authClient } from "../helpers/auth-client.js";
import { closeSharedPglite, freshDatabase, sharedPglite } from "../helpers/database.js";
import { opProvider, startTestOP, type TestOP } from "../helpers/oidc-provider.js";
import { ADDRESS, APP_SPAN, CLIENT, type Client, flowTelemetry, INTERNAL, ORIGIN } from "./flow-telemetry.js";
import { registerInMemorySdk } from "./otel-sdk.js";

const secret = "observability-oauth-secret-0123456789abcdef";
const SESSION = "authlib.session-token";

const sdk = registerInMemorySdk();
const { remember, rememberJar, lastRequestSpan, expectRequestSpan, expectChildSpans, childrenOf, metricPoint, describeScan } =
  flowTelemetry(sdk, secret);
let op: TestOP;

beforeAll(async () => {
  op = await startTestOP({
    clients: [
      {
        client_id: "app",
        client_secret: "app-secret",
        redirect_uris: [`${ORIGIN}/auth/callback/op`, `${ORIGIN}/auth/callback/op-userinfo`],
      },
    ],
  });
  remember("app-secret");
  await sharedPglite().waitReady;
});
afterAll(async () => {
  await op?.close();
  await closeSharedPglite();
  await sdk.shutdown();
});

/** Starts an OAuth sign-in, lets the OP sign `alice` in, and follows the callback. */
async function oauthSignIn(client: Client, providerId = "op") {
  const csrfToken = await client.csrf();
  const start = await client.send(`/auth/signin/${providerId}`, { form: { csrfToken, callbackUrl: "/dashboard" } });
  expect(start.status).toBe(302);
  const callback = await op.authorize(start.headers.get("location") as string);
  remember(callback.searchParams.get("code"), callback.searchParams.get("state"), csrfToken);
  for (const cookie of start.setCookies) remember(cookie.value);
  const done = await client.send(callback.pathname + callback.search);
  rememberJar(client);
  return { start, callback, done };
}

/** The OAuth tokens sealed in a JWT session cookie (`refreshAccessToken` keeps them there). */
async function sealedTokens(client: Client) {
  const payload = (await decode({ token: client.jar.get(SESSION), secret, salt: SESSION })) as Record<string, any>;
  return payload;
}

const alice = { email: "alice@example.com", name: "Alice Liddell", id: "alice", picture: "https://images.example.com/alice.png" };
remember(alice.email, alice.name, alice.picture);

describe("OAuth/OIDC against a real OP, JWT session", () => {
  const config = (): AuthConfig => ({
    secret,
    trustHost: true,
    providers: [opProvider(op, { refreshAccessToken: true })],
    logger: { error: () => {}, warn: () => {} },
  });

  it("a sign-in: authorization redirect, callback, token and ID token; its spans, children and metrics", async () => {
    sdk.spans.reset();
    const client = authClient(config(), ORIGIN, ADDRESS);
    const { done } = await oauthSignIn(client);
    expect(done.headers.get("location")).toBe(`${ORIGIN}/dashboard`);
    const { oauth, sub } = await sealedTokens(client);
    remember(oauth.access_token, oauth.refresh_token, oauth.id_token, sub);
    expect((await client.session())?.user?.email).toBe(alice.email);

    expectRequestSpan(lastRequestSpan("POST", "/auth/signin/:provider"), {
      route: "/auth/signin/:provider",
      action: "signin",
      provider: "op",
      outcome: "success",
      status: 302,
    });
    const callback = lastRequestSpan("GET", "/auth/callback/:provider");
    expectRequestSpan(callback, { route: "/auth/callback/:provider", action: "callback", provider: "op", outcome: "success", status: 302 });
    expectChildSpans(lastRequestSpan("POST", "/auth/signin/:provider"), [
      { name: "authlib.oauth.discovery", kind: CLIENT, attributes: { "authlib.provider": "op" } },
    ]);
    expectChildSpans(callback, [{ name: "authlib.oauth.token", kind: CLIENT, attributes: { "authlib.provider": "op" } }]);
    const check = lastRequestSpan("GET", "/auth/session");
    expect(check?.attributes["authlib.session.strategy"]).toBe("jwt");
    expect(childrenOf(check, "authlib.session.read")).toEqual([]);

    expect(
      (await metricPoint("authlib.sign_in.attempts", { "authlib.provider": "op", "authlib.outcome": "success" }))?.value,
    ).toBeGreaterThanOrEqual(1);
    expect(await metricPoint("http.server.request.duration", { "http.route": "/auth/callback/:provider" })).toBeDefined();
    expect(await metricPoint("http.server.request.duration", { "http.route": "/auth/signin/:provider" })).toBeDefined();
    expect(await metricPoint("authlib.session.checks", { "authlib.outcome": "success" })).toBeDefined();
  });

  it("a provider that asks userinfo: the callback's userinfo call", async () => {
    const client = authClient(
      { secret, trustHost: true, providers: [opProvider(op, { id: "op-userinfo", userinfo: { params: {} } })] },
      ORIGIN,
      ADDRESS,
    );
    sdk.spans.reset();
    const { done } = await oauthSignIn(client, "op-userinfo");
    expect(done.headers.get("location")).toBe(`${ORIGIN}/dashboard`);
    const callback = lastRequestSpan("GET", "/auth/callback/:provider");
    expectRequestSpan(callback, {
      route: "/auth/callback/:provider",
      action: "callback",
      provider: "op-userinfo",
      outcome: "success",
      status: 302,
    });
    expectChildSpans(callback, [
      { name: "authlib.oauth.token", kind: CLIENT, attributes: { "authlib.provider": "op-userinfo" } },
      { name: "authlib.oauth.userinfo", kind: CLIENT, attributes: { "authlib.provider": "op-userinfo" } },
    ]);
  });

  it("a callback with a forged state is refused: a failure with its error type", async () => {
    const client = authClient(config(), ORIGIN, ADDRESS);
    const csrfToken = await client.csrf();
    const start = await client.send("/auth/signin/op", { form: { csrfToken, callbackUrl: "/dashboard" } });
    const callback = await op.authorize(start.headers.get("location") as string);
    remember(callback.searchParams.get("code"), callback.searchParams.get("state"), csrfToken);
    rememberJar(client);
    const forged = "forged-state-value-0123456789abcdefghij";
    remember(forged);
    callback.searchParams.set("state", forged);
    sdk.spans.reset();
    const done = await client.send(callback.pathname + callback.search);
    expect(done.status).toBe(302);
    expect(new URL(done.headers.get("location") ?? "", ORIGIN).searchParams.get("error")).toBeTruthy();
    expect(client.jar.get(SESSION)).toBeUndefined();
    const span = lastRequestSpan("GET", "/auth/callback/:provider");
    expectRequestSpan(span, {
      route: "/auth/callback/:provider",
      action: "callback",
      provider: "op",
      outcome: "failure",
      status: 302,
      errorType: /^[A-Z][A-Za-z]+$/,
    });
    expect(span?.status.code).toBe(2);
    const errorType = span?.attributes["error.type"];
    expect(
      (await metricPoint("authlib.sign_in.attempts", { "authlib.provider": "op", "authlib.outcome": "failure", "error.type": errorType }))
        ?.value,
    ).toBe(1);
  });

  it("an expired access token is refreshed at the session read (provider refresh), and the JWT is re-issued", async () => {
    const client = authClient(config(), ORIGIN, ADDRESS);
    await oauthSignIn(client);
    const payload = await sealedTokens(client);
    remember(payload.oauth.access_token, payload.oauth.refresh_token, payload.oauth.id_token);
    payload.oauth.expires_at = Math.floor(Date.now() / 1000) - 10;
    const { iat, exp, jti, ...rest } = payload;
    remember(jti);
    client.jar.cookies.set(SESSION, { name: SESSION, value: await encode({ token: rest, secret, salt: SESSION }), attributes: {} });
    rememberJar(client);
    sdk.spans.reset();
    const session = await client.session();
    expect(session?.error).toBeUndefined();
    const after = await sealedTokens(client);
    expect(after.oauth.access_token).not.toBe(payload.oauth.access_token);
    remember(after.oauth.access_token, after.oauth.refresh_token, after.oauth.id_token, after.jti);
    rememberJar(client);
    const read = lastRequestSpan("GET", "/auth/session");
    expectRequestSpan(read, { route: "/auth/session", action: "session", outcome: "success", status: 200 });
    const refresh = sdk.finished().find((span) => span.name === "authlib.oauth.refresh");
    expect(refresh?.kind).toBe(CLIENT);
    expect(refresh?.attributes["authlib.provider"]).toBe("op");
    // Parent: whatever span is active — here within the session request's trace.
    expect(refresh?.spanContext().traceId).toBe(read?.spanContext().traceId);
    expectChildSpans(read, [{ name: "authlib.session.refresh", kind: INTERNAL, descendant: true }]);
  });
});

describe("database sessions on PGlite", () => {
  it("sign-in, session read (extended past updateAge), revocation through auth.api, sign-out; a due access token refreshed", async () => {
    const { adapter } = await freshDatabase();
    const config: AuthConfig = {
      secret,
      trustHost: true,
      adapter,
      session: { strategy: "database", updateAge: 0 },
      providers: [opProvider(op, { refreshAccessToken: true })],
      logger: { error: () => {}, warn: () => {} },
    };
    const auth = createAuth(config);
    const first = authClient(config, ORIGIN, ADDRESS);
    const second = authClient(config, ORIGIN, ADDRESS);
    await oauthSignIn(first);
    await oauthSignIn(second);
    const user = await adapter.getUserByEmail?.(alice.email);
    remember(user?.id);
    const [account] = (await adapter.listAccountsByUserId?.(user?.id as string)) ?? [];
    remember(account?.access_token, account?.refresh_token, account?.id_token);

    sdk.spans.reset();
    expect((await first.session())?.user?.email).toBe(alice.email);
    const read = lastRequestSpan("GET", "/auth/session");
    expectRequestSpan(read, { route: "/auth/session", action: "session", outcome: "success", status: 200 });
    expect(read?.attributes["authlib.session.strategy"]).toBe("database");
    expectChildSpans(read, [
      { name: "authlib.session.refresh", kind: INTERNAL, descendant: true },
      { name: /^authlib\.adapter\./, kind: CLIENT, descendant: true },
    ]);

    // The provider's access token falls due: the next read refreshes it.
    await adapter.updateAccount?.({
      provider: account?.provider as string,
      providerAccountId: account?.providerAccountId as string,
      expires_at: Math.floor(Date.now() / 1000) - 5,
    });
    sdk.spans.reset();
    expect((await first.session())?.error).toBeUndefined();
    const refreshed = await adapter.getAccount?.(account?.providerAccountId as string, account?.provider as string);
    expect(refreshed?.access_token).not.toBe(account?.access_token);
    remember(refreshed?.access_token, refreshed?.refresh_token, refreshed?.id_token);
    const refresh = sdk.finished().find((span) => span.name === "authlib.oauth.refresh");
    expect(refresh?.kind).toBe(CLIENT);
    expect(refresh?.attributes["authlib.provider"]).toBe("op");

    const request = new Request(`${ORIGIN}/app`, { headers: { cookie: first.jar.header() } });
    // An in-process read under the app's own span.
    sdk.spans.reset();
    const appSpan = trace.getTracer("app").startSpan(APP_SPAN);
    const inProcess = await context.with(trace.setSpan(context.active(), appSpan), () => auth.api.getSession(request));
    appSpan.end();
    expect(inProcess.session?.user?.email).toBe(alice.email);
    expectChildSpans(appSpan as unknown as ReadableSpan, [
      { name: "authlib.session.read", kind: INTERNAL, attributes: { "authlib.session.strategy": "database" } },
    ]);
    const listed = await auth.api.listSessions(request);
    expect(listed.length).toBe(2);
    for (const session of listed) remember(session.id);
    const other = listed.find((session) => !session.current);
    const revoked = await auth.api.revokeSession(request, { sessionId: other?.id as string });
    expect(revoked.revoked).toBe(1);
    expect(await second.session()).toBeNull();

    sdk.spans.reset();
    const csrfToken = await first.csrf();
    remember(csrfToken);
    const out = await first.send("/auth/signout", { form: { csrfToken } });
    expect(out.status).toBe(302);
    expectRequestSpan(lastRequestSpan("POST", "/auth/signout"), {
      route: "/auth/signout",
      action: "signout",
      outcome: "success",
      status: 302,
    });
    expect(await metricPoint("http.server.request.duration", { "http.route": "/auth/signout" })).toBeDefined();
  });
});

describeScan();
