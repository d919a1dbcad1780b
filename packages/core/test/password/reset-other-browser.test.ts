/**
 * A reset link opened in a browser other than the one that asked for it (issue 44): the page says so
 * (the link is live: not "used or expired") and offers one way on, "email me a link for this browser",
 * which mails a new link, bound to this browser, to the account's address. Over HTTP (`Auth()`), on
 * PGlite and a real SMTP server, JWT and database sessions:
 *
 * - the phone that opens the laptop's link gets a new link and resets there; the laptop's link is dead
 *   afterwards (the password changed);
 * - a link leaked to someone else gets them nothing: the new mail goes to the owner only, the holder's
 *   browser is never signed in and never gets a password form for the old link;
 * - the new link is bound to the browser that clicked: in the laptop it shows the same page;
 * - a dead link (used, password changed) says so everywhere and mails nothing;
 * - the button counts against the email limits (`RateLimited` shown on the page, token kept);
 * - the page speaks the request's language;
 * - `auth.api.resendPasswordReset` does the same for an app's own pages.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuth } from "../../src/kernel/instance.js";
import { closeSharedPglite, sharedPglite } from "../helpers/database.js";
import { startSmtpServer } from "../helpers/smtp.js";
import { type Browser, linkIn, mailTo, ORIGIN, passwordApp, post, type Smtp, signIn, signUpAndVerify } from "./helpers.js";

let smtp: Smtp;
beforeAll(async () => {
  // Cold starts belong to the hook, not to the first test's time.
  [smtp] = await Promise.all([startSmtpServer(), sharedPglite().waitReady]);
}, 120_000);
afterAll(async () => {
  await smtp.close();
  await closeSharedPglite();
});

const TITLE = "This link was asked for in another browser";

/** Asks for a reset of `email` in `browser`: the token of the mailed link. */
async function askReset(browser: Browser, email: string, callbackUrl = "/after-reset"): Promise<string> {
  const since = smtp.mails.length;
  await post(browser, "/auth/password/forgot", { email, callbackUrl });
  return linkIn(mailTo(smtp, email, since), "/auth/password/reset").searchParams.get("token") as string;
}

const resetPage = (browser: Browser, token: string, headers: Record<string, string> = {}) =>
  browser.send(`/auth/password/reset?${new URLSearchParams({ token })}`, { headers });

describe.each(["jwt", "database"] as const)("a reset link in another browser, %s sessions", (strategy) => {
  it("says where the link was asked for, mails a link for this browser, and the reset works there", async () => {
    const app = await passwordApp(smtp, { strategy });
    const email = `phone-${strategy}@example.com`;
    await signUpAndVerify(smtp, app.browser(), email, "first password 1");
    const laptop = app.browser();
    const token = await askReset(laptop, email);

    const phone = app.browser();
    const page = await resetPage(phone, token);
    expect(page.status).toBe(200);
    expect(page.headers.get("referrer-policy")).toBe("same-origin");
    const html = await page.text();
    expect(html).toContain(`<h1>${TITLE}</h1>`);
    expect(html).toContain("This link is still valid and has not been used.");
    expect(html).not.toContain("may have been used already");
    // No password field: the form's only action is the new mail.
    expect(html).not.toContain('name="password"');
    expect(html).toContain(`action="${ORIGIN}/auth/password/resend"`);
    expect(html).toContain(`name="token" value="${token}"`);
    expect(html).toContain("Email me a link for this browser");

    const since = smtp.mails.length;
    const resent = await post(phone, "/auth/password/resend", { token });
    expect(resent.headers.get("location")).toBe(`${ORIGIN}/auth/verify-request?provider=password&type=password-reset`);
    expect(await phone.session()).toBeNull();
    // One new mail, to the account's address, the same reset mail as `forgot` sends.
    expect(smtp.mails.slice(since).map((m) => (m.to as { text: string }).text)).toEqual([email]);
    const mail = mailTo(smtp, email, since);
    expect(mail.subject).toBe("Reset your password for localhost:3000");
    const fresh = linkIn(mail, "/auth/password/reset").searchParams.get("token") as string;
    expect(fresh).not.toBe(token);

    // The new link is this browser's: the form, then the reset, to the target the first link was asked with.
    const form = await (await resetPage(phone, fresh)).text();
    expect(form).toContain('name="password"');
    const reset = await post(phone, "/auth/password/reset", { token: fresh, password: "second password 2" });
    expect(reset.headers.get("location")).toBe(`${ORIGIN}/after-reset`);
    expect((await phone.session())?.user?.email).toBe(email);
    expect(app.events).toContain(`passwordChanged ${(await app.adapter.getUserByEmail(email))?.id} reset`);

    // The laptop's link died with the old password: it says so there too, and offers nothing.
    const dead = await resetPage(laptop, token);
    expect(dead.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`);
    expect((await signIn(app.browser(), email, "second password 2")).headers.get("location")).toBe(`${ORIGIN}/home`);
  });

  it("a leaked link gets its holder nothing: the mail goes to the owner, no session, no password form", async () => {
    const app = await passwordApp(smtp, { strategy });
    const email = `leak-${strategy}@example.com`;
    await signUpAndVerify(smtp, app.browser(), email, "owner password 1");
    const owner = app.browser();
    const token = await askReset(owner, email);

    const holder = app.browser();
    const since = smtp.mails.length;
    await post(holder, "/auth/password/resend", { token });
    expect(smtp.mails.slice(since).map((m) => (m.to as { text: string }).text)).toEqual([email]);
    expect(await holder.session()).toBeNull();
    // The old link still refuses the holder's browser…
    const stolen = await post(holder, "/auth/password/reset", { token, password: "holder password" });
    expect(stolen.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`);
    expect(await holder.session()).toBeNull();
    // …and the new one is bound to the holder's browser, which cannot read the owner's mailbox; in the
    // owner's browser it is "another browser" again, so the owner asks for one there in turn.
    const fresh = linkIn(mailTo(smtp, email, since), "/auth/password/reset").searchParams.get("token") as string;
    expect(await (await resetPage(owner, fresh)).text()).toContain(`<h1>${TITLE}</h1>`);
    // The owner's own link still works where it was asked for.
    const reset = await post(owner, "/auth/password/reset", { token, password: "owner password 2" });
    expect(reset.headers.get("location")).toBe(`${ORIGIN}/after-reset`);
    expect((await owner.session())?.user?.email).toBe(email);
    expect(app.logs).toEqual(["Verification: Open the link in the browser where you asked for it (this one did not)."]);
  });
});

describe("what the button refuses", () => {
  it("a dead link (used, or the password changed): the error page everywhere, no mail", async () => {
    const app = await passwordApp(smtp);
    const email = "dead@example.com";
    await signUpAndVerify(smtp, app.browser(), email, "first password 1");
    const asker = app.browser();
    const token = await askReset(asker, email);
    await post(asker, "/auth/password/reset", { token, password: "second password 2" });

    const other = app.browser();
    expect((await resetPage(other, token)).headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`);
    const since = smtp.mails.length;
    const refused = await post(other, "/auth/password/resend", { token });
    expect(refused.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`);
    const forged = await post(other, "/auth/password/resend", { token: "not-a-link" });
    expect(forged.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`);
    expect(smtp.mails.length).toBe(since);
    expect(app.logs).toEqual([
      "Verification: The link was used already, or the password changed since. Ask for a new one if you need it.",
      "Verification: The link was used already, or the password changed since. Ask for a new one if you need it.",
      "Verification: The link is not valid or has expired. Ask for a new one.",
    ]);
  });

  it("counts against the email limits: refused on the page itself, with the link kept", async () => {
    const app = await passwordApp(smtp);
    const email = "limited@example.com";
    await signUpAndVerify(smtp, app.browser(), email, "first password 1");
    const token = await askReset(app.browser(), email);
    const other = app.browser();
    const answers: string[] = [];
    for (let i = 0; i < 6; i++) answers.push((await post(other, "/auth/password/resend", { token })).headers.get("location") as string);
    const refusedAt = `${ORIGIN}/auth/password/reset?${new URLSearchParams({ error: "RateLimited", token })}`;
    expect(answers).toContain(refusedAt);
    expect(answers.indexOf(refusedAt)).toBeGreaterThan(0);
    const page = await other.send(refusedAt.slice(ORIGIN.length));
    const html = await page.text();
    expect(html).toContain(`<h1>${TITLE}</h1>`);
    expect(html).toContain('role="alert"');
  });

  it("auth.api.resendPasswordReset: the same for an app's own pages; resetPassword there takes the new link only", async () => {
    const app = await passwordApp(smtp);
    const auth = createAuth(app.config);
    const email = "api-resend@example.com";
    await signUpAndVerify(smtp, app.browser(), email, "first password 1");
    const token = await askReset(app.browser(), email);
    const phone = app.browser();
    await phone.csrf();
    const request = () => new Request(`${ORIGIN}/app`, { headers: { cookie: phone.jar.header(), "sec-fetch-site": "same-origin" } });
    await expect(auth.api.resetPassword(request(), { token, password: "phone password 2" })).rejects.toMatchObject({
      type: "Verification",
    });

    const since = smtp.mails.length;
    const resent = await auth.api.resendPasswordReset(request(), { token });
    expect(resent.redirect).toBe(`${ORIGIN}/auth/verify-request?provider=password&type=password-reset`);
    const fresh = linkIn(mailTo(smtp, email, since), "/auth/password/reset").searchParams.get("token") as string;
    const done = await auth.api.resetPassword(request(), { token: fresh, password: "phone password 2" });
    expect(done.redirect).toBe(`${ORIGIN}/after-reset`);
    await expect(auth.api.resendPasswordReset(request(), { token })).rejects.toMatchObject({ type: "Verification" });
  });

  it("speaks the request's language", async () => {
    const app = await passwordApp(smtp);
    const email = "sprache@example.com";
    await signUpAndVerify(smtp, app.browser(), email, "first password 1");
    const token = await askReset(app.browser(), email);
    const html = await (await resetPage(app.browser(), token, { "accept-language": "de" })).text();
    expect(html).toContain("<h1>Dieser Link wurde in einem anderen Browser angefordert</h1>");
    expect(html).toContain("Link für diesen Browser senden");
  });
});
