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

/** The passkeys part with `count` passkeys: the first one named after its password manager and used. */
function passkeys(count: number, manageable = true): AccountPageParams["passkeys"] {
  return {
    list: Array.from({ length: count }, (_, i) => ({
      id: `cred+${i}/=`,
      name: i === 0 ? "iCloud Keychain" : `Passkey 2026-11-0${i + 1}`,
      createdAt: `2026-11-0${i + 1}T10:00:00.000Z`,
      lastUsedAt: i === 0 ? "2026-11-20T08:00:00.000Z" : null,
    })),
    renameUrl: manageable ? `${BASE}/account/passkey-rename` : undefined,
    removeUrl: manageable ? `${BASE}/account/passkey-remove` : undefined,
    optionsUrl: `${BASE}/webauthn-options/passkey`,
    callbackUrl: `${BASE}/callback/passkey`,
    csrfUrl: `${BASE}/csrf`,
    addedUrl: `${BASE}/account?done=passkey-added`,
    reauthUrl: `${BASE}/signin?callbackUrl=${encodeURIComponent(`${BASE}/account`)}&error=RecentSignInRequired`,
  };
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
    authUrl: BASE,
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
      passkeys: passkeys(2),
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
      <section class="stack" aria-labelledby="passkeys-heading">
      <h2 id="passkeys-heading">Passkeys</h2>
      <p class="muted">2 passkeys</p>
      <ul class="methods stack">
      <li class="stack">
      <strong>iCloud Keychain</strong>
      <span class="muted">Added Nov 1, 2026 · Last used Nov 20, 2026</span>
      <form action="https://app.example.com/auth/account/passkey-rename" method="post">
      <input type="hidden" name="csrfToken" value="csrf-1"/>
      <input type="hidden" name="id" value="cred+0/="/>
      <div class="field">
      <label for="passkey-name-0">New name for iCloud Keychain</label>
      <input id="passkey-name-0" name="name" type="text" required maxlength="64" value="iCloud Keychain"/>
      </div>
      <button type="submit" class="button button-neutral">Rename</button>
      </form>
      <form action="https://app.example.com/auth/account/passkey-remove" method="post">
      <input type="hidden" name="csrfToken" value="csrf-1"/>
      <input type="hidden" name="id" value="cred+0/="/>
      <button type="submit" class="button button-neutral" aria-label="Remove iCloud Keychain">Remove</button>
      </form>
      </li>
      <li class="stack">
      <strong>Passkey 2026-11-02</strong>
      <span class="muted">Added Nov 2, 2026 · Not used yet</span>
      <form action="https://app.example.com/auth/account/passkey-rename" method="post">
      <input type="hidden" name="csrfToken" value="csrf-1"/>
      <input type="hidden" name="id" value="cred+1/="/>
      <div class="field">
      <label for="passkey-name-1">New name for Passkey 2026-11-02</label>
      <input id="passkey-name-1" name="name" type="text" required maxlength="64" value="Passkey 2026-11-02"/>
      </div>
      <button type="submit" class="button button-neutral">Rename</button>
      </form>
      <form action="https://app.example.com/auth/account/passkey-remove" method="post">
      <input type="hidden" name="csrfToken" value="csrf-1"/>
      <input type="hidden" name="id" value="cred+1/="/>
      <button type="submit" class="button button-neutral" aria-label="Remove Passkey 2026-11-02">Remove</button>
      </form>
      </li>
      </ul>
      <div class="stack" data-authlib-webauthn data-options-url="https://app.example.com/auth/webauthn-options/passkey" data-callback-url="https://app.example.com/auth/callback/passkey" data-csrf-url="https://app.example.com/auth/csrf" data-csrf-token="csrf-1" data-redirect-to="https://app.example.com/auth/account?done=passkey-added" data-reauth-url="https://app.example.com/auth/signin?callbackUrl=https%3A%2F%2Fapp.example.com%2Fauth%2Faccount&amp;error=RecentSignInRequired" data-conditional-ui="false" data-msg-cancelled="The passkey request was cancelled or timed out." data-msg-registered="This passkey is registered already. Sign in with it instead." data-msg-unsupported="This browser does not support passkeys." data-msg-failed="Something went wrong. Please try again." data-msg-name="Enter a display name to register a passkey." data-msg-long="A display name has at most 64 characters." data-msg-line="A display name is one line of text." data-msg-address="Enter a name, not an email address: a passkey attaches no address.">
      <button type="button" class="button" data-webauthn-add>Add a passkey</button>
      <p class="muted center" role="status" aria-live="polite" data-webauthn-status>
      </p>
      <noscript>
      <p class="muted center">Passkeys need JavaScript.</p>
      </noscript>
      </div>
      </section>
      <section class="stack">
      <h2>Delete account</h2>
      <p id="delete-warning">This is permanent: your account and every way to sign in to it are removed, every device is signed out, and nothing can be restored.</p>
      <form action="https://app.example.com/auth/account/delete" method="post">
      <input type="hidden" name="csrfToken" value="csrf-1"/>
      <input type="hidden" name="callbackUrl" value="https://app.example.com/auth/account/deleted"/>
      <div class="field">
      <label for="delete-password">Your password, to confirm</label>
      <input id="delete-password" name="currentPassword" type="password" autocomplete="current-password" required/>
      </div>
      <button type="submit" class="button button-danger" aria-describedby="delete-warning">Delete my account</button>
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
      passkeys: passkeys(1, false),
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
      <section class="stack" aria-labelledby="passkeys-heading">
      <h2 id="passkeys-heading">Passkeys</h2>
      <p class="muted">1 passkey</p>
      <ul class="methods stack">
      <li class="stack">
      <strong>iCloud Keychain</strong>
      <span class="muted">Added Nov 1, 2026 · Last used Nov 20, 2026</span>
      </li>
      </ul>
      <div class="stack" data-authlib-webauthn data-options-url="https://app.example.com/auth/webauthn-options/passkey" data-callback-url="https://app.example.com/auth/callback/passkey" data-csrf-url="https://app.example.com/auth/csrf" data-csrf-token="csrf-1" data-redirect-to="https://app.example.com/auth/account?done=passkey-added" data-reauth-url="https://app.example.com/auth/signin?callbackUrl=https%3A%2F%2Fapp.example.com%2Fauth%2Faccount&amp;error=RecentSignInRequired" data-conditional-ui="false" data-msg-cancelled="The passkey request was cancelled or timed out." data-msg-registered="This passkey is registered already. Sign in with it instead." data-msg-unsupported="This browser does not support passkeys." data-msg-failed="Something went wrong. Please try again." data-msg-name="Enter a display name to register a passkey." data-msg-long="A display name has at most 64 characters." data-msg-line="A display name is one line of text." data-msg-address="Enter a name, not an email address: a passkey attaches no address.">
      <button type="button" class="button" data-webauthn-add>Add a passkey</button>
      <p class="muted center" role="status" aria-live="polite" data-webauthn-status>
      </p>
      <noscript>
      <p class="muted center">Passkeys need JavaScript.</p>
      </noscript>
      </div>
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
