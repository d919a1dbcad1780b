/**
 * Test fixture: a real OpenID Provider (`oidc-provider`) on 127.0.0.1, and a scripted user agent that
 * signs in at it.
 *
 * ```ts
 * import { startTestOP } from "../helpers/oidc-provider.js";
 *
 * const op = await startTestOP({
 *   clients: [{ client_id: "app", client_secret: "app-secret", redirect_uris: ["http://localhost:3000/auth/callback/op"] }],
 * });
 * // op.issuer === "http://127.0.0.1:<port>"; discovery at `${op.issuer}/.well-known/openid-configuration`
 * const callback = await op.authorize(authorizationUrl);                // logs in as "alice" and consents
 * callback.searchParams.get("code");                                   // also "state", "iss"
 * const denied = await op.authorize(authorizationUrl, { deny: true }); // ?error=access_denied&...
 * await op.close();
 * ```
 *
 * API
 * - `startTestOP(options?)` starts the OP on a free port. Options:
 *   - `clients`: oidc-provider client metadata. Defaults per client: `grant_types`
 *     `["authorization_code", "refresh_token"]`, `response_types: ["code"]`, `token_endpoint_auth_method`
 *     `client_secret_basic` (set `client_secret_post`, `private_key_jwt` with `jwks`, or `none`).
 *     {@link privateKeyJwtClient} makes a `private_key_jwt` client and its key.
 *   - `users`: account id → claims (default {@link DEFAULT_USERS}: `alice`, `bob`).
 *   - `refreshTokens` (default true): issue a refresh token to every client allowed the
 *     `refresh_token` grant (no `offline_access` / `prompt=consent` dance needed);
 *     `rotateRefreshTokens` (default true): each refresh returns a new refresh token. Both can be
 *     changed later through `op.settings`.
 *   - `configuration`: more oidc-provider configuration, merged over the fixture's (shallow, `features` deep).
 * - `op.authorize(url, options?)` acts as the browser: follows redirects with a cookie jar, fills in the
 *   login page (`user`, default `"alice"`) or denies access (`deny: true`, or `{ error, error_description }`),
 *   and resolves the URL the OP sends the browser to at the `redirect_uri` (read from `url`) with the
 *   response parameters in its query — also for `response_mode=form_post`, whose posted fields it moves
 *   into the query. Pass the same `jar` (a {@link CookieJar}) to several calls to keep the OP session.
 *   It rejects when the OP shows an error page instead (e.g. an unregistered `redirect_uri`).
 * - The interaction pages are plain HTML forms (`GET /interaction/:uid`, posting `login` and
 *   `action=allow|deny` to the same URL), so a real browser (Playwright) can sign in too: fill `login`
 *   and press "Sign in" (or "Deny").
 * - `op.provider` is the oidc-provider instance; `op.users` can be changed between sign-ins.
 * - `op.close()` stops the server.
 *
 * The OP issues ID tokens with all granted claims (`conformIdTokenClaims: false`), sends `iss` in
 * authorization responses (RFC 9207), signs with an RS256 key generated once per test process, keeps its
 * state in memory, and does not require PKCE (so tests can check that the client enforces it). Codes live
 * 60 s, access tokens 1 h. On Node 20, importing oidc-provider prints "Unsupported runtime": harmless.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair } from "jose";
import type { OAuthConfig } from "../../src/providers/types.js";

/** Claims of a test account (besides `sub`, which is the account id). */
export type TestUserClaims = Record<string, unknown>;

/** The default accounts. */
export const DEFAULT_USERS: Record<string, TestUserClaims> = {
  alice: {
    email: "alice@example.com",
    email_verified: true,
    name: "Alice Liddell",
    given_name: "Alice",
    family_name: "Liddell",
    preferred_username: "alice",
    picture: "https://images.example.com/alice.png",
  },
  bob: {
    email: "Bob@Example.com",
    email_verified: true,
    name: "Bob Builder",
    preferred_username: "bob",
    picture: "https://images.example.com/bob.png",
  },
};

/** oidc-provider client metadata (see its docs); `client_id` is required. */
export type TestClientMetadata = { client_id: string } & Record<string, unknown>;

/** Options of {@link startTestOP}. */
export interface TestOPOptions {
  clients?: TestClientMetadata[];
  users?: Record<string, TestUserClaims>;
  refreshTokens?: boolean;
  rotateRefreshTokens?: boolean;
  configuration?: Record<string, unknown>;
}

/** Options of {@link TestOP.authorize}. */
export interface AuthorizeOptions {
  /** Account to sign in as. Default `"alice"`. */
  user?: string;
  /** Deny access at the login page: `true` gives `error=access_denied`. */
  deny?: boolean | { error: string; error_description?: string };
  /** Cookie jar of the user agent; default a fresh one (no OP session). */
  jar?: CookieJar;
  /** Where to stop; default the `redirect_uri` parameter of the authorization URL. */
  redirectUri?: string;
}

/** The minimal surface of oidc-provider this fixture uses (the package ships no types). */
export interface OidcProviderInstance {
  proxy: boolean;
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
  interactionFinished(req: IncomingMessage, res: ServerResponse, result: Record<string, unknown>, options?: object): Promise<void>;
  Grant: GrantConstructor;
}

export interface InteractionDetails {
  uid: string;
  prompt: { name: string; details: Record<string, unknown> };
  params: Record<string, unknown>;
  session?: { accountId?: string };
  grantId?: string;
}

export interface GrantInstance {
  addOIDCScope(scope: string): void;
  addOIDCClaims(claims: string[]): void;
  addResourceScope(indicator: string, scope: string): void;
  save(): Promise<string>;
}

export interface GrantConstructor {
  new (init: { accountId: string; clientId: string }): GrantInstance;
  find(id: string): Promise<GrantInstance | undefined>;
}

type OidcProviderConstructor = new (issuer: string, configuration: Record<string, unknown>) => OidcProviderInstance;

/** oidc-provider ships no type declarations: it is loaded by name and typed by the interfaces above. */
const OIDC_PROVIDER_MODULE = "oidc-provider";

async function loadOidcProvider(): Promise<OidcProviderConstructor> {
  const module = (await import(OIDC_PROVIDER_MODULE)) as { default: OidcProviderConstructor };
  return module.default;
}

/** What a running OP does with refresh tokens. */
export interface TestOPSettings {
  refreshTokens: boolean;
  rotateRefreshTokens: boolean;
}

let signingKeyPromise: Promise<Record<string, unknown>> | undefined;

/** The OP's RS256 signing key, generated once per test process (RSA key generation is slow). */
function opSigningKey(): Promise<Record<string, unknown>> {
  signingKeyPromise ??= generateKeyPair("RS256", { extractable: true }).then(async ({ privateKey }) => ({
    ...(await exportJWK(privateKey)),
    kid: "test-op-rs256",
    alg: "RS256",
    use: "sig",
  }));
  return signingKeyPromise;
}

/** A running test OP. */
export interface TestOP {
  /** `http://127.0.0.1:<port>` */
  issuer: string;
  port: number;
  provider: OidcProviderInstance;
  users: Record<string, TestUserClaims>;
  /** Refresh token behaviour; change it between tests. */
  settings: TestOPSettings;
  /** Signs in at the OP like a browser would and resolves the callback URL (see the module comment). */
  authorize(authorizationUrl: string | URL, options?: AuthorizeOptions): Promise<URL>;
  close(): Promise<void>;
}

/** A `private_key_jwt` client (its public key in `jwks`) and the private key the RP signs assertions with. */
export async function privateKeyJwtClient(
  metadata: TestClientMetadata,
): Promise<{ client: TestClientMetadata; privateKey: { key: CryptoKey; kid: string } }> {
  const { publicKey, privateKey } = await generateKeyPair("ES256");
  const kid = `${metadata.client_id}-key`;
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: "ES256", use: "sig" };
  return {
    client: { ...metadata, token_endpoint_auth_method: "private_key_jwt", token_endpoint_auth_signing_alg: "ES256", jwks: { keys: [jwk] } },
    privateKey: { key: privateKey, kid },
  };
}

/** A minimal cookie jar for one origin: names and values, honouring deletions. */
export class CookieJar {
  readonly #cookies = new Map<string, string>();

  /** Stores the `Set-Cookie` headers of a response. */
  store(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = header.split(";");
      const index = pair.indexOf("=");
      if (index < 1) continue;
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      const expired = attributes.some((attribute) => {
        const [key = "", val = ""] = attribute.trim().split("=");
        if (key.toLowerCase() === "max-age") return Number(val) <= 0;
        if (key.toLowerCase() === "expires") return Date.parse(val) <= Date.now();
        return false;
      });
      if (expired || value === "") this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
  }

  /** The `Cookie` request header. */
  header(): string {
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function unescapeHtml(value: string): string {
  return value
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
    .replace(/&#x([0-9a-f]+);/gi, (_, code: string) => String.fromCharCode(Number.parseInt(code, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

function loginPage(uid: string, prompt: string, clientId: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Test OP sign-in</title></head><body>
<h1>Sign in to ${escapeHtml(clientId)}</h1><p>Prompt: ${escapeHtml(prompt)}</p>
<form method="post" action="/interaction/${escapeHtml(uid)}">
<label>Account <input name="login" value="alice" autocomplete="username"></label>
<button type="submit" name="action" value="allow">Sign in</button>
<button type="submit" name="action" value="deny">Deny</button>
</form></body></html>`;
}

type Stored = Record<string, unknown> & { grantId?: string; userCode?: string; uid?: string; consumed?: number };

/** oidc-provider's storage, in memory (its built-in one works too, but warns on every start). */
function memoryAdapter(): new (model: string) => object {
  const store = new Map<string, { payload: Stored; expiresAt: number }>();
  return class MemoryAdapter {
    readonly #model: string;
    constructor(model: string) {
      this.#model = model;
    }
    #key(id: string): string {
      return `${this.#model}:${id}`;
    }
    async upsert(id: string, payload: Stored, expiresIn: number): Promise<void> {
      store.set(this.#key(id), { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : Number.POSITIVE_INFINITY });
    }
    async find(id: string): Promise<Stored | undefined> {
      const entry = store.get(this.#key(id));
      if (!entry || entry.expiresAt <= Date.now()) return undefined;
      return entry.payload;
    }
    async findByUid(uid: string): Promise<Stored | undefined> {
      for (const [key, entry] of store) if (key.startsWith(`${this.#model}:`) && entry.payload.uid === uid) return entry.payload;
      return undefined;
    }
    async findByUserCode(userCode: string): Promise<Stored | undefined> {
      for (const [key, entry] of store) if (key.startsWith(`${this.#model}:`) && entry.payload.userCode === userCode) return entry.payload;
      return undefined;
    }
    async consume(id: string): Promise<void> {
      const entry = store.get(this.#key(id));
      if (entry) entry.payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string): Promise<void> {
      store.delete(this.#key(id));
    }
    async revokeByGrantId(grantId: string): Promise<void> {
      for (const [key, entry] of store) if (entry.payload.grantId === grantId) store.delete(key);
    }
  };
}

/** Starts an OP on 127.0.0.1 (a free port). See the module comment. */
export async function startTestOP(options: TestOPOptions = {}): Promise<TestOP> {
  const users: Record<string, TestUserClaims> = { ...(options.users ?? DEFAULT_USERS) };
  let provider: OidcProviderInstance | undefined;

  async function handleInteraction(req: IncomingMessage, res: ServerResponse, op: OidcProviderInstance): Promise<void> {
    const details = await op.interactionDetails(req, res);
    const clientId = String(details.params.client_id ?? "");
    if (req.method === "GET") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
      res.end(loginPage(details.uid, details.prompt.name, clientId));
      return;
    }
    const form = await readForm(req);
    if (form.get("action") === "deny") {
      const error = form.get("error") ?? "access_denied";
      const description = form.get("error_description") ?? "The user denied access.";
      await op.interactionFinished(req, res, { error, error_description: description }, { mergeWithLastSubmission: false });
      return;
    }
    const accountId = details.session?.accountId ?? form.get("login") ?? "";
    if (!users[accountId]) {
      res.writeHead(400, { "content-type": "text/plain" });
      res.end(`unknown account: ${accountId}`);
      return;
    }
    const grant = (details.grantId ? await op.Grant.find(details.grantId) : undefined) ?? new op.Grant({ accountId, clientId });
    grant.addOIDCScope(String(details.params.scope ?? "openid"));
    if (typeof details.params.claims === "string") {
      const claims = JSON.parse(details.params.claims) as { id_token?: object; userinfo?: object };
      grant.addOIDCClaims([...Object.keys(claims.id_token ?? {}), ...Object.keys(claims.userinfo ?? {})]);
    }
    const missingResourceScopes = details.prompt.details.missingResourceScopes as Record<string, string[]> | undefined;
    for (const [indicator, scopes] of Object.entries(missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(" "));
    const grantId = await grant.save();
    await op.interactionFinished(req, res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
  }

  const server = createServer((req, res) => {
    if (!provider) {
      res.writeHead(503).end();
      return;
    }
    const op = provider;
    if (req.url?.startsWith("/interaction/")) {
      handleInteraction(req, res, op).catch((error: Error) => {
        if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
        res.end(`interaction failed: ${error.name}: ${error.message}`);
      });
      return;
    }
    op.callback()(req, res);
  });
  // Idle keep-alive sockets live longer than any pause of the test process (PGlite's start can block the
  // event loop for seconds): otherwise the server's 5 s close races fetch's reuse and a request meets ECONNRESET.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;

  const signingKey = await opSigningKey();
  const settings: TestOPSettings = {
    refreshTokens: options.refreshTokens ?? true,
    rotateRefreshTokens: options.rotateRefreshTokens ?? true,
  };
  const extra = options.configuration ?? {};

  const configuration: Record<string, unknown> = {
    adapter: memoryAdapter(),
    clients: options.clients ?? [],
    clientDefaults: {
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_basic",
      id_token_signed_response_alg: "RS256",
    },
    jwks: { keys: [signingKey] },
    cookies: { keys: [crypto.randomUUID()] },
    claims: {
      openid: ["sub"],
      email: ["email", "email_verified"],
      profile: ["name", "given_name", "family_name", "preferred_username", "nickname", "picture", "locale"],
    },
    conformIdTokenClaims: false,
    findAccount: async (_ctx: unknown, id: string) => {
      const claims = users[id];
      if (!claims) return undefined;
      return { accountId: id, claims: async () => ({ ...claims, sub: id }) };
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) =>
      settings.refreshTokens && client.grantTypeAllowed("refresh_token"),
    rotateRefreshToken: () => settings.rotateRefreshTokens,
    pkce: { required: () => false },
    renderError: (ctx: { type: string; body: string }, out: Record<string, string>) => {
      ctx.type = "html";
      ctx.body = `<!doctype html><title>OP error</title><h1>${escapeHtml(out.error ?? "error")}</h1><p>${escapeHtml(out.error_description ?? "")}</p>`;
    },
    ttl: {
      AccessToken: 3600,
      AuthorizationCode: 60,
      IdToken: 3600,
      RefreshToken: 86400,
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
    },
    ...extra,
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      ...(extra.features as object | undefined),
    },
  };
  const OidcProvider = await loadOidcProvider();
  provider = new OidcProvider(issuer, configuration);
  provider.proxy = false;

  async function authorize(authorizationUrl: string | URL, authorizeOptions: AuthorizeOptions = {}): Promise<URL> {
    let url = new URL(authorizationUrl);
    const redirectUri = authorizeOptions.redirectUri ?? url.searchParams.get("redirect_uri");
    if (!redirectUri) throw new Error("authorize(): the authorization URL has no redirect_uri; pass options.redirectUri.");
    const jar = authorizeOptions.jar ?? new CookieJar();
    let method = "GET";
    let body: URLSearchParams | undefined;
    for (let step = 0; step < 20; step++) {
      if (`${url.origin}${url.pathname}` === redirectUri.split("?")[0]) return url;
      if (url.origin !== issuer) throw new Error(`authorize(): redirected away from the OP to ${url.origin}${url.pathname}`);
      const response = await fetch(url, { method, body, redirect: "manual", headers: { cookie: jar.header() } });
      jar.store(response);
      const location = response.headers.get("location");
      if (response.status >= 300 && response.status < 400 && location) {
        url = new URL(location, url);
        method = "GET";
        body = undefined;
        continue;
      }
      const html = await response.text();
      if (response.status === 200 && url.pathname.startsWith("/interaction/") && method === "GET") {
        const deny = authorizeOptions.deny;
        body = new URLSearchParams(
          deny
            ? { action: "deny", ...(typeof deny === "object" ? deny : {}) }
            : { action: "allow", login: authorizeOptions.user ?? "alice" },
        );
        method = "POST";
        continue;
      }
      const formAction = /<form[^>]*method="post"[^>]*action="([^"]+)"/i.exec(html)?.[1];
      if (response.status === 200 && formAction && unescapeHtml(formAction).startsWith(redirectUri)) {
        const callback = new URL(unescapeHtml(formAction));
        for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\s*\/?>/g)) {
          callback.searchParams.append(unescapeHtml(match[1] ?? ""), unescapeHtml(match[2] ?? ""));
        }
        return callback;
      }
      throw new Error(`authorize(): the OP answered ${response.status} at ${url.pathname}: ${html.replace(/<[^>]+>/g, " ").slice(0, 300)}`);
    }
    throw new Error("authorize(): too many redirects");
  }

  return {
    issuer,
    port,
    provider,
    users,
    settings,
    authorize,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** The relying-party side of the fixture's default client `app`: an OIDC provider with id `op`. */
export function opProvider(op: Pick<TestOP, "issuer">, overrides: Partial<OAuthConfig> = {}): OAuthConfig {
  return { id: "op", name: "Test OP", type: "oidc", issuer: op.issuer, clientId: "app", clientSecret: "app-secret", ...overrides };
}
