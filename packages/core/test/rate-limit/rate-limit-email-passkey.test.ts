/**
 * Rate limits on sign-in mails (per delivery mailbox and per client address, counted with a real SMTP
 * server's received mails) and on passkey routes (per client address), through `Auth()` with the
 * hosted-db adapter on PGlite.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Nodemailer from "../../src/providers/nodemailer.js";
import Passkey from "../../src/providers/passkey.js";
import type { RateLimitConfig } from "../../src/rate-limit/config.js";
import { memoryRateLimitStore } from "../../src/rate-limit/store.js";
import type { AuthConfig } from "../../src/types/config.js";
import { authClient } from "../helpers/auth-client.js";
import { closeSharedPglite, freshDatabase, sharedPglite } from "../helpers/database.js";
import { startSmtpServer } from "../helpers/smtp.js";

const secret = "rate-limit-email-secret-0123456789abcdef";
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

beforeAll(async () => {
  smtp = await startSmtpServer();
  await sharedPglite().waitReady;
});
afterAll(async () => {
  await smtp.close();
  await closeSharedPglite();
});

async function emailApp(rateLimit: RateLimitConfig, providerRateLimit?: Record<string, unknown> | false) {
  const db = await freshDatabase();
  const warnings: string[] = [];
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter: db.adapter,
    providers: [
      Nodemailer({
        server: smtp.transport,
        from: "Demo <no-reply@demo.test>",
        ...(providerRateLimit === undefined ? {} : { rateLimit: providerRateLimit }),
      }),
    ],
    rateLimit: { store: memoryRateLimitStore(), ...rateLimit },
    logger: { warn: (code) => void warnings.push(code), error: () => {} },
  };
  return { config, warnings };
}

/** Asks for a sign-in link for `email` from `address`; returns where the browser was sent. */
async function requestLink(config: AuthConfig, email: string, address: string) {
  const client = authClient(config, "http://localhost:3000", address);
  const csrfToken = await client.csrf();
  const response = await client.send("/auth/signin/nodemailer", { form: { csrfToken, email, callbackUrl: "/" } });
  const location = new URL(response.headers.get("location") ?? "");
  return location.searchParams.get("error") ?? location.pathname;
}

/** Mails received for `recipient` since the test began (the SMTP server is shared by the file). */
function mailsTo(recipient: string, since: number) {
  return smtp.mails.slice(since).filter((mail) => JSON.stringify(mail.to).toLowerCase().includes(recipient.toLowerCase()));
}

describe("sign-in mails", () => {
  it("Bomb+1@Gmail.com, b.o.m.b@googlemail.com and bomb+x@gmail.com share one mailbox's count", async () => {
    const { config, warnings } = await emailApp({ email: { mailboxMax: 2 } });
    const before = smtp.mails.length;
    // Different client addresses, so only the mailbox limit can refuse.
    expect(await requestLink(config, "Bomb+1@Gmail.com", "192.0.2.1")).toBe("/auth/verify-request");
    expect(await requestLink(config, "b.o.m.b@googlemail.com", "192.0.2.2")).toBe("/auth/verify-request");
    expect(await requestLink(config, "bomb+x@gmail.com", "192.0.2.3")).toBe("RateLimited");
    expect(smtp.mails.length - before).toBe(2);
    expect(mailsTo("bomb+1@gmail.com", before)).toHaveLength(1);
    expect(mailsTo("bomb+x@gmail.com", before)).toHaveLength(0);
    // Another mailbox is not affected.
    expect(await requestLink(config, "someone.else@gmail.com", "192.0.2.4")).toBe("/auth/verify-request");
    expect(warnings).toEqual(["rate-limited"]);
  });

  it("limits requests per client address, whatever the mailbox", async () => {
    const { config } = await emailApp({ email: { clientMax: 2 } });
    const before = smtp.mails.length;
    expect(await requestLink(config, "a1@example.com", "198.51.100.1")).toBe("/auth/verify-request");
    expect(await requestLink(config, "a2@example.com", "198.51.100.1")).toBe("/auth/verify-request");
    expect(await requestLink(config, "a3@example.com", "198.51.100.1")).toBe("RateLimited");
    expect(await requestLink(config, "a3@example.com", "198.51.100.2")).toBe("/auth/verify-request");
    expect(smtp.mails.length - before).toBe(3);
  });

  it("the provider's own rateLimit overrides the per-mailbox limit, and false switches it off for that provider", async () => {
    const strict = await emailApp({}, { max: 1, windowSeconds: 60 });
    expect(await requestLink(strict.config, "one@example.com", "192.0.2.10")).toBe("/auth/verify-request");
    expect(await requestLink(strict.config, "One+2@example.com", "192.0.2.11")).toBe("RateLimited");

    const off = await emailApp({ email: { mailboxMax: 1 } }, false);
    for (let i = 0; i < 3; i++) expect(await requestLink(off.config, "many@example.com", `192.0.2.${20 + i}`)).toBe("/auth/verify-request");
  });
});

describe("passkeys", () => {
  async function passkeyApp() {
    const db = await freshDatabase();
    const config: AuthConfig = {
      secret,
      trustHost: true,
      adapter: db.adapter,
      providers: [Passkey()],
      experimental: { enableWebAuthn: true },
      rateLimit: { passkey: { max: 2, windowSeconds: 60 } },
      logger: { warn: () => {}, error: () => {} },
    };
    return config;
  }

  it("options answer 429 with Retry-After past the per-client limit; the callback goes to the sign-in page with RateLimited", async () => {
    const config = await passkeyApp();
    const client = authClient(config, "http://localhost:3000", "203.0.113.5");
    const options = () => client.send("/auth/webauthn-options/passkey?action=authenticate");
    expect((await options()).status).toBe(200);
    expect((await options()).status).toBe(200);
    const refused = await options();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ error: "RateLimited" });

    const csrfToken = await client.csrf();
    const callback = await client.send("/auth/callback/passkey", { json: { action: "authenticate", data: "{}", csrfToken } });
    expect(callback.headers.get("location")).toBe("http://localhost:3000/auth/signin?error=RateLimited");

    // Another client is not affected.
    const other = authClient(config, "http://localhost:3000", "203.0.113.6");
    expect((await other.send("/auth/webauthn-options/passkey?action=authenticate")).status).toBe(200);
  });
});
