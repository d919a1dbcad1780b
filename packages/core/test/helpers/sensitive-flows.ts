/**
 * The flows whose secrets must stay out of logs and telemetry: credentials (right, wrong, crashing),
 * session read and update, sign-out, a tampered session cookie, an OIDC sign-in at a real OpenID Provider
 * with an access-token refresh (and a failed one) and a replayed code, an email link read from a real
 * SMTP server (and replayed). Every secret and cookie value they handle is collected, with the keys
 * derived from the secret, so a test can look for each in what it captured.
 */

import { expect } from "vitest";
import { deriveEncryptionKey } from "../../src/crypto/derive-key.js";
import { decode, encode } from "../../src/jwt.js";
import Credentials from "../../src/providers/credentials.js";
import Nodemailer from "../../src/providers/nodemailer.js";
import { memoryRateLimitStore } from "../../src/rate-limit/store.js";
import type { Account, AuthConfig } from "../../src/types/config.js";
import { authClient } from "./auth-client.js";
import { freshDatabase } from "./database.js";
import { opProvider, startTestOP, type TestOP } from "./oidc-provider.js";
import { startSmtpServer } from "./smtp.js";

const ORIGIN = "http://localhost:3000";
const secret = "log-secrets-auth-secret-0123456789abcdef";
const clientSecret = "log-secrets-client-secret-9876543210";
const password = "correct horse battery staple";
const SESSION = "authlib.session-token";

/**
 * Audit rows the flows leave, as `[type, outcome, provider, detail]` (among others): a refused and an
 * accepted credentials sign-in, a sign-out, the OIDC sign-in with its account link and its replayed code,
 * the email link.
 */
export const FLOW_AUDIT_ROWS: ReadonlyArray<readonly [string, string, string | null, string | null]> = [
  ["signInFailed", "failure", "credentials", "CredentialsSignin"],
  ["signIn", "success", "credentials", null],
  ["signOut", "success", null, null],
  ["linkAccount", "success", "op", null],
  ["signIn", "success", "op", null],
  ["signInFailed", "failure", "op", "InvalidCheck"],
  ["signIn", "success", "nodemailer", null],
];

/** The secrets one run of the flows handled. */
export class Secrets {
  readonly values = new Set<string>();

  add(value: unknown): void {
    if (typeof value !== "string" || value.length < 12) return;
    this.values.add(value);
    // A JWT/JWE is also recognisable by any of its longer parts (a logged ciphertext, a signature).
    for (const part of value.split(/[.|]/)) if (part.length >= 16 && part !== value) this.values.add(part);
  }

  /** Every secret and its encoded forms. */
  needles(): string[] {
    return [...this.values].flatMap((value) => {
      const bytes = Buffer.from(value);
      return [value, encodeURIComponent(value), bytes.toString("base64url"), bytes.toString("base64")];
    });
  }
}

type Client = ReturnType<typeof authClient>;

/** A client whose every received cookie value is recorded as a secret. */
function recordedClient(config: AuthConfig, secrets: Secrets): Client {
  const client = authClient(config);
  const send: Client["send"] = async (path, init) => {
    const response = await client.send(path, init);
    for (const cookie of response.setCookies) secrets.add(cookie.value);
    return response;
  };
  return { ...client, send, csrf: () => csrfOf(send), session: () => sessionOf(send) };
}

async function csrfOf(send: Client["send"]): Promise<string> {
  return ((await (await send("/auth/csrf")).json()) as { csrfToken: string }).csrfToken;
}

async function sessionOf(send: Client["send"]) {
  return (await (await send("/auth/session")).json()) as Record<string, any> | null;
}

/** The OpenID Provider and the SMTP server the flows use: start once per file, close at its end. */
export interface FlowServices {
  op: TestOP;
  smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  /** Stops both. */
  close(): Promise<void>;
}

/** Starts the flows' OpenID Provider (its client `app`) and SMTP server on loopback. */
export async function startFlowServices(): Promise<FlowServices> {
  const [op, smtp] = await Promise.all([
    startTestOP({ clients: [{ client_id: "app", client_secret: clientSecret, redirect_uris: [`${ORIGIN}/auth/callback/op`] }] }),
    startSmtpServer(),
  ]);
  return { op, smtp, close: async () => void (await Promise.all([op.close(), smtp.close()])) };
}

/**
 * Runs every flow with `debug: true` and `overrides` on the configuration (a `logger`, `telemetry`, …);
 * returns every secret and cookie value it handled.
 */
export async function runFlows({ op, smtp }: FlowServices, overrides: Partial<AuthConfig> = {}): Promise<Secrets> {
  const secrets = new Secrets();
  secrets.add(secret);
  secrets.add(clientSecret);
  secrets.add(password);
  for (const salt of [SESSION, "authlib.state", "authlib.pkce.code_verifier", "authlib.nonce", "authlib.challenge", "encodedState"]) {
    for (const enc of ["A256CBC-HS512", "A256GCM"] as const) {
      const { key } = await deriveEncryptionKey(enc, secret, salt);
      secrets.add(Buffer.from(key).toString("hex"));
      secrets.add(Buffer.from(key).toString("base64url"));
    }
  }
  const db = await freshDatabase();
  const config: AuthConfig = {
    secret,
    trustHost: true,
    debug: true,
    adapter: db.adapter,
    session: { strategy: "jwt" },
    providers: [
      Credentials({
        credentials: { username: {}, password: { type: "password" } },
        authorize: (credentials) => {
          if (credentials.username === "crash") throw new Error("user store unavailable");
          return credentials.username === "ada" && credentials.password === password ? { id: "ada", name: "Ada" } : null;
        },
      }),
      opProvider(op, { clientSecret, refreshAccessToken: true }),
      Nodemailer({ server: smtp.transport, from: "no-reply@demo.test", rateLimit: { store: memoryRateLimitStore() } }),
    ],
    callbacks: {
      jwt({ token, account }) {
        for (const key of ["access_token", "refresh_token", "id_token"] as const) secrets.add((account as Account | null)?.[key]);
        return token;
      },
    },
    ...overrides,
  };

  // Credentials: right, wrong, crashing; then session read, update and sign-out.
  const client = recordedClient(config, secrets);
  const csrfToken = await client.csrf();
  for (const username of ["nobody", "crash", "ada"]) {
    await client.send("/auth/callback/credentials", { form: { csrfToken, username, password, callbackUrl: "/home" } });
  }
  expect((await client.session())?.user.name).toBe("Ada");
  await client.send("/auth/session", { json: { csrfToken, data: { name: "Ada L." } } });
  await client.send("/auth/signout", { form: { csrfToken } });
  const tampered = `${[...secrets.values].find((v) => v.split(".").length === 5)?.slice(0, -4)}AAAA`;
  await client.send("/auth/session", { headers: { cookie: `${SESSION}=${tampered}` } });

  // OIDC at the real OP, a refresh, a failed refresh, a replayed code.
  const oidc = recordedClient(config, secrets);
  const start = await oidc.send("/auth/signin/op", { form: { csrfToken: await oidc.csrf(), callbackUrl: "/" } });
  const callback = await op.authorize(start.headers.get("location") as string);
  secrets.add(callback.searchParams.get("code"));
  secrets.add(callback.searchParams.get("state"));
  secrets.add(new URL(start.headers.get("location") as string).searchParams.get("nonce"));
  await oidc.send(callback.pathname + callback.search);
  expect((await oidc.session())?.user.email).toBe("alice@example.com");
  for (const forged of [undefined, `forged-refresh-token-${crypto.randomUUID()}`]) {
    const payload = (await decode({ token: oidc.jar.get(SESSION), secret, salt: SESSION })) as Record<string, any>;
    payload.oauth.expires_at = Math.floor(Date.now() / 1000) - 10;
    if (forged) payload.oauth.refresh_token = forged;
    secrets.add(forged);
    const { iat: _iat, exp: _exp, jti: _jti, ...rest } = payload;
    const expired = await encode({ token: rest, secret, salt: SESSION });
    secrets.add(expired);
    oidc.jar.cookies.set(SESSION, { name: SESSION, value: expired, attributes: {} });
    await oidc.session();
    const refreshed = (await decode({ token: oidc.jar.get(SESSION), secret, salt: SESSION })) as Record<string, any>;
    for (const key of ["access_token", "refresh_token"]) secrets.add(refreshed.oauth?.[key]);
  }
  await recordedClient(config, secrets).send(callback.pathname + callback.search);

  // Email: a link from the real SMTP server, used, then replayed.
  const email = recordedClient(config, secrets);
  const address = `mail-${crypto.randomUUID().slice(0, 8)}@example.com`;
  await email.send("/auth/signin/nodemailer", { form: { csrfToken: await email.csrf(), email: address, callbackUrl: "/" } });
  const mail = smtp.mails.find((m) => (m.to as { text: string } | undefined)?.text === address);
  const link = mail?.text?.match(/http:\/\/localhost:3000\/auth\/callback\/nodemailer\?\S+/)?.[0] as string;
  secrets.add(new URL(link).searchParams.get("token"));
  await email.send(link);
  expect((await email.session())?.user.email).toBe(address);
  await email.send(link);
  return secrets;
}
