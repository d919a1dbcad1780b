/**
 * Secrets stay out of logs. Full flows run with `debug: true` — credentials (right, wrong, crashing),
 * session read and update, sign-out, an OIDC sign-in at a real OpenID Provider with an access-token
 * refresh (and a failed one) and a replayed code, an email link read from a real SMTP server (and
 * replayed), a tampered session cookie — once with a logger that records everything it is handed
 * (inspected in depth, causes included) and once with the built-in console logger, while console is
 * captured throughout. None of the OAuth code, the access, refresh and ID tokens, the secret and the keys
 * derived from it, the client secret, the password, the email token, or any cookie value may appear in
 * the captured text, raw or URL-, base64- or base64url-encoded.
 */
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { deriveEncryptionKey } from "../src/crypto/derive-key.js";
import { decode, encode } from "../src/jwt.js";
import Credentials from "../src/providers/credentials.js";
import Nodemailer from "../src/providers/nodemailer.js";
import { memoryRateLimitStore } from "../src/rate-limit/store.js";
import type { Account, AuthConfig, LoggerInstance } from "../src/types.js";
import { authClient } from "./helpers/auth-client.js";
import { closeSharedPglite, freshDatabase } from "./helpers/database.js";
import { opProvider, startTestOP, type TestOP } from "./helpers/oidc-provider.js";
import { startSmtpServer } from "./helpers/smtp.js";

const ORIGIN = "http://localhost:3000";
const secret = "log-secrets-auth-secret-0123456789abcdef";
const clientSecret = "log-secrets-client-secret-9876543210";
const password = "correct horse battery staple";
const SESSION = "authlib.session-token";

let op: TestOP;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

beforeAll(async () => {
  [op, smtp] = await Promise.all([
    startTestOP({ clients: [{ client_id: "app", client_secret: clientSecret, redirect_uris: [`${ORIGIN}/auth/callback/op`] }] }),
    startSmtpServer(),
  ]);
}, 120_000);
afterAll(async () => {
  await Promise.all([op?.close(), smtp?.close()]);
  await closeSharedPglite();
});

/** Everything a logger is handed, as text: strings as they are, anything else inspected in depth (causes too). */
function asText(args: unknown[]): string {
  return args.map((arg) => (typeof arg === "string" ? arg : inspect(arg, { depth: 10, breakLength: Number.POSITIVE_INFINITY }))).join(" ");
}

/** A logger that records every call at every level. */
function recordingLogger(lines: string[]): LoggerInstance {
  return {
    error: (error) => void lines.push(asText([error])),
    warn: (code) => void lines.push(asText([code])),
    debug: (message, metadata) => void lines.push(asText([message, metadata])),
  };
}

/** The secrets one run of the flows handled. */
class Secrets {
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

/** Runs every flow with `logger` (undefined: the built-in one) and `debug: true`; returns what it handled. */
async function runFlows(logger: LoggerInstance | undefined): Promise<Secrets> {
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
    logger,
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

/** Captures console.* while `run` runs. */
async function withConsoleCaptured<T>(lines: string[], run: () => Promise<T>): Promise<T> {
  const spies = (["log", "info", "warn", "error", "debug", "trace"] as const).map((level) =>
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void lines.push(asText(args))),
  );
  try {
    return await run();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

function expectNoSecret(lines: string[], secrets: Secrets): void {
  const all = lines.join("\n");
  for (const needle of secrets.needles()) {
    if (all.includes(needle)) throw new Error(`a secret reached the logs: ${JSON.stringify(needle.slice(0, 8))}…`);
  }
}

describe("secrets never reach the logs", () => {
  it("a logger given every level, inspected in depth, and console", async () => {
    const logged: string[] = [];
    const printed: string[] = [];
    const secrets = await withConsoleCaptured(printed, () => runFlows(recordingLogger(logged)));
    // The flows logged: errors (wrong password, crash, replays, failed refresh) and debug lines.
    expect(logged.length).toBeGreaterThan(10);
    expect(logged.some((line) => line.includes("CredentialsSignin"))).toBe(true);
    expect(logged.some((line) => line.includes("Verification"))).toBe(true);
    expect(secrets.values.size).toBeGreaterThan(20);
    expectNoSecret([...logged, ...printed], secrets);
  });

  it("the built-in console logger", async () => {
    const printed: string[] = [];
    const secrets = await withConsoleCaptured(printed, () => runFlows(undefined));
    expect(printed.some((line) => line.startsWith("[authlib][debug]"))).toBe(true);
    expect(printed.some((line) => line.startsWith("[authlib][error]"))).toBe(true);
    expectNoSecret(printed, secrets);
  });
});
