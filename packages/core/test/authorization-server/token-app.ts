/**
 * The token endpoint in process: `POST <basePath>/oauth2/token` answered by `Auth(request, config)` with
 * the in-memory adapter and authorization-server methods (no HTTP server, no browser), with the codes,
 * grants and device codes a test needs put straight into the store, and the audit rows kept.
 */
import { loadAuditWriter } from "../../src/audit/index.js";
import { sha256Hex } from "../../src/crypto/digest.js";
import { refreshToken } from "../../src/features/authorization-server/tokens.js";
import { Auth } from "../../src/kernel/auth.js";
import Password from "../../src/providers/password.js";
import type { OAuthAuthorizationCode, OAuthDeviceCode, OAuthGrant } from "../../src/types/authorization-server.js";
import type { AuthConfig } from "../../src/types/config.js";
import type { InternalOptions } from "../../src/types/internal.js";
import type { AuditEvent } from "../../src/types/telemetry.js";
import { memoryAdapter, withVerificationTokens } from "../helpers/memory-adapter.js";
import { memoryAuthorizationServer } from "../helpers/memory-authorization-server.js";

export const ISSUER = "https://as.example/auth";
export const REDIRECT = "https://app.example/callback";
export const SECRET = "confidential-client-secret-0123456789abcdef";
export const VERIFIER = "token-endpoint-verifier-0123456789-abcdefghijklmnop";
/** The S256 challenge of {@link VERIFIER}. */
export const CHALLENGE = "fu8Qnge1GuRlah-0Rd4PMQMjiE7iuQmT98tMRYZyeOw";
export const DEVICE = "urn:ietf:params:oauth:grant-type:device_code";
export const API_A = "https://api.example/a";
export const API_B = "https://api.example/b";
const APP_SECRET = "token-endpoint-app-secret-0123456789!!";

/** A fresh authorization server (its own store and configuration) with these clients. */
export async function tokenApp(overrides: Partial<AuthConfig> = {}) {
  const memory = memoryAdapter();
  const oauth = memoryAuthorizationServer();
  const audit: AuditEvent[] = [];
  const adapter = { ...withVerificationTokens(memory.adapter), ...oauth.methods };
  const config: AuthConfig = {
    secret: APP_SECRET,
    trustHost: true,
    adapter,
    providers: [Password({ sendMail: () => {} })],
    audit: { store: { write: (event) => void audit.push(event) } },
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    authorizationServer: {
      resources: [API_A, API_B],
      clients: [
        { clientId: "web", clientSecret: SECRET, name: "Web", redirectUris: [REDIRECT] },
        { clientId: "post", clientSecret: SECRET, tokenEndpointAuthMethod: "client_secret_post", name: "Post", redirectUris: [REDIRECT] },
        { clientId: "native", name: "Native", redirectUris: [REDIRECT] },
        { clientId: "code-only", name: "Code only", redirectUris: [REDIRECT], grantTypes: ["authorization_code"] },
        { clientId: "cli", name: "CLI", redirectUris: [], grantTypes: [DEVICE] },
        { clientId: "cli-2", name: "CLI 2", redirectUris: [], grantTypes: [DEVICE, "refresh_token"] },
      ],
    },
    ...overrides,
  };
  const user = await memory.adapter.createUser?.({
    email: "ada@example.com",
    emailVerified: new Date(0),
    name: "Ada",
  } as never);
  const userId = (user as { id: string }).id;
  /** The options the modules see, for minting a refresh token of a stored grant. */
  const options = { config, secret: [APP_SECRET], adapter, authUrl: ISSUER } as unknown as InternalOptions;

  /**
   * POSTs `form` (urlencoded, or JSON when it holds a non-string) to the token endpoint as `client`: `web`
   * with Basic credentials, `post` with its secret in the body, the public ones by `client_id`, `null` as no one.
   */
  async function token(form: Record<string, unknown>, client: string | null = "web") {
    const headers: Record<string, string> = {};
    if (client === "web") headers.authorization = `Basic ${btoa(`web:${SECRET}`)}`;
    const identified =
      client === null || client === "web" ? {} : client === "post" ? { client_id: "post", client_secret: SECRET } : { client_id: client };
    const fields = { ...identified, ...form };
    const json = Object.values(fields).some((value) => typeof value !== "string");
    headers["content-type"] = json ? "application/json" : "application/x-www-form-urlencoded";
    const body = json ? JSON.stringify(fields) : new URLSearchParams(fields as Record<string, string>).toString();
    const response = await Auth(new Request(`${ISSUER}/oauth2/token`, { method: "POST", headers, body }), config);
    return { status: response.status, body: (await response.json()) as Record<string, any>, headers: response.headers };
  }

  /** Stores an authorization code for `clientId` and returns it. */
  async function code(fields: Partial<OAuthAuthorizationCode> = {}): Promise<string> {
    const value = crypto.randomUUID();
    await oauth.methods.createOAuthAuthorizationCode({
      codeHash: await sha256Hex(value),
      clientId: "web",
      userId,
      redirectUri: REDIRECT,
      scopes: ["openid", "offline_access"],
      resources: [API_A],
      codeChallenge: CHALLENGE,
      nonce: "nonce-1",
      authTime: 1_700_000_000,
      aal: 1,
      amr: ["pwd"],
      expiresAt: new Date(Date.now() + 60_000),
      usedAt: null,
      grantId: null,
      ...fields,
    });
    return value;
  }

  /** The stored code `value`. */
  const storedCode = async (value: string) => oauth.codes.get(await sha256Hex(value));

  /** Stores a grant (refreshable, for `web`) and returns it with its refresh token of `generation`. */
  async function grant(fields: Partial<OAuthGrant> = {}, generation = fields.generation ?? 0) {
    const now = new Date();
    const stored: OAuthGrant = {
      id: crypto.randomUUID().replace(/-/g, ""),
      userId,
      clientId: "web",
      scopes: ["openid", "email", "offline_access"],
      resources: [API_A, API_B],
      secret: crypto.randomUUID().replace(/-/g, "").repeat(2),
      generation: 0,
      refreshable: true,
      authTime: 1_700_000_000,
      aal: 1,
      amr: ["pwd"],
      createdAt: now,
      lastUsedAt: now,
      expiresAt: new Date(now.getTime() + 86_400_000),
      revokedAt: null,
      ...fields,
    };
    await oauth.methods.createOAuthGrant(stored);
    return { grant: stored, refresh: await refreshToken(options, stored, generation) };
  }

  /** Stores a device code for `cli` and returns it. */
  async function deviceCode(fields: Partial<OAuthDeviceCode> = {}): Promise<string> {
    const value = crypto.randomUUID();
    await oauth.methods.createOAuthDeviceCode({
      deviceCodeHash: await sha256Hex(value),
      userCode: crypto.randomUUID().slice(0, 8).toUpperCase(),
      clientId: "cli",
      scopes: ["openid"],
      resources: [API_B],
      status: "pending",
      userId: null,
      authTime: null,
      aal: null,
      amr: null,
      interval: 5,
      lastPolledAt: null,
      expiresAt: new Date(Date.now() + 600_000),
      createdAt: new Date(),
      ...fields,
    });
    return value;
  }

  /** The stored device code `value`. */
  const storedDevice = async (value: string) => oauth.deviceCodes.get(await sha256Hex(value));

  /** The audit rows written so far (the writer runs off the request's path), as `type userId detail`. */
  async function rows(): Promise<AuditEvent[]> {
    await loadAuditWriter();
    await new Promise((resolve) => setImmediate(resolve));
    return audit;
  }

  return { config, adapter, oauth, memory, userId, options, token, code, storedCode, grant, deviceCode, storedDevice, rows, audit };
}

/** The payload of a JWT, unverified (the tokens' signatures are tokens.test.ts's). */
export function claimsOf(jwt: string): Record<string, any> {
  return JSON.parse(Buffer.from(jwt.split(".")[1] as string, "base64url").toString());
}
