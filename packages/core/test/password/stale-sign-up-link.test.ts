/**
 * An old sign-up link never attaches a password to a user who exists when it is redeemed (issue 44): an
 * attacker signs up with the victim's address (the attacker's password sealed in the link), the victim
 * later signs in another way and so gets a user, then clicks the stale "confirm your address" mail. End
 * to end with a real SMTP server on PGlite.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeSharedPglite, sharedPglite } from "../helpers/database.js";
import { startSmtpServer } from "../helpers/smtp.js";
import { type Browser, linkIn, mailTo, ORIGIN, passwordApp, post, type Smtp, signIn } from "./helpers.js";

let smtp: Smtp;
beforeAll(async () => {
  smtp = await startSmtpServer();
  await sharedPglite().waitReady;
});
afterAll(async () => {
  await smtp.close();
  await closeSharedPglite();
});

/** Signs `browser` in with an email link: the first one makes the address's user. */
async function signInWithEmailLink(browser: Browser, email: string) {
  const since = smtp.mails.length;
  await post(browser, "/auth/signin/nodemailer", { email });
  const link = (await smtp.nextMail(since)).text?.match(/http:\/\/localhost:3000\/auth\/callback\/nodemailer\?\S+/)?.[0];
  await browser.send(link as string);
  expect((await browser.session())?.user?.email).toBe(email);
}

describe("a sign-up link redeemed after the address got a user", () => {
  it.each([
    ["the victim's browser", false],
    ["the attacker's own browser", true],
  ])("sets no password (clicked in %s): the page says the address has an account and offers a reset", async (_where, attackerClicks) => {
    const app = await passwordApp(smtp);
    const attacker = app.browser();
    let since = smtp.mails.length;
    await post(attacker, "/auth/password/sign-up", { email: "victim@example.com", password: "attacker password 1" });
    const stale = linkIn(mailTo(smtp, "victim@example.com", since), "/auth/password/verify");

    // The victim signs in another way: their user exists now, without a password.
    const victim = app.browser();
    await signInWithEmailLink(victim, "victim@example.com");
    const user = await app.adapter.getUserByEmail("victim@example.com");

    // The stale mail is clicked: its page, then its one-click POST.
    const clicker = attackerClicks ? attacker : victim;
    expect((await clicker.send(stale.href)).status).toBe(200);
    since = smtp.mails.length;
    const redeemed = await post(clicker, "/auth/password/verify", { token: stale.searchParams.get("token") as string });
    // No password: the attacker's does not sign in, and the victim's user has no password account.
    const tried = await signIn(app.browser(), "victim@example.com", "attacker password 1");
    expect(tried.headers.get("location")).toContain("error=CredentialsSignin");
    expect(await app.adapter.listAccountsByUserId?.(user?.id as string)).toEqual([]);
    expect(redeemed.headers.get("location")).toBe(`${ORIGIN}/auth/verify-request?provider=password&type=password-exists`);
    const page = await clicker.send(redeemed.headers.get("location") as string);
    const html = await page.text();
    expect(html).toContain("This address already has an account");
    expect(html).toContain("The password chosen at sign-up was not added to it.");
    expect(html).toContain(`href="${ORIGIN}/auth/password/forgot"`);

    // Nothing else changed: the same user, signed in, not signed in anywhere else, no new user.
    expect((await app.adapter.getUserByEmail("victim@example.com"))?.id).toBe(user?.id);
    expect((await victim.session())?.user?.email).toBe("victim@example.com");
    if (attackerClicks) expect(await attacker.session()).toBeNull();
    expect(app.events.filter((event) => event.startsWith("createUser"))).toEqual(["createUser victim@example.com"]);
    expect(smtp.mails.length).toBe(since);
  });

  it("before the address has a user, the same link still creates the account and signs in", async () => {
    const app = await passwordApp(smtp);
    const browser = app.browser();
    const since = smtp.mails.length;
    await post(browser, "/auth/password/sign-up", { email: "fresh@example.com", password: "fresh password 1", callbackUrl: "/welcome" });
    const link = linkIn(mailTo(smtp, "fresh@example.com", since), "/auth/password/verify");
    const verified = await post(browser, "/auth/password/verify", { token: link.searchParams.get("token") as string });
    expect(verified.headers.get("location")).toBe(`${ORIGIN}/welcome`);
    expect((await signIn(app.browser(), "fresh@example.com", "fresh password 1")).headers.get("location")).toBe(`${ORIGIN}/home`);
  });
});
