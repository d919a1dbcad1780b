/**
 * The mailed code across instances: TWO authlib instances in two real processes
 * (helpers/email-code-instance.ts) on one PostgreSQL database and one rate-limit store (Redis, then
 * PostgreSQL). One browser's requests land on either. The tries of a mail's code are counted together
 * (5 wrong across both spend the mail), and 50 concurrent redemptions of one code spread over both give
 * exactly one session. Skipped, saying why, when PostgreSQL or Redis does not answer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresAnswers, testDatabaseURL } from "../../../hosted-db-adapter/test/helpers.js";
import { type Instance, pairBrowser, startInstancePair } from "../helpers/instance-pair.js";
import { redisAnswers } from "../helpers/redis.js";
import { startSmtpServer } from "../helpers/smtp.js";

const secret = "email-code-processes-secret-0123456789abcdef";
const ORIGIN = "http://localhost:3000";
const postgres = await postgresAnswers(testDatabaseURL(), "the email code tests across processes");
const redis = await redisAnswers("the email code tests across processes on Redis");

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await smtp.close();
});

/** Asks `instance` for a sign-in mail to `email` in `person`'s browser; the mail's code. */
async function askForMail(instance: Instance, person: ReturnType<typeof pairBrowser>, email: string): Promise<string> {
  const before = smtp.mails.length;
  await person.send(instance, { method: "GET", path: "/auth/signin" });
  const asked = await person.send(instance, { method: "POST", path: "/auth/signin/nodemailer", form: { csrfToken: person.csrf(), email } });
  expect(asked.location).toBe(`${ORIGIN}/auth/verify-request?provider=nodemailer&type=email`);
  const code = (await smtp.nextMail(before)).text?.match(/asked to sign in: (\d{6})/)?.[1];
  if (!code) throw new Error("no code in the mail");
  return code;
}

const typeCode = (instance: Instance, person: ReturnType<typeof pairBrowser>, code: string) =>
  person.send(instance, { method: "POST", path: "/auth/callback/nodemailer", form: { csrfToken: person.csrf(), code } });

const wrong = (code: string, n: number) => String((Number(code) + n) % 1_000_000).padStart(6, "0");

const rows = [
  { store: "redis", needs: redis && postgres },
  { store: "postgres", needs: postgres },
] as const;

describe.each(rows)("two processes on one $store store", ({ store, needs }) => {
  let pair: Awaited<ReturnType<typeof startInstancePair>> | undefined;
  let first: Instance;
  let second: Instance;

  beforeAll(async () => {
    if (!needs) return;
    pair = await startInstancePair({ secret, smtpPort: smtp.port, store, name: "code_procs" });
    ({ first, second } = pair);
  }, 60_000);

  afterAll(async () => {
    await pair?.close();
  });

  it.skipIf(!needs)("5 wrong codes split over both instances spend the mail: its right code is refused on either", async () => {
    const person = pairBrowser();
    const code = await askForMail(first, person, "split@example.com");
    for (const [n, instance] of [first, second, first, second].entries()) {
      expect((await typeCode(instance, person, wrong(code, n + 1))).location).toContain("error=IncorrectCode");
    }
    expect((await typeCode(second, person, wrong(code, 5))).location).toContain("error=IncorrectCode");
    expect((await typeCode(first, person, code)).location).toBe(`${ORIGIN}/auth/error?error=Verification`);
    expect((await typeCode(second, person, code)).location).toBe(`${ORIGIN}/auth/error?error=Verification`);
  });

  it.skipIf(!needs)("50 concurrent redemptions of one code over both instances: exactly one session", async () => {
    const person = pairBrowser();
    const code = await askForMail(second, person, "race@example.com");
    const answers = await Promise.all(Array.from({ length: 50 }, (_, n) => typeCode(n % 2 ? first : second, person, code)));
    const sessions = answers.filter((a) => a.setCookies.some((c) => c.name === "authlib.session-token" && c.value !== ""));
    expect(sessions).toHaveLength(1);
    expect(answers.filter((a) => a.location === `${ORIGIN}/`)).toHaveLength(1);
  });
});
