/**
 * The built-in account page's second-factor section (issue 50), through the real routes on the in-memory
 * adapter: turning the authenticator app on with its QR code, the recovery codes shown once, new ones in
 * their place, turning it off, and the owner-present rule sending a stale session to sign in again and back.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { base32Decode } from "../../src/features/two-factor/base32.js";
import { totpAt } from "../../src/features/two-factor/totp.js";
import { app, type Browser, ORIGIN, pageText, post, wordsOf } from "../helpers/pages-app-forms.js";

afterEach(() => {
  vi.useRealTimers();
});

/** A member signed in with a password just now, in a new browser, on an app with `twoFactor` on. */
async function member(): Promise<{ browser: Browser; a: ReturnType<typeof app> }> {
  const a = app({ twoFactor: { issuer: "Example" } });
  const browser = a.browser();
  await post(browser, "/auth/password/sign-up", { email: "tf@example.com", password: "first password!" });
  await post(browser, "/auth/password/verify", { token: a.tokenIn("tf@example.com", "/auth/password/verify") });
  return { browser, a };
}

/** The section of the page under its heading. */
function sectionOf(html: string): string {
  const start = html.indexOf('<section class="stack" aria-labelledby="two-factor-heading"');
  expect(start).toBeGreaterThan(-1);
  return html.slice(start, html.indexOf("</section>", start));
}

async function codeOf(secret: string): Promise<string> {
  return totpAt(base32Decode(secret) as Uint8Array, Math.floor(Date.now() / 1000));
}

async function sendForm(browser: Browser, path: string, form: Record<string, string>) {
  const csrfToken = await browser.csrf();
  return browser.send(path, { form: { csrfToken, ...form } });
}

describe("the account page's second factor", () => {
  it("off: says so, with a button that turns the authenticator app on", async () => {
    const { browser } = await member();
    const section = sectionOf(await pageText(browser, "/auth/account"));
    expect(wordsOf(section)).toContain("Two-step verification");
    expect(wordsOf(section)).toContain("Off: signing in takes one step.");
    expect(section).toContain(`action="${ORIGIN}/auth/account/two-factor-enroll"`);
    expect(wordsOf(section)).toContain("Turn on with an authenticator app");
  });

  it("on with the QR code and a code of the app; the recovery codes are shown once; then off with a code", async () => {
    const { browser, a } = await member();
    const enrolled = await sendForm(browser, "/auth/account/two-factor-enroll", {});
    expect(enrolled.status).toBe(200);
    expect(enrolled.headers.get("cache-control")).toContain("no-store");
    const setup = sectionOf(await enrolled.text());
    expect(setup).toMatch(/<img[^>]*src="data:image\/svg\+xml;base64,[A-Za-z0-9+/=]+"[^>]*alt="[^"]+"/);
    const secret = setup.match(/<code id="totp-secret">([A-Z2-7]+)<\/code>/)?.[1] as string;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup).toContain(`action="${ORIGIN}/auth/account/two-factor-confirm"`);
    expect(setup).toMatch(/<input id="totp-code" name="code"[^>]*autocomplete="one-time-code"/);

    // A wrong code: the same key and QR code again (never cached), the error at the code field, still not
    // on; the next code of the same app then turns it on, with no new set-up.
    const wrong = await sendForm(browser, "/auth/account/two-factor-confirm", {
      code: "000000" === (await codeOf(secret)) ? "111111" : "000000",
    });
    expect(wrong.status).toBe(400);
    expect(wrong.headers.get("cache-control")).toContain("no-store");
    const retry = sectionOf(await wrong.text());
    expect(retry).toContain(`<code id="totp-secret">${secret}</code>`);
    expect(retry).toMatch(/<input id="totp-code" name="code"[^>]*aria-invalid="true"/);
    expect(wordsOf(retry)).toContain("That code did not work. Type the 6-digit code your app shows now.");
    expect(wordsOf(sectionOf(await pageText(browser, "/auth/account")))).toContain("Off: signing in takes one step.");

    const confirmed = await sendForm(browser, "/auth/account/two-factor-confirm", { code: await codeOf(secret) });
    expect(confirmed.status).toBe(200);
    expect(confirmed.headers.get("cache-control")).toContain("no-store");
    const shown = sectionOf(await confirmed.text());
    const codes = [...shown.matchAll(/<li><code>([^<]+)<\/code><\/li>/g)].map((m) => m[1]);
    expect(codes).toHaveLength(10);
    expect(wordsOf(shown)).toContain("They are shown only this once");

    // The page afterwards: on, the number of codes left, never the codes.
    const later = sectionOf(await pageText(browser, "/auth/account"));
    expect(wordsOf(later)).toContain("On: signing in asks for a code from your authenticator app.");
    expect(wordsOf(later)).toContain("10 recovery codes left.");
    for (const code of codes) expect(later).not.toContain(code as string);
    expect(later).toContain(`action="${ORIGIN}/auth/account/two-factor-disable"`);
    expect(later).toContain(`action="${ORIGIN}/auth/account/two-factor-recovery-codes"`);
    expect(wordsOf(later)).toContain("Make new recovery codes");
    expect(a.users.size).toBe(1);

    // New recovery codes: a wrong code is shown at the new-codes form's field, nothing changes.
    const refused = await sendForm(browser, "/auth/account/two-factor-recovery-codes", { code: "not-a-code" });
    expect(refused.headers.get("location")).toBe(`${ORIGIN}/auth/account?error=IncorrectCode&form=recovery-codes`);
    const refusedPage = sectionOf(await pageText(browser, refused.headers.get("location") as string));
    expect(refusedPage).toMatch(/id="recovery-codes-code"[^>]*aria-invalid="true"/);
    expect(wordsOf(refusedPage)).toContain("10 recovery codes left.");
    // With an unused recovery code: 10 new ones, shown once, never cached; the earlier ones stop working.
    const renewed = await sendForm(browser, "/auth/account/two-factor-recovery-codes", { code: codes[0] as string });
    expect(renewed.status).toBe(200);
    expect(renewed.headers.get("cache-control")).toContain("no-store");
    const renewedPage = await renewed.text();
    expect(wordsOf(renewedPage)).toContain("New recovery codes were made: the earlier ones no longer work.");
    const fresh = [...sectionOf(renewedPage).matchAll(/<li><code>([^<]+)<\/code><\/li>/g)].map((m) => m[1]);
    expect(fresh).toHaveLength(10);
    expect(fresh.filter((code) => codes.includes(code))).toEqual([]);
    const stale = await sendForm(browser, "/auth/account/two-factor-disable", { code: codes[1] as string });
    expect(stale.headers.get("location")).toBe(`${ORIGIN}/auth/account?error=IncorrectCode&form=two-factor`);

    const off = await sendForm(browser, "/auth/account/two-factor-disable", { code: fresh[0] as string });
    expect(off.headers.get("location")).toBe(`${ORIGIN}/auth/account?done=two-factor-off`);
    const page = await pageText(browser, off.headers.get("location") as string);
    expect(wordsOf(page)).toContain("Two-step verification is off.");
    expect(wordsOf(sectionOf(page))).toContain("Off: signing in takes one step.");
  });

  it("a sign-in older than the owner-present limit: sent to sign in again, and back to the page", async () => {
    const { browser } = await member();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 11 * 60 * 1000);
    const refused = await sendForm(browser, "/auth/account/two-factor-enroll", {});
    expect(refused.headers.get("location")).toBe(
      `${ORIGIN}/auth/signin?callbackUrl=${encodeURIComponent(`${ORIGIN}/auth/account`)}&error=RecentSignInRequired`,
    );
  });

  it("a stale session sends a code to a set-up under way: sent to sign in again, the pending key never shown", async () => {
    const { browser } = await member();
    const setup = sectionOf(await (await sendForm(browser, "/auth/account/two-factor-enroll", {})).text());
    const secret = setup.match(/<code id="totp-secret">([A-Z2-7]+)<\/code>/)?.[1] as string;
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 11 * 60 * 1000);
    for (const code of ["000000", "not a code"]) {
      const refused = await sendForm(browser, "/auth/account/two-factor-confirm", { code });
      expect(refused.headers.get("location")).toContain("error=RecentSignInRequired");
      expect(await refused.text()).not.toContain(secret);
    }
  });

  it("without twoFactor in the configuration there is no section", async () => {
    const a = app();
    const browser = a.browser();
    await post(browser, "/auth/password/sign-up", { email: "no@example.com", password: "first password!" });
    await post(browser, "/auth/password/verify", { token: a.tokenIn("no@example.com", "/auth/password/verify") });
    expect(await pageText(browser, "/auth/account")).not.toContain("two-factor-heading");
  });
});
