/**
 * Client metadata (features/authorization-server/client-registration.ts): RFC 7591 registration requests
 * and Client ID Metadata Documents, member by member at their limits, the secret stored only as its hash,
 * and the registration response of RFC 7591 §3.2.1.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { clientDocumentClient, registeredClient } from "../../src/features/authorization-server/client-registration.js";
import { OAuthError } from "../../src/features/authorization-server/oauth-error.js";

const NOW = new Date("2026-12-01T10:00:00.500Z");
const REDIRECT = "https://app.example/callback";
const EC_KEY = {
  kty: "EC",
  crv: "P-256",
  x: "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
  y: "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0",
  kid: "1",
};

function register(metadata: unknown) {
  return registeredClient(
    metadata,
    NOW,
    () => "client-1",
    () => "secret-1",
  );
}

async function refusal(metadata: unknown): Promise<OAuthError> {
  const error = await register(metadata).then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OAuthError);
  return error as OAuthError;
}

describe("registeredClient: a public client", () => {
  it("has the defaults, no secret, and the RFC 7591 response", async () => {
    const { client, clientSecret, response } = await register({ redirect_uris: [REDIRECT] });
    expect(client).toEqual({
      clientId: "client-1",
      clientSecretHash: null,
      name: "Unnamed client",
      redirectUris: [REDIRECT],
      grantTypes: ["authorization_code"],
      tokenEndpointAuthMethod: "none",
      scopes: null,
      jwks: null,
      clientUri: null,
      logoUri: null,
      source: "registered",
      createdAt: NOW,
    });
    expect(clientSecret).toBeNull();
    expect(response).toEqual({
      client_id: "client-1",
      client_id_issued_at: 1796119200,
      client_name: "Unnamed client",
      redirect_uris: [REDIRECT],
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    });
  });

  it("keeps every member it knows, and no other", async () => {
    const { client, response } = await register({
      redirect_uris: [REDIRECT, "http://127.0.0.1/callback", "com.example.app:/cb"],
      client_name: "Example App",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      scope: "openid profile projects:read",
      client_uri: "https://app.example/",
      logo_uri: "https://app.example/logo.png",
      contacts: ["a@app.example"],
      software_statement: "eyJ...",
      client_secret: "chosen-by-the-client",
      client_id: "chosen-id",
      jwks: { keys: [EC_KEY] },
    });
    expect(client.clientId).toBe("client-1");
    expect(client.clientSecretHash).toBeNull();
    expect(client.name).toBe("Example App");
    expect(client.redirectUris).toEqual([REDIRECT, "http://127.0.0.1/callback", "com.example.app:/cb"]);
    expect(client.grantTypes).toEqual(["authorization_code", "refresh_token"]);
    expect(client.scopes).toEqual(["openid", "profile", "projects:read"]);
    expect(client.jwks).toBeNull();
    expect(client.clientUri).toBe("https://app.example/");
    expect(client.logoUri).toBe("https://app.example/logo.png");
    expect(response).toEqual({
      client_id: "client-1",
      client_id_issued_at: 1796119200,
      client_name: "Example App",
      redirect_uris: [REDIRECT, "http://127.0.0.1/callback", "com.example.app:/cb"],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      scope: "openid profile projects:read",
      client_uri: "https://app.example/",
      logo_uri: "https://app.example/logo.png",
    });
  });

  it("reads null members as absent", async () => {
    const { client } = await register({ redirect_uris: [REDIRECT], client_name: null, scope: null, logo_uri: null, grant_types: null });
    expect(client.name).toBe("Unnamed client");
    expect(client.scopes).toBeNull();
    expect(client.logoUri).toBeNull();
    expect(client.grantTypes).toEqual(["authorization_code"]);
  });

  it("drops repeated redirect URIs, grants and scopes", async () => {
    const { client } = await register({
      redirect_uris: [REDIRECT, REDIRECT],
      grant_types: ["authorization_code", "authorization_code"],
      scope: "a b a",
    });
    expect(client.redirectUris).toEqual([REDIRECT]);
    expect(client.grantTypes).toEqual(["authorization_code"]);
    expect(client.scopes).toEqual(["a", "b"]);
  });

  it("registers a device client without redirect URIs, and without response types", async () => {
    const { client, response } = await register({ grant_types: ["urn:ietf:params:oauth:grant-type:device_code", "refresh_token"] });
    expect(client.redirectUris).toEqual([]);
    expect(client.grantTypes).toEqual(["urn:ietf:params:oauth:grant-type:device_code", "refresh_token"]);
    expect(response.response_types).toEqual([]);
  });

  it("still checks the redirect URIs a device client gives", async () => {
    const error = await refusal({ grant_types: ["urn:ietf:params:oauth:grant-type:device_code"], redirect_uris: ["http://app.example/"] });
    expect(error.code).toBe("invalid_redirect_uri");
  });
});

describe("registeredClient: a confidential client", () => {
  it.each([["client_secret_basic"], ["client_secret_post"]])("%s gets a secret, stored as its SHA-256 hex", async (method) => {
    const { client, clientSecret, response } = await register({ redirect_uris: [REDIRECT], token_endpoint_auth_method: method });
    expect(clientSecret).toBe("secret-1");
    expect(client.clientSecretHash).toBe(createHash("sha256").update("secret-1").digest("hex"));
    expect(client.tokenEndpointAuthMethod).toBe(method);
    expect(response.client_secret).toBe("secret-1");
    expect(response.client_secret_expires_at).toBe(0);
    expect(response.token_endpoint_auth_method).toBe(method);
    expect(JSON.stringify(client)).not.toContain("secret-1");
  });

  it("private_key_jwt keeps the inline public keys, and gets no secret", async () => {
    const { client, clientSecret, response } = await register({
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: "private_key_jwt",
      jwks: { keys: [EC_KEY] },
    });
    expect(clientSecret).toBeNull();
    expect(client.clientSecretHash).toBeNull();
    expect(client.jwks).toEqual([EC_KEY]);
    expect(response.jwks).toEqual({ keys: [EC_KEY] });
    expect(response).not.toHaveProperty("client_secret");
    expect(response).not.toHaveProperty("client_secret_expires_at");
  });

  it("private_key_jwt accepts 10 keys", async () => {
    const keys = Array.from({ length: 10 }, (_, i) => ({ ...EC_KEY, kid: String(i) }));
    const { client } = await register({ redirect_uris: [REDIRECT], token_endpoint_auth_method: "private_key_jwt", jwks: { keys } });
    expect(client.jwks).toHaveLength(10);
  });

  it("asks for no secret of a public client", async () => {
    let asked = 0;
    await registeredClient(
      { redirect_uris: [REDIRECT] },
      NOW,
      () => "id",
      () => `s${++asked}`,
    );
    expect(asked).toBe(0);
  });
});

describe("registeredClient: refusals", () => {
  it.each([
    ["null", null],
    ["an array", [{ redirect_uris: [REDIRECT] }]],
    ["a string", "{}"],
    ["a number", 1],
  ])("refuses a body that is %s", async (_, body) => {
    const error = await refusal(body);
    expect(error.code).toBe("invalid_client_metadata");
    expect(error.description).toMatch(/JSON object/);
  });

  it.each([
    ["no redirect_uris", {}, /redirect_uris is required/],
    ["an empty redirect_uris", { redirect_uris: [] }, /at least one/],
    ["a string for redirect_uris", { redirect_uris: REDIRECT }, /array of strings/],
    ["a number among redirect_uris", { redirect_uris: [REDIRECT, 1] }, /array of strings/],
    ["11 redirect URIs", { redirect_uris: Array.from({ length: 11 }, (_, i) => `${REDIRECT}/${i}`) }, /at most 10/],
  ])("refuses %s", async (_, body, why) => {
    const error = await refusal(body);
    expect(error.code).toBe("invalid_client_metadata");
    expect(error.description).toMatch(why);
  });

  it("accepts 10 redirect URIs", async () => {
    const uris = Array.from({ length: 10 }, (_, i) => `${REDIRECT}/${i}`);
    expect((await register({ redirect_uris: uris })).client.redirectUris).toEqual(uris);
  });

  it.each([
    ["http to a host", "http://app.example/callback"],
    ["javascript:", "javascript:alert(1)"],
    ["a fragment", `${REDIRECT}#x`],
    ["a wildcard", "https://*.app.example/cb"],
    ["a scheme without a dot", "myapp:/cb"],
  ])("refuses a redirect URI with %s (invalid_redirect_uri), even after a good one", async (_, uri) => {
    const error = await refusal({ redirect_uris: [REDIRECT, uri] });
    expect(error.code).toBe("invalid_redirect_uri");
  });

  it.each([
    ["implicit", ["implicit"]],
    ["password", ["password"]],
    ["implicit beside authorization_code", ["authorization_code", "implicit"]],
    ["client_credentials", ["client_credentials"]],
    ["a grant in another case", ["Authorization_code"]],
    ["the JWT bearer grant", ["urn:ietf:params:oauth:grant-type:jwt-bearer"]],
  ])("refuses the grant %s", async (_, grants) => {
    const error = await refusal({ redirect_uris: [REDIRECT], grant_types: grants });
    expect(error.code).toBe("invalid_client_metadata");
    expect(error.description).toMatch(/grant type .* is not supported/);
  });

  it.each([
    ["an empty grant_types", [], /at least one grant/],
    ["refresh_token alone", ["refresh_token"], /refresh_token needs/],
    ["a string for grant_types", "authorization_code", /array of strings/],
  ])("refuses %s", async (_, grants, why) => {
    const error = await refusal({ redirect_uris: [REDIRECT], grant_types: grants });
    expect(error.code).toBe("invalid_client_metadata");
    expect(error.description).toMatch(why);
  });

  it.each([
    ["token", ["token"]],
    ["code id_token", ["code id_token"]],
    ["code beside token", ["code", "token"]],
  ])("refuses the response type %s", async (_, types) => {
    const error = await refusal({ redirect_uris: [REDIRECT], response_types: types });
    expect(error.description).toMatch(/response type .* is not supported/);
  });

  it("refuses response type code without the authorization_code grant", async () => {
    const error = await refusal({ grant_types: ["urn:ietf:params:oauth:grant-type:device_code"], response_types: ["code"] });
    expect(error.description).toMatch(/needs the authorization_code grant/);
  });

  it("accepts client_name at 100 characters (counted as characters, not UTF-16 units)", async () => {
    expect((await register({ redirect_uris: [REDIRECT], client_name: "a".repeat(100) })).client.name).toHaveLength(100);
    expect((await register({ redirect_uris: [REDIRECT], client_name: "😀".repeat(100) })).client.name).toBe("😀".repeat(100));
    expect((await register({ redirect_uris: [REDIRECT], client_name: "Café Ünïcode 应用" })).client.name).toBe("Café Ünïcode 应用");
  });

  it.each([
    ["101 characters", "a".repeat(101), /at most 100/],
    ["an empty name", "", /empty/],
    ["spaces only", "   ", /empty/],
    ["a number", 42, /must be a string/],
    ["an array", ["Example"], /must be a string/],
    ["a newline", "Example\nApp", /control/],
    ["a NUL", "Example\u0000", /control/],
    ["DEL", "Example\u007f", /control/],
    ["a C1 control", "Example\u0085", /control/],
    ["a right-to-left override", "Example\u202eppA", /text-direction/],
    ["a right-to-left isolate", "Example\u2067App", /text-direction/],
    ["a zero-width space", "Goo\u200bgle", /text-direction/],
    ["a line separator", "Example\u2028App", /control/],
  ])("refuses a client_name with %s", async (_, name, why) => {
    const error = await refusal({ redirect_uris: [REDIRECT], client_name: name });
    expect(error.code).toBe("invalid_client_metadata");
    expect(error.description).toMatch(why);
  });

  it.each([
    ["a double space", "a  b"],
    ["a leading space", " a"],
    ["a trailing space", "a "],
    ["a tab", "a\tb"],
    ["a quote", 'a"b'],
    ["a backslash", "a\\b"],
    ["non-ASCII", "projets:écrire"],
    ["the empty string", ""],
    ["an array", ["a", "b"]],
  ])("refuses a scope with %s", async (_, scope) => {
    const error = await refusal({ redirect_uris: [REDIRECT], scope });
    expect(error.code).toBe("invalid_client_metadata");
    expect(error.description).toMatch(/scope/);
  });

  it("accepts 100 scopes and refuses 101", async () => {
    const scope = (n: number) => Array.from({ length: n }, (_, i) => `s${i}`).join(" ");
    expect((await register({ redirect_uris: [REDIRECT], scope: scope(100) })).client.scopes).toHaveLength(100);
    expect((await refusal({ redirect_uris: [REDIRECT], scope: scope(101) })).description).toMatch(/at most 100/);
  });

  it("accepts every scope-token character of RFC 6749", async () => {
    const token = "!#$%&'()*+,-./0123456789:;<=>?@AZ[]^_`az{|}~";
    expect((await register({ redirect_uris: [REDIRECT], scope: token })).client.scopes).toEqual([token]);
  });

  it.each([
    ["client_uri", "http://app.example/", /https: URI/],
    ["logo_uri", "http://app.example/logo.png", /https: URI/],
    ["logo_uri", "data:image/png;base64,AAAA", /https: URI/],
    ["logo_uri", "javascript:alert(1)", /https: URI/],
    ["client_uri", "https:app.example", /https: URI/],
    ["client_uri", "/relative", /absolute URI/],
    ["client_uri", "https://user@app.example/", /userinfo/],
    ["client_uri", "https://@app.example/", /userinfo/],
    ["client_uri", "https://app.example/a b", /characters/],
    ["client_uri", "https://app.example\\@evil.example/", /characters/],
    ["logo_uri", 42, /must be a URI/],
    ["logo_uri", `https://app.example/${"a".repeat(1981)}`, /at most 2000/],
  ])("refuses %s %j", async (name, value, why) => {
    const error = await refusal({ redirect_uris: [REDIRECT], [name]: value });
    expect(error.code).toBe("invalid_client_metadata");
    expect(error.description).toMatch(why);
  });

  it("accepts a logo_uri of 2000 characters", async () => {
    const logo = `https://app.example/${"a".repeat(1980)}`;
    expect((await register({ redirect_uris: [REDIRECT], logo_uri: logo })).client.logoUri).toBe(logo);
  });

  it.each([["client_secret_jwt"], ["tls_client_auth"], ["None"], [""], [1]])("refuses the auth method %j", async (method) => {
    const error = await refusal({ redirect_uris: [REDIRECT], token_endpoint_auth_method: method });
    expect(error.description).toMatch(/token_endpoint_auth_method must be one of none, client_secret_basic/);
  });

  it.each([
    ["no jwks", {}, /needs jwks/],
    ["jwks as an array", { jwks: [EC_KEY] }, /needs jwks/],
    ["jwks without keys", { jwks: {} }, /needs jwks/],
    ["no key", { jwks: { keys: [] } }, /1 to 10 keys/],
    ["11 keys", { jwks: { keys: Array.from({ length: 11 }, () => EC_KEY) } }, /1 to 10 keys/],
    ["a key without kty", { jwks: { keys: [{ x: "a" }] } }, /with a kty/],
    ["a key that is no object", { jwks: { keys: ["key"] } }, /with a kty/],
    ["a symmetric key", { jwks: { keys: [{ kty: "oct", k: "c2VjcmV0" }] } }, /symmetric/],
    ["jwks_uri", { jwks_uri: "https://app.example/jwks", jwks: { keys: [EC_KEY] } }, /jwks_uri is not supported/],
  ])("private_key_jwt refuses %s", async (_, members, why) => {
    const error = await refusal({ redirect_uris: [REDIRECT], token_endpoint_auth_method: "private_key_jwt", ...members });
    expect(error.code).toBe("invalid_client_metadata");
    expect(error.description).toMatch(why);
  });

  it.each([["d"], ["p"], ["q"], ["dp"], ["dq"], ["qi"], ["oth"], ["k"]])(
    "private_key_jwt refuses a key with the private member %s",
    async (name) => {
      const error = await refusal({
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: "private_key_jwt",
        jwks: { keys: [EC_KEY, { ...EC_KEY, [name]: "AAAA" }] },
      });
      expect(error.description).toBe(`jwks must have public keys only (a key has the private member ${name}).`);
    },
  );

  it("ignores jwks (and does not store them) for another auth method", async () => {
    const { client, response } = await register({ redirect_uris: [REDIRECT], jwks: { keys: [{ ...EC_KEY, d: "private" }] } });
    expect(client.jwks).toBeNull();
    expect(response).not.toHaveProperty("jwks");
  });

  it("does not read inherited members", async () => {
    const body = Object.create({ redirect_uris: [REDIRECT], client_name: "Inherited" });
    const error = await refusal(body);
    expect(error.description).toMatch(/redirect_uris is required/);
  });
});

describe("clientDocumentClient", () => {
  const URL_ID = "https://app.example/oauth/client.json";
  const documentOf = (members: Record<string, unknown> = {}) => ({
    client_id: URL_ID,
    client_name: "App",
    redirect_uris: [REDIRECT],
    ...members,
  });

  it("makes the client the document describes, its id the URL", () => {
    expect(clientDocumentClient(documentOf(), URL_ID, NOW)).toEqual({
      clientId: URL_ID,
      clientSecretHash: null,
      name: "App",
      redirectUris: [REDIRECT],
      grantTypes: ["authorization_code"],
      tokenEndpointAuthMethod: "none",
      scopes: null,
      jwks: null,
      clientUri: null,
      logoUri: null,
      source: "metadata-document",
      createdAt: NOW,
    });
  });

  it("accepts private_key_jwt with inline public keys", () => {
    const client = clientDocumentClient(
      documentOf({ token_endpoint_auth_method: "private_key_jwt", jwks: { keys: [EC_KEY] } }),
      URL_ID,
      NOW,
    );
    expect(client.tokenEndpointAuthMethod).toBe("private_key_jwt");
    expect(client.jwks).toEqual([EC_KEY]);
  });

  function documentRefusal(document: unknown, url = URL_ID): OAuthError {
    try {
      clientDocumentClient(document, url, NOW);
    } catch (error) {
      expect(error).toBeInstanceOf(OAuthError);
      expect((error as OAuthError).code).toBe("invalid_client");
      return error as OAuthError;
    }
    throw new Error("not refused");
  }

  it.each([
    ["another client_id", documentOf({ client_id: "https://evil.example/oauth/client.json" }), /client_id is not the URL/],
    ["a client_id with a trailing slash", documentOf({ client_id: `${URL_ID}/` }), /client_id is not the URL/],
    ["a client_id in another case", documentOf({ client_id: URL_ID.toUpperCase() }), /client_id is not the URL/],
    ["no client_id", { client_name: "App", redirect_uris: [REDIRECT] }, /client_id is not the URL/],
    [
      "a client_id that is a URL object's string form only",
      documentOf({ client_id: ["https://app.example/oauth/client.json"] }),
      /client_id/,
    ],
    ["an array", [documentOf()], /not a JSON object/],
    ["null", null, /not a JSON object/],
    ["client_secret_basic", documentOf({ token_endpoint_auth_method: "client_secret_basic" }), /must be one of none, private_key_jwt/],
    ["client_secret_post", documentOf({ token_endpoint_auth_method: "client_secret_post" }), /must be one of none, private_key_jwt/],
    ["a client_secret", documentOf({ client_secret: "s" }), /client_secret/],
    ["a client_secret_expires_at", documentOf({ client_secret_expires_at: 0 }), /client_secret/],
    [
      "private_key_jwt with a private key",
      documentOf({ token_endpoint_auth_method: "private_key_jwt", jwks: { keys: [{ ...EC_KEY, d: "x" }] } }),
      /private member d/,
    ],
    ["an http redirect URI", documentOf({ redirect_uris: ["http://app.example/cb"] }), /not loopback/],
    ["the implicit grant", documentOf({ grant_types: ["implicit"] }), /not supported/],
  ])("refuses a document with %s (invalid_client)", (_, document, why) => {
    const error = documentRefusal(document);
    expect(error.description).toMatch(why);
    expect(error.description).toContain(URL_ID);
  });

  it("accepts a loopback redirect URI (a native app's document)", () => {
    expect(clientDocumentClient(documentOf({ redirect_uris: ["http://127.0.0.1/cb"] }), URL_ID, NOW).redirectUris).toEqual([
      "http://127.0.0.1/cb",
    ]);
  });
});
