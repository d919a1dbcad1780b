/**
 * The owner is told of every change to how they sign in (account-lifecycle/notify.ts), by mail through a
 * real SMTP server, on PGlite, in the language of the request that made the change (English and German
 * here); a failed notice never undoes the change. And the previous address of an email change undoes it
 * (account-lifecycle/email-revert.ts): the address comes back, the thief's sessions end, the password
 * they set stops working, the link works once and for 7 days.
 */
import type { ParsedMail } from "mailparser";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { de as twoFactorDe } from "../../src/features/two-factor/messages/de.js";
import { en as twoFactorEn } from "../../src/features/two-factor/messages/en.js";
import { de } from "../../src/i18n/catalogs/de.js";
import { en } from "../../src/i18n/catalogs/en.js";
import type { SessionStrategy } from "../../src/index.js";
import Nodemailer from "../../src/providers/nodemailer.js";
import Passkey from "../../src/providers/passkey.js";
import Password from "../../src/providers/password.js";
import type { Messages } from "../../src/types/i18n.js";
import { authClient } from "../helpers/auth-client.js";
import { closeSharedPglite, sharedPglite } from "../helpers/database.js";
import { opProvider, startTestOP, type TestOP } from "../helpers/oidc-provider.js";
import { passwordSignIn, totpApp, turnOnTotp } from "../helpers/second-factor-flows.js";
import { startSmtpServer } from "../helpers/smtp.js";
import { codeOf, secondStep } from "../two-factor/helpers.js";
import { SoftAuthenticator } from "../webauthn/soft-authenticator.js";
import { type Browser, linkIn, mailTo, ORIGIN, passwordApp, post, type Smtp, signIn, signUpAndVerify } from "./helpers.js";

let smtp: Smtp;
let op: TestOP;
beforeAll(async () => {
  smtp = await startSmtpServer();
  op = await startTestOP({
    clients: [{ client_id: "app", client_secret: "app-secret", redirect_uris: [`${ORIGIN}/auth/callback/op`] }],
  });
  await sharedPglite().waitReady;
});
afterAll(async () => {
  await op.close();
  await smtp.close();
  await closeSharedPglite();
});
afterEach(() => {
  vi.useRealTimers();
  smtp.state.refuse = false;
});

/** The password app with passkeys, TOTP and an OIDC provider to link; browsers that ask for `language`. */
async function noticeApp(language = "en", strategy: SessionStrategy = "jwt") {
  const app = await passwordApp(smtp, {
    strategy,
    config: {
      providers: [
        Nodemailer({ server: smtp.transport, from: "Demo <no-reply@demo.test>" }),
        Password(),
        Passkey({}),
        opProvider(op, { checks: ["pkce", "state", "nonce"] }),
      ],
      experimental: { enableWebAuthn: true },
      twoFactor: {},
    },
  });
  return { ...app, browser: () => authClient(app.config, ORIGIN, undefined, { "accept-language": language }) };
}

type App = Awaited<ReturnType<typeof noticeApp>>;

/** The one mail to `to` since `since` (waiting for the parser), failing when none or several came. */
async function onlyMailTo(to: string, since: number): Promise<ParsedMail> {
  await smtp.nextMail(since);
  const mails = smtp.mails.slice(since).filter((m) => (m.to as { text: string } | undefined)?.text === to);
  expect(mails).toHaveLength(1);
  return mails[0] as ParsedMail;
}

/** Runs `change` and answers the notice it mailed to `to`. */
async function noticeOf(to: string, change: () => Promise<unknown>): Promise<ParsedMail> {
  const since = smtp.mails.length;
  await change();
  return onlyMailTo(to, since);
}

/** Signs in `browser` with an email link (no password): a new user of `email` when there is none. */
async function signInWithEmailLink(browser: Browser, email: string) {
  const since = smtp.mails.length;
  await post(browser, "/auth/signin/nodemailer", { email });
  const link = (await smtp.nextMail(since)).text?.match(/http:\/\/localhost:3000\/auth\/callback\/nodemailer\?\S+/)?.[0];
  await browser.send(link as string);
  expect((await browser.session())?.user?.email).toBe(email);
}

async function postJson(browser: Browser, path: string, form: Record<string, string> = {}) {
  return (await post(browser, path, form)).json() as Promise<Record<string, any>>;
}

/** Registers a passkey for the user signed in in `browser`. */
async function addPasskey(browser: Browser) {
  const authenticator = new SoftAuthenticator(ORIGIN);
  const { options } = (await (await browser.send("/auth/webauthn-options/passkey?action=register")).json()) as { options: any };
  const answer = await authenticator.register(options);
  const response = await browser.send("/auth/callback/passkey", {
    json: { action: "register", data: JSON.stringify(answer), csrfToken: await browser.csrf() },
  });
  // A signed-in user keeps their session, and goes back to their callback URL.
  expect(response.headers.get("location")).toBe(`${ORIGIN}/welcome`);
}

/** Links the test OP's `alice` to the user signed in in `browser` (an explicit link). */
async function linkAlice(browser: Browser) {
  const start = await post(browser, "/auth/signin/op", { link: "true", callbackUrl: "/account" });
  const callback = await op.authorize(start.headers.get("location") as string, { user: "alice" });
  const done = await browser.send(callback.pathname + callback.search);
  expect(done.headers.get("location")).toBe(`${ORIGIN}/account`);
}

function expectNotice(mail: ParsedMail, text: Messages, change: keyof Messages) {
  expect(mail.subject).toBe(text["mail.change.subject"].replace("{host}", "localhost:3000"));
  expect(mail.text).toContain(text[change]);
  expect(mail.text).toContain(text["mail.change.notYou"]);
  expect(mail.text).toContain(`${ORIGIN}/auth/account`);
}

describe.each([
  // The shipped catalog and the second factor's own texts (its feature carries them).
  ["en", { ...en, ...twoFactorEn }],
  ["de", { ...de, ...twoFactorDe }],
] as const)("each change to how someone signs in mails the owner (%s)", (language, text) => {
  it("passkey added, account linked and unlinked, TOTP on, recovery code used, other sessions ended, TOTP off, password changed", async () => {
    const app = await noticeApp(language);
    const email = `owner-${language}@example.com`;
    const owner = app.browser();
    await signUpAndVerify(smtp, owner, email, "owner password 1");

    expectNotice(await noticeOf(email, () => addPasskey(owner)), text, "mail.change.passkeyAdded");

    // Linked before TOTP is on: a link with TOTP on lands on the second step (issue 44, another part).
    expectNotice(await noticeOf(email, () => linkAlice(owner)), text, "mail.change.accountLinked");
    const user = await app.adapter.getUserByEmail(email);
    const linked = (await app.adapter.listAccountsByUserId?.(user?.id as string))?.find((a) => a.provider === "op");
    const unlinked = await noticeOf(email, async () => {
      const response = await post(owner, "/auth/accounts/unlink", {
        provider: "op",
        providerAccountId: linked?.providerAccountId as string,
      });
      expect(await response.json()).toEqual({ unlinked: 1 });
    });
    expectNotice(unlinked, text, "mail.change.accountUnlinked");

    let recoveryCodes: string[] = [];
    const enabled = await noticeOf(email, async () => {
      const { secret } = await postJson(owner, "/auth/two-factor/enroll");
      ({ recoveryCodes } = await postJson(owner, "/auth/two-factor/confirm", { code: codeOf(secret) }));
    });
    expectNotice(enabled, text, "mail.change.twoFactorEnabled");
    // The notice holds no recovery code.
    for (const code of recoveryCodes) expect(`${enabled.text}${enabled.html}`).not.toContain(code);

    const other = app.browser();
    expect((await signIn(other, email, "owner password 1")).headers.get("location")).toBe(`${ORIGIN}/auth/two-factor`);
    const recovered = await noticeOf(email, () => secondStep(other, recoveryCodes[0] as string));
    expectNotice(recovered, text, "mail.change.recoveryCodeUsed");
    expect(recovered.text).not.toContain(recoveryCodes[0]);

    // The other browser's (linking an account is no sign-in: it left this browser's session as it was).
    const ended = await noticeOf(email, async () =>
      expect(await postJson(owner, "/auth/sessions/revoke", { all: "others" })).toEqual({ revoked: 1 }),
    );
    expectNotice(ended, text, "mail.change.otherSessionsEnded");
    expect(await other.session()).toBeNull();

    // New recovery codes: the notice says the earlier ones no longer work, and holds none of the new ones.
    let fresh: string[] = [];
    const renewed = await noticeOf(email, async () => {
      ({ recoveryCodes: fresh } = await postJson(owner, "/auth/two-factor/recovery-codes", { code: recoveryCodes[1] as string }));
    });
    expectNotice(renewed, text, "mail.change.recoveryCodesCreated");
    expect(fresh).toHaveLength(10);
    for (const code of fresh) expect(`${renewed.text}${renewed.html}`).not.toContain(code);

    const disabled = await noticeOf(email, async () =>
      expect(await postJson(owner, "/auth/two-factor/disable", { code: fresh[0] as string })).toEqual({ disabled: true }),
    );
    expectNotice(disabled, text, "mail.change.twoFactorDisabled");

    const changed = await noticeOf(email, () =>
      post(owner, "/auth/password/change", { currentPassword: "owner password 1", password: "owner password 2" }),
    );
    expect(changed.subject).toBe(text["mail.passwordChanged.subject"].replace("{host}", "localhost:3000"));
    expect(changed.text).toContain(text["mail.passwordChanged.note"]);
    expect(changed.text).not.toContain("owner password");
  });

  it("a first password set through a reset link; an email change, to the previous address with its revert link", async () => {
    const app = await noticeApp(language);
    const email = `nopass-${language}@example.com`;
    const browser = app.browser();
    await signInWithEmailLink(browser, email);
    let since = smtp.mails.length;
    await post(browser, "/auth/password/forgot", { email });
    const reset = linkIn(mailTo(smtp, email, since), "/auth/password/reset");
    const set = await noticeOf(email, () =>
      post(browser, "/auth/password/reset", { token: reset.searchParams.get("token") as string, password: "first password 1" }),
    );
    expectNotice(set, text, "mail.change.passwordSet");

    since = smtp.mails.length;
    const moved = `moved-${language}@example.com`;
    await post(browser, "/auth/account/email", { email: moved });
    const confirm = linkIn(mailTo(smtp, moved, since), "/auth/account/confirm-email");
    const notice = await noticeOf(email, () =>
      post(browser, "/auth/account/confirm-email", { token: confirm.searchParams.get("token") as string }),
    );
    expect(notice.subject).toBe(text["mail.addressChanged.subject"].replace("{host}", "localhost:3000"));
    expect(notice.text).toContain(text["mail.addressChanged.undo"]);
    expect(linkIn(notice, "/auth/account/revert-email").searchParams.get("token")).toBeTruthy();
  });
});

/** An owner signed up in `owner`, and a thief's browser holding a copy of the owner's session cookies. */
async function ownerAndThief(app: App, email: string) {
  const owner = app.browser();
  await signUpAndVerify(smtp, owner, email, "owner password 1");
  const thief = app.browser();
  for (const [name, cookie] of owner.jar.cookies) thief.jar.cookies.set(name, { ...cookie });
  expect((await thief.session())?.user?.email).toBe(email);
  return { owner, thief };
}

/** The thief moves the address to `to` with the copied session: the revert link mailed to `from`. */
async function moveAddress(thief: Browser, from: string, to: string): Promise<URL> {
  const since = smtp.mails.length;
  await post(thief, "/auth/account/email", { email: to });
  const confirm = linkIn(mailTo(smtp, to, since), "/auth/account/confirm-email");
  const notice = await noticeOf(from, () =>
    post(thief, "/auth/account/confirm-email", { token: confirm.searchParams.get("token") as string }),
  );
  return linkIn(notice, "/auth/account/revert-email");
}

describe("the revert link of an email change", () => {
  it.each(["jwt", "database"] as const)(
    "gives the address back, ends every session, retires the password the thief set and the reset links made since (%s sessions)",
    async (strategy) => {
      const app = await noticeApp("en", strategy);
      const { owner, thief } = await ownerAndThief(app, "victim@example.com");
      const revert = await moveAddress(thief, "victim@example.com", "thief@example.com");

      // The thief takes over the password through the moved address, and keeps a second reset link for later.
      let since = smtp.mails.length;
      await post(thief, "/auth/password/forgot", { email: "thief@example.com" });
      const reset = linkIn(mailTo(smtp, "thief@example.com", since), "/auth/password/reset");
      await post(thief, "/auth/password/reset", { token: reset.searchParams.get("token") as string, password: "thief password 1" });
      expect((await thief.session())?.user?.email).toBe("thief@example.com");
      since = smtp.mails.length;
      await post(thief, "/auth/password/forgot", { email: "thief@example.com" });
      const spare = linkIn(mailTo(smtp, "thief@example.com", since), "/auth/password/reset");

      // The owner follows the link from the old address in a browser with no session: a page, then one POST.
      const mailbox = app.browser();
      const page = await mailbox.send(revert.href);
      expect(page.status).toBe(200);
      expect(page.headers.get("referrer-policy")).toBe("same-origin");
      const html = await page.text();
      expect(html).toContain("Undo the email address change");
      expect(html).toContain(`action="${ORIGIN}/auth/account/revert-email"`);
      expect((await app.adapter.getUserByEmail("thief@example.com"))?.email).toBe("thief@example.com");
      const token = revert.searchParams.get("token") as string;
      const done = await post(mailbox, "/auth/account/revert-email", { token });
      expect(done.headers.get("location")).toBe(`${ORIGIN}/auth/verify-request?type=email-reverted`);
      const donePage = await (await mailbox.send(done.headers.get("location") as string)).text();
      expect(donePage).toContain("Your email address is back");
      expect(donePage).toContain(`href="${ORIGIN}/auth/password/forgot"`);

      const restored = await app.adapter.getUserByEmail("victim@example.com");
      expect(restored?.emailVerified).toBeInstanceOf(Date);
      expect(await app.adapter.getUserByEmail("thief@example.com")).toBeNull();
      // Every session ended: the thief's copy, the thief's own from the reset, the owner's.
      expect(await thief.session()).toBeNull();
      expect(await owner.session()).toBeNull();
      // No password signs in: neither the thief's nor the owner's old one; the spare reset link is dead.
      for (const [address, password] of [
        ["victim@example.com", "thief password 1"],
        ["thief@example.com", "thief password 1"],
        ["victim@example.com", "owner password 1"],
      ]) {
        expect((await signIn(app.browser(), address as string, password as string)).headers.get("location")).toContain(
          "error=CredentialsSignin",
        );
      }
      const spent = await post(thief, "/auth/password/reset", {
        token: spare.searchParams.get("token") as string,
        password: "thief password 2",
      });
      expect(spent.headers.get("location")).toContain("error=Verification");

      // The owner chooses a new password through the restored address.
      const fresh = app.browser();
      since = smtp.mails.length;
      await post(fresh, "/auth/password/forgot", { email: "victim@example.com" });
      const ownReset = linkIn(mailTo(smtp, "victim@example.com", since), "/auth/password/reset");
      await post(fresh, "/auth/password/reset", { token: ownReset.searchParams.get("token") as string, password: "owner password 2" });
      expect((await signIn(app.browser(), "victim@example.com", "owner password 2")).headers.get("location")).toBe(`${ORIGIN}/home`);

      // Single use: a second POST is refused by name, and its page says so; nothing changed.
      const replay = await post(mailbox, "/auth/account/revert-email", { token });
      expect(replay.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=LinkAlreadyUsed`);
      const replayPage = await mailbox.send(replay.headers.get("location") as string);
      expect(replayPage.status).toBe(410);
      expect(await replayPage.text()).toContain("This link was used already");
      expect(app.logs).toContain("LinkAlreadyUsed: This link was used already: nothing changed this time.");
      expect((await signIn(app.browser(), "victim@example.com", "owner password 2")).headers.get("location")).toBe(`${ORIGIN}/home`);
    },
  );

  it("works for 7 days, not longer", async () => {
    const app = await noticeApp();
    const { thief } = await ownerAndThief(app, "late@example.com");
    const revert = await moveAddress(thief, "late@example.com", "taker@example.com");
    const token = revert.searchParams.get("token") as string;
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 7 * 24 * 60 * 60 * 1000 + 60_000);
    const mailbox = app.browser();
    expect((await mailbox.send(revert.href)).headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`);
    const late = await post(mailbox, "/auth/account/revert-email", { token });
    expect(late.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`);
    expect((await app.adapter.getUserByEmail("taker@example.com"))?.emailVerified).toBeInstanceOf(Date);
    expect(await app.adapter.getUserByEmail("late@example.com")).toBeNull();

    vi.setSystemTime(Date.now() - 2 * 60_000);
    const inTime = await post(mailbox, "/auth/account/revert-email", { token });
    expect(inTime.headers.get("location")).toBe(`${ORIGIN}/auth/verify-request?type=email-reverted`);
    expect(await app.adapter.getUserByEmail("late@example.com")).not.toBeNull();
  });

  it("an altered token, or an address another account proved since: refused, nothing changes", async () => {
    const app = await noticeApp();
    const { thief } = await ownerAndThief(app, "first@example.com");
    const revert = await moveAddress(thief, "first@example.com", "second@example.com");
    const mailbox = app.browser();
    const altered = await post(mailbox, "/auth/account/revert-email", { token: `${revert.searchParams.get("token")}x` });
    expect(altered.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`);
    // Someone else proves the freed address meanwhile: it is theirs now.
    await signInWithEmailLink(app.browser(), "first@example.com");
    const taken = await post(mailbox, "/auth/account/revert-email", { token: revert.searchParams.get("token") as string });
    expect(taken.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`);
    expect((await app.adapter.getUserByEmail("second@example.com"))?.email).toBe("second@example.com");
    expect((await thief.session())?.user?.email).toBe("second@example.com");
  });
});

describe("a notice that cannot be sent", () => {
  it("never fails or undoes the change, and its log line has the error's name and response code, not the address", async () => {
    const app = await noticeApp();
    const browser = app.browser();
    await signUpAndVerify(smtp, browser, "refused@example.com", "owner password 1");
    smtp.state.refuse = true;
    const { secret } = await postJson(browser, "/auth/two-factor/enroll");
    const { recoveryCodes } = await postJson(browser, "/auth/two-factor/confirm", { code: codeOf(secret) });
    expect(recoveryCodes).toHaveLength(10);
    const status = await (await browser.send("/auth/two-factor/status")).json();
    expect(status).toMatchObject({ totp: true });
    const line = app.logs.find((entry) => entry.includes("twoFactorEnabled"));
    expect(line).toBe(
      "EmailSignInError: The notice of a sign-in change (twoFactorEnabled) could not be sent to its owner (Error, response code 550).",
    );
    expect(app.logs.join("\n")).not.toContain("refused@example.com");
  });
});

describe("without a mailer", () => {
  it("nothing is sent and nothing fails: the change is made, nothing is logged", async () => {
    const logs: string[] = [];
    const { config } = totpApp("owner-notices-secret-0123456789abcdef", {
      logger: { error: (e) => void logs.push(`${e.name}: ${e.message}`), warn: (code) => void logs.push(`warn ${code}`) },
    });
    const browser = authClient(config, ORIGIN);
    await passwordSignIn(browser);
    const since = smtp.mails.length;
    const { recoveryCodes } = await turnOnTotp(browser);
    expect(recoveryCodes).toHaveLength(10);
    expect(logs).toEqual([]);
    expect(smtp.mails.length).toBe(since);
  });
});
