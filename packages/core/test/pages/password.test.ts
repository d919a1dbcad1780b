/**
 * The Password() provider's four pages (pages/password.tsx) as a browser gets them: each form's fields,
 * hints, buttons and links, and the refusal message. Rendered directly (pure functions): fast enough per
 * mutant (mutation group `password-routes`). The routes that serve them are stated by
 * password/password-routes.test.ts, the pages in Chromium by password/password-browser.test.ts.
 */
import { describe, expect, it, vi } from "vitest";
import type { PasswordForm, PasswordPageParams } from "../../src/pages/index.js";

const BASE = "https://app.example.com/auth";

/** The page's `<main>`, one tag or text per line, so that a difference reads as the line it is on. */
function mainOf(html: string): string {
  const main = html.slice(html.indexOf("<main"), html.indexOf("</main>") + "</main>".length);
  return main.replace(/></g, ">\n<");
}

/**
 * The page rendered by the module loaded afresh: the titles are a module constant, and a mutation run only
 * sees a module-level value change when the module loads within the test that checks it (docs/testing.md).
 */
async function page(form: PasswordForm, overrides: Partial<PasswordPageParams> = {}): Promise<{ title: string; main: string }> {
  vi.resetModules();
  const { renderPasswordPage } = await import("../../src/pages/index.js");
  const result = renderPasswordPage({
    form,
    actionUrl: `${BASE}/password/${form}`,
    csrfToken: "csrf-1",
    callbackUrl: "https://app.example.com/home",
    minLength: 10,
    maxLength: 1024,
    signInUrl: `${BASE}/signin`,
    signUpUrl: `${BASE}/password/sign-up`,
    forgotUrl: `${BASE}/password/forgot`,
    theme: {},
    ...overrides,
  });
  expect(result.status).toBe(200);
  return { title: result.html.match(/<title>(.*?)<\/title>/)?.[1] ?? "", main: mainOf(result.html) };
}

describe("the password pages", () => {
  it("sign-up: name, email and a new password with its rule; a link to sign in", async () => {
    const { title, main } = await page("sign-up");
    expect(title).toBe("Create an account");
    expect(main).toMatchInlineSnapshot(`
      "<main>
      <div class="card">
      <h1>Create an account</h1>
      <form action="https://app.example.com/auth/password/sign-up" method="post">
      <input type="hidden" name="csrfToken" value="csrf-1"/>
      <input type="hidden" name="callbackUrl" value="https://app.example.com/home"/>
      <div class="field">
      <label for="name">Name</label>
      <input id="name" name="name" type="text" autocomplete="name" maxlength="64"/>
      </div>
      <div class="field">
      <label for="email">Email</label>
      <input id="email" name="email" type="email" autocomplete="email" required/>
      </div>
      <div class="field">
      <label for="password">Password</label>
      <input id="password" name="password" type="password" autocomplete="new-password" required minlength="10" aria-describedby="password-hint"/>
      <p id="password-hint" class="muted">At least 10 characters.</p>
      </div>
      <button type="submit" class="button">Create account</button>
      </form>
      <p class="center muted">
      <a href="https://app.example.com/auth/signin">Already have an account? Sign in</a>
      </p>
      </div>
      </main>"
    `);
  });

  it("forgot: the address only, and back to sign in", async () => {
    const { title, main } = await page("forgot");
    expect(title).toBe("Forgot your password?");
    expect(main).toMatchInlineSnapshot(`
      "<main>
      <div class="card">
      <h1>Forgot your password?</h1>
      <form action="https://app.example.com/auth/password/forgot" method="post">
      <input type="hidden" name="csrfToken" value="csrf-1"/>
      <input type="hidden" name="callbackUrl" value="https://app.example.com/home"/>
      <p class="muted">Enter the address of your account: we will email you a link to choose a new password.</p>
      <div class="field">
      <label for="email">Email</label>
      <input id="email" name="email" type="email" autocomplete="email" required/>
      </div>
      <button type="submit" class="button">Email me a link</button>
      </form>
      <p class="center muted">
      <a href="https://app.example.com/auth/signin">Back to sign in</a>
      </p>
      </div>
      </main>"
    `);
  });

  it("reset: the link's token and a new password, with the refusal of a too-short one", async () => {
    const { title, main } = await page("reset", { token: "reset-token", error: "InvalidPassword", code: "too-short" });
    expect(title).toBe("Choose a new password");
    expect(main).toMatchInlineSnapshot(`
      "<main>
      <div class="card">
      <h1>Choose a new password</h1>
      <div class="alert" role="alert">
      <p>Use at least 10 characters for your password.</p>
      </div>
      <form action="https://app.example.com/auth/password/reset" method="post">
      <input type="hidden" name="csrfToken" value="csrf-1"/>
      <input type="hidden" name="callbackUrl" value="https://app.example.com/home"/>
      <input type="hidden" name="token" value="reset-token"/>
      <div class="field">
      <label for="password">Password</label>
      <input id="password" name="password" type="password" autocomplete="new-password" required minlength="10" aria-describedby="password-hint"/>
      <p id="password-hint" class="muted">At least 10 characters.</p>
      </div>
      <button type="submit" class="button">Set password and sign in</button>
      </form>
      <p class="center muted">
      <a href="https://app.example.com/auth/signin">Back to sign in</a>
      </p>
      </div>
      </main>"
    `);
  });

  it("verify: one button that posts the link's token", async () => {
    const { title, main } = await page("verify", { token: "verify-token" });
    expect(title).toBe("Confirm your email address");
    expect(main).toMatchInlineSnapshot(`
      "<main>
      <div class="card">
      <h1>Confirm your email address</h1>
      <form action="https://app.example.com/auth/password/verify" method="post">
      <input type="hidden" name="csrfToken" value="csrf-1"/>
      <input type="hidden" name="callbackUrl" value="https://app.example.com/home"/>
      <p class="muted">Confirm that this address is yours to finish creating your account.</p>
      <input type="hidden" name="token" value="verify-token"/>
      <button type="submit" class="button">Confirm email address</button>
      </form>
      <p class="center muted">
      <a href="https://app.example.com/auth/signin">Back to sign in</a>
      </p>
      </div>
      </main>"
    `);
  });

  it("a reset or verify page without a token posts an empty one", async () => {
    for (const form of ["reset", "verify"] as const) {
      // An attribute without a value is the empty string.
      expect((await page(form)).main).toContain('<input type="hidden" name="token" value/>');
    }
  });
});
