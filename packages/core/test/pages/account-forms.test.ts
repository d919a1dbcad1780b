/**
 * Issue 50's rough account forms, through the real routes on the in-memory adapter (mails kept in
 * memory): the sign-up form after a failure, the confirm page of a sign-up link, deleting an account,
 * and unlinking the last linked account.
 */
import { describe, expect, it } from "vitest";
import GitHub from "../../src/providers/github.js";
import Google from "../../src/providers/google.js";
import { app, type Browser, ORIGIN, pageText, post, wordsOf } from "../helpers/pages-app-forms.js";

describe("the sign-up form after a failure", () => {
  it("keeps the name and address typed; never the password", async () => {
    const a = app();
    a.send.fail = true;
    const browser = a.browser();
    const location = await post(browser, "/auth/password/sign-up", {
      name: "Ada Lovelace",
      email: "ada@example.com",
      password: "a long enough password",
    });
    const url = new URL(location as string);
    expect(url.pathname).toBe("/auth/password/sign-up");
    expect(url.searchParams.get("error")).toBe("EmailSignInError");
    expect(url.searchParams.has("password")).toBe(false);
    const html = await pageText(browser, location as string);
    expect(html).toMatch(/<input id="name"[^>]*value="Ada Lovelace"/);
    expect(html).toMatch(/<input id="email"[^>]*value="ada@example.com"/);
    expect(html).not.toContain("a long enough password");
  });
});

describe("the confirm page of a sign-up link", () => {
  it("shows the address it confirms", async () => {
    const a = app();
    const browser = a.browser();
    await post(browser, "/auth/password/sign-up", { email: "grace@example.com", password: "a long enough password" });
    const token = a.tokenIn("grace@example.com", "/auth/password/verify");
    const html = await pageText(browser, `/auth/password/verify?token=${encodeURIComponent(token)}`);
    expect(wordsOf(html)).toContain("Confirm that grace@example.com is your address to finish creating your account.");
  });
});

/** A member signed in with a password in a new browser. */
async function member(a: ReturnType<typeof app>, email: string): Promise<Browser> {
  const browser = a.browser();
  await post(browser, "/auth/password/sign-up", { email, password: "first password!" });
  await post(browser, "/auth/password/verify", { token: a.tokenIn(email, "/auth/password/verify") });
  return browser;
}

describe("deleting the account", () => {
  it("the section warns that it is permanent, with a danger button", async () => {
    const a = app();
    const browser = await member(a, "del@example.com");
    const html = await pageText(browser, "/auth/account");
    const section = html.slice(html.indexOf("<h2>Delete account</h2>"));
    expect(wordsOf(section)).toContain("This is permanent");
    expect(section).toMatch(
      /<button type="submit" class="button button-danger" aria-describedby="delete-warning">Delete my account<\/button>/,
    );
  });

  it("a wrong password: the error is next to the password field, not in the banner at the top", async () => {
    const a = app();
    const browser = await member(a, "del@example.com");
    const location = await post(browser, "/auth/account/delete", {
      currentPassword: "wrong",
      callbackUrl: `${ORIGIN}/auth/account/deleted`,
    });
    const url = new URL(location as string);
    expect(url.searchParams.get("error")).toBe("IncorrectPassword");
    expect(url.searchParams.get("form")).toBe("delete");
    const html = await pageText(browser, location as string);
    const top = html.slice(0, html.indexOf("<section"));
    expect(top).not.toContain('role="alert"');
    expect(html).toMatch(/<input id="delete-password"[^>]*aria-invalid="true"[^>]*aria-describedby="delete-password-error"/);
    expect(html).toMatch(/<p id="delete-password-error" class="field-error">The current password is not right.<\/p>/);
  });

  it("the same error of the change-password form stays at the top", async () => {
    const a = app();
    const browser = await member(a, "del@example.com");
    const html = await pageText(browser, "/auth/account?error=IncorrectPassword");
    expect(html.slice(0, html.indexOf("<section"))).toContain('role="alert"');
    expect(html).not.toContain('id="delete-password-error"');
  });

  it("deleted: the browser lands on a page that says so", async () => {
    const a = app();
    const browser = await member(a, "del@example.com");
    const form = await pageText(browser, "/auth/account");
    const callbackUrl = form.match(/action="[^"]*\/account\/delete"[\s\S]*?name="callbackUrl" value="([^"]+)"/)?.[1] as string;
    expect(callbackUrl).toBe(`${ORIGIN}/auth/account/deleted`);
    const location = await post(browser, "/auth/account/delete", { currentPassword: "first password!", callbackUrl });
    expect(location).toBe(`${ORIGIN}/auth/account/deleted`);
    const html = await pageText(browser, location as string);
    expect(wordsOf(html)).toContain("Your account was deleted");
    expect(await browser.session()).toBeNull();
  });
});

describe("unlinking the last linked account", () => {
  it("says how the user signs in next", async () => {
    const a = app();
    a.config.providers.push(GitHub({ clientId: "id", clientSecret: "secret" }));
    const browser = await member(a, "link@example.com");
    const user = [...a.users.values()].find((u) => u.email === "link@example.com");
    a.accounts.push({ userId: user?.id as string, type: "oauth", provider: "github", providerAccountId: "gh-1" });
    const location = await post(browser, "/auth/account/unlink", { provider: "github", providerAccountId: "gh-1" });
    expect(location).toBe(`${ORIGIN}/auth/account?done=unlinked-password`);
    const html = await pageText(browser, location as string);
    expect(wordsOf(html)).toContain("The account was unlinked. From now on you sign in with your email address and password.");
  });

  it("with another linked account left, the notice is the plain one", async () => {
    const a = app();
    a.config.providers.push(GitHub({ clientId: "id", clientSecret: "secret" }), Google({ clientId: "id", clientSecret: "secret" }));
    const browser = await member(a, "link@example.com");
    const user = [...a.users.values()].find((u) => u.email === "link@example.com");
    a.accounts.push({ userId: user?.id as string, type: "oauth", provider: "github", providerAccountId: "gh-1" });
    a.accounts.push({ userId: user?.id as string, type: "oidc", provider: "google", providerAccountId: "g-1" });
    expect(await post(browser, "/auth/account/unlink", { provider: "github", providerAccountId: "gh-1" })).toBe(
      `${ORIGIN}/auth/account?done=unlinked`,
    );
  });
});
