/**
 * The Password() routes and the account lifecycle on the in-memory adapter, with the mails kept in memory
 * (`Password({ sendMail })`): every branch and every answer, fast enough to run per mutant (the mutation
 * group `password-routes`). The same flows on PGlite, PostgreSQL, a real SMTP server and Chromium are in
 * password-flows, account-page, password-browser and the hosted-db adapter's password-postgres tests.
 */
import { describe, expect, it } from "vitest";
import Credentials from "../../src/providers/credentials.js";
import Password, { type PasswordOptions } from "../../src/providers/password.js";
import type { AdapterUser } from "../../src/types/adapters.js";
import type { AuthConfig } from "../../src/types/config.js";
import type { MailMessage } from "../../src/types/providers.js";
import { authClient } from "../helpers/auth-client.js";
import { failureLines } from "../helpers/failure-log.js";
import { memoryAdapter, withVerificationTokens } from "../helpers/memory-adapter.js";

const ORIGIN = "http://localhost:3000";
const secret = "password-routes-secret-0123456789abcdef";

function app(options: { password?: PasswordOptions; config?: Partial<AuthConfig> } = {}) {
  const memory = memoryAdapter({ sessionRecords: true });
  const mails: MailMessage[] = [];
  const events: string[] = [];
  const logs: string[] = [];
  const send = { fail: false };
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter: withVerificationTokens(memory.adapter),
    session: { strategy: "jwt" },
    providers: [
      Password({
        sendMail: (mail) => {
          if (send.fail) throw new Error("mail server down");
          mails.push(mail);
        },
        ...options.password,
      }),
    ],
    events: {
      createUser: ({ user }) => void events.push(`createUser ${user.email}`),
      signIn: ({ user, isNewUser }) => void events.push(`signIn ${user.email} new=${isNewUser}`),
      passwordChanged: ({ reason }) => void events.push(`passwordChanged ${reason}`),
    },
    // Every failure at its level (a user's mistake at debug), as `Type: message`; warnings as `warn <code>`.
    debug: true,
    logger: failureLines(logs),
    ...options.config,
  };
  const mailTo = (to: string) => {
    const mail = [...mails].reverse().find((m) => m.to === to);
    if (!mail) throw new Error(`no mail to ${to}`);
    return mail;
  };
  const tokenIn = (to: string, path: string) => {
    const link = mailTo(to).text.match(new RegExp(`${ORIGIN}${path}\\?\\S+`))?.[0];
    if (!link) throw new Error(`no ${path} link`);
    return new URL(link).searchParams.get("token") as string;
  };
  return { ...memory, config, mails, events, logs, send, mailTo, tokenIn, browser: () => authClient(config, ORIGIN) };
}

type Browser = ReturnType<typeof authClient>;

async function post(browser: Browser, path: string, form: Record<string, string>) {
  const csrfToken = await browser.csrf();
  const response = await browser.send(path, { form: { csrfToken, ...form } });
  return response.headers.get("location");
}

/** Signs `email` up in `browser` and confirms there: signed in. */
async function member(a: ReturnType<typeof app>, browser: Browser, email: string, password = "first password") {
  await post(browser, "/auth/password/sign-up", { email, password });
  await post(browser, "/auth/password/verify", { token: a.tokenIn(email, "/auth/password/verify") });
  return [...a.users.values()].find((u) => u.email === email) as AdapterUser;
}

describe("sign-up and verification", () => {
  it("the verification creates the user with the name and the sealed target, a new user", async () => {
    const a = app({ config: { pages: { newUser: "/welcome-new" } } });
    const browser = a.browser();
    expect(
      await post(browser, "/auth/password/sign-up", {
        email: "n@example.com",
        password: "first password",
        name: " Ann ",
        callbackUrl: "/target",
      }),
    ).toBe(`${ORIGIN}/auth/verify-request?provider=password&type=password-sign-up`);
    expect(a.mailTo("n@example.com").subject).toBe("Confirm your email address for localhost:3000");
    const location = await post(browser, "/auth/password/verify", { token: a.tokenIn("n@example.com", "/auth/password/verify") });
    expect(location).toBe(`${ORIGIN}/welcome-new?callbackUrl=${encodeURIComponent(`${ORIGIN}/target`)}`);
    const user = [...a.users.values()][0];
    expect(user).toMatchObject({ email: "n@example.com", name: "Ann" });
    expect(user?.emailVerified).toBeInstanceOf(Date);
    expect(a.accounts).toEqual([
      expect.objectContaining({ provider: "password", type: "credentials", userId: user?.id, providerAccountId: user?.id }),
    ]);
    expect(a.events).toEqual(["createUser n@example.com", "signIn n@example.com new=true"]);
    expect((await browser.session())?.user).toMatchObject({ email: "n@example.com", name: "Ann" });
  });

  it("an address that has a user by the time its link is redeemed gets no password (issue 44): the page offers a reset", async () => {
    const a = app();
    const existing = { id: "u-link", email: "linked@example.com", emailVerified: new Date(), name: "Linked" };
    a.users.set(existing.id, existing);
    const browser = a.browser();
    // A proven owner gets the "account exists" note, not a link...
    await post(browser, "/auth/password/sign-up", { email: "linked@example.com", password: "first password" });
    expect(a.mailTo("linked@example.com").subject).toBe("You already have an account on localhost:3000");
    expect(a.mailTo("linked@example.com").text).toContain(`${ORIGIN}/auth/signin`);
    // ...and a link asked for before the address had its user adds nothing to that user: whoever asked
    // for it chose its password.
    a.users.delete(existing.id);
    await post(browser, "/auth/password/sign-up", { email: "linked@example.com", password: "first password" });
    const token = a.tokenIn("linked@example.com", "/auth/password/verify");
    a.users.set(existing.id, existing);
    expect(await post(browser, "/auth/password/verify", { token })).toBe(
      `${ORIGIN}/auth/verify-request?provider=password&type=password-exists`,
    );
    expect(a.users.size).toBe(1);
    expect(a.accounts).toEqual([]);
    expect(a.events).toEqual([]);
    expect(await browser.session()).toBeNull();
  });

  it("a second link for an address that has a password by now adds nothing, and says why", async () => {
    const a = app();
    const first = a.browser();
    await post(first, "/auth/password/sign-up", { email: "twice@example.com", password: "first password" });
    const one = a.tokenIn("twice@example.com", "/auth/password/verify");
    await post(first, "/auth/password/sign-up", { email: "twice@example.com", password: "second password" });
    const two = a.tokenIn("twice@example.com", "/auth/password/verify");
    expect(await post(first, "/auth/password/verify", { token: one })).toBe(`${ORIGIN}/`);
    expect(await post(first, "/auth/password/verify", { token: two })).toBe(
      `${ORIGIN}/auth/verify-request?provider=password&type=password-exists`,
    );
    expect(a.accounts).toHaveLength(1);
  });

  it("the signIn callback may refuse at verification: its answer, and nobody signed in", async () => {
    const a = app({ config: { callbacks: { signIn: () => "/not-yet" } } });
    const browser = a.browser();
    await post(browser, "/auth/password/sign-up", { email: "cb@example.com", password: "first password" });
    expect(await post(browser, "/auth/password/verify", { token: a.tokenIn("cb@example.com", "/auth/password/verify") })).toBe(
      `${ORIGIN}/not-yet`,
    );
    expect(a.users.size).toBe(0);
    expect(await browser.session()).toBeNull();
  });

  it("a mail that cannot be sent is EmailSignInError, back on the form", async () => {
    const a = app();
    a.send.fail = true;
    expect(await post(a.browser(), "/auth/password/sign-up", { email: "x@example.com", password: "first password" })).toBe(
      `${ORIGIN}/auth/password/sign-up?error=EmailSignInError&email=x%40example.com`,
    );
    expect(await post(a.browser(), "/auth/password/forgot", { email: "x@example.com" })).toBe(
      `${ORIGIN}/auth/password/forgot?error=EmailSignInError&email=x%40example.com`,
    );
    expect(a.logs).toEqual([
      "EmailSignInError: The email could not be sent. Try again later.",
      "EmailSignInError: The email could not be sent. Try again later.",
    ]);
  });

  it("too many mails to one address: RateLimited on the form, logged as the warning", async () => {
    const a = app({ config: { rateLimit: { email: { mailboxMax: 1 } } } });
    const browser = a.browser();
    await post(browser, "/auth/password/sign-up", { email: "busy@example.com", password: "first password" });
    expect(await post(browser, "/auth/password/sign-up", { email: "busy@example.com", password: "first password" })).toBe(
      `${ORIGIN}/auth/password/sign-up?error=RateLimited&email=busy%40example.com`,
    );
    // The warning, and the refusal's line at debug (no error).
    expect(a.logs).toEqual(["warn rate-limited", expect.stringMatching(/^RateLimited: /)]);
  });
});

describe("reset", () => {
  it("the reset page needs a live link; the form keeps the token on a refusal; the link's target after", async () => {
    const a = app();
    const browser = a.browser();
    const user = await member(a, browser, "r@example.com");
    expect(await post(browser, "/auth/password/forgot", { email: "r@example.com", callbackUrl: "/after" })).toBe(
      `${ORIGIN}/auth/verify-request?provider=password&type=password-reset`,
    );
    expect(a.mailTo("r@example.com").text).toContain("for 60 minutes");
    const token = a.tokenIn("r@example.com", "/auth/password/reset");
    const page = await browser.send(`/auth/password/reset?token=${encodeURIComponent(token)}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`value="${token}"`);
    expect(await post(browser, "/auth/password/reset", { token, password: "" })).toBe(
      `${ORIGIN}/auth/password/reset?error=InvalidPassword&code=missing&token=${encodeURIComponent(token)}`,
    );
    expect(await post(browser, "/auth/password/reset", { token, password: "second password" })).toBe(`${ORIGIN}/after`);
    expect(a.events.at(-1)).toBe("passwordChanged reset");
    expect(a.mailTo("r@example.com").subject).toBe("Your password for localhost:3000 changed");
    expect(a.logs).toEqual(["InvalidPassword: Choose a password."]);
    expect(a.accounts.find((x) => x.userId === user.id)?.access_token).not.toBe(undefined);
  });

  it("a link for a user who lost the address, or whose password changed, is refused with its reason", async () => {
    const a = app();
    const browser = a.browser();
    const user = await member(a, browser, "gone@example.com");
    await post(browser, "/auth/password/forgot", { email: "gone@example.com" });
    const token = a.tokenIn("gone@example.com", "/auth/password/reset");
    a.users.set(user.id, { ...user, email: "elsewhere@example.com" });
    expect(await post(browser, "/auth/password/reset", { token, password: "second password" })).toBe(
      `${ORIGIN}/auth/error?error=Verification`,
    );
    a.users.set(user.id, { ...user, emailVerified: null });
    expect(await post(browser, "/auth/password/reset", { token, password: "second password" })).toBe(
      `${ORIGIN}/auth/error?error=Verification`,
    );
    a.users.delete(user.id);
    expect(await post(browser, "/auth/password/reset", { token, password: "second password" })).toBe(
      `${ORIGIN}/auth/error?error=Verification`,
    );
    a.users.set(user.id, user);
    const account = a.accounts.find((x) => x.userId === user.id);
    if (account) account.access_token = "scrypt$changed";
    expect(await post(browser, "/auth/password/reset", { token, password: "second password" })).toBe(
      `${ORIGIN}/auth/error?error=Verification`,
    );
    expect(a.logs).toEqual([
      "Verification: The link is not valid any more. Ask for a new one.",
      "Verification: The link is not valid any more. Ask for a new one.",
      "Verification: The link is not valid any more. Ask for a new one.",
      "Verification: The link was used already, or the password changed since. Ask for a new one if you need it.",
    ]);
  });

  it("a user without a password sets a first one through reset; a failed notice is logged, the password still changes", async () => {
    const a = app();
    a.users.set("u-np", { id: "u-np", email: "np@example.com", emailVerified: new Date() });
    const browser = a.browser();
    await post(browser, "/auth/password/forgot", { email: "np@example.com" });
    const token = a.tokenIn("np@example.com", "/auth/password/reset");
    a.send.fail = true;
    expect(await post(browser, "/auth/password/reset", { token, password: "first password" })).toBe(`${ORIGIN}/`);
    expect(a.accounts).toEqual([expect.objectContaining({ userId: "u-np", provider: "password" })]);
    expect(a.logs).toEqual(["EmailSignInError: The notice of a sign-in change (passwordSet) could not be sent to its owner (Error)."]);
    expect((await browser.session())?.user).toMatchObject({ email: "np@example.com" });
  });

  it("an unknown address is told it has no account, with the sign-up page", async () => {
    const a = app();
    await post(a.browser(), "/auth/password/forgot", { email: "ghost@example.com" });
    expect(a.mailTo("ghost@example.com").subject).toBe("Password reset for localhost:3000");
    expect(a.mailTo("ghost@example.com").text).toContain(`${ORIGIN}/auth/password/sign-up`);
  });
});

describe("change", () => {
  it("a user without a password is told how to set one; a signed-out one is asked to sign in", async () => {
    const a = app();
    a.users.set("u-np", { id: "u-np", email: "np@example.com", emailVerified: new Date() });
    const browser = a.browser();
    expect(await post(browser, "/auth/password/change", { currentPassword: "x", password: "second password" })).toBe(
      `${ORIGIN}/auth/error?error=SessionRequired`,
    );
    await post(browser, "/auth/password/forgot", { email: "np@example.com" });
    await post(browser, "/auth/password/reset", { token: a.tokenIn("np@example.com", "/auth/password/reset"), password: "first password" });
    a.accounts.splice(0);
    expect(
      await post(browser, "/auth/password/change", {
        currentPassword: "first password",
        password: "second password",
        callbackUrl: "/me?done=x",
      }),
    ).toBe(`${ORIGIN}/me?error=PasswordNotSet`);
    expect(a.logs.at(-1)).toBe('PasswordNotSet: You have no password yet: set one with "Forgot your password?".');
  });

  it("a change renews this session and says so with its reason", async () => {
    const a = app();
    const browser = a.browser();
    await member(a, browser, "c@example.com");
    expect(
      await post(browser, "/auth/password/change", {
        currentPassword: "first password",
        password: "second password",
        callbackUrl: "/done",
      }),
    ).toBe(`${ORIGIN}/done`);
    expect(a.events.at(-1)).toBe("passwordChanged change");
    expect((await browser.session())?.user).toMatchObject({ email: "c@example.com" });
  });
});

describe("sign-in (POST /callback/password)", () => {
  async function signIn(browser: Browser, email: unknown, password: unknown) {
    const csrfToken = await browser.csrf();
    const response = await browser.send("/auth/callback/password", { json: { csrfToken, email, password, callbackUrl: "/in" } });
    return response.headers.get("location");
  }
  const refused = `${ORIGIN}/auth/signin?error=CredentialsSignin&code=credentials&provider=password`;
  /** The refusal of a form with `email` typed: the same for every reason, the address given back to the form. */
  const refusedWith = (email: string) => `${refused}&${new URLSearchParams({ email })}`;

  it("the right password of a proven address signs in; everything else is the same refusal", async () => {
    const a = app({ config: { rateLimit: false } });
    const user = await member(a, a.browser(), "s@example.com");
    a.users.set("unproven", { id: "unproven", email: "held@example.com", emailVerified: null });
    a.accounts.push({ ...(a.accounts[0] as (typeof a.accounts)[0]), userId: "unproven", providerAccountId: "unproven" });
    a.users.set("nopass", { id: "nopass", email: "nopass@example.com", emailVerified: new Date() });
    const browser = a.browser();
    expect(await signIn(browser, "S@Example.com", "first password")).toBe(`${ORIGIN}/in`);
    expect((await browser.session())?.user).toMatchObject({ email: "s@example.com" });
    for (const [email, password] of [
      ["s@example.com", "wrong password"],
      ["s@example.com", "FIRST PASSWORD"],
      ["s@example.com", ""],
      ["s@example.com", "x".repeat(1025)],
      ["ghost@example.com", "first password"],
      ["held@example.com", "first password"],
      ["nopass@example.com", "first password"],
      ["not an address", "first password"],
    ]) {
      expect(await signIn(a.browser(), email, password)).toBe(refusedWith(email as string));
    }
    expect(a.events.filter((e) => e.startsWith("signIn"))).toHaveLength(2);
    expect(user.id).toBeTruthy();
  });

  it("a password typed in another Unicode form is the same password (NFKC)", async () => {
    const a = app();
    await member(a, a.browser(), "wide@example.com", "pass word 12");
    expect(await signIn(a.browser(), "wide@example.com", "ｐａｓｓ ｗｏｒｄ １２")).toBe(`${ORIGIN}/in`);
  });

  it("a password longer than 1024 characters never signs in, even one that would match; 1024 does", async () => {
    const a = app({ config: { rateLimit: false }, password: { maxLength: 1024 } });
    const user = await member(a, a.browser(), "long@example.com", "y".repeat(1024));
    expect(await signIn(a.browser(), "long@example.com", "y".repeat(1024))).toBe(`${ORIGIN}/in`);
    const { hashPassword } = await import("../../src/password.js");
    const account = a.accounts.find((x) => x.userId === user.id);
    if (account) account.access_token = await hashPassword("z".repeat(1025));
    expect(await signIn(a.browser(), "long@example.com", "z".repeat(1025))).toBe(refusedWith("long@example.com"));
  });

  it("not text is refused before any check, and counted", async () => {
    const a = app();
    await member(a, a.browser(), "t@example.com");
    expect(await signIn(a.browser(), ["t@example.com"], "first password")).toBe(refused);
    expect(await signIn(a.browser(), "t@example.com", ["first password"])).toBe(refusedWith("t@example.com"));
    // No password at all: the same refusal.
    expect(await signIn(a.browser(), "t@example.com", undefined)).toBe(refusedWith("t@example.com"));
  });
});

describe("the current password (change)", () => {
  it("a wrong one is IncorrectPassword and counts toward the account's limit; the right one afterwards is limited too", async () => {
    const a = app({ config: { rateLimit: { credentials: { freeFailures: 1 } } } });
    const browser = a.browser();
    await member(a, browser, "lim@example.com");
    const change = (currentPassword: string) =>
      post(browser, "/auth/password/change", { currentPassword, password: "second password", callbackUrl: "/s" });
    expect(await change("wrong one 1")).toBe(`${ORIGIN}/s?error=IncorrectPassword`);
    // Past the free failure, the next try waits: even the right password is refused until then.
    expect(await change("first password")).toBe(`${ORIGIN}/s?error=RateLimited`);
    expect(a.logs).toContain("IncorrectPassword: The current password is not right.");
    expect(a.logs).toContain("warn rate-limited");
  });

  it("shares the account's count with sign-in: failed sign-ins elsewhere hold back a change", async () => {
    const a = app({ config: { rateLimit: { credentials: { freeFailures: 1 } } } });
    const browser = a.browser();
    await member(a, browser, "shared@example.com");
    const attacker = a.browser();
    const csrfToken = await attacker.csrf();
    await attacker.send("/auth/callback/password", { form: { csrfToken, email: "shared@example.com", password: "guess one" } });
    expect(
      await post(browser, "/auth/password/change", { currentPassword: "first password", password: "second password", callbackUrl: "/s" }),
    ).toBe(`${ORIGIN}/s?error=RateLimited`);
  });

  it("without limits, wrong ones are only IncorrectPassword; a missing one too", async () => {
    const a = app({ config: { rateLimit: false } });
    const browser = a.browser();
    await member(a, browser, "free@example.com");
    for (let i = 0; i < 5; i++) {
      expect(
        await post(browser, "/auth/password/change", { currentPassword: `wrong ${i}`, password: "second password", callbackUrl: "/s" }),
      ).toBe(`${ORIGIN}/s?error=IncorrectPassword`);
    }
    expect(await post(browser, "/auth/password/change", { password: "second password", callbackUrl: "/s" })).toBe(
      `${ORIGIN}/s?error=IncorrectPassword`,
    );
    expect(
      await post(browser, "/auth/password/change", { currentPassword: "first password", password: "second password", callbackUrl: "/s" }),
    ).toBe(`${ORIGIN}/s`);
  });
});

describe("the routes themselves", () => {
  it("every POST needs the form's CSRF token", async () => {
    const a = app();
    const browser = a.browser();
    await browser.csrf();
    const answers: Array<string | null> = [];
    for (const route of ["sign-up", "verify", "forgot", "reset", "resend", "change"]) {
      const response = await browser.send(`/auth/password/${route}`, {
        form: { email: "a@example.com", password: "first password", token: "t" },
      });
      answers.push(response.headers.get("location"));
    }
    expect(answers).toEqual([
      `${ORIGIN}/auth/password/sign-up?error=MissingCSRF&email=a%40example.com`,
      `${ORIGIN}/auth/signin?error=MissingCSRF`,
      `${ORIGIN}/auth/password/forgot?error=MissingCSRF&email=a%40example.com`,
      `${ORIGIN}/auth/password/reset?error=MissingCSRF&token=t`,
      `${ORIGIN}/auth/password/reset?error=MissingCSRF&token=t`,
      `${ORIGIN}/?error=MissingCSRF`,
    ]);
    // A client's signal: each refusal's line (at debug), beside its csrf-refused warning.
    expect(a.logs.filter((line) => !line.startsWith("warn "))).toEqual([
      "MissingCSRF: The CSRF token was missing or wrong during the password sign-up action.",
      "MissingCSRF: The CSRF token was missing or wrong during the email verification action.",
      "MissingCSRF: The CSRF token was missing or wrong during the password reset request action.",
      "MissingCSRF: The CSRF token was missing or wrong during the password reset action.",
      "MissingCSRF: The CSRF token was missing or wrong during the password reset request action.",
      "MissingCSRF: The CSRF token was missing or wrong during the password change action.",
    ]);
    expect(a.mails).toEqual([]);
  });

  it("a verification link opened in another browser confirms the address, signs nobody in there", async () => {
    const a = app();
    await post(a.browser(), "/auth/password/sign-up", { email: "else@example.com", password: "first password" });
    const elsewhere = a.browser();
    expect(await post(elsewhere, "/auth/password/verify", { token: a.tokenIn("else@example.com", "/auth/password/verify") })).toBe(
      `${ORIGIN}/auth/verify-request?provider=password&type=password-verified`,
    );
    expect(await elsewhere.session()).toBeNull();
    expect([...a.users.values()].map((u) => u.email)).toEqual(["else@example.com"]);
  });

  it("GET serves the four pages, POST the five forms; anything else is refused", async () => {
    const a = app();
    const browser = a.browser();
    for (const page of ["sign-up", "forgot"]) expect((await browser.send(`/auth/password/${page}`)).status).toBe(200);
    expect((await browser.send("/auth/password/reset?token=nope")).headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`);
    expect((await browser.send("/auth/password/verify?token=nope")).headers.get("location")).toBe(
      `${ORIGIN}/auth/error?error=Verification`,
    );
    expect((await browser.send("/auth/password/change")).status).toBe(405);
    expect((await browser.send("/auth/password/other")).status).toBe(404);
    // Issue 45: no operation declares `password` without a sub-route, for any method: not found (was 405).
    const bare = await browser.send("/auth/password");
    expect(bare.status).toBe(404);
    expect(await bare.json()).toEqual({ error: "UnknownAction", message: "Not found." });
    // The two bad links, the method the change form does not take; the path that does not exist is refused before any route.
    expect(a.logs).toEqual([
      "Verification: The link is not valid or has expired. Ask for a new one.",
      "Verification: The link is not valid or has expired. Ask for a new one.",
      "MethodNotAllowed: GET is not supported on /password/change.",
    ]);
  });

  it("without a Password() provider, the routes answer that there is none", async () => {
    const config: AuthConfig = { secret, trustHost: true, providers: [Credentials({ authorize: () => null })] };
    const logs: string[] = [];
    const response = await authClient({ ...config, logger: { error: (e) => void logs.push(e.message) } }, ORIGIN).send(
      "/auth/password/sign-up",
    );
    expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Configuration`);
    expect(logs).toEqual(["No Password() provider is configured."]);
  });

  it("auth.api callers get the typed error, not the form", async () => {
    const a = app();
    const { createAuth } = await import("../../src/kernel/instance.js");
    const auth = createAuth(a.config);
    const refused = await auth.api
      .signUp({ url: ORIGIN, headers: { "sec-fetch-site": "same-origin" } }, { email: "a@example.com", password: "x" })
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ type: "InvalidPassword", rule: "too-short" });
  });
});
