/**
 * The account page and the email-change confirm page (pages/account.tsx) as a browser gets them: every
 * section, form field and label a user reads or posts. Rendered directly (pure functions): fast enough
 * per mutant (mutation group `account-lifecycle`). The routes that fill the page are stated by
 * password/account-lifecycle.test.ts, the page in Chromium by password/password-browser.test.ts.
 */
import { describe, expect, it } from "vitest";
import { type AccountPageParams, renderAccountPage, renderConfirmEmailPage } from "../../src/pages/index.js";

const BASE = "https://app.example.com/auth";

/** The page's `<main>`, one tag or text per line, so that a difference reads as the line it is on. */
function mainOf(html: string): string {
  const main = html.slice(html.indexOf("<main"), html.indexOf("</main>") + "</main>".length);
  return main.replace(/></g, ">\n<");
}

function page(overrides: Partial<AccountPageParams> = {}): string {
  const params: AccountPageParams = {
    csrfToken: "csrf-1",
    email: "ada@example.com",
    name: "Ada",
    accounts: [],
    linkable: [],
    unlinkUrl: `${BASE}/account/unlink`,
    emailUrl: `${BASE}/account/email`,
    deleteUrl: `${BASE}/account/delete`,
    accountUrl: `${BASE}/account`,
    signOutUrl: `${BASE}/signout`,
    theme: {},
    ...overrides,
  };
  const result = renderAccountPage(params);
  expect(result.status).toBe(200);
  expect(result.html).toContain("<title>Your account</title>");
  return mainOf(result.html);
}

describe("the account page", () => {
  it("a user with a password, a linked GitHub account, another to link and two passkeys sees every section", () => {
    const html = page({
      accounts: [
        { provider: "password", providerName: "Password", providerAccountId: "ada@example.com", unlinkable: false },
        { provider: "github", providerName: "GitHub", providerAccountId: "gh-1", unlinkable: true },
      ],
      password: { set: true, minLength: 12, changeUrl: `${BASE}/password/change`, forgotUrl: `${BASE}/password/forgot` },
      passkeys: 2,
      linkable: [{ id: "google", name: "Google", signinUrl: `${BASE}/signin/google` }],
      done: "password-changed",
    });
    expect(html).toMatchInlineSnapshot(`
      "<main>
      <div class="card">
      <h1>Your account</h1>
      <div class="notice" role="status">
      <p>Your password was changed. Your other devices were signed out.</p>
      </div>
      <p class="center">
      <strong>Ada</strong> ada@example.com</p>
      <section class="stack">
      <h2>Change email address</h2>
      <form action="https://app.example.com/auth/account/email" method="post">
      <input type="hidden" name="csrfToken" value="csrf-1"/>
      <input type="hidden" name="callbackUrl" value="https://app.example.com/auth/account"/>
      <div class="field">
      <label for="new-email">New email address</label>
      <input id="new-email" name="email" type="email" autocomplete="email" required aria-describedby="new-email-hint"/>
      <p id="new-email-hint" class="muted">We send a link to the new address; it is used once you follow it.</p>
      </div>
      <button type="submit" class="button button-neutral">Send the link</button>
      </form>
      </section>
      <section class="stack">
      <h2>Sign-in methods</h2>
      <ul class="methods stack">
      <li>
      <span>Password</span>
      </li>
      <li>
      <span>GitHub</span>
      <form action="https://app.example.com/auth/account/unlink" method="post">
      <input type="hidden" name="csrfToken" value="csrf-1"/>
      <input type="hidden" name="provider" value="github"/>
      <input type="hidden" name="providerAccountId" value="gh-1"/>
      <button type="submit" class="button button-neutral" aria-label="Unlink GitHub">Unlink</button>
      </form>
      </li>
      </ul>
      <form action="https://app.example.com/auth/signin/google" method="post">
      <input type="hidden" name="csrfToken" value="csrf-1"/>
      <input type="hidden" name="callbackUrl" value="https://app.example.com/auth/account?done=linked"/>
      <input type="hidden" name="link" value="true"/>
      <button type="submit" class="button button-neutral">Link Google</button>
      </form>
      </section>
      <section class="stack">
      <h2>Change password</h2>
      <form action="https://app.example.com/auth/password/change" method="post">
      <input type="hidden" name="csrfToken" value="csrf-1"/>
      <input type="hidden" name="callbackUrl" value="https://app.example.com/auth/account?done=password-changed"/>
      <div class="field">
      <label for="current-password">Current password</label>
      <input id="current-password" name="currentPassword" type="password" autocomplete="current-password" required/>
      </div>
      <div class="field">
      <label for="new-password">New password</label>
      <input id="new-password" name="password" type="password" autocomplete="new-password" required minlength="12" aria-describedby="new-password-hint"/>
      <p id="new-password-hint" class="muted">At least 12 characters. Your other devices are signed out.</p>
      </div>
      <button type="submit" class="button">Change password</button>
      </form>
      </section>
      <section class="stack">
      <h2>Passkeys</h2>
      <p class="muted">2 passkeys</p>
      </section>
      <section class="stack">
      <h2>Delete account</h2>
      <form action="https://app.example.com/auth/account/delete" method="post">
      <input type="hidden" name="csrfToken" value="csrf-1"/>
      <input type="hidden" name="callbackUrl" value="/"/>
      <div class="field">
      <label for="delete-password">Your password, to confirm</label>
      <input id="delete-password" name="currentPassword" type="password" autocomplete="current-password" required/>
      </div>
      <button type="submit" class="button button-neutral">Delete my account</button>
      </form>
      </section>
      <p class="center">
      <a href="https://app.example.com/auth/signout">Sign out</a>
      </p>
      </div>
      </main>"
    `);
  });

  it("a user without a password, a name, a proven address, linked accounts or a way to delete", () => {
    const html = page({
      email: null,
      name: null,
      password: { set: false, minLength: 8, changeUrl: `${BASE}/password/change`, forgotUrl: `${BASE}/password/forgot` },
      passkeys: 1,
      deleteUrl: undefined,
      error: "SessionRequired",
    });
    expect(html).toMatchInlineSnapshot(`
      "<main>
      <div class="card">
      <h1>Your account</h1>
      <div class="alert" role="alert">
      <p>Something went wrong. Please try again.</p>
      </div>
      <p class="center"> No email address</p>
      <section class="stack">
      <h2>Add an email address</h2>
      <form action="https://app.example.com/auth/account/email" method="post">
      <input type="hidden" name="csrfToken" value="csrf-1"/>
      <input type="hidden" name="callbackUrl" value="https://app.example.com/auth/account"/>
      <div class="field">
      <label for="new-email">New email address</label>
      <input id="new-email" name="email" type="email" autocomplete="email" required aria-describedby="new-email-hint"/>
      <p id="new-email-hint" class="muted">We send a link to the new address; it is used once you follow it.</p>
      </div>
      <button type="submit" class="button button-neutral">Send the link</button>
      </form>
      </section>
      <section class="stack">
      <h2>Sign-in methods</h2>
      <p class="muted">No linked accounts.</p>
      <ul class="methods stack">
      </ul>
      </section>
      <section class="stack">
      <h2>Password</h2>
      <p class="muted">You sign in without a password.</p>
      <a href="https://app.example.com/auth/password/forgot">Set a password by email</a>
      </section>
      <section class="stack">
      <h2>Passkeys</h2>
      <p class="muted">1 passkey</p>
      </section>
      <p class="center">
      <a href="https://app.example.com/auth/signout">Sign out</a>
      </p>
      </div>
      </main>"
    `);
  });

  it("without a Password() or passkey provider, no password or passkey section; deleting needs a recent sign-in", () => {
    const html = page();
    expect(html).not.toContain("Password");
    expect(html).not.toContain("passkey");
    expect(html).toContain("Without a password, deleting needs a sign-in in the last 10 minutes.");
    expect(html).toContain("Change email address");
  });
});

describe("the email-change confirm page", () => {
  it("one button that posts the token with the CSRF token", () => {
    const result = renderConfirmEmailPage({ actionUrl: `${BASE}/account/confirm-email`, csrfToken: "csrf-2", token: "tok-1", theme: {} });
    expect(result.status).toBe(200);
    expect(result.html).toContain("<title>Use this email address</title>");
    expect(mainOf(result.html)).toMatchInlineSnapshot(`
      "<main>
      <div class="card">
      <h1>Use this email address</h1>
      <form action="https://app.example.com/auth/account/confirm-email" method="post">
      <input type="hidden" name="csrfToken" value="csrf-2"/>
      <input type="hidden" name="token" value="tok-1"/>
      <button type="submit" class="button">Use this address</button>
      </form>
      </div>
      </main>"
    `);
  });
});
