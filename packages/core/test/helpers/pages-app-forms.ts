/**
 * An app for the page tests of issue 50: a Credentials() form and Password() (two email-and-password
 * forms, as in the demo) on the in-memory adapter, mails kept in memory; a cookie-jar browser over Auth().
 */
import { expect } from "vitest";
import Credentials from "../../src/providers/credentials.js";
import Password from "../../src/providers/password.js";
import type { AuthConfig } from "../../src/types/config.js";
import type { MailMessage } from "../../src/types/providers.js";
import { authClient } from "./auth-client.js";
import { memoryAdapter, withVerificationTokens } from "./memory-adapter.js";

export const ORIGIN = "http://localhost:3000";
const secret = "rough-pages-secret-0123456789abcdef0123";

export function app(config: Partial<AuthConfig> = {}) {
  const memory = memoryAdapter({ sessionRecords: true });
  const mails: MailMessage[] = [];
  const send = { fail: false };
  const sendMail = (mail: MailMessage) => {
    if (send.fail) throw new Error("mail server down");
    mails.push(mail);
  };
  const full: AuthConfig = {
    secret,
    trustHost: true,
    adapter: withVerificationTokens(memory.adapter),
    providers: [
      Credentials({
        name: "Demo account",
        credentials: {
          email: { label: "Email", type: "email", autocomplete: "username" },
          password: { label: "Password", type: "password", autocomplete: "current-password" },
        },
        authorize: () => null,
      }),
      Password({ name: "Email and password", sendMail }),
    ],
    logger: { error: () => {}, warn: () => {} },
    ...config,
  };
  const tokenIn = (to: string, path: string) => {
    const mail = [...mails].reverse().find((m) => m.to === to);
    const link = mail?.text.match(new RegExp(`${ORIGIN}${path}\\?\\S+`))?.[0];
    if (!link) throw new Error(`no ${path} link to ${to}`);
    return new URL(link).searchParams.get("token") as string;
  };
  return { ...memory, config: full, mails, send, tokenIn, browser: () => authClient(full, ORIGIN) };
}

export type Browser = ReturnType<typeof authClient>;

export async function post(browser: Browser, path: string, form: Record<string, string>, headers?: HeadersInit) {
  const csrfToken = await browser.csrf();
  return (await browser.send(path, { form: { csrfToken, ...form }, headers })).headers.get("location");
}

export async function pageText(browser: Browser, url: string, headers?: HeadersInit): Promise<string> {
  const response = await browser.send(url.replace(ORIGIN, ""), { headers });
  expect(response.status).toBe(200);
  return response.text();
}

/** Each `<form>` of a page, as its HTML. */
export function formsOf(html: string): string[] {
  return [...html.matchAll(/<form[\s\S]*?<\/form>/g)].map((match) => match[0]);
}

/** The visible words of `html` (tags dropped, entities of quotes decoded). */
export function wordsOf(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/\s+/g, " ");
}
