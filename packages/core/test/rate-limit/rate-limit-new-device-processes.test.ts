/**
 * The owner's way in from a new device, across instances: TWO authlib instances in two real processes
 * (helpers/email-code-instance.ts with Password()) on one PostgreSQL database and one rate-limit store
 * (Redis, then PostgreSQL). The anonymous mail allowance of an address is counted once for both; of 40
 * refused requests sent at once over both, exactly one mails the recovery link (the claim of the window is
 * one atomic increment in the shared store); the device made known by that link on one instance asks for
 * a reset on the other, from the allowance anonymous requests cannot spend, and resets its password.
 * Skipped, saying why, when PostgreSQL or Redis does not answer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresAnswers, testDatabaseURL } from "../../../hosted-db-adapter/test/helpers.js";
import { type Instance, pairBrowser, startInstancePair } from "../helpers/instance-pair.js";
import { redisAnswers } from "../helpers/redis.js";
import { startSmtpServer } from "../helpers/smtp.js";

const secret = "new-device-processes-secret-0123456789abcdef";
const ORIGIN = "http://localhost:3000";
const VICTIM = "victim@example.com";
const RECOVERY_SUBJECT = "A way back in to localhost:3000";
const postgres = await postgresAnswers(testDatabaseURL(), "the new-device tests across processes");
const redis = await redisAnswers("the new-device tests across processes on Redis");

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await smtp.close();
});

const rows = [
  { store: "redis", needs: redis && postgres },
  { store: "postgres", needs: postgres },
] as const;

/** Mails to `to` after the first `since` (the SMTP parser is given a moment). */
async function mailsTo(to: string, since: number) {
  await new Promise((resolve) => setTimeout(resolve, 300));
  return smtp.mails.slice(since).filter((mail) => (mail.to as { text: string } | undefined)?.text === to);
}

/** The link under `path` in `text`. */
function linkIn(text: string | undefined, path: string): URL {
  const match = text?.match(new RegExp(`${ORIGIN}${path}\\?\\S+`));
  if (!match) throw new Error(`No ${path} link in: ${text}`);
  return new URL(match[0]);
}

describe.each(rows)("two processes on one $store store", ({ store, needs }) => {
  let pair: Awaited<ReturnType<typeof startInstancePair>> | undefined;
  let first: Instance;
  let second: Instance;

  beforeAll(async () => {
    if (!needs) return;
    pair = await startInstancePair({ secret, smtpPort: smtp.port, store, name: "newdev_procs", password: true });
    ({ first, second } = pair);
  }, 60_000);

  afterAll(async () => {
    await pair?.close();
  });

  /** A fresh browser at `clientAddress` POSTs `form` to `path` on `instance`; where it went. */
  async function postFrom(
    instance: Instance,
    person: ReturnType<typeof pairBrowser>,
    clientAddress: string,
    path: string,
    form: Record<string, string>,
  ) {
    await person.send(instance, { method: "GET", path: "/auth/csrf", clientAddress });
    return (await person.send(instance, { method: "POST", path, form: { csrfToken: person.csrf(), ...form }, clientAddress })).location;
  }

  it.skipIf(!needs)(
    "the allowance is shared, one recovery mail of 40 concurrent refusals, and the recovered device resets on the other instance",
    async () => {
      // The victim signs up on the first instance (one mail of the allowance).
      const owner = pairBrowser();
      let since = smtp.mails.length;
      await postFrom(first, owner, "198.51.100.1", "/auth/password/sign-up", {
        email: VICTIM,
        password: "correct horse battery",
        name: "V",
      });
      const verify = linkIn((await mailsTo(VICTIM, since))[0]?.text, "/auth/password/verify");
      await postFrom(first, owner, "198.51.100.1", "/auth/password/verify", { token: verify.searchParams.get("token") as string });

      // The attacker, from many addresses over both instances: 4 more mails go, then refusals.
      since = smtp.mails.length;
      const sequential: string[] = [];
      for (let n = 0; n < 6; n++) {
        const instance = n % 2 ? second : first;
        const path = n % 2 ? "/auth/signin/nodemailer" : "/auth/password/forgot";
        sequential.push(String(await postFrom(instance, pairBrowser(), `203.0.113.${n + 1}`, path, { email: VICTIM })));
      }
      expect(sequential.filter((location) => location.includes("/auth/verify-request"))).toHaveLength(4);
      const concurrent = await Promise.all(
        Array.from({ length: 40 }, (_, n) =>
          postFrom(n % 2 ? second : first, pairBrowser(), `203.0.113.${n + 10}`, "/auth/password/forgot", { email: VICTIM }),
        ),
      );
      expect(concurrent.every((location) => String(location).includes("error=RateLimited"))).toBe(true);
      const mails = await mailsTo(VICTIM, since);
      const recovery = mails.filter((mail) => mail.subject === RECOVERY_SUBJECT);
      expect(recovery).toHaveLength(1);
      // 4 asked for + 1 recovery in this window (+ the sign-up's before it): the bound holds across instances.
      expect(mails).toHaveLength(5);

      // The owner's new phone: refused on either instance, until it opens the recovery link (on the first).
      const phone = pairBrowser();
      expect(await postFrom(second, phone, "198.51.100.9", "/auth/password/forgot", { email: VICTIM })).toContain("error=RateLimited");
      const unlock = linkIn(recovery[0]?.text, "/auth/password/unlock");
      const opened = await phone.send(first, { method: "GET", path: `${unlock.pathname}${unlock.search}`, clientAddress: "198.51.100.9" });
      expect(opened.location).toBe(`${ORIGIN}/auth/signin`);
      expect(phone.has("authlib.device-token")).toBe(true);

      // On the second instance the phone is a known device: its reset mail goes, the reset signs it in.
      since = smtp.mails.length;
      expect(await postFrom(second, phone, "198.51.100.9", "/auth/password/forgot", { email: VICTIM, callbackUrl: "/home" })).toBe(
        `${ORIGIN}/auth/verify-request?provider=password&type=password-reset`,
      );
      const reset = linkIn((await mailsTo(VICTIM, since))[0]?.text, "/auth/password/reset");
      const done = await postFrom(first, phone, "198.51.100.9", "/auth/password/reset", {
        token: reset.searchParams.get("token") as string,
        password: "a new password 42",
      });
      expect(done).toBe(`${ORIGIN}/home`);
      expect(phone.has("authlib.session-token")).toBe(true);
    },
    300_000,
  );
});
