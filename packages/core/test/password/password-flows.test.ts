/**
 * The Password() provider end to end over HTTP (`Auth()`), on the hosted-db adapter (PGlite) and a real
 * SMTP server: sign-up → verify → sign out → sign in, forgot → reset, change, with JWT and database
 * sessions; and what must not work: rule violations, reused, expired, foreign-browser and concurrent
 * links, wrong current passwords, token confusion.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encode } from "../../src/jwt.js";
import { createAuth } from "../../src/kernel/instance.js";
import Nodemailer from "../../src/providers/nodemailer.js";
import Password from "../../src/providers/password.js";
import { closeSharedPglite } from "../helpers/database.js";
import { memoryAdapter } from "../helpers/memory-adapter.js";
import { startSmtpServer } from "../helpers/smtp.js";
import { linkIn, mailTo, ORIGIN, passwordApp, post, type Smtp, secret, signIn, signUpAndVerify } from "./helpers.js";

let smtp: Smtp;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await smtp.close();
  await closeSharedPglite();
});

describe.each(["jwt", "database"] as const)("Password() with %s sessions", (strategy) => {
  it("sign up → verify → sign out → sign in with the password", async () => {
    const app = await passwordApp(smtp, { strategy });
    const browser = app.browser();
    const since = smtp.mails.length;
    const signUp = await post(browser, "/auth/password/sign-up", {
      email: "Ada@Example.com",
      password: "correct horse battery",
      name: "Ada Lovelace",
      callbackUrl: "/welcome",
    });
    expect(signUp.status).toBe(302);
    expect(signUp.headers.get("location")).toBe(`${ORIGIN}/auth/verify-request?provider=password&type=password-sign-up`);
    // Nothing is stored before the address is proven.
    expect(await app.adapter.getUserByEmail("ada@example.com")).toBeNull();

    const mail = mailTo(smtp, "ada@example.com", since);
    expect(mail.subject).toBe("Confirm your email address for localhost:3000");
    const link = linkIn(mail, "/auth/password/verify");
    // The link opens a page whose button POSTs: a scanner's GET spends nothing.
    const page = await browser.send(link.href);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('action="http://localhost:3000/auth/password/verify"');
    expect(await app.adapter.getUserByEmail("ada@example.com")).toBeNull();

    const verified = await post(browser, "/auth/password/verify", { token: link.searchParams.get("token") as string });
    expect(verified.headers.get("location")).toBe(`${ORIGIN}/welcome`);
    const session = await browser.session();
    expect(session?.user).toMatchObject({ email: "ada@example.com", name: "Ada Lovelace" });
    const user = await app.adapter.getUserByEmail("ada@example.com");
    expect(user?.emailVerified).toBeInstanceOf(Date);
    // The account row holds the portable hash (parameters included), never the password.
    const account = await app.adapter.getAccount(user?.id as string, "password");
    expect(account).toMatchObject({ type: "credentials", provider: "password", userId: user?.id });
    expect(account?.access_token).toMatch(/^scrypt\$\d+\$\d+\$\d+\$/);

    await post(browser, "/auth/signout", {});
    expect(await browser.session()).toBeNull();

    const wrong = await signIn(browser, "ada@example.com", "not the password");
    expect(wrong.headers.get("location")).toBe(
      `${ORIGIN}/auth/signin?error=CredentialsSignin&code=credentials&provider=password&email=ada%40example.com`,
    );
    const right = await signIn(browser, "ADA@example.com", "correct horse battery");
    expect(right.headers.get("location")).toBe(`${ORIGIN}/home`);
    expect((await browser.session())?.user).toMatchObject({ email: "ada@example.com" });
    expect(app.events).toContain("createUser ada@example.com");
    expect(app.events).toContain("signIn ada@example.com password");
  });

  it("forgot → reset in the same browser: the old password is refused and every other session ends", async () => {
    const app = await passwordApp(smtp, { strategy });
    const laptop = app.browser();
    await signUpAndVerify(smtp, laptop, "grace@example.com", "first password 1");
    const phone = app.browser();
    await signIn(phone, "grace@example.com", "first password 1");
    expect(await phone.session()).not.toBeNull();

    const browser = app.browser();
    const since = smtp.mails.length;
    const asked = await post(browser, "/auth/password/forgot", { email: "grace@example.com", callbackUrl: "/after-reset" });
    expect(asked.headers.get("location")).toBe(`${ORIGIN}/auth/verify-request?provider=password&type=password-reset`);
    const link = linkIn(mailTo(smtp, "grace@example.com", since), "/auth/password/reset");
    const token = link.searchParams.get("token") as string;
    expect((await browser.send(link.href)).status).toBe(200);

    const reset = await post(browser, "/auth/password/reset", { token, password: "second password 2" });
    expect(reset.headers.get("location")).toBe(`${ORIGIN}/after-reset`);
    expect((await browser.session())?.user).toMatchObject({ email: "grace@example.com" });
    // Both earlier sessions ended, with either strategy (JWTs through the adapter's session records).
    expect(await laptop.session()).toBeNull();
    expect(await phone.session()).toBeNull();
    expect(mailTo(smtp, "grace@example.com").subject).toBe("Your password for localhost:3000 changed");

    const other = app.browser();
    expect((await signIn(other, "grace@example.com", "first password 1")).headers.get("location")).toContain("error=CredentialsSignin");
    expect((await signIn(other, "grace@example.com", "second password 2")).headers.get("location")).toBe(`${ORIGIN}/home`);

    // The link is spent: a second use (even in the same browser) is refused, and the page says so.
    const again = await post(browser, "/auth/password/reset", { token, password: "third password 3" });
    expect(again.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`);
    expect((await browser.send(link.href)).headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`);
    expect(app.events.filter((e) => e.startsWith("passwordChanged"))).toHaveLength(1);
  });

  it("change: needs the session and the current password, and ends the user's other sessions", async () => {
    const app = await passwordApp(smtp, { strategy });
    const browser = app.browser();
    await signUpAndVerify(smtp, browser, "linus@example.com", "old password 1");
    const other = app.browser();
    await signIn(other, "linus@example.com", "old password 1");

    const wrong = await post(browser, "/auth/password/change", {
      currentPassword: "nope nope 1",
      password: "new password 2",
      callbackUrl: "/settings?done=saved",
    });
    // A browser's form goes back to the page it came from, with the error.
    expect(wrong.headers.get("location")).toBe(`${ORIGIN}/settings?error=IncorrectPassword`);
    const short = await post(browser, "/auth/password/change", {
      currentPassword: "old password 1",
      password: "short",
      callbackUrl: "/settings",
    });
    expect(short.headers.get("location")).toBe(`${ORIGIN}/settings?error=InvalidPassword&code=too-short`);
    expect(await other.session()).not.toBeNull();

    const changed = await post(browser, "/auth/password/change", { currentPassword: "old password 1", password: "new password 2" });
    expect(changed.status).toBe(302);
    expect(await browser.session()).not.toBeNull();
    expect(await other.session()).toBeNull();
    const fresh = app.browser();
    expect((await signIn(fresh, "linus@example.com", "old password 1")).headers.get("location")).toContain("error=CredentialsSignin");
    expect((await signIn(fresh, "linus@example.com", "new password 2")).headers.get("location")).toBe(`${ORIGIN}/home`);

    const signedOut = app.browser();
    const refused = await post(signedOut, "/auth/password/change", { currentPassword: "new password 2", password: "x".repeat(20) });
    expect(refused.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=SessionRequired`);
  });
});

describe("Password(): the same answer whoever owns the address", () => {
  it("sign-up of a known and an unknown address answer alike; the owner is told, nothing is overwritten", async () => {
    const app = await passwordApp(smtp);
    await signUpAndVerify(smtp, app.browser(), "known@example.com", "owner password 1");
    const attacker = app.browser();
    const since = smtp.mails.length;
    const known = await post(attacker, "/auth/password/sign-up", { email: "known@example.com", password: "attacker password" });
    const unknown = await post(attacker, "/auth/password/sign-up", { email: "nobody@example.com", password: "attacker password" });
    expect(known.status).toBe(unknown.status);
    expect(known.headers.get("location")).toBe(unknown.headers.get("location"));
    expect(known.setCookies.map((c) => c.name)).toEqual(unknown.setCookies.map((c) => c.name));
    expect(mailTo(smtp, "known@example.com", since).subject).toBe("You already have an account on localhost:3000");
    expect(mailTo(smtp, "nobody@example.com", since).subject).toBe("Confirm your email address for localhost:3000");
    // The owner's password still works; the attacker's does not.
    const owner = app.browser();
    expect((await signIn(owner, "known@example.com", "attacker password")).headers.get("location")).toContain("CredentialsSignin");
    expect((await signIn(owner, "known@example.com", "owner password 1")).headers.get("location")).toBe(`${ORIGIN}/home`);
  });

  it("forgot for a known and an unknown address answer alike; each gets one mail", async () => {
    const app = await passwordApp(smtp);
    await signUpAndVerify(smtp, app.browser(), "kept@example.com", "owner password 1");
    const someone = app.browser();
    const since = smtp.mails.length;
    const known = await post(someone, "/auth/password/forgot", { email: "kept@example.com" });
    const unknown = await post(someone, "/auth/password/forgot", { email: "ghost@example.com" });
    expect(known.status).toBe(unknown.status);
    expect(known.headers.get("location")).toBe(unknown.headers.get("location"));
    expect(smtp.mails.length).toBe(since + 2);
    expect(mailTo(smtp, "ghost@example.com", since).subject).toBe("Password reset for localhost:3000");
  });

  it("sign-in refuses an unknown address, a wrong password and a user without a password the same way", async () => {
    const app = await passwordApp(smtp);
    await signUpAndVerify(smtp, app.browser(), "real@example.com", "owner password 1");
    // A user with a proven address and no password (signed up with an email link, say).
    await app.adapter.createUser({ id: crypto.randomUUID(), email: "linkonly@example.com", emailVerified: new Date() });
    const answers = await Promise.all(
      [
        ["real@example.com", "wrong password"],
        ["ghost@example.com", "owner password 1"],
        ["linkonly@example.com", "owner password 1"],
        ["not an address", "owner password 1"],
      ].map(async ([email, password]) => {
        const response = await signIn(app.browser(), email as string, password as string);
        return [response.status, response.headers.get("location")];
      }),
    );
    // The same refusal for every reason: only the address typed comes back to the form.
    const refusal = `${ORIGIN}/auth/signin?error=CredentialsSignin&code=credentials&provider=password`;
    const typed = ["real@example.com", "ghost@example.com", "linkonly@example.com", "not an address"];
    expect(answers).toEqual(typed.map((email) => [302, `${refusal}&${new URLSearchParams({ email })}`]));
  });
});

describe("Password(): bad input", () => {
  it("each password and name rule has its own error, shown on the form; nothing is sent", async () => {
    const app = await passwordApp(smtp, { password: { minLength: 10, maxLength: 20 } });
    const browser = app.browser();
    const since = smtp.mails.length;
    const cases: Array<[Record<string, string>, string]> = [
      [{ email: "a@example.com", password: "short" }, "error=InvalidPassword&code=too-short"],
      [{ email: "a@example.com", password: "x".repeat(21) }, "error=InvalidPassword&code=too-long"],
      [{ email: "a@example.com", password: "" }, "error=InvalidPassword&code=missing"],
      [{ email: "a@example.com", password: "long enough pw", name: "n".repeat(65) }, "error=InvalidName"],
      [{ email: "a@example.com", password: "long enough pw", name: "two\nlines" }, "error=InvalidName"],
      [{ email: "not-an-address", password: "long enough pw" }, "error=EmailSignInError"],
      [{ email: "a@example.com,b@evil.test", password: "long enough pw" }, "error=EmailSignInError"],
    ];
    for (const [form, error] of cases) {
      const response = await post(browser, "/auth/password/sign-up", form);
      // The name and address typed come back to the form (never the password).
      const kept = new URLSearchParams(Object.entries(form).filter(([key, value]) => key !== "password" && !value.includes("\n")));
      kept.sort();
      const back = new URL(response.headers.get("location") as string);
      expect(`${back.origin}${back.pathname}?${error}`).toBe(`${ORIGIN}/auth/password/sign-up?${error}`);
      back.searchParams.delete("error");
      back.searchParams.delete("code");
      back.searchParams.sort();
      expect(back.searchParams.toString()).toBe(kept.toString());
    }
    // Ten characters counted as code points after NFKC: "ｐａｓｓｗｏｒｄ１２" is "password12".
    await post(browser, "/auth/password/sign-up", { email: "wide@example.com", password: "ｐａｓｓｗｏｒｄ１２" });
    expect(smtp.mails.length).toBe(since + 1);
    // The form shows the rule's message.
    const page = await browser.send("/auth/password/sign-up?error=InvalidPassword&code=too-short");
    expect(await page.text()).toContain("Use at least 10 characters for your password.");
  });

  it("a POST without the CSRF token changes nothing", async () => {
    const app = await passwordApp(smtp);
    const browser = app.browser();
    const since = smtp.mails.length;
    await browser.csrf();
    const response = await browser.send("/auth/password/sign-up", { form: { email: "csrf@example.com", password: "long enough pw" } });
    expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/password/sign-up?error=MissingCSRF&email=csrf%40example.com`);
    const forgot = await browser.send("/auth/password/forgot", { form: { email: "csrf@example.com" } });
    expect(forgot.headers.get("location")).toBe(`${ORIGIN}/auth/password/forgot?error=MissingCSRF&email=csrf%40example.com`);
    expect(smtp.mails.length).toBe(since);
  });

  it("a reset link works only in the browser that asked for it; a new password invalidates older links", async () => {
    const app = await passwordApp(smtp);
    await signUpAndVerify(smtp, app.browser(), "bound@example.com", "owner password 1");
    const asker = app.browser();
    let since = smtp.mails.length;
    await post(asker, "/auth/password/forgot", { email: "bound@example.com" });
    const first = linkIn(mailTo(smtp, "bound@example.com", since), "/auth/password/reset").searchParams.get("token") as string;
    since = smtp.mails.length;
    await post(asker, "/auth/password/forgot", { email: "bound@example.com" });
    const second = linkIn(mailTo(smtp, "bound@example.com", since), "/auth/password/reset").searchParams.get("token") as string;

    const thief = app.browser();
    const stolen = await post(thief, "/auth/password/reset", { token: first, password: "thief password" });
    expect(stolen.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`);
    // Its page there has no password form: only "email me a link for this browser" (reset-other-browser.test.ts).
    const page = await thief.send(`/auth/password/reset?token=${encodeURIComponent(first)}`);
    expect(page.status).toBe(200);
    expect(await page.text()).not.toContain('name="password"');

    // A rule violation keeps the token on the way back to the form.
    const short = await post(asker, "/auth/password/reset", { token: first, password: "short" });
    expect(short.headers.get("location")).toBe(
      `${ORIGIN}/auth/password/reset?error=InvalidPassword&code=too-short&token=${encodeURIComponent(first)}`,
    );
    expect((await post(asker, "/auth/password/reset", { token: first, password: "new owner password" })).headers.get("location")).toBe(
      `${ORIGIN}/`,
    );
    // The second link was asked for before the password changed: dead too.
    const late = await post(asker, "/auth/password/reset", { token: second, password: "another password" });
    expect(late.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`);
  });

  it("50 concurrent redemptions of one reset link: exactly one sets the password", async () => {
    const app = await passwordApp(smtp, { strategy: "database" });
    await signUpAndVerify(smtp, app.browser(), "race@example.com", "owner password 1");
    const asker = app.browser();
    const since = smtp.mails.length;
    await post(asker, "/auth/password/forgot", { email: "race@example.com" });
    const token = linkIn(mailTo(smtp, "race@example.com", since), "/auth/password/reset").searchParams.get("token") as string;
    const csrfToken = await asker.csrf();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        asker.send("/auth/password/reset", { form: { csrfToken, token, password: `concurrent password ${i}` } }),
      ),
    );
    const locations = answers.map((a) => a.headers.get("location"));
    expect(locations.filter((l) => l === `${ORIGIN}/`)).toHaveLength(1);
    expect(locations.filter((l) => l === `${ORIGIN}/auth/error?error=Verification`)).toHaveLength(49);
    expect(app.events.filter((e) => e.startsWith("passwordChanged"))).toHaveLength(1);
  });

  it("50 concurrent redemptions of one sign-up link: exactly one account", async () => {
    const app = await passwordApp(smtp);
    const browser = app.browser();
    const since = smtp.mails.length;
    await post(browser, "/auth/password/sign-up", { email: "twice@example.com", password: "owner password 1" });
    const token = linkIn(mailTo(smtp, "twice@example.com", since), "/auth/password/verify").searchParams.get("token") as string;
    const csrfToken = await browser.csrf();
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => browser.send("/auth/password/verify", { form: { csrfToken, token } })),
    );
    const ok = answers.filter((a) => a.headers.get("location") === `${ORIGIN}/`);
    expect(ok).toHaveLength(1);
    expect(app.events.filter((e) => e.startsWith("createUser"))).toHaveLength(1);
  });

  it("a sign-up link opened in another browser confirms the address but signs nobody in there", async () => {
    const app = await passwordApp(smtp);
    const since = smtp.mails.length;
    await post(app.browser(), "/auth/password/sign-up", { email: "phone@example.com", password: "owner password 1" });
    const token = linkIn(mailTo(smtp, "phone@example.com", since), "/auth/password/verify").searchParams.get("token") as string;
    const elsewhere = app.browser();
    const confirmed = await post(elsewhere, "/auth/password/verify", { token });
    expect(confirmed.headers.get("location")).toBe(`${ORIGIN}/auth/verify-request?provider=password&type=password-verified`);
    expect(await elsewhere.session()).toBeNull();
    expect((await signIn(app.browser(), "phone@example.com", "owner password 1")).headers.get("location")).toBe(`${ORIGIN}/home`);
  });

  it("tokens of other kinds never open a password link (token confusion), nor do tampered or expired ones", async () => {
    const app = await passwordApp(smtp);
    const browser = app.browser();
    const session = await encode({
      token: { sub: "u", email: "x@example.com", jti: "j", binding: "b" },
      secret,
      salt: "authlib.session-token",
    });
    const since = smtp.mails.length;
    await post(browser, "/auth/password/sign-up", { email: "kinds@example.com", password: "owner password 1" });
    const signUp = linkIn(mailTo(smtp, "kinds@example.com", since), "/auth/password/verify").searchParams.get("token") as string;
    const expired = await encode({
      token: { email: "kinds@example.com", binding: "b", name: null, hash: "h", callbackUrl: "/" },
      secret,
      salt: "authlib.password-sign-up",
      maxAge: -3600,
    });
    for (const token of [session, signUp, `${signUp.slice(0, -2)}AA`, "", "%%%"]) {
      const response = await post(browser, "/auth/password/reset", { token, password: "long enough pw" });
      expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`);
    }
    for (const token of [session, expired, `${signUp.slice(0, -2)}AA`]) {
      const response = await post(browser, "/auth/password/verify", { token });
      expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`);
    }
    // An expired reset link of this very browser and user, with the right fingerprint, is refused too.
    await post(browser, "/auth/password/verify", { token: signUp });
    const user = await app.adapter.getUserByEmail("kinds@example.com");
    const account = (await app.adapter.listAccountsByUserId?.(user?.id as string))?.[0];
    const { passwordFingerprint } = await import("../../src/sign-in/link-tokens.js");
    const { bindingOf } = await import("../../src/http/flow-binding.js");
    const fingerprint = await passwordFingerprint({ secret: [secret] } as never, account?.access_token ?? undefined);
    const claims = {
      email: "kinds@example.com",
      userId: user?.id,
      fingerprint,
      binding: await bindingOf((browser.jar.get("authlib.csrf-token") ?? "").split("|")[0] as string, ""),
      callbackUrl: `${ORIGIN}/`,
    };
    const fresh = await encode({ token: claims, secret, salt: "authlib.password-reset", maxAge: 600 });
    const stale = await encode({ token: claims, secret, salt: "authlib.password-reset", maxAge: -3600 });
    const refused = await post(browser, "/auth/password/reset", { token: stale, password: "long enough pw" });
    expect(refused.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`);
    // The same claims, unexpired, work: the expiry alone refused the other.
    const accepted = await post(browser, "/auth/password/reset", { token: fresh, password: "long enough pw" });
    expect(accepted.headers.get("location")).toBe(`${ORIGIN}/`);
  });
});

describe("Password(): configuration", () => {
  it("needs an adapter and a way to send mail, at start-up", () => {
    const smtpProvider = Nodemailer({ server: "smtp://127.0.0.1:1" });
    expect(() => createAuth({ secret, trustHost: true, providers: [smtpProvider, Password()] })).toThrow(
      expect.objectContaining({ type: "MissingAdapter" }),
    );
    const { adapter } = memoryAdapter();
    expect(() => createAuth({ secret, trustHost: true, adapter, providers: [Password()] })).toThrow(
      expect.objectContaining({ type: "MissingAdapterMethods" }),
    );
    const complete = { ...adapter, createVerificationToken: () => null, useVerificationToken: () => null };
    expect(() => createAuth({ secret, trustHost: true, adapter: complete, providers: [Password()] })).toThrow(
      expect.objectContaining({ type: "InvalidProvider" }),
    );
    expect(() => createAuth({ secret, trustHost: true, adapter: complete, providers: [Password({ sendMail: () => {} })] })).not.toThrow();
    expect(() => createAuth({ secret, trustHost: true, adapter: complete, providers: [smtpProvider, Password()] })).not.toThrow();
    expect(() => Password({ minLength: 0 })).toThrow(/minLength/);
    expect(() => Password({ minLength: 12, maxLength: 10 })).toThrow(/maxLength/);
  });
});
