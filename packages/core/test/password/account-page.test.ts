/**
 * The built-in account page over HTTP: who may see it, what it lists, and its forms (change password,
 * unlink), each coming back to the page with what happened.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeSharedPglite } from "../helpers/database.js";
import { startSmtpServer } from "../helpers/smtp.js";
import { ORIGIN, passwordApp, post, type Smtp, signIn, signUpAndVerify } from "./helpers.js";

let smtp: Smtp;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await smtp.close();
  await closeSharedPglite();
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
