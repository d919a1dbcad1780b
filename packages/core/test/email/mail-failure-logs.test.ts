/**
 * A mail server's refusal quotes the address (`550 5.1.1 <person@example.com>: Recipient address
 * rejected`), and nodemailer copies that reply into its error. A real SMTP server refuses the recipient
 * of an email sign-in link and of a password-reset mail: the built-in console line and everything a
 * custom logger is handed (inspected in depth, causes included) keep the failure's name, `EENVELOPE` and
 * the response code 550, and never the address. Plus the rules of the summary itself.
 */
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { AuthlibMailError, MailFailureSummary, mailFailureCause } from "../../src/email/mail-failure.js";
import { EmailSignInError } from "../../src/errors.js";
import { describeError } from "../../src/logger.js";
import Nodemailer from "../../src/providers/nodemailer.js";
import Password from "../../src/providers/password.js";
import { memoryRateLimitStore } from "../../src/rate-limit/store.js";
import type { AuthConfig, LoggerInstance } from "../../src/types/config.js";
import { authClient } from "../helpers/auth-client.js";
import { closeSharedPglite, freshDatabase } from "../helpers/database.js";
import { startSmtpServer } from "../helpers/smtp.js";

const ORIGIN = "http://localhost:3000";
const secret = "mail-failure-logs-secret-0123456789abcdef";
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

beforeAll(async () => {
  smtp = await startSmtpServer();
  smtp.state.refusal = (address) => `5.1.1 <${address}>: Recipient address rejected: User unknown in virtual mailbox table`;
});
afterAll(async () => {
  await smtp?.close();
  await closeSharedPglite();
});

const asText = (value: unknown) =>
  typeof value === "string" ? value : inspect(value, { depth: 10, breakLength: Number.POSITIVE_INFINITY });

/** An app with an email provider and Password() on the refusing server; `logger` as given (none: the built-in one). */
async function app(logger?: LoggerInstance) {
  const { adapter } = await freshDatabase();
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter,
    providers: [Nodemailer({ server: smtp.transport, from: "Demo <no-reply@demo.test>" }), Password()],
    rateLimit: { store: memoryRateLimitStore() },
    ...(logger ? { logger } : {}),
  };
  return { adapter, client: authClient(config, ORIGIN) };
}

async function post(client: ReturnType<typeof authClient>, path: string, form: Record<string, string>) {
  const csrfToken = await client.csrf();
  return client.send(path, { form: { csrfToken, ...form } });
}

/** Asks for an email sign-in link to `email` and for a reset mail to `owner` (who has an account), while the server refuses every recipient. */
async function refusedMails(client: ReturnType<typeof authClient>, adapter: Awaited<ReturnType<typeof app>>["adapter"], email: string) {
  const owner = `owner-${email}`;
  await adapter.createUser?.({ id: crypto.randomUUID(), email: owner, emailVerified: new Date() });
  smtp.state.refuse = true;
  try {
    const signIn = await post(client, "/auth/signin/nodemailer", { email, callbackUrl: "/" });
    expect(signIn.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=EmailSignInError&code=not-sent`);
    const forgot = await post(client, "/auth/password/forgot", { email: owner });
    expect(new URL(forgot.headers.get("location") ?? "").searchParams.get("error")).toBe("EmailSignInError");
  } finally {
    smtp.state.refuse = false;
  }
  return [email, owner];
}

describe("an SMTP refusal that quotes the address is logged by its name and codes", () => {
  it("the built-in console line: EmailSignInError caused by Error (code EENVELOPE, response code 550), no address", async () => {
    const printed: string[] = [];
    const spy = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void printed.push(args.map(asText).join(" ")));
    try {
      const { client, adapter } = await app();
      const addresses = await refusedMails(client, adapter, "person@example.com");
      const lines = printed.filter((line) => line.includes("EmailSignInError"));
      expect(lines).toHaveLength(2);
      for (const line of lines) {
        expect(line).toContain("caused by Error (code EENVELOPE, response code 550)");
        for (const address of addresses) expect(line).not.toContain(address);
        expect(line).not.toContain("Recipient address rejected");
      }
      expect(printed.join("\n")).not.toContain("example.com");
    } finally {
      spy.mockRestore();
    }
  });

  it("a custom logger, inspected in depth: the cause has name, code, responseCode and command; no address anywhere", async () => {
    const handed: Error[] = [];
    const { client, adapter } = await app({ error: (error) => void handed.push(error), warn: () => {} });
    const addresses = await refusedMails(client, adapter, "someone@example.org");
    const failures = handed.filter((error) => error instanceof EmailSignInError);
    expect(failures).toHaveLength(2);
    for (const failure of failures) {
      const cause = (failure.cause as { err?: unknown }).err as MailFailureSummary;
      expect(cause).toBeInstanceOf(MailFailureSummary);
      expect({
        name: cause.name,
        message: cause.message,
        code: cause.code,
        responseCode: cause.responseCode,
        command: cause.command,
      }).toEqual({
        name: "Error",
        message: "",
        code: "EENVELOPE",
        responseCode: 550,
        command: "RCPT TO",
      });
    }
    const all = handed.map(asText).join("\n");
    for (const address of addresses) expect(all).not.toContain(address);
    expect(all).not.toContain("example.org");
  });
});

describe("mailFailureCause and the cause in a log line", () => {
  it("keeps authlib's own mail errors as they are; summarises any other", () => {
    const own = new AuthlibMailError("The SMTP server refused the recipient (1 address).");
    expect(mailFailureCause(own)).toBe(own);
    const theirs = Object.assign(new TypeError("refused <a@b.test>"), { code: "EAUTH", responseCode: 535, command: "AUTH PLAIN" });
    const summary = mailFailureCause(theirs) as MailFailureSummary;
    expect([summary.name, summary.message, summary.code, summary.responseCode, summary.command]).toEqual([
      "TypeError",
      "",
      "EAUTH",
      535,
      "AUTH PLAIN",
    ]);
    expect(summary.stack).not.toContain("a@b.test");
  });

  it("drops what is not a short word (a name or code that quotes text) and survives non-errors", () => {
    const odd = { name: "<a@b.test> rejected", code: "550 <a@b.test>", responseCode: "550", command: 7 };
    const summary = mailFailureCause(odd) as MailFailureSummary;
    expect([summary.name, summary.code, summary.responseCode, summary.command]).toEqual(["Error", undefined, undefined, undefined]);
    expect(mailFailureCause("a@b.test").name).toBe("Error");
    expect(mailFailureCause(null).message).toBe("");
  });

  it("a log line shows a cause's codes, and its message only when it quotes no server reply", () => {
    const network = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:25"), { code: "ECONNREFUSED" });
    expect(describeError(new EmailSignInError("x", { cause: network }))).toBe(
      "EmailSignInError: x — caused by Error (code ECONNREFUSED): connect ECONNREFUSED 127.0.0.1:25",
    );
    const reply = Object.assign(new Error("550 <a@b.test> unknown"), { responseCode: 550 });
    expect(describeError(new EmailSignInError("x", { cause: reply }))).toBe("EmailSignInError: x — caused by Error (response code 550)");
    const quoted = Object.assign(new Error("<a@b.test> unknown"), { response: "550 <a@b.test> unknown" });
    expect(describeError(new Error("y", { cause: quoted }))).toBe("Error: y — caused by Error");
    expect(describeError(new Error("y", { cause: new RangeError("plain") }))).toBe("Error: y — caused by RangeError: plain");
  });
});
