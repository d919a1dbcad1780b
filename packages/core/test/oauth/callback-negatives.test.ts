/**
 * Callbacks that must fail, against a real OpenID Provider: provider errors, forged or missing checks
 * (CVE-2023-27490), check cookies of another flow (IdP mix-up, CVE-2026-73419), replayed, invalid and
 * expired codes, issuer mismatches (RFC 9207), a throwing profile().
 */
import { inspect } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { InvalidCheck, OAuthCallbackError, OAuthProfileParseError } from "../../src/errors.js";
import { encode } from "../../src/jwt.js";
import { type AuthorizationStart, finishAuthorization, type SignedIn, startAuthorization } from "../../src/oauth/index.js";
import type { OAuthConfig } from "../../src/providers/types.js";
import { opProvider, startTestOP, type TestOP } from "../helpers/oidc-provider.js";
import { APP_ORIGIN, contextFor, cookieRecord, SECRET } from "./support.js";

const callback = (id: string) => `${APP_ORIGIN}/auth/callback/${id}`;

let op: TestOP;
beforeAll(async () => {
  op = await startTestOP({
    clients: [
      { client_id: "app", client_secret: "app-secret", redirect_uris: [callback("op"), callback("op-other")] },
      { client_id: "app2", client_secret: "app2-secret", redirect_uris: [callback("op")] },
    ],
  });
});
afterAll(() => op?.close());
afterEach(() => {
  vi.useRealTimers();
});

function oidc(overrides: Partial<OAuthConfig> = {}): OAuthConfig {
  return opProvider(op, { checks: ["pkce", "state", "nonce"], ...overrides });
}

async function begin(provider = oidc(), options: { deny?: boolean } = {}): Promise<{ start: AuthorizationStart; url: URL }> {
  const start = await startAuthorization(contextFor(provider), {});
  const url = await op.authorize(start.url, { deny: options.deny });
  return { start, url };
}

function finish(provider: OAuthConfig, params: URLSearchParams, cookies: Record<string, string | undefined>) {
  return finishAuthorization(contextFor(provider, { requestCookies: cookies }), params);
}

async function failure(promise: Promise<unknown>): Promise<Error & { cause?: Record<string, unknown> & { err?: Error } }> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!("error" in outcome)) throw new Error(`expected a failure, got ${JSON.stringify(outcome.value)}`);
  return outcome.error as Error & { cause?: Record<string, unknown> & { err?: Error } };
}

function withParam(url: URL, name: string, value: string | undefined): URLSearchParams {
  const params = new URLSearchParams(url.searchParams);
  if (value === undefined) params.delete(name);
  else params.set(name, value);
  return params;
}

describe("provider errors", () => {
  it("access denied at the OP is an OAuthCallbackError carrying the provider's error", async () => {
    const { start, url } = await begin(oidc(), { deny: true });
    expect(url.searchParams.get("error")).toBe("access_denied");
    const error = await failure(finish(oidc(), url.searchParams, cookieRecord(start.cookies)));
    expect(error).toBeInstanceOf(OAuthCallbackError);
    expect(error.cause).toMatchObject({ providerId: "op", error: "access_denied", error_description: "The user denied access." });
    expect(error.cause?.err?.name).toBe("AuthorizationResponseError");
  });

  it("an error response without a state is rejected when the state check is on", async () => {
    const { start } = await begin();
    const params = new URLSearchParams({ error: "access_denied", iss: op.issuer });
    const error = await failure(finish(oidc(), params, cookieRecord(start.cookies)));
    expect(error).toBeInstanceOf(OAuthCallbackError);
    expect(error.cause?.err?.message).toMatch(/"state" missing/);
  });
});

describe("state, PKCE and nonce (CVE-2023-27490: every configured check is enforced)", () => {
  it("a tampered state is rejected", async () => {
    const { start, url } = await begin();
    const error = await failure(finish(oidc(), withParam(url, "state", "forged"), cookieRecord(start.cookies)));
    expect(error).toBeInstanceOf(OAuthCallbackError);
    expect(error.cause?.err?.message).toMatch(/unexpected "state"/);
  });

  it("a callback without its state is rejected", async () => {
    const { start, url } = await begin();
    const error = await failure(finish(oidc(), withParam(url, "state", undefined), cookieRecord(start.cookies)));
    expect(error).toBeInstanceOf(OAuthCallbackError);
    expect(error.cause?.err?.message).toMatch(/"state" missing/);
  });

  it("state stripped from the authorization URL: the callback fails", async () => {
    const start = await startAuthorization(contextFor(oidc()), {});
    const stripped = new URL(start.url);
    stripped.searchParams.delete("state");
    const url = await op.authorize(stripped);
    expect(url.searchParams.has("state")).toBe(false);
    const error = await failure(finish(oidc(), url.searchParams, cookieRecord(start.cookies)));
    expect(error).toBeInstanceOf(OAuthCallbackError);
  });

  it("PKCE stripped from the authorization URL: the code exchange fails", async () => {
    const start = await startAuthorization(contextFor(oidc()), {});
    const stripped = new URL(start.url);
    stripped.searchParams.delete("code_challenge");
    stripped.searchParams.delete("code_challenge_method");
    const url = await op.authorize(stripped);
    const error = await failure(finish(oidc(), url.searchParams, cookieRecord(start.cookies)));
    expect(error).toBeInstanceOf(OAuthCallbackError);
    expect(error.cause).toMatchObject({ error: "invalid_grant" });
  });

  it("nonce stripped from the authorization URL: the ID token without nonce is rejected", async () => {
    const start = await startAuthorization(contextFor(oidc()), {});
    const stripped = new URL(start.url);
    stripped.searchParams.delete("nonce");
    const url = await op.authorize(stripped);
    const error = await failure(finish(oidc(), url.searchParams, cookieRecord(start.cookies)));
    expect(error).toBeInstanceOf(OAuthCallbackError);
    expect(error.cause?.err?.message).toMatch(/nonce/);
  });

  it.each(["authlib.pkce.code_verifier", "authlib.state", "authlib.nonce"])("a missing %s cookie is InvalidCheck", async (name) => {
    const { start, url } = await begin();
    const cookies = { ...cookieRecord(start.cookies), [name]: undefined };
    const error = await failure(finish(oidc(), url.searchParams, cookies));
    expect(error).toBeInstanceOf(InvalidCheck);
    expect(error.message).toMatch(/was missing/);
  });

  it("a tampered check cookie is InvalidCheck", async () => {
    const { start, url } = await begin();
    const cookies = cookieRecord(start.cookies);
    const parts = (cookies["authlib.pkce.code_verifier"] as string).split(".");
    parts[3] = `${parts[3]?.startsWith("A") ? "B" : "A"}${parts[3]?.slice(1)}`;
    cookies["authlib.pkce.code_verifier"] = parts.join(".");
    const error = await failure(finish(oidc(), url.searchParams, cookies));
    expect(error).toBeInstanceOf(InvalidCheck);
  });

  it("a check cookie sealed with another secret is InvalidCheck", async () => {
    const provider = oidc();
    const start = await startAuthorization(contextFor(provider, { secret: "another-deployment-secret-0123456789abcdef" }), {});
    const url = await op.authorize(start.url);
    const error = await failure(finish(provider, url.searchParams, cookieRecord(start.cookies)));
    expect(error).toBeInstanceOf(InvalidCheck);
  });

  it("an expired check cookie is InvalidCheck", async () => {
    const { start, url } = await begin();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 16 * 60 * 1000);
    const error = await failure(finish(oidc(), url.searchParams, cookieRecord(start.cookies)));
    expect(error).toBeInstanceOf(InvalidCheck);
  });

  it("a session-token-like JWE in a check cookie is InvalidCheck (token type confusion)", async () => {
    const { start, url } = await begin();
    const session = await encode({ token: { sub: "alice", value: "x" }, secret: SECRET, salt: "authlib.session-token" });
    const cookies = { ...cookieRecord(start.cookies), "authlib.state": session };
    const error = await failure(finish(oidc(), url.searchParams, cookies));
    expect(error).toBeInstanceOf(InvalidCheck);
  });

  it("a check cookie sealed for another check is InvalidCheck", async () => {
    const { start, url } = await begin();
    const cookies = cookieRecord(start.cookies);
    // Same secret and salt, but the payload says it is a nonce.
    const forged = await encode({
      token: {
        provider: "op",
        issuer: op.issuer,
        clientId: "app",
        redirectUri: callback("op"),
        check: "nonce",
        value: url.searchParams.get("state"),
      },
      secret: SECRET,
      salt: "authlib.state",
    });
    const error = await failure(finish(oidc(), url.searchParams, { ...cookies, "authlib.state": forged }));
    expect(error).toBeInstanceOf(InvalidCheck);
  });

  it("the nonce of another flow fails ID token validation", async () => {
    const first = await begin();
    const second = await startAuthorization(contextFor(oidc()), {});
    const cookies = { ...cookieRecord(first.start.cookies), "authlib.nonce": cookieRecord(second.cookies)["authlib.nonce"] };
    const error = await failure(finish(oidc(), first.url.searchParams, cookies));
    expect(error).toBeInstanceOf(OAuthCallbackError);
    expect(error.cause?.err?.message).toMatch(/unexpected ID Token "nonce" claim value/);
  });

  it("the PKCE verifier of another flow fails the code exchange", async () => {
    const first = await begin();
    const second = await startAuthorization(contextFor(oidc()), {});
    const cookies = {
      ...cookieRecord(first.start.cookies),
      "authlib.pkce.code_verifier": cookieRecord(second.cookies)["authlib.pkce.code_verifier"],
    };
    const error = await failure(finish(oidc(), first.url.searchParams, cookies));
    expect(error).toBeInstanceOf(OAuthCallbackError);
    expect(error.cause).toMatchObject({ error: "invalid_grant" });
  });
});

describe("check cookies are bound to their flow (IdP mix-up, CVE-2026-73419)", () => {
  it.each([
    ["provider", { id: "op-other" }],
    ["issuer", { issuer: "ISSUER/" }],
    ["clientId", { clientId: "app2", clientSecret: "app2-secret" }],
  ] as const)("cookies from another %s are InvalidCheck", async (field, change) => {
    const { start, url } = await begin();
    const other = oidc({ ...change, issuer: "issuer" in change ? `${op.issuer}/` : op.issuer });
    const error = await failure(finish(other, url.searchParams, cookieRecord(start.cookies)));
    expect(error).toBeInstanceOf(InvalidCheck);
    expect(error.cause).toMatchObject({ mismatch: field });
  });

  it("cookies from another redirect URI are InvalidCheck", async () => {
    const { start, url } = await begin();
    const context = contextFor(oidc(), { requestCookies: cookieRecord(start.cookies), redirectUri: `${APP_ORIGIN}/other/callback/op` });
    const error = await failure(finishAuthorization(context, url.searchParams));
    expect(error).toBeInstanceOf(InvalidCheck);
    expect(error.cause).toMatchObject({ mismatch: "redirectUri" });
  });
});

describe("codes", () => {
  it("a replayed code is rejected", async () => {
    const { start, url } = await begin();
    const cookies = cookieRecord(start.cookies);
    const first = (await finish(oidc(), url.searchParams, cookies)) as SignedIn;
    expect(first.kind).toBe("signed-in");
    const error = await failure(finish(oidc(), url.searchParams, cookies));
    expect(error).toBeInstanceOf(OAuthCallbackError);
    expect(error.cause).toMatchObject({ error: "invalid_grant" });
  });

  it("an invalid code is rejected", async () => {
    const { start, url } = await begin();
    const error = await failure(finish(oidc(), withParam(url, "code", "not-a-code"), cookieRecord(start.cookies)));
    expect(error).toBeInstanceOf(OAuthCallbackError);
    expect(error.cause).toMatchObject({ error: "invalid_grant" });
  });

  it("an expired code is rejected", async () => {
    const { start, url } = await begin();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 2 * 60 * 1000); // codes live 60 s at the OP; check cookies 15 min
    const error = await failure(finish(oidc(), url.searchParams, cookieRecord(start.cookies)));
    expect(error).toBeInstanceOf(OAuthCallbackError);
    expect(error.cause).toMatchObject({ error: "invalid_grant" });
  });

  it("a callback without a code is rejected", async () => {
    const { start, url } = await begin();
    const error = await failure(finish(oidc(), withParam(url, "code", undefined), cookieRecord(start.cookies)));
    expect(error).toBeInstanceOf(OAuthCallbackError);
  });
});

describe("issuer (RFC 9207)", () => {
  it("a callback whose iss names another issuer is rejected", async () => {
    const { start, url } = await begin();
    const error = await failure(finish(oidc(), withParam(url, "iss", "https://attacker.example"), cookieRecord(start.cookies)));
    expect(error).toBeInstanceOf(OAuthCallbackError);
    expect(error.cause?.err?.message).toMatch(/unexpected "iss"/);
  });

  it("a callback without iss is rejected (the OP advertises it)", async () => {
    const { start, url } = await begin();
    const error = await failure(finish(oidc(), withParam(url, "iss", undefined), cookieRecord(start.cookies)));
    expect(error).toBeInstanceOf(OAuthCallbackError);
    expect(error.cause?.err?.message).toMatch(/"iss" \(issuer\) missing/);
  });

  it("duplicated parameters are rejected", async () => {
    const { start, url } = await begin();
    const params = new URLSearchParams(url.searchParams);
    params.append("code", "second");
    const error = await failure(finish(oidc(), params, cookieRecord(start.cookies)));
    expect(error).toBeInstanceOf(OAuthCallbackError);
  });
});

describe("profile()", () => {
  it("a throwing profile() is OAuthProfileParseError", async () => {
    const provider = oidc({
      profile: () => {
        throw new Error("boom");
      },
    });
    const { start, url } = await begin(provider);
    const error = await failure(finish(provider, url.searchParams, cookieRecord(start.cookies)));
    expect(error).toBeInstanceOf(OAuthProfileParseError);
    expect(error.cause?.err?.message).toBe("boom");
  });

  it("a profile() without id is OAuthProfileParseError", async () => {
    const provider = oidc({ profile: (p) => ({ name: String(p.name) }) });
    const { start, url } = await begin(provider);
    const error = await failure(finish(provider, url.searchParams, cookieRecord(start.cookies)));
    expect(error).toBeInstanceOf(OAuthProfileParseError);
  });
});

it("errors carry no tokens or codes", async () => {
  const { start, url } = await begin();
  const cookies = cookieRecord(start.cookies);
  await finish(oidc(), url.searchParams, cookies);
  const error = await failure(finish(oidc(), url.searchParams, cookies));
  const text = inspect(error, { depth: 10 });
  expect(text).not.toContain(url.searchParams.get("code"));
  for (const value of Object.values(cookies)) expect(text).not.toContain(value);
});
