/**
 * The owner always has a way in from a new device (issue 44). Before: an attacker who knows only the
 * address fails the password 10 times and spends the address's mail allowance (5 per 15 minutes, shared by
 * sign-up, forgot and email sign-in), about 35 requests per window from any client addresses, and the
 * owner's new phone is kept out of password, reset and email link alike, window after window.
 *
 * Now: the first request the anonymous allowance refuses in a window mails the address one recovery link
 * (its own count, one per window); the link makes the browser that opens it a known device of the address,
 * which signs in on its own count and asks for mails from an allowance anonymous requests never spend.
 *
 * Through `Auth()` with `clientAddress` per request (every attacker request from another address), the
 * Password() and Nodemailer providers on PGlite, mails through a real SMTP server whose links are followed.
 * Time is the memory store's clock. And the mail-bombing bound: however many requests, from however many
 * addresses, a mailbox gets at most 6 mails per 15-minute window (5 asked for, 1 recovery mail).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryRateLimitStore } from "../../src/rate-limit/store.js";
import { authClient } from "../helpers/auth-client.js";
import { closeSharedPglite } from "../helpers/database.js";
import { startSmtpServer } from "../helpers/smtp.js";
import { linkIn, mailTo, ORIGIN, passwordApp, post, type Smtp, signIn, signUpAndVerify } from "../password/helpers.js";

const VICTIM = "victim@example.com";
const PASSWORD = "correct horse battery";
const WINDOW = 15 * 60_000;

let smtp: Smtp;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await smtp.close();
  await closeSharedPglite();
});

/** An app with the victim signed up, the store on a clock the test moves, and a new browser per client address. */
async function victimApp() {
  let now = Date.now();
  const clock = {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
  const app = await passwordApp(smtp, { config: { rateLimit: { store: memoryRateLimitStore({ now: clock.now }) } } });
  await signUpAndVerify(smtp, app.browser(), VICTIM, PASSWORD);
  // The sign-up's own mail is in a window of its own, long over.
  clock.advance(WINDOW + 1);
  let clients = 0;
  const browserAt = (address: string) => authClient(app.config, ORIGIN, address);
  const attackerBrowser = () => browserAt(`203.0.113.${++clients % 250}`);
  return { app, clock, browserAt, attackerBrowser };
}

/** Where a form POST went: its `?error=`, else the path it redirected to. */
function outcome(response: Response): string {
  const location = new URL(response.headers.get("location") ?? "", ORIGIN);
  return location.searchParams.get("error") ?? location.pathname;
}

/** Mails to `to` after the first `since` mails (the SMTP parser is given a moment). */
async function mailsTo(to: string, since: number) {
  await new Promise((resolve) => setTimeout(resolve, 200));
  return smtp.mails.slice(since).filter((mail) => (mail.to as { text: string } | undefined)?.text === to);
}

/**
 * The sequence of the issue: ten wrong passwords (the delays waited out), then `mailRequests` mail
 * requests (forgot, sign-up, email sign-in in turn), each from a fresh browser at another client address.
 */
async function attack(setup: Awaited<ReturnType<typeof victimApp>>, mailRequests = 25) {
  const { clock, attackerBrowser } = setup;
  const outcomes: string[] = [];
  for (let attempt = 1; attempt <= 10; attempt++) {
    outcomes.push(outcome(await signIn(attackerBrowser(), VICTIM, `guess ${attempt}`)));
    if (attempt >= 3) clock.advance(2 ** (attempt - 3) * 1000 + 1);
  }
  for (let request = 0; request < mailRequests; request++) {
    const browser = attackerBrowser();
    const kind = request % 3;
    const response =
      kind === 0
        ? await post(browser, "/auth/password/forgot", { email: VICTIM })
        : kind === 1
          ? await post(browser, "/auth/password/sign-up", { email: VICTIM, password: "attacker's password", name: "x" })
          : await post(browser, "/auth/signin/nodemailer", { email: VICTIM });
    outcomes.push(outcome(response));
  }
  return outcomes;
}

describe("an attacker who knows only the address cannot keep the owner's new device out", () => {
  it("after the sequence, the new device is refused, opens the recovery mail, and signs in with the password", async () => {
    const setup = await victimApp();
    const since = smtp.mails.length;
    const outcomes = await attack(setup);
    expect(outcomes.slice(0, 10)).toEqual(Array(10).fill("CredentialsSignin"));
    // The anonymous allowance: 5 mails, then every request refused.
    expect(outcomes.slice(10, 15).every((result) => result === "/auth/verify-request")).toBe(true);
    expect(outcomes.slice(15)).toEqual(Array(20).fill("RateLimited"));

    // The owner's new phone: no device token, an address of its own. Password and reset are refused …
    const phone = setup.browserAt("198.51.100.7");
    expect(outcome(await signIn(phone, VICTIM, PASSWORD))).toBe("RateLimited");
    expect(outcome(await post(phone, "/auth/password/forgot", { email: VICTIM }))).toBe("RateLimited");
    expect(outcome(await post(phone, "/auth/signin/nodemailer", { email: VICTIM }))).toBe("RateLimited");

    // … but the mailbox got one recovery mail, whose link works in any browser.
    const mails = await mailsTo(VICTIM, since);
    const recovery = mails.filter((mail) => mail.subject === "A way back in to localhost:3000");
    expect(recovery).toHaveLength(1);
    expect(mails).toHaveLength(6);
    const link = linkIn(recovery[0] as (typeof mails)[number], "/auth/password/unlock");
    const opened = await phone.send(link.href);
    expect(opened.status).toBe(302);
    expect(opened.headers.get("location")).toBe(`${ORIGIN}/auth/signin`);
    expect(opened.headers.get("referrer-policy")).toBe("same-origin");
    expect(phone.jar.cookies.has("authlib.device-token")).toBe(true);

    // The phone is a known device now: the account's lockout does not refuse it, the right password signs in.
    expect(outcome(await signIn(phone, VICTIM, PASSWORD))).toBe("/home");
    expect((await phone.session())?.user?.email).toBe(VICTIM);

    // The attacker's browsers are still locked out, and a wrong guess from the phone counts only for it.
    expect(outcome(await signIn(setup.attackerBrowser(), VICTIM, PASSWORD))).toBe("RateLimited");
  }, 300_000);

  it("an owner who lost the password too: the recovered device asks for a reset link, anonymous requests cannot spend its allowance", async () => {
    const setup = await victimApp();
    const since = smtp.mails.length;
    await attack(setup);
    const [recovery] = (await mailsTo(VICTIM, since)).filter((mail) => mail.subject === "A way back in to localhost:3000");
    const tablet = setup.browserAt("198.51.100.8");
    await tablet.send(linkIn(recovery as NonNullable<typeof recovery>, "/auth/password/unlock").href);

    // The attacker keeps sending: still refused, and no second recovery mail in this window.
    const later = await attack(setup, 10);
    expect(later.slice(10)).toEqual(Array(10).fill("RateLimited"));

    const beforeReset = smtp.mails.length;
    expect(outcome(await post(tablet, "/auth/password/forgot", { email: VICTIM, callbackUrl: "/home" }))).toBe("/auth/verify-request");
    const reset = linkIn(mailTo(smtp, VICTIM, beforeReset), "/auth/password/reset");
    const done = await post(tablet, "/auth/password/reset", {
      token: reset.searchParams.get("token") as string,
      password: "a new password 42",
    });
    expect(outcome(done)).toBe("/home");
    expect((await tablet.session())?.user?.email).toBe(VICTIM);
    expect((await mailsTo(VICTIM, since)).filter((mail) => mail.subject === "A way back in to localhost:3000")).toHaveLength(1);
  }, 300_000);

  it("window after window: each repetition of the sequence mails the owner a new way in", async () => {
    const setup = await victimApp();
    for (let window = 0; window < 2; window++) {
      const since = smtp.mails.length;
      await attack(setup);
      const [recovery] = (await mailsTo(VICTIM, since)).filter((mail) => mail.subject === "A way back in to localhost:3000");
      expect(recovery, `window ${window}`).toBeDefined();
      const device = setup.browserAt(`198.51.100.${20 + window}`);
      await device.send(linkIn(recovery as NonNullable<typeof recovery>, "/auth/password/unlock").href);
      expect(outcome(await signIn(device, VICTIM, PASSWORD))).toBe("/home");
      setup.clock.advance(WINDOW + 1);
    }
  }, 300_000);

  it("a recovery link that is not ours, tampered with or expired makes no known device", async () => {
    const setup = await victimApp();
    const since = smtp.mails.length;
    await attack(setup, 6);
    const [recovery] = (await mailsTo(VICTIM, since)).filter((mail) => mail.subject === "A way back in to localhost:3000");
    const link = linkIn(recovery as NonNullable<typeof recovery>, "/auth/password/unlock");
    const stranger = setup.browserAt("198.51.100.30");
    const token = link.searchParams.get("token") as string;
    for (const bad of [`${token.slice(0, -2)}xx`, "", "not-a-token"]) {
      const response = await stranger.send(`/auth/password/unlock?${new URLSearchParams({ token: bad })}`);
      expect(outcome(response)).toBe("Verification");
      expect(stranger.jar.cookies.has("authlib.device-token")).toBe(false);
    }
    // Expired: past the hour it is good for.
    const realNow = Date.now;
    Date.now = () => realNow() + 61 * 60_000;
    try {
      expect(outcome(await stranger.send(link.href))).toBe("Verification");
    } finally {
      Date.now = realNow;
    }
    expect(stranger.jar.cookies.has("authlib.device-token")).toBe(false);
    expect(outcome(await signIn(stranger, VICTIM, PASSWORD))).toBe("RateLimited");
  }, 300_000);
});

describe("the mail-bombing bound", () => {
  it("200 requests per window from 200 addresses, for an hour: 6 mails per window to the mailbox, 24 in the hour", async () => {
    const setup = await victimApp();
    const since = smtp.mails.length;
    const perWindow: number[] = [];
    for (let window = 0; window < 4; window++) {
      const before = (await mailsTo(VICTIM, since)).length;
      const results = await Promise.all(
        Array.from({ length: 200 }, async (_, request) => {
          const browser = setup.attackerBrowser();
          const path = ["/auth/password/forgot", "/auth/signin/nodemailer"][request % 2] as string;
          return outcome(await post(browser, path, { email: request % 5 === 0 ? "VICTIM@Example.COM" : VICTIM }));
        }),
      );
      expect(results.filter((result) => result === "/auth/verify-request")).toHaveLength(5);
      perWindow.push((await mailsTo(VICTIM, since)).length - before);
      setup.clock.advance(WINDOW + 1);
    }
    expect(perWindow).toEqual([6, 6, 6, 6]);
  }, 300_000);
});
