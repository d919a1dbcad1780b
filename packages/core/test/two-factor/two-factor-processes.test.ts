/**
 * Second factors across instances: TWO authlib instances in two real processes
 * (helpers/email-code-instance.ts) on one PostgreSQL database and one rate-limit store (Redis, then
 * PostgreSQL). One browser's requests land on either. A TOTP code accepted by one is refused by the other
 * (replay), wrong codes of a pending sign-in are counted together, and 20 concurrent second steps with one
 * code spread over both give exactly one session. Skipped, saying why, when PostgreSQL or Redis does not answer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresAnswers, testDatabaseURL } from "../../../hosted-db-adapter/test/helpers.js";
import { type Instance, pairBrowser, startInstancePair } from "../helpers/instance-pair.js";
import { redisAnswers } from "../helpers/redis.js";
import { startSmtpServer } from "../helpers/smtp.js";
import { codeOf } from "./helpers.js";

const secret = "two-factor-processes-secret-0123456789abcdef";
const ORIGIN = "http://localhost:3000";
const postgres = await postgresAnswers(testDatabaseURL(), "the second-factor tests across processes");
const redis = await redisAnswers("the second-factor tests across processes on Redis");

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await smtp.close();
});

type Person = ReturnType<typeof pairBrowser>;

/** The first factor: an email sign-in with the mailed code, in `person`'s browser. Answers where it leads. */
async function emailSignIn(instance: Instance, person: Person, email: string): Promise<string | null> {
  const before = smtp.mails.length;
  await person.send(instance, { method: "GET", path: "/auth/signin" });
  await person.send(instance, { method: "POST", path: "/auth/signin/nodemailer", form: { csrfToken: person.csrf(), email } });
  const code = (await smtp.nextMail(before)).text?.match(/asked to sign in: (\d{6})/)?.[1] as string;
  const answer = await person.send(instance, {
    method: "POST",
    path: "/auth/callback/nodemailer",
    form: { csrfToken: person.csrf(), code },
  });
  return answer.location;
}

/** A user signed in through `instance` with TOTP turned on there: their browser and secret. */
async function userWithTotp(instance: Instance, email: string): Promise<{ person: Person; secret: string }> {
  const person = pairBrowser();
  expect(await emailSignIn(instance, person, email)).toBe(`${ORIGIN}/`);
  const enrolled = await person.send(instance, { method: "POST", path: "/auth/two-factor/enroll", form: { csrfToken: person.csrf() } });
  const { secret } = JSON.parse(enrolled.body) as { secret: string };
  const confirmed = await person.send(instance, {
    method: "POST",
    path: "/auth/two-factor/confirm",
    form: { csrfToken: person.csrf(), code: codeOf(secret) },
  });
  expect(confirmed.status).toBe(200);
  return { person, secret };
}

const secondStep = (instance: Instance, person: Person, code: string) =>
  person.send(instance, { method: "POST", path: "/auth/two-factor", form: { csrfToken: person.csrf(), code } });

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
    pair = await startInstancePair({ secret, smtpPort: smtp.port, store, name: "tfa_procs" });
    ({ first, second } = pair);
  }, 60_000);

  afterAll(async () => {
    await pair?.close();
  });

  it.skipIf(!needs)("a code accepted by one instance is refused by the other; the pending sign-in moves between them", async () => {
    const { secret } = await userWithTotp(first, `replay-${store}@example.com`);
    const code = codeOf(secret, 1);
    const person = pairBrowser();
    expect(await emailSignIn(first, person, `replay-${store}@example.com`)).toBe(`${ORIGIN}/auth/two-factor`);
    const done = await secondStep(second, person, code);
    expect(done.location).toBe(`${ORIGIN}/`);
    expect(person.has("authlib.session-token")).toBe(true);

    const other = pairBrowser();
    expect(await emailSignIn(second, other, `replay-${store}@example.com`)).toBe(`${ORIGIN}/auth/two-factor`);
    expect((await secondStep(first, other, code)).location).toBe(`${ORIGIN}/auth/two-factor?error=IncorrectCode`);
    expect(other.has("authlib.session-token")).toBe(false);
  });

  it.skipIf(!needs)("wrong codes of one pending sign-in are counted over both: the 5th ends it", async () => {
    const { secret } = await userWithTotp(second, `guess-${store}@example.com`);
    const person = pairBrowser();
    await emailSignIn(first, person, `guess-${store}@example.com`);
    const right = codeOf(secret, 1);
    const wrong = (n: number) => String((Number(right) + 100 + n) % 1_000_000).padStart(6, "0");
    for (const [n, instance] of [first, second, first, second].entries()) {
      expect((await secondStep(instance, person, wrong(n))).location).toContain("error=IncorrectCode");
    }
    expect((await secondStep(second, person, wrong(5))).location).toBe(`${ORIGIN}/auth/signin?error=TwoFactorExpired`);
    expect((await secondStep(first, person, right)).location).toBe(`${ORIGIN}/auth/signin?error=TwoFactorExpired`);
  });

  it.skipIf(!needs)("20 concurrent second steps with one code over both instances: exactly one session", async () => {
    const { secret } = await userWithTotp(first, `race-${store}@example.com`);
    const person = pairBrowser();
    await emailSignIn(second, person, `race-${store}@example.com`);
    const code = codeOf(secret, 1);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, n) => secondStep(n % 2 ? first : second, person, code)));
    const sessions = answers.filter((a) => a.setCookies.some((c) => c.name === "authlib.session-token" && c.value !== ""));
    expect(sessions).toHaveLength(1);
    expect(answers.filter((a) => a.location === `${ORIGIN}/`)).toHaveLength(1);
  });
});
