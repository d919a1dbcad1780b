/**
 * The second step, the settings routes, the page and the API of second factors, in process on the
 * in-memory adapter with a credentials provider (no PGlite, no SMTP): fast enough to state, for every
 * mutant, what two-factor-flows.test.ts states end to end. Codes come from otpauth, never from authlib.
 */
import { describe, expect, test, vi } from "vitest";
import { createAuth } from "../../src/kernel/instance.js";
import Credentials from "../../src/providers/credentials.js";
import { memoryRateLimitStore } from "../../src/rate-limit/store.js";
import type { AuthConfig } from "../../src/types/config.js";
import { authClient } from "../helpers/auth-client.js";
import { memoryAdapter } from "../helpers/memory-adapter.js";
import { codeOf, wrongCodeFor } from "./helpers.js";

const ORIGIN = "http://localhost:3000";
const PASSWORD = "right password";

function app(overrides: Partial<AuthConfig> = {}) {
  const memory = memoryAdapter();
  memory.users.set("u1", { id: "u1", email: "ada@example.com", emailVerified: null, name: "Ada" });
  const errors: string[] = [];
  /** The types logged at `error` only (a server's fault). */
  const errorLevel: string[] = [];
  const warnings: string[] = [];
  const events: string[] = [];
  const config: AuthConfig = {
    secret: "two-factor-fast-secret-0123456789abcdef",
    trustHost: true,
    adapter: memory.adapter,
    session: { strategy: "jwt" },
    providers: [
      Credentials({
        credentials: { email: {}, password: { type: "password" } },
        authorize: ({ email, password }) => (email === "ada@example.com" && password === PASSWORD ? { id: "u1", email } : null),
      }),
    ],
    twoFactor: {},
    // The store reads the clock at each call, so a test's fake clock moves its windows too.
    rateLimit: { store: memoryRateLimitStore({ now: () => Date.now() }) },
    callbacks: { session: ({ session }) => session },
    events: { twoFactorChanged: ({ userId, change }) => void events.push(`${change} ${userId}`) },
    // `errors`: every failure logged, whatever its level (src/http/log-level.ts): a user's mistake arrives at
    // debug, with its type in the metadata; its type and message are recorded as an error's are.
    debug: true,
    logger: {
      error: (error) => {
        errors.push((error as { type?: string }).type ?? error.name, error.message);
        errorLevel.push((error as { type?: string }).type ?? error.name);
      },
      warn: (code) => void warnings.push(code),
      debug: (line, metadata) => {
        const type = (metadata as { type?: string } | undefined)?.type;
        if (type) errors.push(type, line.slice(type.length + 2).split(" — caused by ")[0] as string);
      },
    },
    ...overrides,
  };
  const auth = createAuth(config);
  const browser = () => authClient(config, ORIGIN);
  return { config, auth, browser, memory, errors, errorLevel, warnings, events };
}
type App = ReturnType<typeof app>;
type Browser = ReturnType<App["browser"]>;

const requestOf = (browser: Browser) => new Request(`${ORIGIN}/page`, { headers: { cookie: browser.jar.header() } });

async function post(browser: Browser, path: string, form: Record<string, string>) {
  return browser.send(path, { form: { csrfToken: await browser.csrf(), ...form } });
}

async function signIn(a: App) {
  const browser = a.browser();
  const response = await post(browser, "/auth/callback/credentials", {
    email: "ada@example.com",
    password: PASSWORD,
    callbackUrl: "/home",
  });
  return { browser, response };
}

async function withTotp(a: App) {
  const { browser } = await signIn(a);
  const { secret } = await a.auth.api.enrollTotp(requestOf(browser));
  const { recoveryCodes } = await a.auth.api.confirmTotp(requestOf(browser), { code: codeOf(secret) });
  return { browser, secret, recoveryCodes };
}

/** A passkey of the user, and a passkey provider made by hand (no ceremony runs in this file). */
const authenticator = {
  credentialID: "cred",
  userId: "u1",
  providerAccountId: "cred",
  credentialPublicKey: "key",
  counter: 0,
  credentialDeviceType: "singleDevice",
  credentialBackedUp: false,
};
const passkeyProvider = { id: "passkey", name: "Passkey", type: "webauthn" } as never;

describe("the gate and the second step", () => {
  test("a user without a factor signs in at once, level 1, amr [pwd]; with one, a pending sign-in and the page", async () => {
    const a = app();
    const plain = await signIn(a);
    expect(plain.response.headers.get("location")).toBe(`${ORIGIN}/home`);
    expect(await plain.browser.session()).toMatchObject({ aal: 1, amr: ["pwd"] });
    const { secret } = await withTotp(a);
    expect(a.events).toEqual(["enabled u1"]);
    const held = await signIn(a);
    expect(held.response.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor`);
    expect(held.browser.jar.get("authlib.session-token")).toBeUndefined();
    const page = await held.browser.send("/auth/two-factor");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`action="${ORIGIN}/auth/two-factor"`);
    expect(html).toContain('name="code"');
    expect(html).not.toContain("data-webauthn-second-factor");
    expect(html).not.toContain('role="alert"');
    expect(html).toContain(`href="${ORIGIN}/auth/signin"`);
    const done = await post(held.browser, "/auth/two-factor", { code: codeOf(secret, 1) });
    expect(done.headers.get("location")).toBe(`${ORIGIN}/home`);
    expect(held.browser.jar.get("authlib.two-factor")).toBeUndefined();
    const session = await held.browser.session();
    expect([session?.aal, session?.amr]).toEqual([2, ["pwd", "otp"]]);
  });

  test("a refused code goes back to the page with its message; the page names the error only from its table", async () => {
    const a = app();
    const { secret } = await withTotp(a);
    const { browser } = await signIn(a);
    const refused = await post(browser, "/auth/two-factor", { code: wrongCodeFor(secret) });
    expect(refused.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor?error=IncorrectCode`);
    expect(a.errors).toContain("IncorrectCode");
    const page = await (await browser.send("/auth/two-factor?error=IncorrectCode")).text();
    expect(page).toContain('role="alert"');
    expect(page).toContain("That code did not work");
    const unknown = await (await browser.send("/auth/two-factor?error=__proto__")).text();
    expect(unknown).toContain("That did not work. Please try again.");
    const missing = await browser.send("/auth/two-factor", { form: { code: codeOf(secret, 1) } });
    expect(missing.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor?error=MissingCSRF`);
  });

  test("the app's own page (pages.twoFactor) gets the browser, and the error, instead of the built-in one", async () => {
    const a = app({ pages: { twoFactor: "/verify" } });
    const { secret } = await withTotp(a);
    const { browser, response } = await signIn(a);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/verify`);
    expect((await browser.send("/auth/two-factor?error=IncorrectCode")).headers.get("location")).toBe(
      `${ORIGIN}/verify?error=IncorrectCode`,
    );
    const refused = await post(browser, "/auth/two-factor", { code: wrongCodeFor(secret) });
    expect(refused.headers.get("location")).toBe(`${ORIGIN}/verify?error=IncorrectCode`);
  });

  test("5 wrong codes end the pending sign-in; the 6th try is refused before any code is checked", async () => {
    const a = app({ rateLimit: false });
    const { secret } = await withTotp(a);
    const { browser } = await signIn(a);
    const wrong = wrongCodeFor(secret);
    for (let i = 0; i < 4; i++)
      expect((await post(browser, "/auth/two-factor", { code: wrong })).headers.get("location")).toContain("error=IncorrectCode");
    const pending = browser.jar.get("authlib.two-factor") as string;
    expect((await post(browser, "/auth/two-factor", { code: wrong })).headers.get("location")).toBe(
      `${ORIGIN}/auth/signin?error=TwoFactorExpired`,
    );
    browser.jar.cookies.set("authlib.two-factor", { name: "authlib.two-factor", value: pending, attributes: {} });
    expect((await post(browser, "/auth/two-factor", { code: codeOf(secret, 1) })).headers.get("location")).toBe(
      `${ORIGIN}/auth/signin?error=TwoFactorExpired`,
    );
    // The sign-in page says what happened: the feature's own message for its error type (its texts carry it).
    const page = await (await browser.send("/auth/signin?error=TwoFactorExpired")).text();
    expect(page).toContain("Your sign-in waited too long for its second step, or began in another browser. Sign in again.");
  });

  test("a recovery code: once, counted down, written as a second method; the user's tries clear on success", async () => {
    const a = app({ rateLimit: { store: memoryRateLimitStore(), twoFactor: { userMax: 3 } } });
    const { secret, recoveryCodes } = await withTotp(a);
    const first = await signIn(a);
    await post(first.browser, "/auth/two-factor", { code: wrongCodeFor(secret) });
    await post(first.browser, "/auth/two-factor", { code: ` ${(recoveryCodes[1] as string).toUpperCase()} ` });
    expect((await first.browser.session())?.amr).toEqual(["pwd", "recovery"]);
    expect((await a.auth.api.getTwoFactorStatus(requestOf(first.browser))).recoveryCodes).toBe(9);
    // Cleared: two more wrong tries and a right one stay under the user's limit of 3.
    const second = await signIn(a);
    await post(second.browser, "/auth/two-factor", { code: wrongCodeFor(secret) });
    await post(second.browser, "/auth/two-factor", { code: recoveryCodes[1] as string });
    const done = await post(second.browser, "/auth/two-factor", { code: recoveryCodes[2] as string });
    expect(done.headers.get("location")).toBe(`${ORIGIN}/home`);
    const third = await signIn(a);
    for (let i = 0; i < 3; i++) await post(third.browser, "/auth/two-factor", { code: wrongCodeFor(secret) });
    expect((await post(third.browser, "/auth/two-factor", { code: recoveryCodes[3] as string })).headers.get("location")).toContain(
      "error=RateLimited",
    );
  });

  test("a code of a user whose factor is unconfirmed or gone is refused; a code longer than any is no code", async () => {
    const a = app();
    const { browser: owner, secret, recoveryCodes } = await withTotp(a);
    const { browser } = await signIn(a);
    await a.auth.api.disableTotp(requestOf(owner), { code: recoveryCodes[0] as string });
    expect(a.events).toEqual(["enabled u1", "disabled u1"]);
    expect((await post(browser, "/auth/two-factor", { code: codeOf(secret, 1) })).headers.get("location")).toContain("error=IncorrectCode");
    const b = app();
    const withFactor = await withTotp(b);
    const { browser: other } = await signIn(b);
    expect((await post(other, "/auth/two-factor", { code: "x".repeat(65) })).headers.get("location")).toContain("error=IncorrectCode");
    expect(
      (await post(other, "/auth/two-factor", { code: codeOf(withFactor.secret, 1).padEnd(40, " ") })).headers.get("location"),
    ).toContain("error=IncorrectCode");
  });

  test("verifyTwoFactor in process: typed errors, not pages", async () => {
    const a = app();
    const { secret } = await withTotp(a);
    const { browser } = await signIn(a);
    await expect(a.auth.api.verifyTwoFactor(requestOf(browser), { code: wrongCodeFor(secret) })).rejects.toMatchObject({
      type: "IncorrectCode",
    });
    await expect(a.auth.api.verifyTwoFactor(requestOf(a.browser()), { code: codeOf(secret, 1) })).rejects.toMatchObject({
      type: "TwoFactorExpired",
    });
    const done = await a.auth.api.verifyTwoFactor(requestOf(browser), { code: codeOf(secret, 1) });
    expect(done.redirect).toBe(`${ORIGIN}/home`);
  });
});

describe("the settings", () => {
  test("statuses over HTTP: 401 signed out, 403 without CSRF, 405 for an unknown route, 409 twice, JSON never cached", async () => {
    const a = app();
    expect((await a.browser().send("/auth/two-factor/status")).status).toBe(401);
    const { browser } = await signIn(a);
    const noToken = await browser.send("/auth/two-factor/enroll", { method: "POST", json: {} });
    expect([noToken.status, await noToken.json()]).toEqual([403, { error: "MissingCSRF" }]);
    expect(noToken.headers.get("cache-control")).toContain("no-store");
    // A path that exists for another method: the router's MethodNotAllowed, shown as UnknownAction (issue 45: was the
    // settings' own { error: "MethodNotAllowed" }).
    const unknown = await browser.send("/auth/two-factor/status", { method: "POST", json: { csrfToken: await browser.csrf() } });
    expect([unknown.status, await unknown.json()]).toEqual([
      405,
      { error: "UnknownAction", message: "POST is not supported on /two-factor/status." },
    ]);
    const enrolled = await browser.send("/auth/two-factor/enroll", { json: { csrfToken: await browser.csrf() } });
    expect(enrolled.status).toBe(200);
    expect(enrolled.headers.get("cache-control")).toContain("no-store");
    const { secret, uri, qrSvg } = (await enrolled.json()) as { secret: string; uri: string; qrSvg: string };
    expect(uri).toContain(`secret=${secret}`);
    expect(uri.startsWith("otpauth://totp/localhost%3A3000:ada%40example.com?")).toBe(true);
    expect(qrSvg).toMatch(/^<svg[^>]*viewBox/);
    const notYet = await browser.send("/auth/two-factor/disable", { json: { csrfToken: await browser.csrf(), code: codeOf(secret) } });
    expect([notYet.status, await notYet.json()]).toEqual([409, { error: "TwoFactorNotEnabled" }]);
    const confirmed = await browser.send("/auth/two-factor/confirm", { json: { csrfToken: await browser.csrf(), code: codeOf(secret) } });
    expect(((await confirmed.json()) as { recoveryCodes: string[] }).recoveryCodes).toHaveLength(10);
    const again = await browser.send("/auth/two-factor/enroll", { json: { csrfToken: await browser.csrf() } });
    expect([again.status, await again.json()]).toEqual([409, { error: "TwoFactorAlreadyEnabled" }]);
    const status = await browser.send("/auth/two-factor/status");
    expect(await status.json()).toEqual({ totp: true, recoveryCodes: 10, passkeys: 0 });
  });

  test("new recovery codes: a code of the app or an unused recovery code makes 10, the earlier ones stop working", async () => {
    const a = app();
    await expect(a.auth.api.regenerateRecoveryCodes(requestOf((await signIn(a)).browser), { code: "123456" })).rejects.toMatchObject({
      type: "TwoFactorNotEnabled",
    });
    const { browser, secret, recoveryCodes } = await withTotp(a);
    // A wrong code changes nothing, and counts as a failed second factor.
    await expect(a.auth.api.regenerateRecoveryCodes(requestOf(browser), { code: wrongCodeFor(secret) })).rejects.toMatchObject({
      type: "IncorrectCode",
    });
    expect((await a.auth.api.getTwoFactorStatus(requestOf(browser))).recoveryCodes).toBe(10);
    // With an unused recovery code: spent, and 10 new ones replace every earlier one.
    const { recoveryCodes: fresh } = await a.auth.api.regenerateRecoveryCodes(requestOf(browser), { code: recoveryCodes[0] as string });
    expect(fresh).toHaveLength(10);
    expect(fresh.filter((code) => recoveryCodes.includes(code))).toEqual([]);
    expect((await a.auth.api.getTwoFactorStatus(requestOf(browser))).recoveryCodes).toBe(10);
    await expect(a.auth.api.disableTotp(requestOf(browser), { code: recoveryCodes[1] as string })).rejects.toMatchObject({
      type: "IncorrectCode",
    });
    expect(a.events).toEqual(["enabled u1", "recoveryCodesCreated u1"]);
    // Over HTTP: CSRF-checked JSON, never cached; then a new code turns the app off.
    const noToken = await browser.send("/auth/two-factor/recovery-codes", { method: "POST", json: { code: fresh[0] } });
    expect([noToken.status, await noToken.json()]).toEqual([403, { error: "MissingCSRF" }]);
    const overHttp = await browser.send("/auth/two-factor/recovery-codes", { json: { csrfToken: await browser.csrf(), code: fresh[0] } });
    expect(overHttp.status).toBe(200);
    expect(overHttp.headers.get("cache-control")).toContain("no-store");
    const { recoveryCodes: third } = (await overHttp.json()) as { recoveryCodes: string[] };
    expect(third).toHaveLength(10);
    await a.auth.api.disableTotp(requestOf(browser), { code: third[0] as string });
    expect((await a.auth.api.getTwoFactorStatus(requestOf(browser))).totp).toBe(false);
  });

  test("issuer; the account is the email, else the name, else the id; confirm before enroll and typed codes", async () => {
    const a = app({ twoFactor: { issuer: "Acme" } });
    const { browser } = await signIn(a);
    await expect(a.auth.api.confirmTotp(requestOf(browser), { code: "123456" })).rejects.toMatchObject({ type: "TwoFactorNotEnabled" });
    const { uri, secret } = await a.auth.api.enrollTotp(requestOf(browser));
    expect(uri.startsWith("otpauth://totp/Acme:ada%40example.com?secret=")).toBe(true);
    expect(uri).toContain("&issuer=Acme&algorithm=SHA1&digits=6&period=30");
    await expect(a.auth.api.confirmTotp(requestOf(browser), { code: "12 34" })).rejects.toMatchObject({
      type: "IncorrectCode",
      message: "Type the 6-digit code your authenticator app shows.",
    });
    await expect(a.auth.api.confirmTotp(requestOf(browser), { code: wrongCodeFor(secret) })).rejects.toMatchObject({
      type: "IncorrectCode",
    });
    a.memory.users.set("u1", { id: "u1", email: null, emailVerified: null, name: "Ada L" });
    expect((await a.auth.api.enrollTotp(requestOf(browser))).uri.startsWith("otpauth://totp/Acme:Ada%20L?")).toBe(true);
    a.memory.users.set("u1", { id: "u1", email: null, emailVerified: null, name: null });
    expect((await a.auth.api.enrollTotp(requestOf(browser))).uri.startsWith("otpauth://totp/Acme:u1?")).toBe(true);
  });

  test("without twoFactor in the configuration the settings do not exist; assurance still answers", async () => {
    const a = app({ twoFactor: undefined });
    const { browser } = await signIn(a);
    // Issue 45: the feature is off, so its routes are not routes (was 500 Configuration).
    for (const [path, method] of [
      ["enroll", "POST"],
      ["confirm", "POST"],
      ["disable", "POST"],
      ["status", "GET"],
    ] as const) {
      const refused = await browser.send(
        `/auth/two-factor/${path}`,
        method === "POST" ? { json: { csrfToken: await browser.csrf() } } : {},
      );
      expect([path, refused.status, await refused.json()]).toEqual([path, 404, { error: "UnknownAction", message: "Not found." }]);
    }
    // auth.api: the operation is not in the instance: a typed UnknownAction that names it and says why.
    await expect(a.auth.api.getTwoFactorStatus(requestOf(browser))).rejects.toMatchObject({ type: "UnknownAction" });
    await expect(a.auth.api.enrollTotp(requestOf(browser))).rejects.toThrow(/"enrollTotp".*twoFactor/);
    const assurance = await browser.send("/auth/two-factor/assurance");
    expect(await assurance.json()).toMatchObject({ userId: "u1", assurance: { aal: 1, amr: ["pwd"] } });
    expect(await (await a.browser().send("/auth/two-factor/assurance")).json()).toEqual({ error: "SessionRequired" });
  });

  test("requireRecentAuth: the age and level asked; malformed input is a TypeError; ?maxAge= must be a number", async () => {
    const a = app();
    const { browser } = await signIn(a);
    expect(await a.auth.api.requireRecentAuth(requestOf(browser), { maxAge: 60 })).toMatchObject({ userId: "u1", aal: 1, amr: ["pwd"] });
    await expect(a.auth.api.requireRecentAuth(requestOf(browser), { maxAge: 60, aal: 2 })).rejects.toMatchObject({
      type: "RecentSignInRequired",
      aal: 2,
      maxAge: 60,
      message: "Sign in again with your second factor to continue.",
    });
    await expect(a.auth.api.requireRecentAuth(requestOf(browser), { maxAge: -1 })).rejects.toBeInstanceOf(TypeError);
    await expect(a.auth.api.requireRecentAuth(requestOf(browser), { maxAge: 60, aal: 3 as 2 })).rejects.toBeInstanceOf(TypeError);
    // The client's bad input: UnknownAction with its class's status (issue 45: was 500 Configuration).
    const bad = await browser.send("/auth/two-factor/assurance?maxAge=soon");
    expect([bad.status, await bad.json()]).toEqual([400, { error: "UnknownAction" }]);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 120_000 });
    try {
      await expect(a.auth.api.requireRecentAuth(requestOf(browser), { maxAge: 60 })).rejects.toMatchObject({
        message: "Sign in again to continue: this needs a sign-in in the last 1 minutes.",
      });
      await expect(a.auth.api.enrollTotp(requestOf(browser))).resolves.toBeDefined();
    } finally {
      vi.useRealTimers();
    }
  });

  test("disable: a recent sign-in, a right code (replays refused); TOTP off leaves the user without a second step", async () => {
    const a = app();
    const { browser, secret } = await withTotp(a);
    await expect(a.auth.api.disableTotp(requestOf(browser), { code: codeOf(secret) })).rejects.toMatchObject({
      message: "This code was used already. Wait for the next one in your app.",
    });
    await a.auth.api.disableTotp(requestOf(browser), { code: codeOf(secret, 1) });
    await expect(a.auth.api.disableTotp(requestOf(browser), { code: codeOf(secret, 1) })).rejects.toMatchObject({
      type: "TwoFactorNotEnabled",
    });
    expect((await signIn(a)).response.headers.get("location")).toBe(`${ORIGIN}/home`);
  });
});

describe("passkeys as the second step", () => {
  test("twoFactor.passkeys: a user with a passkey and no app is held, and the page offers only the passkey", async () => {
    const a = app({ twoFactor: { passkeys: true }, experimental: { enableWebAuthn: true } });
    a.config.providers.push(passkeyProvider);
    const b = app({ twoFactor: { passkeys: true }, experimental: { enableWebAuthn: true }, providers: [...a.config.providers] });
    await b.memory.adapter.createAuthenticator?.(authenticator);
    const { browser, response } = await signIn(b);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor`);
    const html = await (await browser.send("/auth/two-factor")).text();
    expect(html).toContain("data-webauthn-second-factor");
    expect(html).toContain(`data-options-url="${ORIGIN}/auth/webauthn-options/passkey"`);
    expect(html).not.toContain('name="code"');
    expect(await b.auth.api.getTwoFactorStatus(requestOf(browser)).catch((error) => error.type)).toBe("SessionRequired");
    // Without the option, a passkey alone is no second factor.
    const c = app({ experimental: { enableWebAuthn: true }, providers: [...a.config.providers] });
    await c.memory.adapter.createAuthenticator?.(authenticator);
    expect((await signIn(c)).response.headers.get("location")).toBe(`${ORIGIN}/home`);
  });
});

describe("the audit trail", () => {
  test("turning TOTP on and off and a refused second step are audit rows, naming the user, with no code in them", async () => {
    const rows: Array<{ type: string; outcome: string; userId: string | null; detail: string | null }> = [];
    const a = app({ audit: { store: { write: (event) => void rows.push(event) } } });
    const { browser: owner, secret, recoveryCodes } = await withTotp(a);
    const { browser } = await signIn(a);
    const wrong = wrongCodeFor(secret);
    await post(browser, "/auth/two-factor", { code: wrong });
    await expect(a.auth.api.verifyTwoFactor(requestOf(browser), { code: wrong })).rejects.toMatchObject({ type: "IncorrectCode" });
    await a.auth.api.disableTotp(requestOf(owner), { code: recoveryCodes[0] as string });
    await vi.waitFor(() => expect(rows.some((row) => row.type === "twoFactorDisabled")).toBe(true));
    expect(rows.find((row) => row.type === "twoFactorEnabled")).toMatchObject({ outcome: "success", userId: "u1" });
    // A refused second step names the user whose sign-in waits (the page's form, then auth.api): their password is known.
    expect(rows.filter((row) => row.type === "twoFactorFailed")).toEqual([
      expect.objectContaining({ outcome: "failure", userId: "u1", detail: "IncorrectCode" }),
      expect.objectContaining({ outcome: "failure", userId: "u1", detail: "IncorrectCode" }),
    ]);
    expect(rows.find((row) => row.type === "twoFactorDisabled")).toMatchObject({ outcome: "success", userId: "u1" });
    const text = JSON.stringify(rows);
    for (const leaked of [secret, wrong, recoveryCodes[0] as string, PASSWORD]) expect(text).not.toContain(leaked);
  });
  test("a code refused turning TOTP on or off is a failed second factor of that user, over HTTP and through auth.api", async () => {
    const rows: Array<{ type: string; outcome: string; userId: string | null; detail: string | null }> = [];
    const a = app({ audit: { store: { write: (event) => void rows.push(event) } } });
    const { browser } = await signIn(a);
    const { secret } = await a.auth.api.enrollTotp(requestOf(browser));
    const wrong = wrongCodeFor(secret);
    expect((await post(browser, "/auth/two-factor/confirm", { code: wrong })).status).toBe(400);
    await expect(a.auth.api.confirmTotp(requestOf(browser), { code: wrong })).rejects.toMatchObject({ type: "IncorrectCode" });
    await a.auth.api.confirmTotp(requestOf(browser), { code: codeOf(secret) });
    // Refusals that check no factor leave no row: a second enrollment, a GET of a POST route.
    expect((await post(browser, "/auth/two-factor/enroll", {})).status).toBe(409);
    expect((await browser.send("/auth/two-factor/disable")).status).toBe(405);
    expect((await post(browser, "/auth/two-factor/disable", { code: wrong })).status).toBe(400);
    await expect(a.auth.api.disableTotp(requestOf(browser), { code: wrong })).rejects.toMatchObject({ type: "IncorrectCode" });
    await vi.waitFor(() => expect(rows.filter((row) => row.type === "twoFactorFailed").length).toBe(4));
    expect(rows.map((row) => [row.type, row.outcome, row.userId, row.detail])).toEqual([
      ["signIn", "success", "u1", null],
      ...Array(2).fill(["twoFactorFailed", "failure", "u1", "IncorrectCode"]),
      ["twoFactorEnabled", "success", "u1", null],
      ...Array(2).fill(["twoFactorFailed", "failure", "u1", "IncorrectCode"]),
    ]);
  });
  test("new recovery codes are a row; a code refused making them, on the route or the account page's form, is a failed second factor", async () => {
    const rows: Array<{ type: string; outcome: string; userId: string | null; detail: string | null }> = [];
    const a = app({ audit: { store: { write: (event) => void rows.push(event) } } });
    const { browser, secret, recoveryCodes } = await withTotp(a);
    const wrong = wrongCodeFor(secret);
    expect((await post(browser, "/auth/two-factor/recovery-codes", { code: wrong })).status).toBe(400);
    const fromPage = await post(browser, "/auth/account/two-factor-recovery-codes", { code: wrong });
    expect(fromPage.headers.get("location")).toBe(`${ORIGIN}/auth/account?error=IncorrectCode&form=recovery-codes`);
    await a.auth.api.regenerateRecoveryCodes(requestOf(browser), { code: recoveryCodes[0] as string });
    await vi.waitFor(() => expect(rows.some((row) => row.type === "recoveryCodesCreated")).toBe(true));
    expect(rows.slice(2).map((row) => [row.type, row.outcome, row.userId, row.detail])).toEqual([
      ...Array(2).fill(["twoFactorFailed", "failure", "u1", "IncorrectCode"]),
      ["recoveryCodesCreated", "success", "u1", null],
    ]);
    for (const leaked of [wrong, recoveryCodes[0] as string]) expect(JSON.stringify(rows)).not.toContain(leaked);
  });
  test("a wrong code while setting up on the account page is answered with the set-up again and audited as a failed second factor", async () => {
    const rows: Array<{ type: string; outcome: string; userId: string | null; detail: string | null }> = [];
    const a = app({ audit: { store: { write: (event) => void rows.push(event) } } });
    const { browser } = await signIn(a);
    const { secret } = await a.auth.api.enrollTotp(requestOf(browser));
    const refused = await post(browser, "/auth/account/two-factor-confirm", { code: wrongCodeFor(secret) });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(secret);
    await vi.waitFor(() => expect(rows.some((row) => row.type === "twoFactorFailed")).toBe(true));
    expect(rows.filter((row) => row.type === "twoFactorFailed")).toEqual([
      expect.objectContaining({ outcome: "failure", userId: "u1", detail: "IncorrectCode" }),
    ]);
    expect(JSON.stringify(rows)).not.toContain(secret);
  });
  test("a session too old to turn TOTP off is refused as a failed second factor that names the session's user", async () => {
    const rows: Array<{ type: string; outcome: string; userId: string | null; detail: string | null }> = [];
    const a = app({ audit: { store: { write: (event) => void rows.push(event) } } });
    const { browser, secret } = await withTotp(a);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 11 * 60_000 });
    try {
      const refused = await post(browser, "/auth/two-factor/disable", { code: codeOf(secret) });
      expect([refused.status, await refused.json()]).toEqual([403, { error: "RecentSignInRequired" }]);
    } finally {
      vi.useRealTimers();
    }
    await vi.waitFor(() => expect(rows.some((row) => row.type === "twoFactorFailed")).toBe(true));
    expect(rows.filter((row) => row.type === "twoFactorFailed")).toEqual([
      expect.objectContaining({ outcome: "failure", userId: "u1", detail: "RecentSignInRequired" }),
    ]);
  });
  test("a two-step sign-in's row names its second factor: otp for the app's code, recovery for a recovery code", async () => {
    const rows: Array<{ type: string; userId: string | null; detail: string | null }> = [];
    const a = app({ audit: { store: { write: (event) => void rows.push(event) } } });
    const { secret, recoveryCodes } = await withTotp(a);
    const byCode = await signIn(a);
    expect((await post(byCode.browser, "/auth/two-factor", { code: codeOf(secret, 1) })).headers.get("location")).not.toContain("error=");
    const byRecovery = await signIn(a);
    await post(byRecovery.browser, "/auth/two-factor", { code: recoveryCodes[0] as string });
    await vi.waitFor(() => expect(rows.filter((row) => row.type === "signIn").length).toBe(3));
    expect(rows.filter((row) => row.type === "signIn").map((row) => [row.userId, row.detail])).toEqual([
      ["u1", null],
      ["u1", "otp"],
      ["u1", "recovery"],
    ]);
  });
  test("a limit's refusal turning TOTP on over HTTP (answered as JSON) is a rateLimited row of that user", async () => {
    const rows: Array<{ type: string; userId: string | null; detail: string | null }> = [];
    const a = app({
      audit: { store: { write: (event) => void rows.push(event) } },
      rateLimit: { store: memoryRateLimitStore(), twoFactor: { userMax: 1 } },
    });
    const { browser } = await signIn(a);
    const { secret } = await a.auth.api.enrollTotp(requestOf(browser));
    expect((await post(browser, "/auth/two-factor/confirm", { code: wrongCodeFor(secret) })).status).toBe(400);
    expect((await post(browser, "/auth/two-factor/confirm", { code: wrongCodeFor(secret) })).status).toBe(429);
    await vi.waitFor(() => expect(rows.length).toBe(3));
    expect(rows.slice(1).map((row) => [row.type, row.userId, row.detail])).toEqual([
      ["twoFactorFailed", "u1", "IncorrectCode"],
      ["rateLimited", "u1", "RateLimited"],
    ]);
  });
});

describe("the exact refusals", () => {
  test("codes: spaces and padding are read, other characters are no TOTP code; each refusal says why", async () => {
    const a = app();
    const { secret } = await withTotp(a);
    const held = async () => (await signIn(a)).browser;
    const verify = async (browser: Browser, code: string) =>
      a.auth.api.verifyTwoFactor(requestOf(browser), { code }).then(
        () => "ok",
        (error) => error.message,
      );
    const spaced = codeOf(secret, 1).replace(/^(\d{3})/, "$1 ");
    expect(await verify(await held(), spaced.padEnd(32, " "))).toBe("ok");
    expect(await verify(await held(), `a${codeOf(secret, 1).slice(1)}`)).toBe(
      "That is not a code of your authenticator app or an unused recovery code.",
    );
    expect(await verify(await held(), `${codeOf(secret, 1)}7`)).toBe(
      "That is not a code of your authenticator app or an unused recovery code.",
    );
    expect(await verify(await held(), wrongCodeFor(secret))).toBe(
      "That is not the code your authenticator app shows. Check it and try again.",
    );
    expect(await verify(await held(), codeOf(secret, 1).padEnd(33, " "))).toBe(
      "That is not a code of your authenticator app or an unused recovery code.",
    );
  });

  test("a code accepted once stays refused while it could still be valid (the next step too)", async () => {
    const a = app();
    const { secret } = await withTotp(a);
    const code = codeOf(secret, 1);
    await a.auth.api.verifyTwoFactor(requestOf((await signIn(a)).browser), { code });
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 30_000 });
    try {
      const { browser } = await signIn(a);
      await expect(a.auth.api.verifyTwoFactor(requestOf(browser), { code })).rejects.toMatchObject({
        message: "This code was used already. Wait for the next one in your app.",
      });
    } finally {
      vi.useRealTimers();
    }
  });

  test("a recovery code padded to 64 characters is read; longer is no code", async () => {
    const a = app();
    const { recoveryCodes } = await withTotp(a);
    const ok = await a.auth.api.verifyTwoFactor(requestOf((await signIn(a)).browser), {
      code: (recoveryCodes[0] as string).padEnd(64, " "),
    });
    expect(ok.redirect).toBe(`${ORIGIN}/home`);
    await expect(
      a.auth.api.verifyTwoFactor(requestOf((await signIn(a)).browser), { code: (recoveryCodes[1] as string).padEnd(65, " ") }),
    ).rejects.toMatchObject({ type: "IncorrectCode" });
  });

  test("the 5th code may still be right; the 5th wrong one ends it; the 6th try is refused unread", async () => {
    const a = app({ rateLimit: false });
    const { secret } = await withTotp(a);
    const first = (await signIn(a)).browser;
    for (let i = 0; i < 4; i++)
      await expect(a.auth.api.verifyTwoFactor(requestOf(first), { code: wrongCodeFor(secret) })).rejects.toBeDefined();
    expect((await a.auth.api.verifyTwoFactor(requestOf(first), { code: codeOf(secret, 1) })).redirect).toBe(`${ORIGIN}/home`);
    const second = (await signIn(a)).browser;
    for (let i = 0; i < 4; i++)
      await expect(a.auth.api.verifyTwoFactor(requestOf(second), { code: wrongCodeFor(secret) })).rejects.toBeDefined();
    await expect(a.auth.api.verifyTwoFactor(requestOf(second), { code: wrongCodeFor(secret) })).rejects.toMatchObject({
      type: "TwoFactorExpired",
      message: "Too many wrong codes: sign in again.",
    });
    await expect(a.auth.api.verifyTwoFactor(requestOf(second), { code: codeOf(secret, 2) })).rejects.toMatchObject({
      message: "Too many wrong tries: sign in again.",
    });
  });

  test("labels and messages of the settings' refusals", async () => {
    const a = app();
    await expect(a.auth.api.getTwoFactorStatus(requestOf(a.browser()))).rejects.toMatchObject({
      message: "Sign in first: the request has no session.",
    });
    const { browser, secret } = await withTotp(a);
    await expect(a.auth.api.enrollTotp(requestOf(browser))).rejects.toMatchObject({
      message: "Your authenticator app is set up already: turn it off first to set up another.",
    });
    await expect(a.auth.api.confirmTotp(requestOf(browser), { code: codeOf(secret, 1) })).rejects.toMatchObject({
      type: "TwoFactorAlreadyEnabled",
      message: "Your authenticator app is set up already.",
    });
    const b = app();
    const { browser: fresh } = await signIn(b);
    await expect(b.auth.api.confirmTotp(requestOf(fresh), { code: "123456" })).rejects.toMatchObject({
      message: "Set up the authenticator app first (enroll), then confirm it with a code.",
    });
    await expect(b.auth.api.disableTotp(requestOf(fresh), { code: "123456" })).rejects.toMatchObject({
      message: "There is no authenticator app to turn off.",
    });
    await expect(b.auth.api.disableTotp(requestOf(fresh), undefined as never)).rejects.toMatchObject({ type: "TwoFactorNotEnabled" });
    for (const [path, label] of [
      ["enroll", "TOTP enrollment"],
      ["confirm", "TOTP confirmation"],
      ["disable", "TOTP removal"],
    ] as const) {
      await fresh.send(`/auth/two-factor/${path}`, { method: "POST", json: {} });
      expect(b.errors).toContain(`The CSRF token was missing or wrong during the ${label} action.`);
    }
    const wrongMethod = await fresh.send("/auth/two-factor/assurance", { method: "POST", json: { csrfToken: await fresh.csrf() } });
    expect(wrongMethod.status).toBe(405);
    expect(b.errors).toContain("POST is not supported on /two-factor/assurance.");
    const off = app({ twoFactor: undefined });
    const { browser: plain } = await signIn(off);
    // With the feature off its operations are not in the instance: UnknownAction, naming the switch.
    await expect(off.auth.api.getTwoFactorStatus(requestOf(plain))).rejects.toThrow(/No operation "getTwoFactorStatus".*twoFactor/);
    const disabled = await browser.send("/auth/two-factor/disable", { json: { csrfToken: await browser.csrf(), code: codeOf(secret, 1) } });
    expect([disabled.status, await disabled.json()]).toEqual([200, { disabled: true }]);
  });

  test("the second step's own refusals: the CSRF label, a rate limit is a warning, a passkey answer without a passkey provider", async () => {
    const a = app({ rateLimit: { store: memoryRateLimitStore(), twoFactor: { userMax: 1 } } });
    const { secret } = await withTotp(a);
    const { browser } = await signIn(a);
    await browser.send("/auth/two-factor", { form: { code: codeOf(secret, 1) } });
    expect(a.errors).toContain("The CSRF token was missing or wrong during the second sign-in step action.");
    await post(browser, "/auth/two-factor", { code: wrongCodeFor(secret) });
    expect((await post(browser, "/auth/two-factor", { code: codeOf(secret, 1) })).headers.get("location")).toBe(
      `${ORIGIN}/auth/two-factor?error=RateLimited`,
    );
    expect(a.warnings).toContain("rate-limited");
    expect(a.errorLevel).not.toContain("RateLimited");
    const b = app();
    const withCode = await withTotp(b);
    const held = (await signIn(b)).browser;
    const passkeyAnswer = await post(held, "/auth/two-factor", { action: "second-factor", data: "{}", code: codeOf(withCode.secret, 1) });
    // No passkey provider: UnknownAction (400), and no code was looked at.
    expect(passkeyAnswer.status).toBe(400);
    expect(held.jar.get("authlib.session-token")).toBeUndefined();
  });

  test("passkeys count only with a passkey provider and at least one passkey; a passkey-only user types no code", async () => {
    const noProvider = app({ twoFactor: { passkeys: true } });
    await noProvider.memory.adapter.createAuthenticator?.(authenticator);
    expect((await signIn(noProvider)).response.headers.get("location")).toBe(`${ORIGIN}/home`);
    const none = app({ twoFactor: { passkeys: true }, experimental: { enableWebAuthn: true } });
    none.config.providers.push(passkeyProvider);
    const noneAuth = app({ twoFactor: { passkeys: true }, experimental: { enableWebAuthn: true }, providers: [...none.config.providers] });
    expect((await signIn(noneAuth)).response.headers.get("location")).toBe(`${ORIGIN}/home`);
    const totpOnly = await withTotp(noneAuth);
    const page = await (await (await signIn(noneAuth)).browser.send("/auth/two-factor")).text();
    expect(page).not.toContain("data-webauthn-second-factor");
    expect(page).not.toContain("<script");
    expect(page).toContain('spellcheck="false"');
    expect(totpOnly.secret).toBeDefined();
    const passkeyOnly = app({
      twoFactor: { passkeys: true },
      experimental: { enableWebAuthn: true },
      providers: [...none.config.providers],
    });
    await passkeyOnly.memory.adapter.createAuthenticator?.(authenticator);
    const held = (await signIn(passkeyOnly)).browser;
    const html = await (await held.send("/auth/two-factor")).text();
    expect(html).toContain(`data-callback-url="${ORIGIN}/auth/two-factor"`);
    expect(html).toContain(`data-csrf-url="${ORIGIN}/auth/csrf"`);
    expect(html).toMatch(/<script src="http:\/\/localhost:3000\/auth\/webauthn-script\?v=[^"]+" defer>/);
    await expect(passkeyOnly.auth.api.verifyTwoFactor(requestOf(held), { code: "123456" })).rejects.toMatchObject({
      message: "This account has no authenticator app: use a passkey.",
    });
  });

  test("?maxAge= is checked; requireRecentAuth's input too; verifyTwoFactor without input is a wrong code", async () => {
    const a = app();
    const { browser } = await withTotp(a);
    const held = (await signIn(a)).browser;
    expect((await browser.send("/auth/two-factor/assurance?maxAge=-1")).status).toBe(400);
    expect(a.errors).toContain("`maxAge` must be a number of seconds, 0 or more.");
    const signedOut = app();
    await signedOut.browser().send("/auth/two-factor/assurance");
    expect(signedOut.errors).toEqual(["SessionRequired", "Sign in first: the request has no session."]);
    expect((await browser.send("/auth/two-factor/assurance?maxAge=0")).status).not.toBe(400);
    const zero = await a.auth.api.requireRecentAuth(requestOf(browser), { maxAge: 0 }).catch((error) => error);
    expect(zero).not.toBeInstanceOf(TypeError);
    await expect(a.auth.api.requireRecentAuth(requestOf(browser), { maxAge: Number.NaN })).rejects.toThrow(
      "requireRecentAuth needs `maxAge` (seconds, 0 or more) and `aal` 1 or 2.",
    );
    await expect(a.auth.api.verifyTwoFactor(requestOf(held), undefined as never)).rejects.toMatchObject({ type: "IncorrectCode" });
  });
});
