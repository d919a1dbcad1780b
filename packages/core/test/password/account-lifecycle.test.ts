/**
 * Email change, account deletion and the account page on the in-memory adapter, the mails kept in memory:
 * every branch and answer, fast enough per mutant (mutation group `account-lifecycle`). The same flows on
 * PGlite with a real SMTP server and in Chromium: account-page.test.ts, password-browser.test.ts.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import Password from "../../src/providers/password.js";
import type { AdapterUser } from "../../src/types/adapters.js";
import type { AuthConfig } from "../../src/types/config.js";
import type { MailMessage } from "../../src/types/providers.js";
import { authClient } from "../helpers/auth-client.js";
import { failureLines } from "../helpers/failure-log.js";
import { memoryAdapter, withVerificationTokens } from "../helpers/memory-adapter.js";

const ORIGIN = "http://localhost:3000";
/** Where a refused account form sends the browser: to sign in again, and back to the account page. */
const REAUTHENTICATE = `${ORIGIN}/auth/signin?callbackUrl=${encodeURIComponent(`${ORIGIN}/auth/account`)}&error=RecentSignInRequired`;
const secret = "account-lifecycle-secret-0123456789abcdef";

afterEach(() => {
  vi.useRealTimers();
});

function app(config: Partial<AuthConfig> = {}, sessionRecords = true) {
  const memory = memoryAdapter({ sessionRecords });
  const mails: MailMessage[] = [];
  const events: string[] = [];
  const logs: string[] = [];
  const send = { fail: false };
  const full: AuthConfig = {
    secret,
    trustHost: true,
    adapter: withVerificationTokens(memory.adapter),
    providers: [
      Password({
        sendMail: (mail) => {
          if (send.fail) throw new Error("mail server down");
          mails.push(mail);
        },
      }),
    ],
    events: {
      updateUser: ({ user }) => void events.push(`updateUser ${user.email}`),
      userDeleted: ({ user }) => void events.push(`userDeleted ${user.email}`),
    },
    // Every failure at its level (a user's mistake at debug), as `Type: message`; warnings as `warn <code>`.
    debug: true,
    logger: failureLines(logs),
    ...config,
  };
  const tokenIn = (to: string, path: string) => {
    const mail = [...mails].reverse().find((m) => m.to === to);
    const link = mail?.text.match(new RegExp(`${ORIGIN}${path}\\?\\S+`))?.[0];
    if (!link) throw new Error(`no ${path} link to ${to}`);
    return new URL(link).searchParams.get("token") as string;
  };
  return { ...memory, config: full, mails, events, logs, send, tokenIn, browser: () => authClient(full, ORIGIN) };
}

type App = ReturnType<typeof app>;
type Browser = ReturnType<typeof authClient>;

async function post(browser: Browser, path: string, form: Record<string, string>) {
  const csrfToken = await browser.csrf();
  return (await browser.send(path, { form: { csrfToken, ...form } })).headers.get("location");
}

async function member(a: App, browser: Browser, email: string): Promise<AdapterUser> {
  await post(browser, "/auth/password/sign-up", { email, password: "first password" });
  await post(browser, "/auth/password/verify", { token: a.tokenIn(email, "/auth/password/verify") });
  return [...a.users.values()].find((u) => u.email === email) as AdapterUser;
}

/**
 * A user with a proven address and no password, signed in in a new browser: signed in through a reset
 * link (a first password), whose password account then goes.
 */
async function passwordlessMember(a: App): Promise<Browser> {
  a.users.set("np", { id: "np", email: "np@example.com", emailVerified: new Date() });
  const browser = a.browser();
  await post(browser, "/auth/password/forgot", { email: "np@example.com" });
  await post(browser, "/auth/password/reset", { token: a.tokenIn("np@example.com", "/auth/password/reset"), password: "first password" });
  a.accounts.splice(0);
  return browser;
}

describe("email change", () => {
  it("a link to the new address; confirmed, the address is the user's and this browser's session says it", async () => {
    const a = app();
    const browser = a.browser();
    const user = await member(a, browser, "old@example.com");
    expect(await post(browser, "/auth/account/email", { email: "New@Example.com" })).toBe(`${ORIGIN}/auth/account?done=email-sent`);
    const mail = a.mails.at(-1);
    expect(mail).toMatchObject({ to: "new@example.com", subject: "Confirm your new email address for localhost:3000" });
    const token = a.tokenIn("new@example.com", "/auth/account/confirm-email");
    const page = await browser.send(`/auth/account/confirm-email?token=${encodeURIComponent(token)}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`value="${token}"`);
    expect(await post(browser, "/auth/account/confirm-email", { token })).toBe(`${ORIGIN}/auth/account?done=email-changed`);
    expect(a.users.get(user.id)).toMatchObject({ email: "new@example.com" });
    expect(a.users.get(user.id)?.emailVerified).toBeInstanceOf(Date);
    expect(a.events).toEqual(["updateUser new@example.com"]);
    expect(a.mails.at(-1)).toMatchObject({ to: "old@example.com", subject: "Your email address for localhost:3000 changed" });
    expect((await browser.session())?.user?.email).toBe("new@example.com");
  });

  it("an address another account proved: a note to it, no link, the same answer", async () => {
    const a = app();
    a.users.set("owner", { id: "owner", email: "taken@example.com", emailVerified: new Date() });
    const browser = a.browser();
    await member(a, browser, "me@example.com");
    expect(await post(browser, "/auth/account/email", { email: "taken@example.com" })).toBe(`${ORIGIN}/auth/account?done=email-sent`);
    expect(a.mails.at(-1)).toMatchObject({ to: "taken@example.com", subject: "Your email address on localhost:3000" });
    expect(a.mails.at(-1)?.text).not.toContain("/auth/account/confirm-email");
  });

  it("one's own address, or one held without proof, gets the link; proven by another since, refused", async () => {
    const a = app();
    const browser = a.browser();
    const me = await member(a, browser, "me@example.com");
    a.users.set("holder", { id: "holder", email: "held@example.com", emailVerified: null });
    await post(browser, "/auth/account/email", { email: "held@example.com" });
    const held = a.tokenIn("held@example.com", "/auth/account/confirm-email");
    expect(await post(browser, "/auth/account/confirm-email", { token: held })).toBe(`${ORIGIN}/auth/account?done=email-changed`);
    expect(a.users.get("holder")?.email).toBeNull();
    expect(a.users.get(me.id)?.email).toBe("held@example.com");

    await post(browser, "/auth/account/email", { email: "race@example.com" });
    const race = a.tokenIn("race@example.com", "/auth/account/confirm-email");
    a.users.set("winner", { id: "winner", email: "race@example.com", emailVerified: new Date() });
    expect(await post(browser, "/auth/account/confirm-email", { token: race })).toBe(`${ORIGIN}/auth/account?error=Verification`);
    expect(a.logs.at(-1)).toBe("Verification: This address belongs to another account now.");
    expect(a.users.get(me.id)?.email).toBe("held@example.com");
  });

  it("the link is the asking user's: another user, a signed-out visitor or a second use are refused", async () => {
    const a = app();
    const browser = a.browser();
    await member(a, browser, "me@example.com");
    await post(browser, "/auth/account/email", { email: "mine@example.com" });
    const token = a.tokenIn("mine@example.com", "/auth/account/confirm-email");
    const stranger = a.browser();
    await member(a, stranger, "stranger@example.com");
    expect(await post(stranger, "/auth/account/confirm-email", { token })).toBe(`${ORIGIN}/auth/account?error=Verification`);
    expect(a.logs.at(-1)).toBe("Verification: Sign in to the account that asked for this address, then open the link again.");
    const visitor = a.browser();
    const link = `${ORIGIN}/auth/account/confirm-email?token=${encodeURIComponent(token)}`;
    expect((await visitor.send(link)).headers.get("location")).toBe(`${ORIGIN}/auth/signin?callbackUrl=${encodeURIComponent(link)}`);
    expect((await visitor.send("/auth/account/confirm-email")).headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`);
    expect(await post(browser, "/auth/account/confirm-email", { token })).toBe(`${ORIGIN}/auth/account?done=email-changed`);
    expect(await post(browser, "/auth/account/confirm-email", { token })).toBe(`${ORIGIN}/auth/account?error=Verification`);
  });

  it("a mail that cannot be sent, a bad address, no session: refused on the account page", async () => {
    const a = app();
    const browser = a.browser();
    await member(a, browser, "me@example.com");
    expect(await post(browser, "/auth/account/email", { email: "a,b@example.com" })).toBe(`${ORIGIN}/auth/account?error=EmailSignInError`);
    a.send.fail = true;
    expect(await post(browser, "/auth/account/email", { email: "c@example.com" })).toBe(`${ORIGIN}/auth/account?error=EmailSignInError`);
    expect(await post(a.browser(), "/auth/account/email", { email: "c@example.com" })).toBe(`${ORIGIN}/auth/account?error=SessionRequired`);
  });
});

describe("deleting the account", () => {
  it("with a password: only with the right one; then gone, signed out, the event fired", async () => {
    const a = app();
    const browser = a.browser();
    const user = await member(a, browser, "bye@example.com");
    expect(await post(browser, "/auth/account/delete", { currentPassword: "wrong one" })).toBe(
      `${ORIGIN}/auth/account?error=IncorrectPassword&form=delete`,
    );
    expect(await post(browser, "/auth/account/delete", {})).toBe(`${ORIGIN}/auth/account?error=IncorrectPassword&form=delete`);
    expect(await post(browser, "/auth/account/delete", { currentPassword: "first password", callbackUrl: "/gone" })).toBe(`${ORIGIN}/gone`);
    expect(a.users.has(user.id)).toBe(false);
    expect(a.events).toEqual(["userDeleted bye@example.com"]);
    expect(await browser.session()).toBeNull();
  });

  it("without a password: a session younger than 10 minutes, not older", async () => {
    const a = app();
    const browser = await passwordlessMember(a);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 10 * 60 * 1000 + 1000);
    // The browser is sent to sign in again, and back to the account page.
    expect(await post(browser, "/auth/account/delete", {})).toBe(REAUTHENTICATE);
    expect(a.logs.at(-1)).toBe(
      "RecentSignInRequired: Sign in again to continue: changing how you sign in needs a sign-in in the last 10 minutes.",
    );
    vi.setSystemTime(Date.now() - 2000);
    expect(await post(browser, "/auth/account/delete", {})).toBe(`${ORIGIN}/`);
    expect(a.users.has("np")).toBe(false);
  });

  it("without session records, the session's own sign-in time decides: 30 minutes old is refused", async () => {
    const a = app({}, false);
    const browser = await passwordlessMember(a);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 30 * 60 * 1000);
    expect(await post(browser, "/auth/account/delete", {})).toBe(REAUTHENTICATE);
    expect(a.users.has("np")).toBe(true);
    vi.useRealTimers();
    expect(await post(browser, "/auth/account/delete", {})).toBe(`${ORIGIN}/`);
    expect(a.users.has("np")).toBe(false);
  });
});

describe("the account page", () => {
  it("lists the methods, the password form, the email and delete forms, and the notices", async () => {
    const a = app();
    const browser = a.browser();
    const user = await member(a, browser, "page@example.com");
    a.accounts.push({ userId: user.id, type: "oauth", provider: "gone-provider", providerAccountId: "x" });
    const html = await (await browser.send("/auth/account?done=email-sent")).text();
    expect(html).toContain("page@example.com");
    expect(html).toContain("<span>Password</span>");
    expect(html).toContain("<span>gone-provider</span>");
    expect(html).not.toContain("Unlink gone-provider");
    expect(html).toContain('action="http://localhost:3000/auth/account/email"');
    expect(html).toContain('action="http://localhost:3000/auth/account/delete"');
    expect(html).toContain("Change email address");
    expect(html).toContain("We sent a link to the new address.");
    // No passkey provider: no passkey count, although the adapter can list authenticators.
    expect(html).not.toContain("Passkeys");
    expect(await (await browser.send("/auth/account?error=Nope")).text()).toContain("Something went wrong. Please try again.");
  });

  it("unlinks from the page, back with the notice; refuses other methods on the page", async () => {
    const a = app();
    const browser = a.browser();
    await member(a, browser, "u@example.com");
    expect((await browser.send("/auth/account/unlink")).status).toBe(405);
    expect((await browser.send("/auth/account/other")).status).toBe(404);
    expect(await post(browser, "/auth/account/unlink", { provider: "none", providerAccountId: "x" })).toBe(
      `${ORIGIN}/auth/account?error=AccountNotFound`,
    );
  });
});

describe("the lifecycle's edges", () => {
  it("each form names its CSRF check", async () => {
    const a = app();
    const browser = a.browser();
    await member(a, browser, "e@example.com");
    for (const route of ["email", "confirm-email", "delete"]) {
      // The delete form's refusals are shown at its own field (`form=delete`).
      const form = route === "delete" ? "&form=delete" : "";
      expect((await browser.send(`/auth/account/${route}`, { form: { email: "x@example.com", token: "t" } })).headers.get("location")).toBe(
        `${ORIGIN}/auth/account?error=MissingCSRF${form}`,
      );
    }
    // A client's signal: each refusal's line (at debug), beside its csrf-refused warning.
    expect(a.logs.filter((line) => !line.startsWith("warn "))).toEqual([
      "MissingCSRF: The CSRF token was missing or wrong during the email change action.",
      "MissingCSRF: The CSRF token was missing or wrong during the email confirmation action.",
      "MissingCSRF: The CSRF token was missing or wrong during the account deletion action.",
    ]);
  });

  it("one's own address or an unproven holder's gets the link; no previous address, no notice; a failed notice is logged", async () => {
    const a = app();
    const browser = a.browser();
    const me = await member(a, browser, "own@example.com");
    await post(browser, "/auth/account/email", { email: "own@example.com" });
    expect(a.mails.at(-1)).toMatchObject({ to: "own@example.com", subject: "Confirm your new email address for localhost:3000" });
    // The same address again: confirmed, no "changed" notice (nothing changed).
    const mails = a.mails.length;
    await post(browser, "/auth/account/confirm-email", { token: a.tokenIn("own@example.com", "/auth/account/confirm-email") });
    expect(a.mails.length).toBe(mails);
    a.users.set("h", { id: "h", email: "holder@example.com", emailVerified: null });
    await post(browser, "/auth/account/email", { email: "holder@example.com" });
    expect(a.mails.at(-1)?.subject).toBe("Confirm your new email address for localhost:3000");
    // Without a proven address before, nobody is told of the change.
    a.users.set(me.id, { ...me, emailVerified: null });
    const before = a.mails.length;
    await post(browser, "/auth/account/confirm-email", { token: a.tokenIn("holder@example.com", "/auth/account/confirm-email") });
    expect(a.mails.length).toBe(before);
    expect(a.users.get(me.id)?.email).toBe("holder@example.com");
    // A proven address changes: told, and a notice that fails is logged, the change stands.
    await post(browser, "/auth/account/email", { email: "third@example.com" });
    const token = a.tokenIn("third@example.com", "/auth/account/confirm-email");
    a.send.fail = true;
    expect(await post(browser, "/auth/account/confirm-email", { token })).toBe(`${ORIGIN}/auth/account?done=email-changed`);
    expect(a.users.get(me.id)?.email).toBe("third@example.com");
    expect(a.logs.filter((line) => !line.startsWith("warn"))).toEqual([
      "EmailSignInError: The notice of a sign-in change (emailChanged) could not be sent to its owner (Error).",
    ]);
  });

  it("an email-change link works for an hour", async () => {
    const a = app();
    const browser = a.browser();
    await member(a, browser, "hour@example.com");
    await post(browser, "/auth/account/email", { email: "later@example.com" });
    const token = a.tokenIn("later@example.com", "/auth/account/confirm-email");
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 61 * 60 * 1000);
    expect(await post(browser, "/auth/account/confirm-email", { token })).toBe(`${ORIGIN}/auth/account?error=Verification`);
    vi.setSystemTime(Date.now() - 2 * 60 * 1000);
    expect(await post(browser, "/auth/account/confirm-email", { token })).toBe(`${ORIGIN}/auth/account?done=email-changed`);
  });

  it("deleting without a password: exactly 10 minutes after the sign-in is still recent", async () => {
    const a = app();
    // The clock stands on a whole second while the user signs in: the session's `authTime` is that second.
    const signedInAt = Math.floor(Date.now() / 1000) * 1000;
    vi.useFakeTimers({ toFake: ["Date"], now: signedInAt });
    const browser = await passwordlessMember(a);
    vi.setSystemTime(signedInAt + 10 * 60 * 1000 + 1000);
    expect(await post(browser, "/auth/account/delete", {})).toBe(REAUTHENTICATE);
    vi.setSystemTime(signedInAt + 10 * 60 * 1000 + 999);
    expect(await post(browser, "/auth/account/delete", {})).toBe(`${ORIGIN}/`);
  });

  it("the page: signed out to sign-in and back; proven address only; links, passkeys, the confirm page", async () => {
    const a = app({ experimental: { enableWebAuthn: true } });
    const { default: Passkey } = await import("../../src/providers/passkey.js");
    const github = {
      id: "github",
      name: "GitHub",
      type: "oauth" as const,
      clientId: "id",
      authorization: "https://gh.test/authorize",
      token: "https://gh.test/token",
      userinfo: "https://gh.test/user",
    };
    a.config.providers = [...a.config.providers, Passkey({}), github];
    const visitor = a.browser();
    expect((await visitor.send("/auth/account")).headers.get("location")).toBe(
      `${ORIGIN}/auth/signin?callbackUrl=${encodeURIComponent(`${ORIGIN}/auth/account`)}`,
    );
    const browser = a.browser();
    const user = await member(a, browser, "page@example.com");
    a.authenticators.set("cred-1", {
      credentialID: "cred-1",
      userId: user.id,
      providerAccountId: "cred-1",
      counter: 0,
      credentialBackedUp: false,
      credentialPublicKey: "k",
      credentialDeviceType: "singleDevice",
    });
    a.accounts.push({ userId: user.id, type: "webauthn", provider: "passkey", providerAccountId: "cred-1" });
    a.accounts.push({ userId: user.id, type: "oauth", provider: "github", providerAccountId: "gh-1" });
    let html = await (await browser.send("/auth/account")).text();
    expect(html).toContain("1 passkey");
    expect(html).toContain('aria-label="Unlink GitHub"');
    expect(html).toContain(">Link GitHub<");
    // The passkey's account is counted, not listed; only OAuth providers can be linked from here.
    expect(html).not.toContain("<span>Passkey</span>");
    expect(html).not.toContain("Link Passkey");
    expect(html).not.toContain("Link Password");
    expect(html).toContain('action="http://localhost:3000/auth/password/change"');
    expect(html).toContain('href="http://localhost:3000/auth/signout"');
    expect(html).toContain('action="http://localhost:3000/auth/account/unlink"');
    expect(html).toContain('name="currentPassword"');
    a.users.set(user.id, { ...user, emailVerified: null });
    html = await (await browser.send("/auth/account")).text();
    expect(html).toContain("No email address");
    expect(html).toContain("Add an email address");
    a.users.set(user.id, user);
    a.accounts.splice(
      a.accounts.findIndex((x) => x.provider === "password"),
      1,
    );
    html = await (await browser.send("/auth/account")).text();
    expect(html).toContain('href="http://localhost:3000/auth/password/forgot"');
    expect(html).toContain("Without a password, deleting needs a sign-in in the last 10 minutes.");

    await post(browser, "/auth/account/email", { email: "next@example.com" });
    const token = a.tokenIn("next@example.com", "/auth/account/confirm-email");
    const page = await (await browser.send(`/auth/account/confirm-email?token=${encodeURIComponent(token)}`)).text();
    expect(page).toContain('action="http://localhost:3000/auth/account/confirm-email"');
    // The last linked account: the notice says how the user signs in now (the passkey; the password went above).
    expect(await post(browser, "/auth/account/unlink", { provider: "github", providerAccountId: "gh-1" })).toBe(
      `${ORIGIN}/auth/account?done=unlinked-passkey`,
    );
  });

  it("auth.api callers get the typed error; an unknown POST is refused with its path", async () => {
    const a = app();
    const { createAuth } = await import("../../src/kernel/instance.js");
    const auth = createAuth(a.config);
    const error = await auth.api
      .changeEmail({ url: ORIGIN, headers: { "sec-fetch-site": "same-origin" } }, { email: "x@example.com" })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ type: "SessionRequired", message: "Sign in first: the request has no session." });
    const browser = a.browser();
    expect((await browser.send("/auth/account/delete")).status).toBe(405);
    expect(a.logs).toContain("MethodNotAllowed: GET is not supported on /account/delete.");
    await member(a, browser, "m@example.com");
    expect((await browser.send("/auth/account", { form: { csrfToken: await browser.csrf() } })).status).toBe(405);
    expect(a.logs).toContain("MethodNotAllowed: POST is not supported on /account.");
  });

  it("without an adapter that can change addresses or delete users, each operation names what is missing", async () => {
    const github = {
      id: "github",
      name: "GitHub",
      type: "oauth" as const,
      clientId: "id",
      authorization: "https://gh.test/authorize",
      token: "https://gh.test/token",
      userinfo: "https://gh.test/user",
    };
    const { createAuth } = await import("../../src/kernel/instance.js");
    const request = { url: ORIGIN, headers: { "sec-fetch-site": "same-origin" } };
    const a = app({ adapter: undefined, providers: [github] });
    const api = createAuth(a.config).api;
    expect(await api.changeEmail(request, { email: "x@example.com" }).catch((e: unknown) => e)).toMatchObject({
      type: "MissingAdapterMethods",
      message: "Changing an email address needs an adapter with: getUser, getUserByEmail, updateUser, createVerificationToken.",
    });
    expect(await api.deleteAccount(request).catch((e: unknown) => e)).toMatchObject({
      type: "MissingAdapterMethods",
      message: "Deleting an account needs an adapter with getUser and deleteUser.",
    });
    // A passkey-only app passes the start-up check without these methods.
    const { default: Passkey } = await import("../../src/providers/passkey.js");
    const b = app({ providers: [Passkey({})], experimental: { enableWebAuthn: true } });
    const { updateUser: _u, createVerificationToken: _c, deleteUser: _d, ...partial } = b.config.adapter ?? {};
    const limited = createAuth({ ...b.config, session: { strategy: "jwt" }, adapter: partial }).api;
    expect(await limited.changeEmail(request, { email: "x@example.com" }).catch((e: unknown) => e)).toMatchObject({
      type: "MissingAdapterMethods",
      message: "Changing an email address needs an adapter with: updateUser, createVerificationToken.",
    });
    expect(await limited.deleteAccount(request).catch((e: unknown) => e)).toMatchObject({ type: "MissingAdapterMethods" });
  });

  it("the recent sign-in window is 10 minutes, also in a module loaded afresh", async () => {
    // Loaded inside the test: a mutation run only sees a module-level constant change when the module loads
    // within the test that checks it (docs/testing.md).
    vi.resetModules();
    const fresh = await import("../../src/sign-in/owner-present.js");
    expect(fresh.OWNER_PRESENT_SECONDS).toBe(600);
  });
});
