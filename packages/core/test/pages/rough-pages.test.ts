/**
 * Issue 50's sign-in page with several providers, through the real routes on the in-memory adapter: two
 * email-and-password forms told apart, the error shown in the form that failed with the address typed,
 * and the names of authlib's own providers translated inside translated pages.
 */
import { describe, expect, it } from "vitest";
import Nodemailer from "../../src/providers/nodemailer.js";
import Passkey from "../../src/providers/passkey.js";
import Password from "../../src/providers/password.js";
import { app, formsOf, pageText, post, wordsOf } from "../helpers/pages-app-forms.js";

describe("the sign-in page with two email-and-password forms", () => {
  it("names each form, so that the two are told apart", async () => {
    const a = app();
    const html = await pageText(a.browser(), "/auth/signin");
    const forms = formsOf(html).filter((form) => form.includes('type="password"'));
    expect(forms).toHaveLength(2);
    // Each is a group headed by its provider's name, and the heading names the form for a screen reader.
    expect(html).toMatch(/<h2 id="provider-0-heading">Demo account<\/h2>/);
    expect(html).toMatch(/<h2 id="provider-1-heading">Email and password<\/h2>/);
    expect(forms[0]).toContain('aria-labelledby="provider-0-heading"');
    expect(forms[1]).toContain('aria-labelledby="provider-1-heading"');
  });

  it("a wrong password: the alert is in the form that failed, says which, and the address typed is still there", async () => {
    const a = app();
    const browser = a.browser();
    const location = await post(browser, "/auth/callback/password", { email: "Ada@Example.com", password: "not the password" });
    const url = new URL(location as string);
    expect(url.pathname).toBe("/auth/signin");
    expect(url.searchParams.get("error")).toBe("CredentialsSignin");
    expect(url.searchParams.get("provider")).toBe("password");
    const html = await pageText(browser, location as string);
    const [demo, password] = formsOf(html).filter((form) => form.includes('type="password"'));
    expect(password).toContain('role="alert"');
    expect(wordsOf(password as string)).toContain("Signing in with Email and password did not work.");
    expect(wordsOf(password as string)).toContain("Sign in failed. Check the details you provided are correct.");
    expect(password).toContain('value="Ada@Example.com"');
    expect(password).toMatch(/<input[^>]*type="password"(?![^>]*value=)[^>]*\/>/);
    // The other form has neither the alert nor the address; there is no second alert at the top.
    expect(demo).not.toContain('role="alert"');
    expect(demo).not.toContain("Ada@Example.com");
    expect(html.match(/role="alert"/g)).toHaveLength(1);
  });

  it("a failure of the Credentials form is shown in that form", async () => {
    const a = app();
    const browser = a.browser();
    const location = await post(browser, "/auth/callback/credentials", { email: "demo@example.com", password: "wrong" });
    expect(new URL(location as string).searchParams.get("provider")).toBe("credentials");
    const html = await pageText(browser, location as string);
    const [demo, password] = formsOf(html).filter((form) => form.includes('type="password"'));
    expect(wordsOf(demo as string)).toContain("Signing in with Demo account did not work.");
    expect(demo).toContain('value="demo@example.com"');
    expect(password).not.toContain('role="alert"');
  });

  it("an error of no known form stays at the top of the page", async () => {
    const a = app();
    const html = await pageText(a.browser(), "/auth/signin?error=CredentialsSignin&provider=nonexistent");
    expect(html.match(/role="alert"/g)).toHaveLength(1);
    expect(html.indexOf('role="alert"')).toBeLessThan(html.indexOf("<form"));
  });
});

describe("provider names inside translated pages", () => {
  const german = { "accept-language": "de" };
  const japanese = { "accept-language": "ja" };

  it("the names authlib gives (Email, Passkey, Password) and the demo's 'Email and password' are translated", async () => {
    const a = app({
      providers: [
        Password({ name: "Email and password", sendMail: () => {} }),
        Nodemailer({ server: "smtp://127.0.0.1:2525", from: "a@example.com" }),
        Passkey(),
      ],
      experimental: { enableWebAuthn: true },
    });
    const de = wordsOf(await pageText(a.browser(), "/auth/signin", german));
    expect(de).toContain("Mit E-Mail und Passwort anmelden");
    expect(de).toContain("Mit E-Mail anmelden");
    expect(de).not.toMatch(/Email and password|Mit Email /);
    const ja = wordsOf(await pageText(a.browser(), "/auth/signin", japanese));
    expect(ja).toContain("パスキーでログイン");
    expect(ja).not.toContain("Passkeyで");
    expect(ja).not.toContain("Email and password");
  });

  it("an app's own provider name is its own", async () => {
    const a = app();
    const de = wordsOf(await pageText(a.browser(), "/auth/signin", german));
    expect(de).toContain("Mit Demo account anmelden");
  });
});
