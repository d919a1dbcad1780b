/**
 * Issue 19, items 4–6: a scripted provider (node:http on 127.0.0.1) that misbehaves the way a broken or
 * hostile provider (or whoever answers in its place) can:
 * - it ignores PKCE (accepts any code without looking at the verifier) and lists no S256: a code from
 *   another browser is refused because state is now required;
 * - it streams 50 MB bodies (token, userinfo, discovery, a preset's own API call): each is refused with
 *   `ProviderResponseTooLarge`, and the tests count the bytes the server managed to write and the bytes
 *   the client read, never the time;
 * - it returns an ID token with `azp` ≠ client id or `iat` an hour ahead, or a `DPoP` token type: each
 *   is refused with a named error.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { generateKeyPair, SignJWT } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  InvalidIdTokenClaim,
  InvalidProvider,
  OAuthCallbackError,
  ProviderResponseTooLarge,
  UnsupportedTokenType,
} from "../../src/errors.js";
import { ReadResponse } from "../../src/oauth/bounded-fetch.js";
import { clearDiscoveryCache, finishAuthorization, type SignedIn, startAuthorization } from "../../src/oauth/index.js";
import { refreshAccessToken } from "../../src/oauth/refresh.js";
import GitHub from "../../src/providers/github.js";
import type { OAuthConfig } from "../../src/providers/types.js";
import { contextFor, cookieRecord, endpointsProvider, recordingLogger } from "./support.js";

const MB = 1024 * 1024;
const HUGE = 50 * MB;

type Handler = (req: IncomingMessage, res: ServerResponse, body: URLSearchParams) => void | Promise<void>;

let origin: string;
let handlers: Record<string, Handler> = {};
/** Every request the provider received, as `METHOD /path`. */
let seen: string[] = [];
let privateKey: CryptoKey;

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    const url = new URL(req.url ?? "/", origin);
    const key = `${req.method} ${url.pathname}`;
    seen.push(key);
    const handler = handlers[key];
    if (!handler) {
      res.writeHead(404).end();
      return;
    }
    void handler(req, res, new URLSearchParams(Buffer.concat(chunks).toString()));
  });
});

beforeAll(async () => {
  // Idle keep-alive sockets outlive a blocked event loop (see the test OP in helpers/oidc-provider.ts).
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  ({ privateKey } = await generateKeyPair("RS256"));
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => {
  handlers = {};
  seen = [];
  clearDiscoveryCache();
  vi.unstubAllGlobals();
});

function json(body: unknown, status = 200): Handler {
  return (_req, res) => {
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  };
}

/** What a streaming handler managed to hand to the socket before the client went away. */
interface StreamReport {
  written: number;
  done: Promise<number>;
}

/**
 * A handler streaming `total` bytes of a JSON string, 64 KiB at a time, honouring backpressure, and
 * counting the bytes the socket accepted. `done` resolves with that count once the client has closed the
 * connection (or everything was sent).
 */
function streamJson(total: number, options: { contentLength?: boolean } = {}): { handler: Handler; report: StreamReport } {
  let finish: (written: number) => void = () => {};
  const report: StreamReport = { written: 0, done: new Promise<number>((resolve) => (finish = resolve)) };
  const handler: Handler = async (_req, res) => {
    const head = '{"access_token":"at","token_type":"bearer","padding":"';
    const tail = '"}';
    const headers: Record<string, string | number> = { "content-type": "application/json" };
    if (options.contentLength) headers["content-length"] = total;
    res.writeHead(200, headers);
    let closed = false;
    res.on("close", () => {
      closed = true;
    });
    const chunk = Buffer.alloc(64 * 1024, "a");
    const write = (data: Buffer | string) =>
      new Promise<boolean>((resolve) => {
        const ok = res.write(data, (error) => {
          if (!error) report.written += Buffer.byteLength(data);
        });
        if (ok) resolve(true);
        else {
          const onDrain = () => {
            res.off("close", onClose);
            resolve(true);
          };
          const onClose = () => {
            res.off("drain", onDrain);
            resolve(false);
          };
          res.once("drain", onDrain);
          res.once("close", onClose);
        }
      });
    let sent = 0;
    if (!closed && (await write(head))) sent += head.length;
    while (!closed && sent + chunk.length + tail.length <= total) {
      if (!(await write(chunk))) break;
      sent += chunk.length;
    }
    if (!closed) res.end(tail);
    if (!res.closed) await new Promise((resolve) => res.once("close", resolve));
    // Let the last write callbacks run.
    await new Promise((resolve) => setImmediate(resolve));
    finish(report.written);
  };
  return { handler, report };
}

function discovery(extra: Record<string, unknown> = {}) {
  return {
    issuer: origin,
    authorization_endpoint: `${origin}/authorize`,
    token_endpoint: `${origin}/token`,
    userinfo_endpoint: `${origin}/userinfo`,
    jwks_uri: `${origin}/jwks`,
    response_types_supported: ["code"],
    id_token_signing_alg_values_supported: ["RS256"],
    ...extra,
  };
}

function idToken(claims: Record<string, unknown>): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: origin, aud: "client", sub: "u1", iat: now, exp: now + 300, ...claims })
    .setProtectedHeader({ alg: "RS256", kid: "k1" })
    .sign(privateKey);
}

function oauthProvider(overrides: Partial<OAuthConfig> = {}): OAuthConfig {
  return endpointsProvider(origin, "scripted", overrides);
}

function oidcProvider(overrides: Partial<OAuthConfig> = {}): OAuthConfig {
  return { id: "scripted-oidc", name: "Scripted", type: "oidc", issuer: origin, clientId: "client", clientSecret: "secret", ...overrides };
}

/** One browser's sign-in: start it, then come back with the provider's `code` and the flow's `state`. */
async function signIn(provider: OAuthConfig, logger = recordingLogger()): Promise<SignedIn> {
  const start = await startAuthorization(contextFor(provider, { logger }), {});
  const url = new URL(start.url);
  const params = new URLSearchParams({ code: "the-code" });
  const state = url.searchParams.get("state");
  if (state) params.set("state", state);
  const nonce = url.searchParams.get("nonce");
  if (nonce) currentNonce = nonce;
  return (await finishAuthorization(contextFor(provider, { logger, requestCookies: cookieRecord(start.cookies) }), params)) as SignedIn;
}
let currentNonce = "";

async function failure(promise: Promise<unknown>): Promise<Error & { cause?: Record<string, unknown> }> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!("error" in outcome)) throw new Error(`expected a failure, got ${JSON.stringify(outcome.value)}`);
  return outcome.error as Error & { cause?: Record<string, unknown> };
}

describe("a provider that ignores PKCE and lists no S256 (login CSRF with a code from another browser)", () => {
  /** The provider's token endpoint: any code, any verifier, the attacker's account. */
  function ignorePkce() {
    handlers["POST /token"] = json({ access_token: "attacker-at", token_type: "bearer" });
    handlers["GET /userinfo"] = json({ id: "attacker" });
  }

  it("a provider configured for PKCE only gets state; the attacker's code in the victim's browser is refused unredeemed", async () => {
    ignorePkce();
    const provider = oauthProvider({ checks: ["pkce"] });
    const logger = recordingLogger();
    // The instance's set of warnings said, shared by every flow of the instance.
    const warned = new Set<string>();
    // The attacker signs in at the provider in their own browser and keeps the code.
    const attacker = await startAuthorization(contextFor(provider, { logger, warned }), {});
    const attackerState = new URL(attacker.url).searchParams.get("state");
    expect(attackerState).toBeTruthy();
    // The victim's browser started its own sign-in (it holds its own PKCE and state cookies).
    const victim = await startAuthorization(contextFor(provider, { logger, warned }), {});
    const victimCookies = cookieRecord(victim.cookies);
    expect(Object.keys(victimCookies)).toEqual(["authlib.pkce.code_verifier", "authlib.state"]);

    // The attacker sends the victim to the callback with their code: with their state, or with none.
    for (const params of [
      new URLSearchParams({ code: "attacker-code", state: attackerState as string }),
      new URLSearchParams({ code: "attacker-code" }),
    ]) {
      const error = await failure(finishAuthorization(contextFor(provider, { logger, warned, requestCookies: victimCookies }), params));
      expect(error).toBeInstanceOf(OAuthCallbackError);
      expect((error.cause?.err as Error | undefined)?.message).toMatch(/"state"/);
    }
    expect(seen).not.toContain("POST /token");
    // Warned once (per provider and instance), however many flows.
    expect(logger.lines.filter((line) => line === "warn pkce-unverified")).toHaveLength(1);
  });

  it("an oidc provider whose discovery lists no S256 gets state too, even with checks [pkce]", async () => {
    handlers["GET /.well-known/openid-configuration"] = json(discovery());
    const start = await startAuthorization(contextFor(oidcProvider({ id: "no-s256", checks: ["pkce"] })), {});
    expect(new URL(start.url).searchParams.has("state")).toBe(true);
    expect(start.cookies.map((c) => c.name)).toEqual(["authlib.pkce.code_verifier", "authlib.state"]);
  });

  it("PKCE alone stays PKCE alone when the discovery lists S256", async () => {
    handlers["GET /.well-known/openid-configuration"] = json(discovery({ code_challenge_methods_supported: ["S256"] }));
    const logger = recordingLogger();
    const start = await startAuthorization(contextFor(oidcProvider({ id: "with-s256", checks: ["pkce"] }), { logger }), {});
    expect(new URL(start.url).searchParams.has("state")).toBe(false);
    expect(logger.lines).not.toContain("warn pkce-unverified");
  });
});

describe("bounded provider responses (50 MB bodies)", () => {
  /** The client read no more than the limit plus one transport chunk; the server wrote far less than 50 MB. */
  async function expectBounded(error: Error & { cause?: Record<string, unknown> }, report: StreamReport, limit = MB) {
    expect(error).toBeInstanceOf(ProviderResponseTooLarge);
    expect(error).toBeInstanceOf(OAuthCallbackError);
    expect(error.cause).toMatchObject({ limit });
    const bytesRead = error.cause?.bytesRead as number;
    expect(bytesRead).toBeGreaterThan(limit);
    expect(bytesRead).toBeLessThanOrEqual(limit + 512 * 1024);
    const written = await report.done;
    // Whatever the kernel's socket buffers took in (about 4 MB on loopback here), nowhere near 50 MB.
    expect(written).toBeLessThan(16 * MB);
    return written;
  }

  it("a 50 MB token response is cut off at the limit", async () => {
    const { handler, report } = streamJson(HUGE);
    handlers["POST /token"] = handler;
    const error = await failure(signIn(oauthProvider()));
    await expectBounded(error, report);
    expect(seen).not.toContain("GET /userinfo");
  });

  it("a 50 MB token response announced by Content-Length is refused before reading", async () => {
    const { handler, report } = streamJson(HUGE, { contentLength: true });
    handlers["POST /token"] = handler;
    const error = await failure(signIn(oauthProvider()));
    expect(error).toBeInstanceOf(ProviderResponseTooLarge);
    expect(error.cause).toMatchObject({ limit: MB, bytesRead: 0, declared: HUGE });
    expect(await report.done).toBeLessThan(HUGE / 2);
  });

  it("a 50 MB userinfo response is cut off at the limit", async () => {
    handlers["POST /token"] = json({ access_token: "at", token_type: "bearer" });
    const { handler, report } = streamJson(HUGE);
    handlers["GET /userinfo"] = handler;
    await expectBounded(await failure(signIn(oauthProvider())), report);
  });

  it("a 50 MB discovery document is cut off at the limit (the sign-in does not start)", async () => {
    const { handler, report } = streamJson(HUGE);
    handlers["GET /.well-known/openid-configuration"] = handler;
    await expectBounded(await failure(startAuthorization(contextFor(oidcProvider()), {})), report);
  });

  it("a 50 MB answer to a preset's own API call (GitHub's /user/emails) is cut off at the limit", async () => {
    // GitHub's API URL is fixed: send it to the scripted provider instead.
    const realFetch = globalThis.fetch;
    vi.stubGlobal("fetch", (url: string, init?: RequestInit) => realFetch(url.replace("https://api.github.com", origin), init));
    handlers["GET /user"] = json({ id: 1, login: "octo", email: null });
    const { handler, report } = streamJson(HUGE);
    handlers["GET /user/emails"] = handler;
    const provider = GitHub({ clientId: "client", clientSecret: "secret" }) as OAuthConfig;
    const request = (provider.userinfo as { request: NonNullable<Extract<OAuthConfig["userinfo"], { request?: unknown }>["request"]> })
      .request;
    const error = await failure(Promise.resolve(request({ tokens: { access_token: "at" }, provider })));
    await expectBounded(error, report);
  });

  it("maxResponseBytes sets the limit per provider; a bad value is InvalidProvider", async () => {
    handlers["POST /token"] = json({ access_token: "at", token_type: "bearer" });
    handlers["GET /userinfo"] = json({ id: "1", bio: "x".repeat(10_000) });
    const error = await failure(signIn(oauthProvider({ maxResponseBytes: 4096 })));
    expect(error).toBeInstanceOf(ProviderResponseTooLarge);
    expect(error.cause).toMatchObject({ limit: 4096, url: `${origin}/userinfo` });
    expect((await signIn(oauthProvider({ maxResponseBytes: 64 * 1024 }))).user.id).toBe("1");
    await expect(startAuthorization(contextFor(oauthProvider({ maxResponseBytes: -1 })), {})).rejects.toBeInstanceOf(InvalidProvider);
  });

  it("parses each body once: oauth4webapi, the scope conformance and the profile share one parse", async () => {
    handlers["POST /token"] = json({ access_token: "at", token_type: "Bearer", scope: ["read", "email"] });
    handlers["GET /userinfo"] = json({ id: "7", name: "Parsed Once" });
    const parse = vi.spyOn(JSON, "parse");
    const baseJson = vi.spyOn(Response.prototype, "json");
    try {
      const result = await signIn(oauthProvider());
      expect(result.account).toMatchObject({ scope: "read email", token_type: "bearer" });
      expect(result.user).toMatchObject({ id: "7", name: "Parsed Once" });
      const parsedBodies = parse.mock.calls
        .map(([text]) => String(text))
        .filter((text) => text.includes('"access_token"') || text.includes('"Parsed Once"'));
      expect(parsedBodies).toHaveLength(2);
      // Nobody fell back to reading and parsing a body again.
      expect(baseJson).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
      baseJson.mockRestore();
    }
  });

  it("a bounded response keeps status and headers, and a non-JSON body stays text", async () => {
    handlers["GET /page"] = (_req, res) => {
      res.writeHead(503, { "content-type": "text/html", "retry-after": "5" }).end("<p>busy</p>");
    };
    const { boundedFetch } = await import("../../src/oauth/bounded-fetch.js");
    const response = await boundedFetch(MB)(`${origin}/page`);
    expect(response).toBeInstanceOf(ReadResponse);
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("5");
    expect(response.parsed).toBe(false);
    expect(await response.text()).toBe("<p>busy</p>");
  });
});

describe("ID token claims and token types beyond oauth4webapi's checks", () => {
  function serveToken(body: () => Promise<Record<string, unknown>>) {
    handlers["GET /.well-known/openid-configuration"] = json(discovery({ code_challenge_methods_supported: ["S256"] }));
    handlers["POST /token"] = async (req, res, form) => json(await body())(req, res, form);
  }

  it("a valid ID token signs in (the checks below refuse only what they name)", async () => {
    serveToken(async () => ({ access_token: "at", token_type: "Bearer", id_token: await idToken({ nonce: currentNonce, azp: "client" }) }));
    expect((await signIn(oidcProvider())).user.id).toBe("u1");
  });

  it("azp for another client (single audience) is InvalidIdTokenClaim", async () => {
    serveToken(async () => ({
      access_token: "at",
      token_type: "bearer",
      id_token: await idToken({ nonce: currentNonce, azp: "other-client" }),
    }));
    const error = await failure(signIn(oidcProvider()));
    expect(error).toBeInstanceOf(InvalidIdTokenClaim);
    expect(error.cause).toMatchObject({ claim: "azp", providerId: "scripted-oidc" });
  });

  it("iat an hour in the future is InvalidIdTokenClaim; within the 30 s tolerance it is accepted", async () => {
    const now = Math.floor(Date.now() / 1000);
    serveToken(async () => ({
      access_token: "at",
      token_type: "bearer",
      id_token: await idToken({ nonce: currentNonce, iat: now + 3600, exp: now + 7200 }),
    }));
    const error = await failure(signIn(oidcProvider()));
    expect(error).toBeInstanceOf(InvalidIdTokenClaim);
    expect(error.cause).toMatchObject({ claim: "iat" });

    serveToken(async () => ({ access_token: "at", token_type: "bearer", id_token: await idToken({ nonce: currentNonce, iat: now + 10 }) }));
    expect((await signIn(oidcProvider())).user.id).toBe("u1");
  });

  it.each(["DPoP", "dpop", "mac"])("token_type %s is refused (no DPoP support: never used as a Bearer token)", async (tokenType) => {
    serveToken(async () => ({ access_token: "at", token_type: tokenType, id_token: await idToken({ nonce: currentNonce }) }));
    const error = await failure(signIn(oidcProvider()));
    expect(error).toBeInstanceOf(OAuthCallbackError);
    if (tokenType.toLowerCase() === "dpop") {
      expect(error).toBeInstanceOf(UnsupportedTokenType);
      expect(error.cause).toMatchObject({ tokenType: "dpop" });
    }
  });

  it("token_type DPoP from a plain OAuth provider is refused before the userinfo request", async () => {
    handlers["POST /token"] = json({ access_token: "at", token_type: "DPoP" });
    handlers["GET /userinfo"] = json({ id: "1" });
    const error = await failure(signIn(oauthProvider()));
    expect(error).toBeInstanceOf(UnsupportedTokenType);
    expect(seen).not.toContain("GET /userinfo");
  });

  it("a refresh answered with token_type DPoP is refused too: the refreshed token is never used as a Bearer token", async () => {
    handlers["POST /token"] = json({ access_token: "at-2", token_type: "DPoP", refresh_token: "rt-2", expires_in: 3600 });
    const error = await refreshAccessToken(oauthProvider(), "rt-1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedTokenType);
    handlers["POST /token"] = json({ access_token: "at-3", token_type: "Bearer", refresh_token: "rt-3", expires_in: 3600 });
    expect(await refreshAccessToken(oauthProvider(), "rt-2")).toMatchObject({ access_token: "at-3", refresh_token: "rt-3" });
  });
});
