/**
 * Email sign-in that survives mail scanners, and the mailed one-time codes, against a real SMTP server
 * and real databases (PGlite, and PostgreSQL where it answers): what a scanner's HEAD and GET leave, the
 * confirmation page in another browser, codes right and wrong, the limits on guessing (memory, Redis and
 * PostgreSQL stores), single use across link and code, and 50 concurrent redemptions of one code.
 */
import { HostedDbAdapter, HostedDbClient } from "@authlib/hosted-db-adapter";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dropBranch, postgresAnswers, randomBranch, testDatabaseURL } from "../../../hosted-db-adapter/test/helpers.js";
import { createAuth } from "../../src/kernel/instance.js";
import Nodemailer from "../../src/providers/nodemailer.js";
import type { RateLimitStore } from "../../src/rate-limit/store.js";
import { memoryRateLimitStore } from "../../src/rate-limit/store.js";
import type { Adapter } from "../../src/types/adapters.js";
import type { AuthConfig } from "../../src/types/config.js";
import type { AuditEvent } from "../../src/types/telemetry.js";
import { authClient } from "../helpers/auth-client.js";
import { closeSharedPglite, freshDatabase } from "../helpers/database.js";
import { startSmtpServer } from "../helpers/smtp.js";
import { storeKinds } from "../helpers/store-kinds.js";

const secret = "scanner-and-codes-secret-0123456789abcdef";
const ORIGIN = "http://localhost:3000";
const HEADLESS = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36";
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
const kinds = await storeKinds();

beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await smtp.close();
  await closeSharedPglite();
  for (const kind of kinds) if (kind.available) await kind.close();
});

interface Setup {
  adapter?: Adapter;
  store?: RateLimitStore;
  provider?: Record<string, unknown>;
  config?: Partial<AuthConfig>;
}

async function app(setup: Setup = {}) {
  const adapter = setup.adapter ?? (await freshDatabase()).adapter;
  const errors: string[] = [];
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter,
    session: { strategy: "jwt" },
    providers: [Nodemailer({ server: smtp.transport, from: "Demo <no-reply@demo.test>", ...setup.provider })],
    rateLimit: { store: setup.store ?? memoryRateLimitStore() },
    // `errors`: every failure logged, at its level (a wrong code is a user's: debug).
    debug: true,
    logger: {
      error: (e) => void errors.push(e.name),
      warn: () => {},
      debug: (_line, metadata) => {
        const type = (metadata as { type?: string } | undefined)?.type;
        if (type) errors.push(type);
      },
    },
    ...setup.config,
  };
  /** A browser of its own (its own cookie jar), at client address `address`. */
  const browser = (address = "203.0.113.1") => {
    const client = authClient(config, ORIGIN, address);
    return {
      ...client,
      /** Asks for a sign-in mail to `email`; the mail that arrived. */
      async ask(email: string) {
        const before = smtp.mails.length;
        const csrfToken = await client.csrf();
        const response = await client.send("/auth/signin/nodemailer", { form: { csrfToken, email, callbackUrl: "/welcome" } });
        expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/verify-request?provider=nodemailer&type=email`);
        expect(smtp.mails.length).toBe(before + 1);
        return mailParts(before);
      },
      /** Types `code` on the verify-request page's form; where the answer sends the browser. */
      async typeCode(code: string) {
        const csrfToken = await client.csrf();
        const response = await client.send("/auth/callback/nodemailer", { form: { csrfToken, code } });
        return response.headers.get("location");
      },
    };
  };
  return { config, adapter, errors, browser };
}

/** The link and the code of the mail at `index`. */
function mailParts(index: number) {
  const mail = smtp.mails[index];
  const link = mail?.text?.match(/http:\/\/localhost:3000\/auth\/callback\/nodemailer\?\S+/)?.[0];
  const code = mail?.text?.match(/asked to sign in: (\d+)/)?.[1];
  if (!link) throw new Error("no sign-in link in the mail");
  return { link, code, text: mail?.text ?? "", html: typeof mail?.html === "string" ? mail.html : "" };
}

/** A code of `length` digits other than `code`. */
function wrong(code: string | undefined, n = 1): string {
  const value = (Number(code) + n) % 10 ** (code?.length ?? 6);
  return String(value).padStart(code?.length ?? 6, "0");
}

const sessionCookie = (response: { setCookies: Array<{ name: string; value: string }> }) =>
  response.setCookies.some((c) => c.name === "authlib.session-token" && c.value !== "");

describe("a mail scanner opens the link before the person", () => {
  it("HEAD, then a cookieless headless GET: the scanner gets no session, and the person's own browser signs in at once", async () => {
    const { browser } = await app();
    const person = browser();
    const { link } = await person.ask("scanned@example.com");

    const scanner = browser("198.51.100.7");
    const head = await scanner.send(link, { method: "HEAD", headers: { "user-agent": HEADLESS } });
    expect(head.status).toBe(405);
    expect(sessionCookie(head)).toBe(false);
    const options = await scanner.send(link, { method: "OPTIONS", headers: { "user-agent": HEADLESS } });
    expect(sessionCookie(options)).toBe(false);
    const get = await scanner.send(link, { headers: { "user-agent": HEADLESS } });
    expect(get.status).toBe(200);
    expect(sessionCookie(get)).toBe(false);
    expect(await get.text()).toContain("Sign in as <strong>scanned@example.com</strong>");
    expect(await scanner.session()).toBeNull();

    const clicked = await person.send(link);
    expect(clicked.status).toBe(302);
    expect(clicked.headers.get("location")).toBe(`${ORIGIN}/welcome`);
    expect((await person.session())?.user.email).toBe("scanned@example.com");
    // The flow is over: its cookie is deleted.
    expect(clicked.setCookies.find((c) => c.name === "authlib.email-flow")?.value).toBe("");
  });

  it("the person on another browser: the confirmation page, then signed in there (and nowhere else)", async () => {
    const { browser } = await app();
    const asking = browser();
    const { link } = await asking.ask("two-devices@example.com");
    const scanner = browser("198.51.100.7");
    await scanner.send(link, { method: "HEAD" });
    await scanner.send(link, { headers: { "user-agent": HEADLESS } });

    const phone = browser("192.0.2.50");
    const page = await phone.send(link);
    expect(page.status).toBe(200);
    expect(sessionCookie(page)).toBe(false);
    const signedIn = await phone.openEmailLink(link);
    expect(signedIn.headers.get("location")).toBe(`${ORIGIN}/welcome`);
    expect((await phone.session())?.user.email).toBe("two-devices@example.com");
    expect(await scanner.session()).toBeNull();
    expect(await asking.session()).toBeNull();
    // Spent: the asking browser's own click is now refused.
    expect((await asking.send(link)).headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`);
  });

  it("the confirmation page's button is CSRF-checked: a post without the page's token spends nothing", async () => {
    const { browser } = await app();
    const { link } = await browser().ask("csrf-confirm@example.com");
    const other = browser("192.0.2.9");
    const url = new URL(link);
    const forged = await other.send("/auth/callback/nodemailer", {
      form: { email: url.searchParams.get("email") ?? "", token: url.searchParams.get("token") ?? "" },
    });
    expect(forged.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=MissingCSRF`);
    expect(await other.session()).toBeNull();
    expect((await other.openEmailLink(link)).headers.get("location")).toBe(`${ORIGIN}/welcome`);
  });

  it("a flow cookie carried to another browser does not sign that browser in at once (login CSRF)", async () => {
    const { browser } = await app();
    const attacker = browser("198.51.100.66");
    const { link } = await attacker.ask("attacker@example.com");
    const victim = browser("192.0.2.1");
    await victim.csrf();
    const planted = attacker.jar.cookies.get("authlib.email-flow");
    if (!planted) throw new Error("the asking browser has no flow cookie");
    victim.jar.cookies.set(planted.name, planted);
    const opened = await victim.send(link);
    expect(opened.status).toBe(200);
    expect(await victim.session()).toBeNull();
  });

  it('confirm: "always" shows the page even to the asking browser; "never" lets any GET sign in', async () => {
    const always = await app({ provider: { confirm: "always" } });
    const asker = always.browser();
    const { link } = await asker.ask("always@example.com");
    expect((await asker.send(link)).status).toBe(200);
    expect((await asker.openEmailLink(link)).headers.get("location")).toBe(`${ORIGIN}/welcome`);

    const never = await app({ provider: { confirm: "never" } });
    const { link: open } = await never.browser().ask("never@example.com");
    const scanner = never.browser("198.51.100.7");
    const got = await scanner.send(open, { headers: { "user-agent": HEADLESS } });
    expect(got.headers.get("location")).toBe(`${ORIGIN}/welcome`);
    expect(sessionCookie(got)).toBe(true);
  });
});

describe("the one-time code in the mail", () => {
  it("the mail shows the code and the link (text and HTML); the right code signs in, and the link dies with it", async () => {
    const { browser } = await app();
    const person = browser();
    const { link, code, text, html } = await person.ask("coded@example.com");
    expect(code).toMatch(/^\d{6}$/);
    expect(text).toContain(link);
    expect(html).toContain(`>${code}<`);
    expect(html).toContain("/auth/callback/nodemailer?");
    expect(await person.typeCode(code as string)).toBe(`${ORIGIN}/welcome`);
    expect((await person.session())?.user.email).toBe("coded@example.com");
    // Link after code: refused, from any browser.
    expect((await browser("192.0.2.3").openEmailLink(link)).headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`);
  });

  it("code after link: refused", async () => {
    const { browser } = await app();
    const person = browser();
    const { link, code } = await person.ask("link-first@example.com");
    // Opened on another device, so this browser keeps its flow cookie.
    expect((await browser("192.0.2.4").openEmailLink(link)).headers.get("location")).toBe(`${ORIGIN}/welcome`);
    expect(await person.typeCode(code as string)).toBe(`${ORIGIN}/auth/error?error=Verification`);
    expect(await person.session()).toBeNull();
  });

  it("4 wrong codes, then the right one: signed in; each wrong one goes back to the page saying so", async () => {
    const { browser } = await app();
    const person = browser();
    const { code } = await person.ask("typo@example.com");
    for (let n = 1; n <= 4; n++) {
      expect(await person.typeCode(wrong(code, n))).toBe(
        `${ORIGIN}/auth/verify-request?provider=nodemailer&type=email&error=IncorrectCode`,
      );
    }
    const page = await person.send("/auth/verify-request?provider=nodemailer&type=email&error=IncorrectCode");
    expect(await page.text()).toContain("That is not the code in the email.");
    expect(await person.typeCode(` ${code?.slice(0, 3)} ${code?.slice(3)} `)).toBe(`${ORIGIN}/welcome`);
  });

  it("a wrong code answered on the page is a failed sign-in in the audit trail and the log, like a thrown one", async () => {
    const rows: AuditEvent[] = [];
    const { browser, errors } = await app({ config: { audit: { store: { write: (event) => void rows.push(event) } } } });
    const person = browser();
    const { code } = await person.ask("audited@example.com");
    expect(await person.typeCode(wrong(code))).toContain("error=IncorrectCode");
    expect(await person.typeCode(code as string)).toBe(`${ORIGIN}/welcome`);
    await expect.poll(() => rows.length).toBe(2);
    expect(rows.map((row) => [row.type, row.outcome, row.provider, row.detail])).toEqual([
      ["signInFailed", "failure", "nodemailer", "IncorrectCode"],
      ["signIn", "success", "nodemailer", null],
    ]);
    expect(errors).toEqual(["IncorrectCode"]);
  });

  it("5 wrong codes: the mail is dead, its right code and its link are refused", async () => {
    const { browser } = await app();
    const person = browser();
    const { link, code } = await person.ask("dead@example.com");
    for (let n = 1; n <= 5; n++) await person.typeCode(wrong(code, n));
    expect(await person.typeCode(code as string)).toBe(`${ORIGIN}/auth/error?error=Verification`);
    expect((await person.send(link)).headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`);
    expect(await person.session()).toBeNull();
  });

  it("malformed codes count as wrong ones; a code from a browser that did not ask, or without the CSRF token, is refused", async () => {
    const { browser } = await app();
    const person = browser();
    const { code } = await person.ask("malformed@example.com");
    for (const typed of ["12345", "abcdef", "1234567", "x".repeat(100)]) {
      expect(await person.typeCode(typed)).toContain("error=IncorrectCode");
    }
    const elsewhere = browser("192.0.2.5");
    expect(await elsewhere.typeCode(code as string)).toBe(`${ORIGIN}/auth/error?error=Verification`);
    const noToken = await person.send("/auth/callback/nodemailer", { form: { code: code as string } });
    expect(noToken.headers.get("location")).toContain("error=MissingCSRF");
    // One try left of five: still the person's.
    expect(await person.typeCode(code as string)).toBe(`${ORIGIN}/welcome`);
  });

  it("the code is not stored: the verification row holds neither the code nor the token", async () => {
    const db = await freshDatabase();
    const { browser } = await app({ adapter: db.adapter });
    const { code, link } = await browser().ask("stored@example.com");
    const { rows } = await db.client.query<{ token: string }>(
      `SELECT "token" FROM ${db.client.db.authlib_verificationTokens.sqlName} WHERE "identifier" = $1`,
      ["stored@example.com"],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.token).not.toContain(code as string);
    expect(rows[0]?.token).not.toBe(new URL(link).searchParams.get("token"));
  });

  it("auth.api.signInWithEmailCode: typed errors in process, then a session", async () => {
    const { config, browser } = await app();
    const auth = createAuth(config);
    const person = browser();
    const { code } = await person.ask("api-code@example.com");
    const request = () => new Request(`${ORIGIN}/app`, { headers: { cookie: person.jar.header() } });
    await expect(auth.api.signInWithEmailCode(request(), { code: wrong(code) })).rejects.toMatchObject({ type: "IncorrectCode" });
    await expect(auth.api.signInWithEmailCode(new Request(`${ORIGIN}/app`), { code: code as string })).rejects.toMatchObject({
      type: "Verification",
    });
    await expect(auth.api.signInWithEmailCode(request(), { code: code as string, providerId: "nope" })).rejects.toMatchObject({
      type: "InvalidProvider",
    });
    const result = await auth.api.signInWithEmailCode(request(), { code: code as string, redirectTo: "/inbox" });
    expect(result.redirect).toBe(`${ORIGIN}/inbox`);
    expect(result.cookies.map((c) => c.name)).toContain("authlib.session-token");
  });

  it("code: false sends no code and takes none; code.length 8 sends 8 digits; a length out of range fails createAuth", async () => {
    const off = await app({ provider: { code: false } });
    const person = off.browser();
    const { code, text } = await person.ask("no-code@example.com");
    expect(code).toBeUndefined();
    expect(text).not.toContain("Or type this code");
    expect(await person.typeCode("123456")).toBe(`${ORIGIN}/auth/error?error=Verification`);

    const eight = await app({ provider: { code: { length: 8 } } });
    const { code: long } = await eight.browser().ask("eight@example.com");
    expect(long).toMatch(/^\d{8}$/);

    for (const bad of [{ code: { length: 5 } }, { code: { length: 9 } }, { code: { length: 6.5 } }, { confirm: "sometimes" }]) {
      const { config } = await app({ provider: bad });
      expect(() => createAuth(config)).toThrow(/code\.length|confirm/);
    }
  });

  it("a provider object written by hand with a setting out of range is refused at its first use, never read as another mode", async () => {
    const sent: string[] = [];
    const raw = {
      id: "raw",
      name: "Raw",
      type: "email" as const,
      confirm: "sometimes",
      sendVerificationRequest: ({ url }: { url: string }) => void sent.push(url),
    };
    const { config } = await app({ config: { providers: [raw as never] } });
    const client = authClient(config, ORIGIN);
    const csrfToken = await client.csrf();
    await client.send("/auth/signin/raw", { form: { csrfToken, email: "raw@example.com" } });
    const opened = await authClient(config, ORIGIN).send(sent[0] as string);
    expect(opened.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Configuration`);
    expect(sessionCookie(opened)).toBe(false);
  });

  it("the built-in verify-request page has the code form in the browser that asked only", async () => {
    const { browser } = await app();
    const person = browser();
    await person.ask("page@example.com");
    const page = await (await person.send("/auth/verify-request?provider=nodemailer&type=email")).text();
    expect(page).toContain('name="code"');
    expect(page).toContain('autocomplete="one-time-code"');
    expect(page).toContain('action="http://localhost:3000/auth/callback/nodemailer"');
    const elsewhere = await (await browser("192.0.2.8").send("/auth/verify-request?provider=nodemailer&type=email")).text();
    expect(elsewhere).not.toContain('name="code"');
  });
});

describe("guessing codes is limited", () => {
  describe.each(kinds)("on the $name store", (kind) => {
    it.skipIf(!kind.available)(
      "3 client addresses guessing one mailbox's codes: the mailbox limit stops them; the owner's link still works",
      async () => {
        const store = await kind.open();
        const { browser } = await app({ store });
        const victim = browser("192.0.2.200");
        const { link } = await victim.ask("victim@example.com");
        const answers: string[] = [];
        for (const address of ["198.51.100.1", "198.51.100.2", "198.51.100.3"]) {
          const guesser = browser(address);
          const { code } = await guesser.ask("victim@example.com");
          for (let n = 1; n <= 4; n++) answers.push((await guesser.typeCode(wrong(code, n))) ?? "");
        }
        // 10 tries per mailbox in the window (default): the 11th and 12th are refused whatever the code.
        expect(answers.filter((a) => a.endsWith("error=IncorrectCode"))).toHaveLength(10);
        expect(answers.slice(10)).toEqual([
          `${ORIGIN}/auth/verify-request?provider=nodemailer&type=email&error=RateLimited`,
          `${ORIGIN}/auth/verify-request?provider=nodemailer&type=email&error=RateLimited`,
        ]);
        expect((await victim.send(link)).headers.get("location")).toBe(`${ORIGIN}/welcome`);
      },
    );

    it.skipIf(!kind.available)("one client guessing across mailboxes: the per-client limit stops it", async () => {
      const store = await kind.open();
      const { browser } = await app({ store, config: { rateLimit: { store, email: { codeClientMax: 3 } } } });
      const guesser = browser("198.51.100.99");
      const answers: string[] = [];
      for (const email of ["a@example.com", "b@example.com"]) {
        const { code } = await guesser.ask(email);
        for (let n = 1; n <= 2; n++) answers.push((await guesser.typeCode(wrong(code, n))) ?? "");
      }
      expect(answers.map((a) => new URL(a).searchParams.get("error"))).toEqual([
        "IncorrectCode",
        "IncorrectCode",
        "IncorrectCode",
        "RateLimited",
      ]);
    });

    // A memory store is one instance's own (each instance counts alone): shared stores only.
    it.skipIf(!kind.available || kind.name === "memory")(
      "two instances sharing the store count one mail's tries together: 5 wrong across both kill it",
      async () => {
        const store = await kind.open();
        const db = await freshDatabase();
        const first = await app({ store, adapter: db.adapter });
        const second = await app({ store: await kind.open(), adapter: db.adapter });
        const person = first.browser();
        const { code } = await person.ask("two-instances@example.com");
        for (let n = 1; n <= 3; n++) await person.typeCode(wrong(code, n));
        // The same browser's next requests reach the other instance.
        const moved = second.browser();
        for (const cookie of person.jar.cookies.values()) moved.jar.cookies.set(cookie.name, cookie);
        for (let n = 4; n <= 5; n++) await moved.typeCode(wrong(code, n));
        expect(await moved.typeCode(code as string)).toBe(`${ORIGIN}/auth/error?error=Verification`);
      },
    );
  });

  it("with rateLimit: false, each mail's 5 tries still hold", async () => {
    const { browser } = await app({ config: { rateLimit: false } });
    const person = browser();
    const { code } = await person.ask("no-limits@example.com");
    for (let n = 1; n <= 5; n++) await person.typeCode(wrong(code, n));
    expect(await person.typeCode(code as string)).toBe(`${ORIGIN}/auth/error?error=Verification`);
  });
});

const postgres = await postgresAnswers(testDatabaseURL(), "the concurrent code redemption on PostgreSQL");

describe("50 concurrent redemptions of one code", () => {
  async function redeemConcurrently(adapter: Adapter) {
    const { browser } = await app({ adapter });
    const person = browser();
    const { code, link } = await person.ask("race@example.com");
    const csrfToken = await person.csrf();
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => person.send("/auth/callback/nodemailer", { form: { csrfToken, code: code as string } })),
    );
    const sessions = answers.filter(sessionCookie);
    expect(sessions).toHaveLength(1);
    expect(answers.filter((a) => a.headers.get("location") === `${ORIGIN}/welcome`)).toHaveLength(1);
    expect((await browser("192.0.2.77").openEmailLink(link)).headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`);
  }

  it("on PGlite: exactly one session", async () => {
    await redeemConcurrently((await freshDatabase()).adapter);
  });

  it.skipIf(!postgres)("on PostgreSQL: exactly one session", async () => {
    const branch = randomBranch("codes");
    const client = new HostedDbClient({ databaseURL: testDatabaseURL(), branch });
    try {
      await client.migrate();
      await redeemConcurrently(HostedDbAdapter(client));
    } finally {
      await dropBranch(client, branch);
      await client.close();
    }
  });
});
