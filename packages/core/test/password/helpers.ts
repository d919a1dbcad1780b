/**
 * The set-up of the Password() provider tests: a real SMTP server whose mails are parsed, the hosted-db
 * adapter on a fresh PGlite branch (or another database a caller gives, e.g. the PostgreSQL server in
 * packages/hosted-db-adapter/test/password-postgres.test.ts), and browsers (cookie jars) driving `Auth()`.
 */
import type { ParsedMail } from "mailparser";
import type { SessionStrategy } from "../../src/index.js";
import Nodemailer from "../../src/providers/nodemailer.js";
import Password, { type PasswordOptions } from "../../src/providers/password.js";
import { memoryRateLimitStore } from "../../src/rate-limit/store.js";
import type { Adapter } from "../../src/types/adapters.js";
import type { AuthConfig } from "../../src/types/config.js";
import { authClient } from "../helpers/auth-client.js";
import { freshDatabase } from "../helpers/database.js";
import type { startSmtpServer } from "../helpers/smtp.js";

export const ORIGIN = "http://localhost:3000";
export const secret = "password-test-secret-0123456789abcdef";

export type Smtp = Awaited<ReturnType<typeof startSmtpServer>>;
export type Browser = ReturnType<typeof authClient>;

type PglitePasswordDatabase = Awaited<ReturnType<typeof freshDatabase>>;

/**
 * An app with the Password() provider on a fresh branch, its events and logs. `database` makes the
 * migrated database to run on; by default a fresh branch of this file's PGlite.
 */
export async function passwordApp<D extends { adapter: Adapter } = PglitePasswordDatabase>(
  smtp: Smtp,
  options: { strategy?: SessionStrategy; password?: PasswordOptions; config?: Partial<AuthConfig>; database?: () => Promise<D> } = {},
) {
  const db = (await (options.database ?? freshDatabase)()) as D;
  const events: string[] = [];
  const logs: string[] = [];
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter: db.adapter,
    session: { strategy: options.strategy ?? "jwt" },
    providers: [Nodemailer({ server: smtp.transport, from: "Demo <no-reply@demo.test>" }), Password(options.password)],
    rateLimit: { store: memoryRateLimitStore() },
    events: {
      createUser: ({ user }) => void events.push(`createUser ${user.email}`),
      signIn: ({ user, account }) => void events.push(`signIn ${user.email} ${account?.provider}`),
      passwordChanged: ({ userId, reason }) => void events.push(`passwordChanged ${userId} ${reason}`),
    },
    // `logs`: every failure at its level (src/http/log-level.ts) as `Type: message` (a user's mistake arrives
    // at debug), and the warnings as `warn <code>`.
    debug: true,
    logger: {
      error: (e) => logs.push(`${e.name}: ${e.message}`),
      warn: (code) => void (code === "debug-enabled" || logs.push(`warn ${code}`)),
      debug: (_line, metadata) => {
        const { type, message } = (metadata ?? {}) as { type?: string; message?: string };
        if (type) logs.push(`${type}: ${message}`);
      },
    },
    ...options.config,
  };
  return { ...db, config, events, logs, browser: () => authClient(config, ORIGIN) };
}

/** POSTs `form` (with the browser's CSRF token) to `path`. */
export async function post(browser: Browser, path: string, form: Record<string, string>) {
  const csrfToken = await browser.csrf();
  return browser.send(path, { form: { csrfToken, ...form } });
}

/** The newest mail to `to`, after `since` mails. */
export function mailTo(smtp: Smtp, to: string, since = 0): ParsedMail {
  const mail = smtp.mails
    .slice(since)
    .reverse()
    .find((m) => (m.to as { text: string } | undefined)?.text === to);
  if (!mail) throw new Error(`No mail to ${to}`);
  return mail;
}

/** The link of `mail` under `path` (`/auth/password/verify`, …). */
export function linkIn(mail: ParsedMail, path: string): URL {
  const match = mail.text?.match(new RegExp(`${ORIGIN}${path}\\?\\S+`));
  if (!match) throw new Error(`No ${path} link in: ${mail.text}`);
  return new URL(match[0]);
}

/** Signs up `email` in `browser` and follows the verification link there: signed in. */
export async function signUpAndVerify(smtp: Smtp, browser: Browser, email: string, password: string, name = "Ada") {
  const since = smtp.mails.length;
  await post(browser, "/auth/password/sign-up", { email, password, name, callbackUrl: "/welcome" });
  const link = linkIn(mailTo(smtp, email, since), "/auth/password/verify");
  return post(browser, "/auth/password/verify", { token: link.searchParams.get("token") as string });
}

/** Signs in with the password provider. */
export function signIn(browser: Browser, email: string, password: string) {
  return post(browser, "/auth/callback/password", { email, password, callbackUrl: "/home" });
}
