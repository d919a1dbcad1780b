import { type AddressInfo, createServer as createNetServer, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { normalizeEmail } from "../../src/address/normalize.js";
import { AuthError } from "../../src/errors.js";
import Nodemailer, { SMTP_TIMEOUTS, withSmtpTimeouts } from "../../src/providers/nodemailer.js";
import { memoryRateLimitStore } from "../../src/rate-limit/store.js";
import type { AuthConfig } from "../../src/types/config.js";
import { authClient } from "../helpers/auth-client.js";
import { closeSharedPglite, freshDatabase } from "../helpers/database.js";
import { startHangUpServer, startSmtpServer } from "../helpers/smtp.js";

const secret = "email-test-secret-0123456789abcdef";
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await smtp.close();
  await closeSharedPglite();
});

async function setup(providerOptions: Record<string, unknown> = {}, configOverrides: Partial<AuthConfig> = {}) {
  const db = await freshDatabase();
  const events: string[] = [];
  const logs: string[] = [];
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter: db.adapter,
    providers: [
      Nodemailer({
        server: smtp.transport,
        from: "Demo <no-reply@demo.test>",
        rateLimit: { store: memoryRateLimitStore() },
        ...providerOptions,
      }),
    ],
    events: {
      createUser: ({ user }) => void events.push(`createUser ${user.email}`),
      updateUser: ({ user }) => void events.push(`updateUser ${user.email}`),
      signIn: ({ user, isNewUser }) => void events.push(`signIn ${user.email} new=${isNewUser}`),
    },
    // `logs`: every failure at its level (src/http/log-level.ts): a fault at error; a user's refusal (a used or
    // expired link) at debug, its line with its cause.
    debug: true,
    logger: {
      error: (e) => logs.push(`${e.name}: ${e.message} ${String(e.cause?.err ?? "")}`),
      warn: (code) => void (code === "debug-enabled" || logs.push(`warn ${code}`)),
      debug: (line, metadata) => void ((metadata as { type?: string } | undefined)?.type && logs.push(`debug ${line}`)),
    },
    ...configOverrides,
  };
  return { ...db, database: db.client, config, events, logs, client: authClient(config) };
}

async function requestLink(client: ReturnType<typeof authClient>, email: string, callbackUrl = "/welcome") {
  const csrfToken = await client.csrf();
  return client.send("/auth/signin/nodemailer", { form: { csrfToken, email, callbackUrl } });
}

/** How many verification tokens for `identifier` are stored (a failed send must leave none). */
async function storedTokens(database: Awaited<ReturnType<typeof setup>>["database"], identifier: string): Promise<number> {
  const { rows } = await database.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM ${database.db.authlib_verificationTokens.sqlName} WHERE "identifier" = $1`,
    [identifier],
  );
  return rows[0]?.count ?? Number.NaN;
}

function linkFrom(mailIndex = -1) {
  const mail = smtp.mails.at(mailIndex);
  const match = mail?.text?.match(/http:\/\/localhost:3000\/auth\/callback\/nodemailer\?\S+/);
  if (!match) throw new Error("no sign-in link in the mail");
  return match[0];
}

describe("email sign-in against a real SMTP server", () => {
  it("sends a link, signs in by following it, and refuses the second click", async () => {
    const { client, events } = await setup();
    const before = smtp.mails.length;
    const response = await requestLink(client, "  Grace@Example.COM ");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("http://localhost:3000/auth/verify-request?provider=nodemailer&type=email");
    expect(smtp.mails.length).toBe(before + 1);
    const mail = smtp.mails.at(-1)!;
    expect(mail.subject).toBe("Sign in to localhost:3000");
    expect((mail.to as { text: string }).text).toBe("grace@example.com");
    expect(mail.html).toContain("localhost:3000");

    const link = linkFrom();
    expect(new URL(link).searchParams.get("email")).toBe("grace@example.com");
    const signedIn = await client.send(link);
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("location")).toBe("http://localhost:3000/welcome");
    const session = await client.session();
    expect(session?.user.email).toBe("grace@example.com");
    expect(events).toEqual(["createUser grace@example.com", "signIn grace@example.com new=true"]);

    // The flow is over in this browser: the link opens its confirmation page, whose button is refused.
    const replay = await client.openEmailLink(link);
    expect(replay.headers.get("location")).toBe("http://localhost:3000/auth/error?error=Verification");
  });

  it("stores only a hash of the token", async () => {
    const { client, adapter } = await setup();
    await requestLink(client, "hash@example.com");
    const token = new URL(linkFrom()).searchParams.get("token")!;
    // Using the raw token directly as the stored value must not work.
    expect(await adapter.useVerificationToken!({ identifier: "hash@example.com", token })).toBeNull();
  });

  it("an existing user with a proven address is signed in again and not created again", async () => {
    const { client, events, adapter } = await setup();
    const proven = new Date(Date.now() - 86_400_000);
    const existing = await adapter.createUser!({ id: crypto.randomUUID(), email: "old@example.com", emailVerified: proven, name: "Old" });
    await requestLink(client, "old@example.com");
    await client.send(linkFrom());
    expect((await client.session())?.user.name).toBe("Old");
    expect((await adapter.getUser!(existing.id))?.emailVerified?.valueOf()).toBeGreaterThan(proven.valueOf());
    expect(events).toEqual(["updateUser old@example.com", "signIn old@example.com new=false"]);
  });

  // Changed with issue 12: an unproven holder used to be entered (bare user) or to lock the owner out
  // (passkey user, AccountNotLinked). Now proof wins: the address moves to the person who proved it.
  it("proof wins: an unproven holder (bare, or with a passkey) loses the address to the email-link prover; nothing else is deleted", async () => {
    const { client, adapter, events, config } = await setup();
    const bare = await adapter.createUser!({ id: crypto.randomUUID(), email: "old@example.com", emailVerified: null, name: "Old" });
    await requestLink(client, "old@example.com");
    await client.send(linkFrom());
    const prover = await adapter.getUserByEmail!("old@example.com");
    expect(prover?.id).not.toBe(bare.id);
    expect(prover?.emailVerified).toBeInstanceOf(Date);
    expect((await adapter.getUser!(bare.id))?.email).toBeNull();
    expect(events).toEqual(["updateUser null", "createUser old@example.com", "signIn old@example.com new=true"]);

    const squatter = await adapter.createUser!({
      id: crypto.randomUUID(),
      email: "owner@example.com",
      emailVerified: null,
      name: "Squatter",
    });
    await adapter.linkAccount!({ userId: squatter.id, type: "webauthn", provider: "passkey", providerAccountId: "cred-1" });
    await adapter.createAuthenticator!({
      credentialID: "cred-1",
      userId: squatter.id,
      providerAccountId: "cred-1",
      counter: 0,
      credentialBackedUp: false,
      credentialPublicKey: "AAAA",
      credentialDeviceType: "singleDevice",
      transports: "internal",
    });
    const squatterSession = { sessionToken: crypto.randomUUID(), userId: squatter.id, expires: new Date(Date.now() + 3_600_000) };
    await adapter.createSession!(squatterSession);
    const owner = authClient(config);
    await requestLink(owner, "owner@example.com");
    const response = await owner.send(linkFrom());
    expect(response.headers.get("location")).toBe("http://localhost:3000/welcome");
    const ownerUser = await adapter.getUserByEmail!("owner@example.com");
    expect(ownerUser?.id).not.toBe(squatter.id);
    expect((await owner.session())?.user.email).toBe("owner@example.com");
    // The squatter keeps their user and passkey, without the address, and their sessions ended.
    expect(await adapter.getUser!(squatter.id)).toMatchObject({ email: null, name: "Squatter" });
    expect(await adapter.getAuthenticator!("cred-1")).toMatchObject({ userId: squatter.id });
    expect(await adapter.getSessionAndUser!(squatterSession.sessionToken)).toBeNull();
    // A verified user with passkeys is kept.
    const { client: c2, adapter: a2 } = await setup();
    const kept = await a2.createUser!({ id: crypto.randomUUID(), email: "kept@example.com", emailVerified: new Date(), name: "Kept" });
    await a2.createAuthenticator!({
      credentialID: "cred-2",
      userId: kept.id,
      providerAccountId: "cred-2",
      counter: 0,
      credentialBackedUp: false,
      credentialPublicKey: "AAAA",
      credentialDeviceType: "singleDevice",
    });
    await requestLink(c2, "kept@example.com");
    await c2.send(linkFrom());
    expect((await c2.session())?.user.name).toBe("Kept");
    expect(await a2.getAuthenticator!("cred-2")).not.toBeNull();
  });

  it("a link past maxAge ends on the error page with Verification", async () => {
    const { client } = await setup({ maxAge: 1 });
    await requestLink(client, "late@example.com");
    const link = linkFrom();
    await new Promise((r) => setTimeout(r, 1100));
    expect((await client.send(link)).headers.get("location")).toBe("http://localhost:3000/auth/error?error=Verification");
    expect(await client.session()).toBeNull();
  });

  it("a link for another address, a forged token or a missing token is refused", async () => {
    const { client } = await setup();
    await requestLink(client, "victim@example.com");
    const link = new URL(linkFrom());
    const otherEmail = new URL(link);
    otherEmail.searchParams.set("email", "attacker@example.com");
    const forged = new URL(link);
    forged.searchParams.set("token", "0".repeat(64));
    const missing = new URL(link);
    missing.searchParams.delete("token");
    for (const url of [otherEmail, forged, missing]) {
      expect((await client.openEmailLink(url.href)).headers.get("location")).toBe("http://localhost:3000/auth/error?error=Verification");
    }
    // The genuine link still works after the failed attempts.
    expect((await client.send(link.href)).headers.get("location")).toBe("http://localhost:3000/welcome");
  });

  it("the signIn callback can refuse before any mail is sent", async () => {
    const { client } = await setup({}, { callbacks: { signIn: ({ email }) => (email?.verificationRequest ? "/not-invited" : true) } });
    const before = smtp.mails.length;
    const response = await requestLink(client, "uninvited@example.com");
    expect(response.headers.get("location")).toBe("http://localhost:3000/not-invited");
    expect(smtp.mails.length).toBe(before);
  });

  it("the signIn callback can refuse when the link is clicked: no session, no user created, the link is spent", async () => {
    const { client, adapter, events } = await setup(
      {},
      { callbacks: { signIn: ({ email }) => (email?.verificationRequest ? true : "/closed-for-now") } },
    );
    await requestLink(client, "late-refusal@example.com");
    const link = linkFrom();
    const clicked = await client.send(link);
    expect(clicked.headers.get("location")).toBe("http://localhost:3000/closed-for-now");
    expect(await client.session()).toBeNull();
    expect(await adapter.getUserByEmail!("late-refusal@example.com")).toBeNull();
    expect(events).toEqual([]);
    expect((await client.send(link)).headers.get("location")).toBe("http://localhost:3000/auth/error?error=Verification");
  });

  it("a signIn callback refusing at the click leaves an existing user unchanged", async () => {
    const { client, adapter, events } = await setup({}, { callbacks: { signIn: ({ email }) => !!email?.verificationRequest } });
    const proven = new Date(Date.now() - 86_400_000);
    const existing = await adapter.createUser!({ id: crypto.randomUUID(), email: "kept@example.com", emailVerified: proven });
    await requestLink(client, "kept@example.com");
    const clicked = await client.send(linkFrom());
    expect(clicked.headers.get("location")).toBe("http://localhost:3000/auth/error?error=AccessDenied");
    expect(await client.session()).toBeNull();
    expect((await adapter.getUser!(existing.id))?.emailVerified?.valueOf()).toBe(proven.valueOf());
    expect(events).toEqual([]);
  });

  it("a link opened in another browser answers a confirmation page, whose button signs that browser in", async () => {
    const { client, config } = await setup();
    await requestLink(client, "other-browser@example.com");
    const elsewhere = authClient(config);
    const page = await elsewhere.send(linkFrom());
    expect(page.status).toBe(200);
    // The CSRF cookie its form needs (and the callback URL, bound to it): no session, and the token is not spent.
    expect(page.setCookies.map((c) => c.name).sort()).toEqual(["authlib.callback-url", "authlib.csrf-token"]);
    const html = await page.text();
    expect(html).toContain("other-browser@example.com");
    const signedIn = await elsewhere.openEmailLink(linkFrom());
    expect(signedIn.headers.get("location")).toBe("http://localhost:3000/welcome");
    expect(signedIn.setCookies.map((c) => c.name)).toContain("authlib.session-token");
    expect((await elsewhere.session())?.user.email).toBe("other-browser@example.com");
    expect(await client.session()).toBeNull();
  });

  it("a link sent before a secret rotation still works while the old secret is listed", async () => {
    const { client, config } = await setup();
    await requestLink(client, "rotated@example.com");
    const rotated = authClient({ ...config, secret: ["email-test-secret-after-rotation-0123", secret] });
    const signedIn = await rotated.openEmailLink(linkFrom());
    expect(signedIn.headers.get("location")).toBe("http://localhost:3000/welcome");
    expect((await rotated.session())?.user.email).toBe("rotated@example.com");
  });

  it("with its own secret, the provider's links survive a change of the app's secrets", async () => {
    const { client, config } = await setup({ secret: "provider-own-secret-0123456789abcdef" });
    await requestLink(client, "own-secret@example.com");
    const changed = authClient({ ...config, secret: "a-completely-new-app-secret-0123456789" });
    expect((await changed.openEmailLink(linkFrom())).headers.get("location")).toBe("http://localhost:3000/welcome");
  });

  it("uses the provider's token generator, and a link expiring after its maxAge", async () => {
    const sent: Array<{ token: string; expires: Date; url: string }> = [];
    const { client } = await setup({
      maxAge: 600,
      generateVerificationToken: () => "custom-token-0123456789",
      sendVerificationRequest: (params: { token: string; expires: Date; url: string }) => void sent.push(params),
    });
    const before = Date.now();
    await requestLink(client, "custom@example.com");
    const after = Date.now();
    expect(sent).toHaveLength(1);
    expect(sent[0]?.token).toBe("custom-token-0123456789");
    expect(new URL(sent[0]?.url as string).searchParams.get("token")).toBe("custom-token-0123456789");
    const expires = sent[0]?.expires.valueOf() as number;
    expect(expires).toBeGreaterThanOrEqual(before + 600_000);
    expect(expires).toBeLessThanOrEqual(after + 600_000);
    expect((await client.send(sent[0]?.url as string)).headers.get("location")).toBe("http://localhost:3000/welcome");
  });

  it("a provider without maxAge makes links valid for 24 hours", async () => {
    const sent: Array<{ expires: Date }> = [];
    const db = await freshDatabase();
    const client = authClient({
      secret,
      trustHost: true,
      adapter: db.adapter,
      providers: [{ id: "raw", name: "Raw", type: "email", sendVerificationRequest: (params) => void sent.push(params) }],
    });
    const before = Date.now();
    const csrfToken = await client.csrf();
    await client.send("/auth/signin/raw", { form: { csrfToken, email: "raw@example.com" } });
    const after = Date.now();
    const expires = sent[0]?.expires.valueOf() as number;
    expect(expires).toBeGreaterThanOrEqual(before + 86_400_000);
    expect(expires).toBeLessThanOrEqual(after + 86_400_000);
  });

  it("a mail that could not be sent leaves a link that does not sign in", async () => {
    const urls: string[] = [];
    const { client } = await setup({
      sendVerificationRequest: ({ url }: { url: string }) => {
        urls.push(url);
        throw new Error("mail provider down");
      },
    });
    const response = await requestLink(client, "unsent@example.com");
    expect(response.headers.get("location")).toBe("http://localhost:3000/auth/signin?error=EmailSignInError&code=not-sent");
    expect((await client.openEmailLink(urls[0] as string)).headers.get("location")).toBe(
      "http://localhost:3000/auth/error?error=Verification",
    );
    expect(await client.session()).toBeNull();
  });

  it("uses the provider's normalizeIdentifier instead of the default rules; a missing address is EmailSignInError", async () => {
    const sent: Array<{ identifier: string }> = [];
    const { client } = await setup({
      normalizeIdentifier: (identifier: string) => `${identifier.trim()}@tenant.example`,
      sendVerificationRequest: (params: { identifier: string }) => void sent.push(params),
    });
    await requestLink(client, " Employee-7 ");
    expect(sent.map((p) => p.identifier)).toEqual(["Employee-7@tenant.example"]);
    const csrfToken = await client.csrf();
    const missing = await client.send("/auth/signin/nodemailer", { form: { csrfToken } });
    expect(missing.headers.get("location")).toBe("http://localhost:3000/auth/signin?error=EmailSignInError&code=invalid-address");
    expect(sent).toHaveLength(1);
  });

  it("a link whose address is not a valid address is Verification", async () => {
    const { client } = await setup();
    await requestLink(client, "valid@example.com");
    const link = new URL(linkFrom());
    link.searchParams.set("email", "valid@example.com,attacker@evil.example");
    expect((await client.send(link.href)).headers.get("location")).toBe("http://localhost:3000/auth/error?error=Verification");
  });

  it("the signIn callback sees the proven holder when the mail is requested, a fresh user for an unproven one", async () => {
    const seen: Array<{ id: string; account: unknown }> = [];
    const { client, adapter } = await setup(
      {},
      {
        callbacks: {
          signIn: ({ user, account }) => {
            seen.push({ id: user.id as string, account });
            return true;
          },
        },
      },
    );
    const proven = await adapter.createUser!({ id: crypto.randomUUID(), email: "proven@example.com", emailVerified: new Date() });
    const unproven = await adapter.createUser!({ id: crypto.randomUUID(), email: "unproven@example.com", emailVerified: null });
    await requestLink(client, "proven@example.com");
    await requestLink(client, "unproven@example.com");
    expect(seen[0]?.id).toBe(proven.id);
    expect(seen[0]?.account).toEqual({ providerAccountId: "proven@example.com", userId: proven.id, type: "email", provider: "nodemailer" });
    expect(seen[1]?.id).not.toBe(unproven.id);
    expect(seen[1]?.account).toMatchObject({ providerAccountId: "unproven@example.com", userId: seen[1]?.id, type: "email" });
  });

  it("an SMTP server that refuses the mail: error on the sign-in page, token unusable, logged", async () => {
    const { client, logs, database } = await setup();
    smtp.state.refuse = true;
    try {
      const response = await requestLink(client, "bounce@example.com");
      expect(response.headers.get("location")).toBe("http://localhost:3000/auth/signin?error=EmailSignInError&code=not-sent");
    } finally {
      smtp.state.refuse = false;
    }
    expect(logs.some((l) => l.startsWith("EmailSignInError"))).toBe(true);
    expect(await storedTokens(database, "bounce@example.com")).toBe(0);
    const page = await client.send("/auth/signin?error=EmailSignInError&code=not-sent");
    expect(await page.text()).toContain("The e-mail could not be sent.");
  });

  it.each([
    ["down (nothing listens)", async () => ({ port: 1, close: async () => {} })],
    ["hanging up on every connection", startHangUpServer],
  ])("an SMTP server that is %s: error on the sign-in page, no usable token left, nothing crashes", async (_, start) => {
    const broken = await start();
    try {
      const { client, logs, database } = await setup({
        server: { host: "127.0.0.1", port: broken.port, secure: false, ignoreTLS: true, connectionTimeout: 2000 },
      });
      const response = await requestLink(client, "down@example.com");
      expect(response.headers.get("location")).toBe("http://localhost:3000/auth/signin?error=EmailSignInError&code=not-sent");
      expect(logs.some((l) => l.startsWith("EmailSignInError"))).toBe(true);
      // The token was stored before sending and consumed when sending failed: no link can redeem it.
      expect(await storedTokens(database, "down@example.com")).toBe(0);
    } finally {
      await broken.close();
    }
  });

  it("an SMTP server that accepts the connection and never speaks is given up on by default (bounded wait)", async () => {
    const sockets = new Set<Socket>();
    const silent = createNetServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = silent.address() as AddressInfo;
      // A connection URL with no timeouts: SMTP_TIMEOUTS apply (greeting: 10 s), not nodemailer's minutes.
      const { client, database } = await setup({ server: `smtp://127.0.0.1:${port}?ignoreTLS=true` });
      const response = await requestLink(client, "stalled@example.com");
      expect(response.headers.get("location")).toBe("http://localhost:3000/auth/signin?error=EmailSignInError&code=not-sent");
      expect(await storedTokens(database, "stalled@example.com")).toBe(0);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it("SMTP timeouts are filled in only where the server settings give none", () => {
    const fromUrl = new URL(withSmtpTimeouts("smtp://u:p@mail.test:587?socketTimeout=5") as string);
    expect(fromUrl.searchParams.get("socketTimeout")).toBe("5");
    expect(fromUrl.searchParams.get("greetingTimeout")).toBe(String(SMTP_TIMEOUTS.greetingTimeout));
    expect(fromUrl.searchParams.get("connectionTimeout")).toBe(String(SMTP_TIMEOUTS.connectionTimeout));
    expect(withSmtpTimeouts({ host: "mail.test", greetingTimeout: 1 })).toEqual({
      ...SMTP_TIMEOUTS,
      host: "mail.test",
      greetingTimeout: 1,
    });
    // A transport object with its own url, or a non-SMTP transport, is left as given.
    expect(withSmtpTimeouts({ url: "smtp://mail.test" })).toEqual({ url: "smtp://mail.test" });
    expect(withSmtpTimeouts("direct:?x=1")).toBe("direct:?x=1");
  });

  it("rate-limits mails per address and says so on the sign-in page", async () => {
    const { client } = await setup({ rateLimit: { max: 2, windowSeconds: 60, store: memoryRateLimitStore() } });
    const before = smtp.mails.length;
    expect((await requestLink(client, "flood@example.com")).headers.get("location")).toContain("verify-request");
    expect((await requestLink(client, "FLOOD@example.com")).headers.get("location")).toContain("verify-request");
    const third = await requestLink(client, "flood@example.com");
    expect(third.headers.get("location")).toBe("http://localhost:3000/auth/signin?error=RateLimited");
    expect(smtp.mails.length).toBe(before + 2);
    expect((await requestLink(client, "other@example.com")).headers.get("location")).toContain("verify-request");
  });

  it.each([
    "attacker@evil.com,victim@example.com",
    "victim@example.com, attacker@evil.com",
    '"attacker@evil.com"@example.com',
    '"a@evil"@victim.com',
    "victim@example.com\nbcc:attacker@evil.com",
    "victim@example.com;attacker@evil.com",
    "<attacker@evil.com>",
    "Victim <victim@example.com>",
  ])("a hostile address (%j) sends nothing and shows an error", async (email) => {
    const { client } = await setup();
    const before = smtp.mails.length;
    const response = await requestLink(client, email);
    expect(response.headers.get("location")).toBe("http://localhost:3000/auth/signin?error=EmailSignInError&code=invalid-address");
    expect(smtp.mails.length).toBe(before);
    // The page says what happened: the address, not a mail that failed.
    const page = await (await client.send(response.headers.get("location") as string)).text();
    expect(page).toContain("That is not an email address we can send a sign-in link to.");
    expect(page).not.toContain("could not be sent");
  });

  it("Nodemailer without a server is a clear AuthError", () => {
    expect(() => Nodemailer({ server: undefined })).toThrow(AuthError);
    expect(() => Nodemailer({ server: undefined })).toThrow(/server/);
  });
});

describe("normalizeEmail", () => {
  it.each([
    ["User@Example.COM", "user@example.com"],
    ["  spaced@example.com  ", "spaced@example.com"],
    ["ｕｓｅｒ@example.com", "user@example.com"],
    ["user+tag@example.com", "user+tag@example.com"],
    ["user@bücher.de", "user@xn--bcher-kva.de"],
    ["first.last@sub.example.co.uk", "first.last@sub.example.co.uk"],
    [`${"l".repeat(64)}@example.com`, `${"l".repeat(64)}@example.com`],
    [
      `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(57)}.com`,
      `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(57)}.com`,
    ],
    [
      `  ${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(57)}.COM  `,
      `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(57)}.com`,
    ],
    ["x@a-b.example", "x@a-b.example"],
    ["x@1.example", "x@1.example"],
  ])("%j is %j", (input, expected) => expect(normalizeEmail(input)).toBe(expected));

  it.each([
    ["", "empty"],
    ["   ", "blank"],
    ["no-at-sign", "no @"],
    ["a@b@example.com", "two @"],
    ["attacker@evil.com,victim@example.com", "comma list"],
    ["victim@example.com;attacker@evil.com", "semicolon list"],
    ['"quoted"@example.com', "quotes"],
    ['"a@evil"@victim.com', "quoted @ (parser differential)"],
    ["victim@example.com\r\nBcc: x@evil.com", "header injection"],
    ["victim\u0000@example.com", "NUL"],
    ["a＠b@example.com", "fullwidth @ U+FF20 plus @"],
    ["a﹫b@example.com", "small @ U+FE6B plus @"],
    ["Name <victim@example.com>", "display name"],
    ["victim@example.com (comment)", "comment"],
    ["victim@[127.0.0.1]", "IP literal"],
    ["victim@localhost", "single-label domain"],
    [".dot@example.com", "leading dot"],
    ["dot.@example.com", "trailing dot"],
    ["do..t@example.com", "double dot"],
    ["victim@example.com/evil", "path in domain"],
    ["victim@exa mple.com", "space in domain"],
    ["victim@-example.com", "label starts with -"],
    [`${"a".repeat(65)}@example.com`, "local part too long"],
    ["victim@example.123", "numeric TLD"],
    ["victim@127.0.0.1", "IPv4 address as domain"],
    ["victim@10.0.0.10", "private IPv4 address as domain"],
    ["victim@example-.com", "label ends with -"],
    [`${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(58)}.com`, "255 characters"],
  ])("refuses %j (%s)", (input) => {
    expect(() => normalizeEmail(input)).toThrow();
  });

  it("validates after canonicalising: a homoglyph @ is judged as the @ it becomes", () => {
    expect(normalizeEmail("victim＠evil.com")).toBe("victim@evil.com");
    expect(() => normalizeEmail("attacker＠evil.com@victim.com")).toThrow();
    expect(() => normalizeEmail(42)).toThrow();
  });
});

describe("why an address or a link is refused", () => {
  it.each([
    ["", "Missing email address."],
    ["   ", "Missing email address."],
    [42, "Missing email address."],
    [`${"a".repeat(250)}@example.com`, "Email address too long."],
    ["victim@example.com\r\nBcc: x@evil.com", "Invalid email address format."],
    ["a\u0000b@example.com", "Invalid email address format."],
    ["no-at-sign", "Invalid email address format."],
    [".dot@example.com", "Invalid email address format."],
    ["victim@exa%mple.com", "Invalid email domain."],
    ["victim@xn--.com", "Invalid email domain."],
    ["victim@exa..mple.com", "Invalid email domain."],
    ["victim@127.0.0.1", "Invalid email domain."],
  ])("%j: %s", (input, message) => {
    expect(() => normalizeEmail(input)).toThrow(message);
  });

  it.each(["x@example.a1", "x@example.1a"])("a top-level label with digits and letters (%j) is a domain", (input) => {
    expect(normalizeEmail(input)).toBe(input);
  });

  it("each refused link is logged with its reason", async () => {
    const { client, logs } = await setup();
    await requestLink(client, "reasons@example.com");
    const link = new URL(linkFrom());
    const badAddress = new URL(link);
    badAddress.searchParams.set("email", "not an address");
    const noToken = new URL(link);
    noToken.searchParams.delete("token");
    const forged = new URL(link);
    forged.searchParams.set("token", "f".repeat(64));
    for (const url of [badAddress, noToken, forged]) await client.openEmailLink(url.href);
    // A user's refusal: at debug, with the reason.
    expect(logs).toEqual([
      "debug Verification: The sign-in link has no valid email address. — caused by InvalidEmailAddress (code invalid-address): Invalid email address format.",
      "debug Verification: The sign-in link has no token.",
      "debug Verification: The sign-in link is unknown, used already, or expired.",
    ]);
  });

  it("a refused link says whether it was found and whether it had expired", async () => {
    const causes: unknown[] = [];
    const { client } = await setup(
      { maxAge: -60 },
      // A refused link is a user's failure: its facts are in the debug line's metadata.
      {
        debug: true,
        logger: {
          warn: () => {},
          debug: (_line, metadata) => {
            const failure = metadata as { type?: string; cause?: unknown } | undefined;
            if (failure?.type) causes.push(failure.cause);
          },
        },
      },
    );
    await requestLink(client, "expired-cause@example.com");
    const link = new URL(linkFrom());
    await client.send(link.href);
    link.searchParams.set("token", "e".repeat(64));
    await client.openEmailLink(link.href);
    expect(causes).toEqual([
      { hasInvite: true, expired: true },
      { hasInvite: false, expired: false },
    ]);
  });

  it("a link is still valid at the very millisecond it expires", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-01-01T00:00:00Z") });
    try {
      const { client } = await setup({ maxAge: 0 });
      await requestLink(client, "on-the-dot@example.com");
      expect((await client.send(linkFrom())).headers.get("location")).toBe("http://localhost:3000/welcome");
    } finally {
      vi.useRealTimers();
    }
  });

  it("too many mails are logged as the rate-limited warning (expected traffic, not an error), without the address", async () => {
    const { client, logs } = await setup({ rateLimit: { max: 1, windowSeconds: 60, store: memoryRateLimitStore() } });
    await requestLink(client, "limited@example.com");
    expect(logs).not.toContain("warn rate-limited");
    const refused = await requestLink(client, "limited@example.com");
    expect(refused.headers.get("location")).toBe("http://localhost:3000/auth/signin?error=RateLimited");
    expect(logs).toContain("warn rate-limited");
    expect(logs.some((line) => line.startsWith("RateLimited"))).toBe(false);
    expect(logs.join("\n")).not.toContain("limited@example.com");
  });

  it("a mail that could not be sent is logged as EmailSignInError, with the sender's failure summarised as its cause", async () => {
    const failure = Object.assign(new Error("mail provider down for <unsent-logged@example.com>"), { code: "EDOWN" });
    const errors: Error[] = [];
    const sendVerificationRequest = () => {
      throw failure;
    };
    const { client } = await setup({ sendVerificationRequest }, { logger: { error: (e) => void errors.push(e) } });
    await requestLink(client, "unsent-logged@example.com");
    const logged = errors.find((e) => e.name === "EmailSignInError");
    expect(logged?.message).toBe("The sign-in email could not be sent.");
    // Its name and code, not its text: a sender's message can quote the address (email/mail-failure.ts).
    const cause = (logged?.cause as { err?: Error & { code?: string } } | undefined)?.err;
    expect([cause?.name, cause?.message, cause?.code]).toEqual(["Error", "", "EDOWN"]);
  });
});
