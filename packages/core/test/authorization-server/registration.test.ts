/**
 * Dynamic Client Registration (RFC 7591) and client-id metadata documents, at the endpoints: off unless
 * configured, public clients only by default, the app's rule when it gives one, redirect URIs checked,
 * registrations counted per client address; and a client-id URL whose host is loopback refused before
 * anything is fetched (unless development allows it).
 */
import { afterEach, describe, expect, it } from "vitest";
import { startServerApp } from "./app.js";

let app: Awaited<ReturnType<typeof startServerApp>> | undefined;

afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function register(issuer: string, body: unknown) {
  const response = await fetch(`${issuer}/oauth2/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

const mcpClient = { client_name: "Claude Desktop", redirect_uris: ["http://127.0.0.1:6274/callback"], token_endpoint_auth_method: "none" };

describe("client registration", () => {
  it("is off by default: 403, and the metadata names no registration endpoint", async () => {
    app = await startServerApp();
    expect((await register(app.issuer, mcpClient)).status).toBe(403);
    const metadata = await (await fetch(`${app.origin}/.well-known/oauth-authorization-server/auth`)).json();
    expect(metadata.registration_endpoint).toBeUndefined();
  });

  it("on, registers a public client, which the server then knows by its new id", async () => {
    app = await startServerApp({ config: { authorizationServer: { registration: true } } });
    const metadata = await (await fetch(`${app.origin}/.well-known/oauth-authorization-server/auth`)).json();
    expect(metadata.registration_endpoint).toBe(`${app.issuer}/oauth2/register`);
    const registered = await register(app.issuer, mcpClient);
    expect(registered.status).toBe(201);
    expect(registered.body).toMatchObject({ client_name: "Claude Desktop", token_endpoint_auth_method: "none" });
    expect(registered.body.client_secret).toBeUndefined();
    const stored = await app.store.getOAuthClient?.(registered.body.client_id);
    expect(stored).toMatchObject({ name: "Claude Desktop", source: "registered" });
  });

  it("by default refuses a confidential client; the app's rule may admit it, and its secret is stored hashed", async () => {
    app = await startServerApp({ config: { authorizationServer: { registration: true } } });
    const confidential = { ...mcpClient, redirect_uris: ["https://app.example/cb"], token_endpoint_auth_method: "client_secret_basic" };
    expect((await register(app.issuer, confidential)).body.error).toBe("invalid_client_metadata");
    await app.close();
    app = await startServerApp({ config: { authorizationServer: { registration: { admit: (client) => client.name === "Trusted" } } } });
    const admitted = await register(app.issuer, { ...confidential, client_name: "Trusted" });
    expect(admitted.status).toBe(201);
    const stored = await app.store.getOAuthClient?.(admitted.body.client_id);
    expect(stored?.clientSecretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(admitted.body.client_secret);
    expect((await register(app.issuer, { ...confidential, client_name: "Other" })).body.error).toBe("invalid_client_metadata");
  });

  it("refuses redirect URIs a client must not have, implicit grants, and non-JSON bodies", async () => {
    app = await startServerApp({ config: { authorizationServer: { registration: true } } });
    for (const redirect of ["http://app.example/cb", "javascript:alert(1)", "https://app.example/cb#frag", "https://*.example/cb"])
      expect((await register(app.issuer, { ...mcpClient, redirect_uris: [redirect] })).body.error).toBe("invalid_redirect_uri");
    expect((await register(app.issuer, { ...mcpClient, grant_types: ["implicit"] })).body.error).toBe("invalid_client_metadata");
    const form = await fetch(`${app.issuer}/oauth2/register`, { method: "POST", body: new URLSearchParams({ client_name: "x" }) });
    expect(((await form.json()) as { error: string }).error).toBe("invalid_client_metadata");
  });

  it("counts registrations per client address: an anonymous caller can make it store only so many", async () => {
    app = await startServerApp({
      config: { authorizationServer: { registration: true }, rateLimit: { authorizationServer: { registrationMax: 3, windowSeconds: 60 } } },
    });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await register(app.issuer, mcpClient)).status);
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
    expect(app.oauth.clients.size).toBe(3);
  });
});

describe("client-id metadata documents", () => {
  it("a client id whose host resolves to loopback is refused before any fetch", async () => {
    app = await startServerApp({ config: { authorizationServer: { clientMetadataDocuments: true } } });
    const clientId = "https://localhost:1/client.json";
    const query = new URLSearchParams({
      client_id: clientId,
      redirect_uri: "http://127.0.0.1/cb",
      response_type: "code",
      code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
      code_challenge_method: "S256",
    });
    const opened = await fetch(`${app.issuer}/oauth2/authorize?${query}`, { redirect: "manual" });
    expect(opened.headers.get("location") ?? "").not.toContain("127.0.0.1/cb");
    expect(app.oauth.clients.has(clientId)).toBe(false);
    const metadata = await (await fetch(`${app.issuer}/.well-known/openid-configuration`)).json();
    expect(metadata.client_id_metadata_document_supported).toBe(true);
  });
});
