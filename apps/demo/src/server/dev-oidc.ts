/**
 * The demo's own OpenID Provider (`oidc-provider`), started with the app so that "Sign in with Demo
 * OpenID Provider" works without an account anywhere. One client (the demo), a login page where any
 * username signs in, signing keys generated at every start, everything kept in memory.
 */
import { generateKeyPair, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import Provider from "oidc-provider";
import { errorPage, loginPage } from "./dev-oidc-pages";
import { memoryOidcStorage } from "./dev-oidc-store";

/** Options of {@link startDevOidcProvider}. */
export interface DevOidcOptions {
  /** Interface to listen on. Default `127.0.0.1`. */
  host?: string;
  /** Port to listen on; `0` picks a free one. */
  port: number;
  /** Host name in the issuer URL, the one the browser is sent to. Default `localhost`. */
  publicHost?: string;
  /** The demo's callback URLs (`<origin>/auth/callback/<provider id>`): the only redirect URIs the OP accepts. */
  redirectUris: string[];
}

/** A running development OP. */
export interface DevOidcProvider {
  /** `http://localhost:<port>`: discovery at `<issuer>/.well-known/openid-configuration`. */
  readonly issuer: string;
  /** The demo's client id. */
  readonly clientId: string;
  /** The demo's client secret, generated at start. */
  readonly clientSecret: string;
  /** Stops the server. */
  close(): Promise<void>;
}

/** The demo's client id at its OP. */
export const DEV_OIDC_CLIENT_ID = "authlib-demo";

/** Account ids: what can become an email's local part without surprises. */
const ACCOUNT_ID = /^[a-z0-9][a-z0-9._-]{0,39}$/;

/**
 * The account id of a typed username: lower-cased, accents dropped, every run of other characters
 * turned into one dash, at most 40 characters ("Ada Lovelace" becomes `ada-lovelace`). `undefined` when
 * nothing is left.
 */
export function devOidcAccountId(username: string): string | undefined {
  const id = username
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^[._-]+/, "")
    .slice(0, 40)
    .replace(/[._-]+$/, "");
  return ACCOUNT_ID.test(id) ? id : undefined;
}

/** The claims of a user of the dev OP: made up from the username. */
export function devOidcClaims(username: string): Record<string, unknown> {
  const name = username
    .split(/[._-]+/)
    .filter(Boolean)
    .map((part) => part[0]?.toUpperCase() + part.slice(1))
    .join(" ");
  return { sub: username, email: `${username}@example.com`, email_verified: true, name, preferred_username: username };
}

/** An RS256 signing key (JWK with its private part), new at every start. */
async function generateSigningKey(): Promise<Record<string, unknown>> {
  const { privateKey } = await promisify(generateKeyPair)("rsa", { modulusLength: 2048 });
  return { ...privateKey.export({ format: "jwk" }), kid: `demo-${randomBytes(4).toString("hex")}`, alg: "RS256", use: "sig" };
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 16_384) throw new Error("The form is too large.");
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
  res.end(html);
}

/** The login page (GET) and its submission (POST): the user signs in and grants the scopes in one step. */
async function handleInteraction(provider: Provider, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  const clientId = String(details.params.client_id ?? "");
  if (req.method !== "POST") {
    sendHtml(res, 200, loginPage({ uid: details.uid, clientId }));
    return;
  }
  const form = await readForm(req);
  if (form.get("action") === "deny") {
    const result = { error: "access_denied", error_description: "The user denied access." };
    await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
    return;
  }
  const typed = form.get("login") ?? "";
  const username = devOidcAccountId(typed);
  if (!username) {
    const error = "Type a username with at least one letter or digit.";
    sendHtml(res, 400, loginPage({ uid: details.uid, clientId, username: typed, error }));
    return;
  }
  // A new grant every time: the username may differ from the one of the OP's last session.
  const grant = new provider.Grant({ accountId: username, clientId });
  grant.addOIDCScope(String(details.params.scope ?? "openid"));
  const grantId = await grant.save();
  await provider.interactionFinished(
    req,
    res,
    { login: { accountId: username }, consent: { grantId } },
    { mergeWithLastSubmission: false },
  );
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Starts the development OP. Rejects when the port is taken. */
export async function startDevOidcProvider(options: DevOidcOptions): Promise<DevOidcProvider> {
  const clientSecret = randomBytes(24).toString("base64url");
  let handle: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  let provider: Provider | undefined;

  const server = createServer((req, res) => {
    if (!provider || !handle) {
      res.writeHead(503).end();
      return;
    }
    if (!req.url?.startsWith("/interaction/")) {
      handle(req, res);
      return;
    }
    handleInteraction(provider, req, res).catch((error: unknown) => {
      // An expired or unknown interaction: the user starts the sign-in again from the demo.
      const message = error instanceof Error ? error.message : String(error);
      if (!res.headersSent) sendHtml(res, 400, errorPage("The sign-in could not go on", message));
      else res.end();
    });
  });
  const port = await listen(server, options.port, options.host ?? "127.0.0.1");
  const issuer = `http://${options.publicHost ?? "localhost"}:${port}`;

  try {
    provider = new Provider(issuer, {
      adapter: memoryOidcStorage(),
      clients: [
        {
          client_id: DEV_OIDC_CLIENT_ID,
          client_secret: clientSecret,
          client_name: "authlib demo",
          redirect_uris: options.redirectUris,
          grant_types: ["authorization_code"],
          response_types: ["code"],
          token_endpoint_auth_method: "client_secret_basic",
          id_token_signed_response_alg: "RS256",
        },
      ],
      jwks: { keys: [await generateSigningKey()] },
      cookies: { keys: [randomBytes(32).toString("base64url")] },
      claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "preferred_username"] },
      // Otherwise the ID token of the code flow carries only `sub`, and the demo shows no name or email.
      conformIdTokenClaims: false,
      findAccount: (_ctx: unknown, id: string) =>
        ACCOUNT_ID.test(id) ? { accountId: id, claims: async () => devOidcClaims(id) } : undefined,
      interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
      features: { devInteractions: { enabled: false } },
      pkce: { required: () => true },
      renderError: (ctx: { type: string; body: string }, out: Record<string, string | undefined>) => {
        ctx.type = "html";
        ctx.body = errorPage(out.error ?? "error", out.error_description ?? "");
      },
      ttl: { AccessToken: 3600, AuthorizationCode: 60, IdToken: 3600, Interaction: 600, Session: 3600, Grant: 3600 },
    });
    provider.proxy = false;
    handle = provider.callback();
  } catch (error) {
    server.close();
    throw error;
  }

  return {
    issuer,
    clientId: DEV_OIDC_CLIENT_ID,
    clientSecret,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
