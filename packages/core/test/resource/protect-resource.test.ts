/**
 * `protectResource` against a real JWKS endpoint: a token as authlib issues it is accepted with its
 * caller; each check refuses the token that only it would catch, with the response an app sends for it.
 */
import { createLocalJWKSet, exportSPKI, generateKeyPair, type JWTVerifyGetKey } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  InsufficientScope,
  InvalidRequest,
  InvalidToken,
  type ProtectResourceOptions,
  protectResource,
  resourceErrorResponse,
} from "../../src/resource/index.js";
import { accessClaims, mint, OTHER_RESOURCE, RESOURCE, requestWith, sign, startIssuer, type TestIssuer } from "./issuer.js";

let issuer: TestIssuer;
let options: ProtectResourceOptions;

beforeAll(async () => {
  issuer = await startIssuer();
  options = { issuer: issuer.issuer, resource: RESOURCE, scopes: ["mcp"] };
});

afterAll(() => issuer.close());

/** The error `protectResource` refuses the request with (fails the test when it accepts it). */
async function refusal(request: Request, extra: Partial<ProtectResourceOptions> = {}): Promise<Error> {
  const outcome = await protectResource(request, { ...options, ...extra }).then(
    (caller) => ({ caller }),
    (error: Error) => ({ error }),
  );
  if ("caller" in outcome) throw new Error(`accepted, as ${JSON.stringify(outcome.caller)}`);
  return outcome.error;
}

/** Base64url of a JSON value. */
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

describe("a valid access token", () => {
  it("is accepted with its caller: user, client, scopes, grant, token id, times, claims", async () => {
    const token = await mint(issuer);
    const caller = await protectResource(requestWith(`Bearer ${token}`), options);
    const claims = accessClaims(issuer.issuer);
    expect(caller).toMatchObject({
      userId: "user-1",
      clientId: "client-1",
      scopes: ["mcp", "projects:read"],
      grantId: "grant-1",
      tokenId: "token-1",
      acr: "1",
    });
    expect(Math.abs(caller.expiresAt.getTime() - (claims.exp as number) * 1000)).toBeLessThan(2000);
    expect(caller.authTime).toBeInstanceOf(Date);
    expect(caller.claims.iss).toBe(issuer.issuer);
  });

  it("fetches the JWKS once for many requests (the key set is kept per JWKS URL)", async () => {
    const token = await mint(issuer);
    const before = issuer.jwksFetches();
    for (let i = 0; i < 5; i++) await protectResource(requestWith(`Bearer ${token}`), { ...options });
    expect(issuer.jwksFetches()).toBe(before);
    expect(before).toBe(1);
  });

  it("is accepted with a lower-case scheme, an aud array holding the resource, and `application/at+jwt`", async () => {
    const token = await sign(accessClaims(issuer.issuer, { aud: [OTHER_RESOURCE, RESOURCE] }), issuer.privateKey, {
      kid: issuer.kid,
      typ: "application/at+jwt",
    });
    await expect(protectResource(requestWith(`bearer ${token}`), options)).resolves.toMatchObject({ userId: "user-1" });
  });

  it("is accepted with a JWK Set given in the options (no fetch)", async () => {
    const token = await mint(issuer);
    const caller = await protectResource(requestWith(`Bearer ${token}`), {
      issuer: issuer.issuer,
      resource: RESOURCE,
      jwks: { keys: [issuer.publicJwk] },
      jwksUri: "http://127.0.0.1:1/never",
    });
    expect(caller.userId).toBe("user-1");
  });
});

describe("the signature and the header", () => {
  it("refuses a wrong signature (another key under the same kid)", async () => {
    const other = await generateKeyPair("ES256");
    const token = await sign(accessClaims(issuer.issuer), other.privateKey, { kid: issuer.kid, typ: "at+jwt" });
    expect(await refusal(requestWith(`Bearer ${token}`))).toBeInstanceOf(InvalidToken);
  });

  it("refuses a token whose signature was altered", async () => {
    const token = await mint(issuer);
    const [head, body, signature] = token.split(".");
    const flipped = `${signature!.slice(0, 10)}${signature![10] === "A" ? "B" : "A"}${signature!.slice(11)}`;
    expect(await refusal(requestWith(`Bearer ${head}.${body}.${flipped}`))).toBeInstanceOf(InvalidToken);
  });

  it("refuses an unknown kid", async () => {
    const token = await sign(accessClaims(issuer.issuer), issuer.privateKey, { kid: "key-unknown", typ: "at+jwt" });
    const error = await refusal(requestWith(`Bearer ${token}`));
    expect(error).toBeInstanceOf(InvalidToken);
    expect(error.message).toContain("ERR_JWKS_NO_MATCHING_KEY");
  });

  it("refuses alg none", async () => {
    const token = `${b64({ alg: "none", kid: issuer.kid, typ: "at+jwt" })}.${b64(accessClaims(issuer.issuer))}.`;
    expect(await refusal(requestWith(`Bearer ${token}`))).toBeInstanceOf(InvalidToken);
  });

  it("refuses HS256 signed with the public key as the HMAC secret", async () => {
    const { publicKey } = await generateKeyPair("ES256", { extractable: true });
    const secret = new TextEncoder().encode(await exportSPKI(publicKey));
    const token = await sign(accessClaims(issuer.issuer), secret, { alg: "HS256", kid: issuer.kid, typ: "at+jwt" });
    const error = await refusal(requestWith(`Bearer ${token}`));
    expect(error).toBeInstanceOf(InvalidToken);
    expect(error.message).toContain("ERR_JOSE_ALG_NOT_ALLOWED");
  });

  it("refuses a token without typ, and one typed JWT (an ID token is not an access token)", async () => {
    for (const typ of [undefined, "JWT"]) {
      const header = typ === undefined ? { kid: issuer.kid } : { kid: issuer.kid, typ };
      const token = await sign(accessClaims(issuer.issuer), issuer.privateKey, header);
      const error = await refusal(requestWith(`Bearer ${token}`));
      expect(error, String(typ)).toBeInstanceOf(InvalidToken);
      expect(error.message).toContain("ERR_JWT_CLAIM_VALIDATION_FAILED");
    }
  });
});

describe("the claims", () => {
  it("refuses a wrong issuer", async () => {
    const token = await mint(issuer, { iss: "https://evil.example.com" });
    expect(await refusal(requestWith(`Bearer ${token}`))).toBeInstanceOf(InvalidToken);
  });

  it("refuses a token for resource A used at resource B", async () => {
    const token = await mint(issuer, { aud: OTHER_RESOURCE });
    expect(await refusal(requestWith(`Bearer ${token}`))).toBeInstanceOf(InvalidToken);
    await expect(protectResource(requestWith(`Bearer ${token}`), { ...options, resource: OTHER_RESOURCE })).resolves.toBeDefined();
  });

  it("refuses a resource that only prefixes the audience", async () => {
    const token = await mint(issuer, { aud: `${RESOURCE}/admin` });
    expect(await refusal(requestWith(`Bearer ${token}`))).toBeInstanceOf(InvalidToken);
  });

  it("refuses an expired token, and accepts one expired within the tolerance", async () => {
    const now = Math.floor(Date.now() / 1000);
    const expired = await mint(issuer, { iat: now - 700, exp: now - 60 });
    const error = await refusal(requestWith(`Bearer ${expired}`));
    expect(error).toBeInstanceOf(InvalidToken);
    expect(error.message).toContain("ERR_JWT_EXPIRED");
    const justExpired = await mint(issuer, { iat: now - 700, exp: now - 2 });
    await expect(protectResource(requestWith(`Bearer ${justExpired}`), options)).resolves.toBeDefined();
    expect(await refusal(requestWith(`Bearer ${justExpired}`), { clockTolerance: 0 })).toBeInstanceOf(InvalidToken);
  });

  it("refuses a token issued in the future (beyond the tolerance)", async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await mint(issuer, { iat: now + 120, exp: now + 720 });
    expect((await refusal(requestWith(`Bearer ${token}`))).message).toBe("The access token is issued in the future");
  });

  it("refuses a token without a grant_id, a jti, or a client_id", async () => {
    for (const claim of ["grant_id", "jti", "client_id"]) {
      const token = await mint(issuer, { [claim]: undefined });
      expect(await refusal(requestWith(`Bearer ${token}`)), claim).toBeInstanceOf(InvalidToken);
    }
  });

  it("refuses a grant_id that is not a string", async () => {
    const token = await mint(issuer, { grant_id: 42 });
    expect((await refusal(requestWith(`Bearer ${token}`))).message).toBe("The access token's grant_id is not a string");
  });
});

describe("the scopes", () => {
  it("refuses a valid token without a required scope: 403 with the scopes in the header", async () => {
    const token = await mint(issuer, { scope: "projects:read" });
    const scopes = ["mcp", "projects:write"];
    const error = await refusal(requestWith(`Bearer ${token}`), { scopes });
    expect(error).toBeInstanceOf(InsufficientScope);
    const response = resourceErrorResponse(error, { resource: RESOURCE, scopes });
    expect(response.status).toBe(403);
    expect(response.headers.get("www-authenticate")).toBe(
      'Bearer resource_metadata="https://api.example.com/.well-known/oauth-protected-resource/mcp", scope="mcp projects:write", error="insufficient_scope", error_description="The access token does not grant the required scope"',
    );
    expect(await response.json()).toEqual({
      error: "insufficient_scope",
      error_description: "The access token does not grant the required scope",
    });
  });

  it("a scope is matched whole: `mcp:admin` is not `mcp`", async () => {
    const token = await mint(issuer, { scope: "mcp:admin" });
    expect(await refusal(requestWith(`Bearer ${token}`))).toBeInstanceOf(InsufficientScope);
  });
});

describe("the Authorization header", () => {
  it("no header: 401 with a challenge without error (RFC 6750 §3.1)", async () => {
    const error = await refusal(requestWith());
    expect(error).toBeInstanceOf(InvalidToken);
    const response = resourceErrorResponse(error, { resourceMetadataUrl: "https://api.example.com/meta", scopes: ["mcp"] });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe('Bearer resource_metadata="https://api.example.com/meta", scope="mcp"');
    expect(await response.text()).toBe("");
  });

  it("ignores a token in the query string (answered as no token)", async () => {
    const token = await mint(issuer);
    const error = await refusal(requestWith(undefined, `${RESOURCE}/tools?access_token=${token}`));
    expect(error).toBeInstanceOf(InvalidToken);
    expect((error as InvalidToken).code).toBe("missing");
    expect(resourceErrorResponse(error).headers.get("www-authenticate")).not.toContain("error=");
  });

  it("another scheme is no bearer token", async () => {
    const error = await refusal(requestWith("Basic dXNlcjpwYXNz"));
    expect((error as InvalidToken).code).toBe("missing");
  });

  it("refuses two Authorization headers (400 invalid_request), even if both hold the valid token", async () => {
    const token = await mint(issuer);
    const headers = new Headers();
    headers.append("authorization", `Bearer ${token}`);
    headers.append("authorization", `Bearer ${token}`);
    const error = await refusal(new Request(`${RESOURCE}/tools`, { headers }));
    expect(error).toBeInstanceOf(InvalidRequest);
    const response = resourceErrorResponse(error);
    expect(response.status).toBe(400);
    expect(response.headers.get("www-authenticate")).toContain('error="invalid_request"');
  });

  it("refuses `Bearer` with no token, or two", async () => {
    expect(await refusal(requestWith("Bearer"))).toBeInstanceOf(InvalidRequest);
    expect(await refusal(requestWith("Bearer a b"))).toBeInstanceOf(InvalidRequest);
  });

  it("an invalid token's response is a generic 401 that echoes no claim or reason", async () => {
    const token = await mint(issuer, { aud: OTHER_RESOURCE, sub: "user-secret-id" });
    const error = await refusal(requestWith(`Bearer ${token}`));
    const response = resourceErrorResponse(error, { resource: RESOURCE });
    expect(response.status).toBe(401);
    const header = response.headers.get("www-authenticate") ?? "";
    expect(header).toBe(
      'Bearer resource_metadata="https://api.example.com/.well-known/oauth-protected-resource/mcp", error="invalid_token", error_description="The access token is not valid"',
    );
    const body = await response.text();
    expect(`${header}${body}`).not.toMatch(/aud|other\.example|user-secret-id|CLAIM/i);
  });
});

describe("a failure that is not the token's", () => {
  it("a JWKS that cannot be fetched is thrown as it is, and resourceErrorResponse throws it again", async () => {
    const token = await mint(issuer);
    const error = await refusal(requestWith(`Bearer ${token}`), { jwksUri: "http://127.0.0.1:1/oauth2/jwks" });
    expect(error).not.toBeInstanceOf(InvalidToken);
    expect(() => resourceErrorResponse(error)).toThrow(error);
  });
});

describe("a token verified before (its signature is kept, its claims are checked again)", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A key resolver over the issuer's key that counts how often a signature needed a key. */
  function countingKeys(): { jwks: JWTVerifyGetKey; lookups: () => number } {
    const local = createLocalJWKSet({ keys: [issuer.publicJwk] });
    let lookups = 0;
    const jwks: JWTVerifyGetKey = (header, token) => {
      lookups += 1;
      return local(header, token);
    };
    return { jwks, lookups: () => lookups };
  }

  it("is not verified again: the key set is asked once for the same token", async () => {
    const { jwks, lookups } = countingKeys();
    const token = await mint(issuer);
    for (let i = 0; i < 3; i++) await protectResource(requestWith(`Bearer ${token}`), { ...options, jwks });
    expect(lookups()).toBe(1);
    await protectResource(requestWith(`Bearer ${await mint(issuer, { jti: "token-2" })}`), { ...options, jwks });
    expect(lookups()).toBe(2);
  });

  it("is refused at another resource, or for another issuer, after it was accepted", async () => {
    const { jwks } = countingKeys();
    const token = await mint(issuer);
    await protectResource(requestWith(`Bearer ${token}`), { ...options, jwks });
    expect(await refusal(requestWith(`Bearer ${token}`), { jwks, resource: OTHER_RESOURCE })).toBeInstanceOf(InvalidToken);
    expect(await refusal(requestWith(`Bearer ${token}`), { jwks, issuer: "https://evil.example.com" })).toBeInstanceOf(InvalidToken);
  });

  it("its claims are frozen: a handler cannot change what the next request of the token is checked against", async () => {
    const { jwks } = countingKeys();
    const token = await mint(issuer, { aud: [RESOURCE] });
    const caller = await protectResource(requestWith(`Bearer ${token}`), { ...options, jwks });
    expect(() => {
      (caller.claims as { iss: string }).iss = "https://evil.example.com";
    }).toThrow(TypeError);
    expect(() => (caller.claims.aud as string[]).push(OTHER_RESOURCE)).toThrow(TypeError);
    expect(await refusal(requestWith(`Bearer ${token}`), { jwks, resource: OTHER_RESOURCE })).toBeInstanceOf(InvalidToken);
  });

  it("is refused once it expires", async () => {
    const { jwks } = countingKeys();
    const token = await mint(issuer);
    await protectResource(requestWith(`Bearer ${token}`), { ...options, jwks });
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 610_000 });
    const error = await refusal(requestWith(`Bearer ${token}`), { jwks });
    expect(error).toBeInstanceOf(InvalidToken);
    expect(error.message).toContain("expired");
  });
});
