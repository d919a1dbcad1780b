/**
 * A page whose URL carries a token must not hand that URL to another site in `Referer` (a logo from
 * https, a link out, a form that posts elsewhere). Every built-in page is sent with
 * `Referrer-Policy: no-referrer` (pages/security-headers.ts). This walks every page that takes a
 * `?token=` — opened from real mails of a real SMTP server: the sign-up link, the reset link (in the
 * browser that asked and in another one), the email-change link, the email sign-in link's confirmation
 * page, the error page a bad token ends on — and every other built-in page, and checks the header of each.
 * And the pages' own forms still post: under `no-referrer` a browser sends `Origin: null` with
 * `Sec-Fetch-Site: same-origin` (Chromium does: password-browser.test.ts), which is accepted.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeSharedPglite, sharedPglite } from "../helpers/database.js";
import { startSmtpServer } from "../helpers/smtp.js";
import { type Browser, linkIn, mailTo, ORIGIN, passwordApp, post, type Smtp, signUpAndVerify } from "../password/helpers.js";

let smtp: Smtp;
beforeAll(async () => {
  [smtp] = await Promise.all([startSmtpServer(), sharedPglite().waitReady]);
}, 120_000);
afterAll(async () => {
  await smtp.close();
  await closeSharedPglite();
});

/** GETs `url` (absolute or a path) in `browser`: the page, which must be HTML. */
async function page(browser: Browser, url: string | URL) {
  const response = await browser.send(new URL(url, ORIGIN).href.slice(ORIGIN.length));
  expect(response.headers.get("content-type"), `${url}`).toContain("text/html");
  return response;
}

describe("Referrer-Policy: same-origin", () => {
  it("every page that carries a token in its URL sends it", async () => {
    const app = await passwordApp(smtp);
    const pages: Array<[string, Response]> = [];

    // The sign-up link's page (`password/verify?token=`), before it is used.
    const owner = app.browser();
    let since = smtp.mails.length;
    await post(owner, "/auth/password/sign-up", { email: "walk@example.com", password: "first password 1", callbackUrl: "/" });
    const verify = linkIn(mailTo(smtp, "walk@example.com", since), "/auth/password/verify");
    pages.push(["sign-up link", await page(owner, verify)]);
    await post(owner, "/auth/password/verify", { token: verify.searchParams.get("token") as string });
    expect((await owner.session())?.user?.email).toBe("walk@example.com");

    // The reset link's page (`password/reset?token=`): the form where it was asked for, "another browser" elsewhere.
    since = smtp.mails.length;
    await post(owner, "/auth/password/forgot", { email: "walk@example.com" });
    const reset = linkIn(mailTo(smtp, "walk@example.com", since), "/auth/password/reset");
    pages.push(["reset link, asking browser", await page(owner, reset)]);
    pages.push(["reset link, another browser", await page(app.browser(), reset)]);

    // The email-change link's page (`account/confirm-email?token=`).
    since = smtp.mails.length;
    await post(owner, "/auth/account/email", { email: "walk-new@example.com", callbackUrl: `${ORIGIN}/auth/account` });
    const confirm = linkIn(mailTo(smtp, "walk-new@example.com", since), "/auth/account/confirm-email");
    pages.push(["email-change link", await page(owner, confirm)]);

    // The email sign-in link's confirmation page (`callback/nodemailer?token=&email=`), in another browser.
    const asker = app.browser();
    since = smtp.mails.length;
    await post(asker, "/auth/signin/nodemailer", { email: "walk@example.com", callbackUrl: "/" });
    const signIn = linkIn(mailTo(smtp, "walk@example.com", since), "/auth/callback/nodemailer");
    pages.push(["email sign-in link, another browser", await page(app.browser(), signIn)]);

    // A bad token ends on the error page.
    const bad = await app.browser().send("/auth/password/reset?token=not-a-link");
    expect(bad.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`);
    pages.push(["bad token's error page", await page(app.browser(), bad.headers.get("location") as string)]);

    for (const [name, response] of pages) {
      expect(response.status, name).toBe(name === "bad token's error page" ? 403 : 200);
      expect(response.headers.get("referrer-policy"), name).toBe("same-origin");
    }
    expect(pages).toHaveLength(6);
  });

  it("so does every other built-in page, signed in or not", async () => {
    const app = await passwordApp(smtp, { config: { twoFactor: {} } });
    const visitor = app.browser();
    const signedIn = app.browser();
    await signUpAndVerify(smtp, signedIn, "pages@example.com", "first password 1");
    const paths: Array<[Browser, string]> = [
      [visitor, "/auth/signin"],
      [visitor, "/auth/signout"],
      [visitor, "/auth/error?error=Configuration"],
      [visitor, "/auth/verify-request?provider=nodemailer&type=email"],
      [visitor, "/auth/password/sign-up"],
      [visitor, "/auth/password/forgot"],
      [signedIn, "/auth/account"],
      [signedIn, "/auth/signout"],
    ];
    for (const [browser, path] of paths) {
      const response = await page(browser, path);
      expect(response.headers.get("referrer-policy"), path).toBe("same-origin");
    }
  });

  it("a page's own form, posted as a browser does under that policy (Origin: null, Sec-Fetch-Site: same-origin), is accepted", async () => {
    const app = await passwordApp(smtp);
    const browser = app.browser();
    const csrfToken = await browser.csrf();
    const asBrowser = { origin: "null", "sec-fetch-site": "same-origin", cookie: browser.jar.header() };
    const response = await browser.send("/auth/password/forgot", { form: { csrfToken, email: "nobody@example.com" }, headers: asBrowser });
    expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/verify-request?provider=password&type=password-reset`);
    // The same null origin from another site (a sandboxed frame) is refused.
    const framed = await browser.send("/auth/password/forgot", {
      form: { csrfToken, email: "nobody@example.com" },
      headers: { ...asBrowser, "sec-fetch-site": "cross-site" },
    });
    expect(framed.headers.get("location")).toBe(`${ORIGIN}/auth/password/forgot?error=MissingCSRF&email=nobody%40example.com`);
  });
});
