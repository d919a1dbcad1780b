/**
 * Second factors end to end through `Auth()` and `auth.api`, with JWT and database sessions on a PGlite
 * branch: TOTP set up and confirmed with codes from an independent implementation, the pending state after
 * the first factor (password, email link, password reset), the second step with a TOTP or a recovery code,
 * the session's assurance, step-up, and every refusal the issue names.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { RecentSignInRequired } from "../../src/errors.js";
import { closeSharedPglite, sharedPglite } from "../helpers/database.js";
import { startSmtpServer } from "../helpers/smtp.js";
import { linkIn, mailTo, post } from "../password/helpers.js";
import { codeOf, firstFactor, PASSWORD, requestOf, secondStep, twoFactorApp, userWithTotp } from "./helpers.js";

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  [smtp] = await Promise.all([startSmtpServer(), sharedPglite().waitReady]);
});
afterAll(async () => {
  await smtp?.close();
  await closeSharedPglite();
});

describe.each(["jwt", "database"] as const)("%s sessions", (strategy) => {
  test("password → pending (no session) → TOTP → a session of level 2 with amr [pwd, otp]", async () => {
    const app = await twoFactorApp(smtp, { strategy });
    const { secret, recoveryCodes } = await userWithTotp(smtp, app, `ada-${strategy}@example.com`);
    expect(recoveryCodes).toHaveLength(10);

    const { browser, response } = await firstFactor(app, `ada-${strategy}@example.com`);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("http://localhost:3000/auth/two-factor");
    // The first factor's cookies alone are no session.
    expect(browser.jar.get("authlib.session-token")).toBeUndefined();
    expect(browser.jar.get("authlib.two-factor")).toBeDefined();
    expect(await browser.session()).toBeNull();

    const page = await browser.send("/auth/two-factor");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('name="code"');
    expect(html).not.toContain("data-webauthn-second-factor");

    const before = Math.floor(Date.now() / 1000);
    const done = await secondStep(browser, codeOf(secret, 1));
    expect(done.headers.get("location")).toBe("http://localhost:3000/home");
    expect(browser.jar.get("authlib.two-factor")).toBeUndefined();
    const session = await browser.session();
    expect(session?.user?.email).toBe(`ada-${strategy}@example.com`);
    expect(session?.aal).toBe(2);
    expect(session?.amr).toEqual(["pwd", "otp"]);
    expect(session?.authTime).toBeGreaterThanOrEqual(before);
    const status = await app.auth.api.getTwoFactorStatus(requestOf(browser));
    expect(status).toEqual({ totp: true, recoveryCodes: 10, passkeys: 0 });
    expect(app.events.filter((e) => e.startsWith("signIn"))).toHaveLength(2);
  });

  test("a recovery code works once, and counts down", async () => {
    const app = await twoFactorApp(smtp, { strategy });
    const email = `rec-${strategy}@example.com`;
    const { recoveryCodes } = await userWithTotp(smtp, app, email);
    const code = recoveryCodes[3] as string;

    const first = await firstFactor(app, email);
    await secondStep(first.browser, code.toUpperCase().replace("-", " "));
    const session = await first.browser.session();
    expect(session?.amr).toEqual(["pwd", "recovery"]);
    expect(session?.aal).toBe(2);
    expect((await app.auth.api.getTwoFactorStatus(requestOf(first.browser))).recoveryCodes).toBe(9);

    const again = await firstFactor(app, email);
    const refused = await secondStep(again.browser, code);
    expect(refused.headers.get("location")).toBe("http://localhost:3000/auth/two-factor?error=IncorrectCode");
    expect(await again.browser.session()).toBeNull();
    expect(again.browser.jar.get("authlib.two-factor")).toBeDefined();
  });

  test("a TOTP code accepted once is refused again within its window (replay)", async () => {
    const app = await twoFactorApp(smtp, { strategy });
    const email = `replay-${strategy}@example.com`;
    const { secret } = await userWithTotp(smtp, app, email);
    const code = codeOf(secret, 1);
    const first = await firstFactor(app, email);
    await secondStep(first.browser, code);
    expect((await first.browser.session())?.aal).toBe(2);

    const second = await firstFactor(app, email);
    const replayed = await secondStep(second.browser, code);
    expect(replayed.headers.get("location")).toContain("error=IncorrectCode");
    expect(await second.browser.session()).toBeNull();
  });

  test("the pending state is bound to its browser, to its CSRF token, and ends", async () => {
    const app = await twoFactorApp(smtp, { strategy });
    const email = `bound-${strategy}@example.com`;
    const { secret } = await userWithTotp(smtp, app, email);
    const { browser } = await firstFactor(app, email);

    // Another browser with the pending cookie carried over (and its own CSRF token): refused.
    const thief = app.browser();
    await thief.csrf();
    thief.jar.cookies.set("authlib.two-factor", {
      name: "authlib.two-factor",
      value: browser.jar.get("authlib.two-factor") as string,
      attributes: {},
    });
    const stolen = await secondStep(thief, codeOf(secret, 1));
    expect(stolen.headers.get("location")).toBe("http://localhost:3000/auth/signin?error=TwoFactorExpired");
    expect(await thief.session()).toBeNull();
    expect(thief.jar.get("authlib.two-factor")).toBeUndefined();

    // Without the pending state at all.
    const stranger = app.browser();
    const none = await secondStep(stranger, codeOf(secret, 1));
    expect(none.headers.get("location")).toBe("http://localhost:3000/auth/signin?error=TwoFactorExpired");
    expect((await stranger.send("/auth/two-factor")).headers.get("location")).toBe(
      "http://localhost:3000/auth/signin?error=TwoFactorExpired",
    );

    // Without the CSRF token: the page says so; the pending state stays.
    const noCsrf = await browser.send("/auth/two-factor", { form: { code: codeOf(secret, 1) } });
    expect(noCsrf.headers.get("location")).toBe("http://localhost:3000/auth/two-factor?error=MissingCSRF");
    expect(await browser.session()).toBeNull();

    // A tampered cookie opens nothing.
    const value = browser.jar.get("authlib.two-factor") as string;
    browser.jar.cookies.set("authlib.two-factor", { name: "authlib.two-factor", value: `${value.slice(0, -4)}AAAA`, attributes: {} });
    expect((await secondStep(browser, codeOf(secret, 1))).headers.get("location")).toContain("error=TwoFactorExpired");
  });

  test("after its lifetime the pending state gives nothing", async () => {
    const app = await twoFactorApp(smtp, { strategy, config: { twoFactor: { pendingMaxAge: 60 } } });
    const email = `late-${strategy}@example.com`;
    const { secret } = await userWithTotp(smtp, app, email);
    const { browser } = await firstFactor(app, email);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 90_000 });
    try {
      const late = await secondStep(browser, codeOf(secret));
      expect(late.headers.get("location")).toContain("/auth/signin?error=TwoFactorExpired");
      expect(await browser.session()).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  test("wrong codes: the 5th ends the pending state; the user's limit holds across pending states", async () => {
    const app = await twoFactorApp(smtp, { strategy, config: { rateLimit: { twoFactor: { userMax: 8 } } } });
    const email = `guess-${strategy}@example.com`;
    const { secret } = await userWithTotp(smtp, app, email);
    const wrong = (codeOf(secret, 5) === "123456" ? "654321" : "123456") as string;
    const { browser } = await firstFactor(app, email);
    for (let i = 1; i <= 4; i++) expect((await secondStep(browser, wrong)).headers.get("location")).toContain("error=IncorrectCode");
    expect((await secondStep(browser, wrong)).headers.get("location")).toContain("/auth/signin?error=TwoFactorExpired");
    expect(browser.jar.get("authlib.two-factor")).toBeUndefined();

    const next = await firstFactor(app, email);
    for (let i = 1; i <= 3; i++) await secondStep(next.browser, wrong);
    // 8 tries for the user in the window: the right code is refused too, until the window ends.
    expect((await secondStep(next.browser, codeOf(secret, 1))).headers.get("location")).toContain("error=RateLimited");
    expect(await next.browser.session()).toBeNull();
  });

  test("email link and password reset are first factors too: each ends in the second step", async () => {
    const app = await twoFactorApp(smtp, { strategy });
    const email = `links-${strategy}@example.com`;
    const { secret } = await userWithTotp(smtp, app, email);

    const browser = app.browser();
    let since = smtp.mails.length;
    await post(browser, "/auth/signin/nodemailer", { email, callbackUrl: "/mail" });
    const link = linkIn(mailTo(smtp, email, since), "/auth/callback/nodemailer");
    const opened = await browser.send(link.pathname + link.search);
    expect(opened.headers.get("location")).toBe("http://localhost:3000/auth/two-factor");
    expect(await browser.session()).toBeNull();
    const done = await secondStep(browser, codeOf(secret, 1));
    expect(done.headers.get("location")).toBe("http://localhost:3000/mail");
    expect((await browser.session())?.amr).toEqual(["email", "otp"]);

    const resetter = app.browser();
    since = smtp.mails.length;
    await post(resetter, "/auth/password/forgot", { email });
    const reset = linkIn(mailTo(smtp, email, since), "/auth/password/reset");
    const answered = await post(resetter, "/auth/password/reset", {
      token: reset.searchParams.get("token") as string,
      password: `${PASSWORD}!`,
    });
    expect(answered.headers.get("location")).toBe("http://localhost:3000/auth/two-factor");
    expect(await resetter.session()).toBeNull();
  });

  test("step-up: requireRecentAuth and disableTotp need a recent sign-in; disabling ends the second step", async () => {
    const app = await twoFactorApp(smtp, { strategy });
    const email = `stepup-${strategy}@example.com`;
    const { secret, recoveryCodes } = await userWithTotp(smtp, app, email);
    const { browser } = await firstFactor(app, email);
    await secondStep(browser, codeOf(secret, 1));

    const assurance = await app.auth.api.requireRecentAuth(requestOf(browser), { maxAge: 300, aal: 2 });
    expect(assurance.aal).toBe(2);
    expect(assurance.amr).toEqual(["pwd", "otp"]);

    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 11 * 60_000 });
    try {
      await expect(app.auth.api.requireRecentAuth(requestOf(browser), { maxAge: 600 })).rejects.toMatchObject({
        type: "RecentSignInRequired",
        maxAge: 600,
        aal: 1,
      });
      const refused = app.auth.api.disableTotp(requestOf(browser), { code: codeOf(secret, -1) });
      await expect(refused).rejects.toBeInstanceOf(RecentSignInRequired);
      expect((await app.auth.api.getTwoFactorStatus(requestOf(browser))).totp).toBe(true);
    } finally {
      vi.useRealTimers();
    }

    // A browser that passed only the first factor has no session to step up.
    const halfway = await firstFactor(app, email);
    expect(halfway.response.headers.get("location")).toContain("/two-factor");
    await expect(app.auth.api.requireRecentAuth(requestOf(halfway.browser), { maxAge: 600 })).rejects.toMatchObject({
      type: "SessionRequired",
    });

    await expect(
      app.auth.api.disableTotp(requestOf(browser), { code: "000000" === codeOf(secret, -1) ? "111111" : "000000" }),
    ).rejects.toMatchObject({
      type: "IncorrectCode",
    });
    // A recovery code: a TOTP code now could be of a step used above.
    await app.auth.api.disableTotp(requestOf(browser), { code: recoveryCodes[0] as string });
    expect(await app.auth.api.getTwoFactorStatus(requestOf(browser))).toEqual({ totp: false, recoveryCodes: 0, passkeys: 0 });
    const plain = await firstFactor(app, email);
    expect(plain.response.headers.get("location")).toBe("http://localhost:3000/home");
    const session = await plain.browser.session();
    expect(session?.aal).toBe(1);
    expect(session?.amr).toEqual(["pwd"]);
    await expect(app.auth.api.requireRecentAuth(requestOf(plain.browser), { maxAge: 600, aal: 2 })).rejects.toMatchObject({
      type: "RecentSignInRequired",
      aal: 2,
    });
  });

  test("the factor's row is no linked account: not listed, not unlinked, its secret not in the database in clear", async () => {
    const app = await twoFactorApp(smtp, { strategy });
    const email = `row-${strategy}@example.com`;
    const { browser, secret } = await userWithTotp(smtp, app, email);
    const accounts = await app.auth.api.listAccounts(requestOf(browser));
    expect(accounts.map((a) => a.provider)).toEqual(["password"]);
    const session = await app.auth.api.getSession(requestOf(browser));
    const user = await app.adapter.getUserByEmail?.(email);
    const rows = (await app.adapter.listAccountsByUserId?.(user?.id as string)) ?? [];
    const row = rows.find((r) => r.provider === "authlib-2fa");
    expect(row?.access_token).toBeTypeOf("string");
    expect(JSON.stringify(rows)).not.toContain(secret);
    await expect(
      app.auth.api.unlinkAccount(requestOf(browser), { provider: "authlib-2fa", providerAccountId: row?.providerAccountId as string }),
    ).rejects.toMatchObject({ type: "AccountNotFound" });
    expect(session.session).not.toBeNull();
  });
});

describe("through auth.api, as a framework integration calls it", () => {
  test("a first factor in a browser with no CSRF cookie yet makes one, binds the pending sign-in to it, and verifyTwoFactor completes it", async () => {
    const app = await twoFactorApp(smtp);
    const email = "api@example.com";
    const { secret } = await userWithTotp(smtp, app, email);
    const browser = app.browser();
    const started = await app.auth.api.signIn(requestOf(browser), {
      providerId: "password",
      email,
      password: PASSWORD,
      redirectTo: "/next",
    });
    expect(started.redirect).toBe("http://localhost:3000/auth/two-factor");
    expect(started.cookies.map((cookie) => cookie.name).sort()).toEqual([
      "authlib.csrf-token",
      "authlib.device-token",
      "authlib.two-factor",
    ]);
    for (const cookie of started.cookies) browser.jar.cookies.set(cookie.name, { name: cookie.name, value: cookie.value, attributes: {} });
    await expect(app.auth.api.verifyTwoFactor(requestOf(app.browser()), { code: codeOf(secret, 1) })).rejects.toMatchObject({
      type: "TwoFactorExpired",
    });
    const done = await app.auth.api.verifyTwoFactor(requestOf(browser), { code: codeOf(secret, 1) });
    expect(done.redirect).toBe("http://localhost:3000/next");
    expect(done.cookies.some((cookie) => cookie.name === "authlib.session-token" && cookie.value !== "")).toBe(true);
  });
});

describe("setting TOTP up", () => {
  test("enroll answers a secret, its otpauth URI and an SVG QR code; confirm needs the app's code; enroll again is refused", async () => {
    const app = await twoFactorApp(smtp);
    const browser = app.browser();
    const { signUpAndVerify } = await import("../password/helpers.js");
    await signUpAndVerify(smtp, browser, "setup@example.com", PASSWORD);
    const enrollment = await app.auth.api.enrollTotp(requestOf(browser));
    expect(enrollment.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(enrollment.uri).toBe(
      `otpauth://totp/localhost%3A3000:setup%40example.com?secret=${enrollment.secret}&issuer=localhost%3A3000&algorithm=SHA1&digits=6&period=30`,
    );
    expect(enrollment.qrSvg.startsWith("<svg")).toBe(true);
    // Not on until confirmed: a sign-in takes no second step.
    expect((await firstFactor(app, "setup@example.com")).response.headers.get("location")).toBe("http://localhost:3000/home");
    await expect(app.auth.api.confirmTotp(requestOf(browser), { code: "12345" })).rejects.toMatchObject({ type: "IncorrectCode" });
    const { recoveryCodes } = await app.auth.api.confirmTotp(requestOf(browser), { code: codeOf(enrollment.secret) });
    expect(recoveryCodes).toHaveLength(10);
    await expect(app.auth.api.enrollTotp(requestOf(browser))).rejects.toMatchObject({ type: "TwoFactorAlreadyEnabled" });
    await expect(app.auth.api.confirmTotp(requestOf(browser), { code: codeOf(enrollment.secret, 1) })).rejects.toMatchObject({
      type: "TwoFactorAlreadyEnabled",
    });
  });

  test("signed out: SessionRequired; cross-site: MissingCSRF; over HTTP the settings answer JSON with statuses", async () => {
    const app = await twoFactorApp(smtp);
    const browser = app.browser();
    await expect(app.auth.api.enrollTotp(requestOf(browser))).rejects.toMatchObject({ type: "SessionRequired" });
    const { signUpAndVerify } = await import("../password/helpers.js");
    await signUpAndVerify(smtp, browser, "http@example.com", PASSWORD);
    const crossSite = new Request("http://localhost:3000/app", {
      headers: { cookie: browser.jar.header(), "sec-fetch-site": "cross-site" },
    });
    await expect(app.auth.api.enrollTotp(crossSite)).rejects.toMatchObject({ type: "MissingCSRF" });

    const noToken = await browser.send("/auth/two-factor/enroll", { method: "POST", json: {} });
    expect(noToken.status).toBe(403);
    expect(await noToken.json()).toEqual({ error: "MissingCSRF" });
    const csrfToken = await browser.csrf();
    const enrolled = await browser.send("/auth/two-factor/enroll", { json: { csrfToken } });
    expect(enrolled.status).toBe(200);
    const { secret } = (await enrolled.json()) as { secret: string };
    const wrong = await browser.send("/auth/two-factor/confirm", {
      json: { csrfToken, code: "000000" === codeOf(secret) ? "111111" : "000000" },
    });
    expect([wrong.status, await wrong.json()]).toEqual([400, { error: "IncorrectCode" }]);
    const status = await browser.send("/auth/two-factor/status");
    expect(await status.json()).toEqual({ totp: false, recoveryCodes: 0, passkeys: 0 });
    const signedOut = await app.browser().send("/auth/two-factor/status");
    expect([signedOut.status, await signedOut.json()]).toEqual([401, { error: "SessionRequired" }]);
  });
});
