/**
 * The built-in account page over HTTP: who may see it, what it lists, and its forms (change password,
 * unlink), each coming back to the page with what happened.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { closeSharedPglite } from "../helpers/database.js";
import { startSmtpServer } from "../helpers/smtp.js";
import { linkIn, mailTo, ORIGIN, passwordApp, post, type Smtp, signIn, signUpAndVerify } from "./helpers.js";

let smtp: Smtp;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await smtp.close();
  await closeSharedPglite();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("the account page", () => {
  it("sends a signed-out visitor to sign in, and back to the page afterwards", async () => {
    const app = await passwordApp(smtp);
    const response = await app.browser().send("/auth/account");
    expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/signin?callbackUrl=${encodeURIComponent(`${ORIGIN}/auth/account`)}`);
  });

  it("lists the user's address and password, changes the password from its form, and shows refusals there", async () => {
    const app = await passwordApp(smtp);
    const browser = app.browser();
    await signUpAndVerify(smtp, browser, "page@example.com", "old password 1", "Page Owner");
    const page = await browser.send("/auth/account");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("page@example.com");
    expect(html).toContain("Page Owner");
    expect(html).toContain('action="http://localhost:3000/auth/password/change"');
    expect(html).toContain('name="currentPassword"');
    // The password account is listed as a way in, and is not unlinked from here.
    expect(html).toContain("<span>Password</span>");
    expect(html).not.toContain("Unlink Password");

    const callbackUrl = `${ORIGIN}/auth/account?done=password-changed`;
    const wrong = await post(browser, "/auth/password/change", { currentPassword: "wrong one 1", password: "new password 2", callbackUrl });
    expect(wrong.headers.get("location")).toBe(`${ORIGIN}/auth/account?error=IncorrectPassword`);
    expect(await (await browser.send(wrong.headers.get("location") as string)).text()).toContain("The current password is not right.");

    const changed = await post(browser, "/auth/password/change", {
      currentPassword: "old password 1",
      password: "new password 2",
      callbackUrl,
    });
    expect(changed.headers.get("location")).toBe(callbackUrl);
    expect(await (await browser.send(callbackUrl)).text()).toContain("Your password was changed.");
    expect((await signIn(app.browser(), "page@example.com", "new password 2")).headers.get("location")).toBe(`${ORIGIN}/home`);
  });

  it("unlink from the page: another user's account is not found, a CSRF-less post is refused, both back on the page", async () => {
    const app = await passwordApp(smtp);
    const browser = app.browser();
    await signUpAndVerify(smtp, browser, "owner@example.com", "owner password 1");
    const user = await app.adapter.getUserByEmail("owner@example.com");
    const other = await app.adapter.createUser({ id: crypto.randomUUID(), email: "other@example.com", emailVerified: new Date() });
    await app.adapter.linkAccount({ userId: other.id, type: "oauth", provider: "github", providerAccountId: "gh-other" });

    const foreign = await post(browser, "/auth/account/unlink", { provider: "github", providerAccountId: "gh-other" });
    expect(foreign.headers.get("location")).toBe(`${ORIGIN}/auth/account?error=AccountNotFound`);
    expect(await app.adapter.getAccount("gh-other", "github")).not.toBeNull();

    await browser.csrf();
    const noToken = await browser.send("/auth/account/unlink", { form: { provider: "password", providerAccountId: user?.id as string } });
    expect(noToken.headers.get("location")).toBe(`${ORIGIN}/auth/account?error=MissingCSRF`);
    expect(await app.adapter.getAccount(user?.id as string, "password")).not.toBeNull();
  });
});

describe("changing the email address", () => {
  it("the new address is proven by its link, confirmed by the same user; the old one is told and no longer signs in", async () => {
    const app = await passwordApp(smtp);
    const browser = app.browser();
    await signUpAndVerify(smtp, browser, "before@example.com", "owner password 1");
    let since = smtp.mails.length;
    const asked = await post(browser, "/auth/account/email", { email: "After@Example.com" });
    expect(asked.headers.get("location")).toBe(`${ORIGIN}/auth/account?done=email-sent`);
    const link = linkIn(mailTo(smtp, "after@example.com", since), "/auth/account/confirm-email");
    // Nothing changed yet.
    expect((await app.adapter.getUserByEmail("before@example.com"))?.email).toBe("before@example.com");

    // Signed out, the link sends to sign-in first (and back); another user cannot confirm it.
    const stranger = app.browser();
    expect((await stranger.send(link.href)).headers.get("location")).toBe(
      `${ORIGIN}/auth/signin?callbackUrl=${encodeURIComponent(link.href)}`,
    );
    await signUpAndVerify(smtp, stranger, "stranger@example.com", "stranger password");
    const foreign = await post(stranger, "/auth/account/confirm-email", { token: link.searchParams.get("token") as string });
    expect(foreign.headers.get("location")).toBe(`${ORIGIN}/auth/account?error=Verification`);

    expect((await browser.send(link.href)).status).toBe(200);
    since = smtp.mails.length;
    const confirmed = await post(browser, "/auth/account/confirm-email", { token: link.searchParams.get("token") as string });
    expect(confirmed.headers.get("location")).toBe(`${ORIGIN}/auth/account?done=email-changed`);
    expect(await app.adapter.getUserByEmail("before@example.com")).toBeNull();
    expect((await app.adapter.getUserByEmail("after@example.com"))?.emailVerified).toBeInstanceOf(Date);
    expect(mailTo(smtp, "before@example.com", since).subject).toBe("Your email address for localhost:3000 changed");
    expect((await signIn(app.browser(), "before@example.com", "owner password 1")).headers.get("location")).toContain("CredentialsSignin");
    expect((await signIn(app.browser(), "after@example.com", "owner password 1")).headers.get("location")).toBe(`${ORIGIN}/home`);

    const again = await post(browser, "/auth/account/confirm-email", { token: link.searchParams.get("token") as string });
    expect(again.headers.get("location")).toBe(`${ORIGIN}/auth/account?error=Verification`);
  });

  it("an address of another account: the same answer, its owner is told, nothing changes", async () => {
    const app = await passwordApp(smtp);
    const owner = app.browser();
    await signUpAndVerify(smtp, owner, "taken@example.com", "owner password 1");
    const other = app.browser();
    await signUpAndVerify(smtp, other, "other@example.com", "other password 1");
    const since = smtp.mails.length;
    const free = await post(other, "/auth/account/email", { email: "free@example.com" });
    const taken = await post(other, "/auth/account/email", { email: "taken@example.com" });
    expect(taken.headers.get("location")).toBe(free.headers.get("location"));
    const note = mailTo(smtp, "taken@example.com", since);
    expect(note.subject).toBe("Your email address on localhost:3000");
    expect(note.text).not.toContain("confirm-email");
    expect((await app.adapter.getUserByEmail("taken@example.com"))?.email).toBe("taken@example.com");
  });

  it("signed out or with a bad address: refused, nothing sent", async () => {
    const app = await passwordApp(smtp);
    const since = smtp.mails.length;
    const signedOut = await post(app.browser(), "/auth/account/email", { email: "x@example.com" });
    expect(signedOut.headers.get("location")).toBe(`${ORIGIN}/auth/account?error=SessionRequired`);
    const browser = app.browser();
    await signUpAndVerify(smtp, browser, "bad@example.com", "owner password 1");
    const mails = smtp.mails.length;
    const bad = await post(browser, "/auth/account/email", { email: "a@b.c,evil@x.test" });
    expect(bad.headers.get("location")).toBe(`${ORIGIN}/auth/account?error=EmailSignInError`);
    expect(smtp.mails.length).toBe(mails);
    expect(since).toBeLessThan(mails);
  });
});

describe("deleting one's account", () => {
  it("with a password: the current one is needed; then the user, their sessions and sign-in are gone", async () => {
    const deleted: string[] = [];
    const app = await passwordApp(smtp, { config: { events: { userDeleted: ({ user }) => void deleted.push(user.email as string) } } });
    const browser = app.browser();
    await signUpAndVerify(smtp, browser, "leaving@example.com", "owner password 1");
    const other = app.browser();
    await signIn(other, "leaving@example.com", "owner password 1");
    const wrong = await post(browser, "/auth/account/delete", { currentPassword: "not it 123" });
    expect(wrong.headers.get("location")).toBe(`${ORIGIN}/auth/account?error=IncorrectPassword&form=delete`);
    expect(await app.adapter.getUserByEmail("leaving@example.com")).not.toBeNull();

    const gone = await post(browser, "/auth/account/delete", { currentPassword: "owner password 1", callbackUrl: "/bye" });
    expect(gone.headers.get("location")).toBe(`${ORIGIN}/bye`);
    expect(await browser.session()).toBeNull();
    expect(await other.session()).toBeNull();
    expect(await app.adapter.getUserByEmail("leaving@example.com")).toBeNull();
    expect(deleted).toEqual(["leaving@example.com"]);
    expect((await signIn(app.browser(), "leaving@example.com", "owner password 1")).headers.get("location")).toContain("CredentialsSignin");
  });

  it("without a password: only within 10 minutes of signing in", async () => {
    const app = await passwordApp(smtp);
    const browser = app.browser();
    // Signed in with an email link: no password.
    const since = smtp.mails.length;
    await post(browser, "/auth/signin/nodemailer", { email: "nopass@example.com" });
    const link = mailTo(smtp, "nopass@example.com", since).text?.match(/http:\/\/localhost:3000\/auth\/callback\/nodemailer\?\S+/)?.[0];
    await browser.send(link as string);
    expect((await browser.session())?.user?.email).toBe("nopass@example.com");
    expect(await (await browser.send("/auth/account")).text()).toContain("deleting needs a sign-in in the last 10 minutes");

    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 11 * 60 * 1000);
    const stale = await post(browser, "/auth/account/delete", {});
    // Sent to sign in again, and back to the account page.
    expect(stale.headers.get("location")).toBe(
      `${ORIGIN}/auth/signin?callbackUrl=${encodeURIComponent(`${ORIGIN}/auth/account`)}&error=RecentSignInRequired`,
    );
    vi.useRealTimers();

    const recent = await post(browser, "/auth/account/delete", {});
    expect(recent.headers.get("location")).toBe(`${ORIGIN}/`);
    expect(await app.adapter.getUserByEmail("nopass@example.com")).toBeNull();
  });
});
