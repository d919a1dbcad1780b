/**
 * Revocation: a revoked grant's token is refused (401); `revocationWithin` keeps each grant's answer for
 * its bound (a revocation is seen after it, not before), keeps a revoked answer, bounds its memory and
 * shares one call between concurrent requests; `introspectionRevocation` asks RFC 7662 with
 * `client_secret_basic`.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  InvalidToken,
  introspectionRevocation,
  type ProtectResourceOptions,
  protectResource,
  type RevocationCheck,
  resourceErrorResponse,
  revocationWithin,
} from "../../src/resource/index.js";
import { mint, RESOURCE, requestWith, startIssuer, type TestIssuer } from "./issuer.js";

let issuer: TestIssuer;
let options: ProtectResourceOptions;

beforeAll(async () => {
  issuer = await startIssuer();
  options = { issuer: issuer.issuer, resource: RESOURCE };
});

afterAll(() => issuer.close());

afterEach(() => {
  vi.useRealTimers();
});

/** A store of revoked grants that counts the questions it is asked. */
function revocationStore() {
  const revoked = new Set<string>();
  const asked: string[] = [];
  const check: RevocationCheck = {
    async isRevoked(grantId) {
      asked.push(grantId);
      return revoked.has(grantId);
    },
  };
  return { revoked, asked, check };
}

describe("a revoked grant", () => {
  it("its token is refused with a 401 invalid_token, with the grant id and the token given to the check", async () => {
    const store = revocationStore();
    const seen: string[] = [];
    const check: RevocationCheck = {
      isRevoked: (grantId, token) => {
        seen.push(token);
        return store.check.isRevoked(grantId, token);
      },
    };
    store.revoked.add("grant-1");
    const token = await mint(issuer);
    const error = await protectResource(requestWith(`Bearer ${token}`), { ...options, revocation: check }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(InvalidToken);
    expect(store.asked).toEqual(["grant-1"]);
    expect(seen).toEqual([token]);
    const response = resourceErrorResponse(error, { resource: RESOURCE });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toContain('error="invalid_token"');
    const other = await mint(issuer, { grant_id: "grant-2" });
    await expect(protectResource(requestWith(`Bearer ${other}`), { ...options, revocation: check })).resolves.toMatchObject({
      grantId: "grant-2",
    });
  });

  it("a revocation check that fails fails the request (not a 401)", async () => {
    const token = await mint(issuer);
    const failing: RevocationCheck = { isRevoked: () => Promise.reject(new Error("store down")) };
    await expect(protectResource(requestWith(`Bearer ${token}`), { ...options, revocation: failing })).rejects.toThrow("store down");
  });
});

describe("revocationWithin", () => {
  it("keeps a grant's answer for the bound, and sees a revocation after it", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-01-01T00:00:00Z"));
    const store = revocationStore();
    const bounded = revocationWithin(store.check, 30);
    expect(await bounded.isRevoked("grant-1", "t")).toBe(false);
    store.revoked.add("grant-1");
    vi.setSystemTime(new Date("2026-01-01T00:00:29Z"));
    expect(await bounded.isRevoked("grant-1", "t")).toBe(false);
    expect(store.asked).toEqual(["grant-1"]);
    vi.setSystemTime(new Date("2026-01-01T00:00:30Z"));
    expect(await bounded.isRevoked("grant-1", "t")).toBe(true);
    expect(store.asked).toEqual(["grant-1", "grant-1"]);
  });

  it("through protectResource: the revoked grant's token works within the bound, then is refused", async () => {
    const store = revocationStore();
    const revocation = revocationWithin(store.check, 60);
    const token = await mint(issuer, { grant_id: "grant-bound" });
    const request = () => protectResource(requestWith(`Bearer ${token}`), { ...options, revocation });
    await expect(request()).resolves.toBeDefined();
    store.revoked.add("grant-bound");
    await expect(request()).resolves.toBeDefined();
    // Date only: jose's `exp` check reads the same clock, so the token is minted with room past the bound.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 61_000 });
    await expect(request()).rejects.toBeInstanceOf(InvalidToken);
    expect(store.asked).toEqual(["grant-bound", "grant-bound"]);
  });

  it("keeps a revoked answer for good", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: 0 });
    const store = revocationStore();
    store.revoked.add("grant-1");
    const bounded = revocationWithin(store.check, 1);
    expect(await bounded.isRevoked("grant-1", "t")).toBe(true);
    vi.setSystemTime(10_000_000);
    expect(await bounded.isRevoked("grant-1", "t")).toBe(true);
    expect(store.asked).toEqual(["grant-1"]);
  });

  it("keeps at most maxGrants answers, forgetting the oldest first", async () => {
    const store = revocationStore();
    const bounded = revocationWithin(store.check, 60, { maxGrants: 2 });
    for (const grant of ["a", "b", "c"]) await bounded.isRevoked(grant, "t");
    await bounded.isRevoked("c", "t");
    await bounded.isRevoked("b", "t");
    expect(store.asked).toEqual(["a", "b", "c"]);
    await bounded.isRevoked("a", "t");
    expect(store.asked).toEqual(["a", "b", "c", "a"]);
  });

  it("asks once for concurrent requests of one grant, and does not keep a failure", async () => {
    let calls = 0;
    let fail = true;
    const check: RevocationCheck = {
      isRevoked: async () => {
        calls += 1;
        if (fail) throw new Error("down");
        return false;
      },
    };
    const bounded = revocationWithin(check, 60);
    const results = await Promise.allSettled([bounded.isRevoked("g", "t"), bounded.isRevoked("g", "t")]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(calls).toBe(1);
    fail = false;
    expect(await bounded.isRevoked("g", "t")).toBe(false);
    expect(calls).toBe(2);
  });
});

describe("introspectionRevocation", () => {
  it("POSTs the token with client_secret_basic; active false is revoked, active true is not", async () => {
    const requests: Array<{ authorization: string | undefined; body: string; type: string | undefined }> = [];
    const active = new Map([
      ["live-token", true],
      ["dead-token", false],
    ]);
    issuer.routes.set("/auth/oauth2/introspect", (request, response, body) => {
      requests.push({ authorization: request.headers.authorization, body, type: request.headers["content-type"] });
      const token = new URLSearchParams(body).get("token") ?? "";
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ active: active.get(token) ?? false }));
    });
    const check = introspectionRevocation({
      endpoint: `${issuer.issuer}/oauth2/introspect`,
      clientId: "api client",
      clientSecret: "s3cret:x",
    });
    expect(await check.isRevoked("grant-1", "live-token")).toBe(false);
    expect(await check.isRevoked("grant-1", "dead-token")).toBe(true);
    expect(requests[0]!.authorization).toBe(`Basic ${Buffer.from("api+client:s3cret%3Ax").toString("base64")}`);
    expect(requests[0]!.type).toBe("application/x-www-form-urlencoded");
    expect(new URLSearchParams(requests[0]!.body).get("token")).toBe("live-token");
  });

  it("throws on an answer that is not 200 with an active boolean (fails closed)", async () => {
    issuer.routes.set("/auth/oauth2/introspect-broken", (_request, response) => {
      response.writeHead(401).end();
    });
    issuer.routes.set("/auth/oauth2/introspect-odd", (_request, response) => {
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
    const at = (path: string) => introspectionRevocation({ endpoint: `${issuer.issuer}${path}`, clientId: "c", clientSecret: "s" });
    await expect(at("/oauth2/introspect-broken").isRevoked("g", "t")).rejects.toThrow("answered 401");
    await expect(at("/oauth2/introspect-odd").isRevoked("g", "t")).rejects.toThrow("no active boolean");
  });
});
