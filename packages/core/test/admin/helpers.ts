/**
 * An app with the admin feature on the in-memory adapter (session records on, so JWT sessions have a
 * registry): `Password()` accounts, the mails kept in memory, an admin by the `admin` role, and browsers
 * that sign up and sign in: in process (`authClient`), or over real HTTP (`serve`, `httpClient`).
 */
import { createAuth } from "../../src/kernel/instance.js";
import Password from "../../src/providers/password.js";
import type { Adapter } from "../../src/types/adapters.js";
import type { AuthConfig } from "../../src/types/config.js";
import type { MailMessage } from "../../src/types/providers.js";
import { authClient, httpClient } from "../helpers/auth-client.js";
import { memoryAdapter, withVerificationTokens } from "../helpers/memory-adapter.js";
import { memoryAdmin } from "../helpers/memory-admin.js";
import { startNodeServer } from "../helpers/node-server.js";

export const ORIGIN = "http://localhost:3000";
export const PASSWORD = "a long password 1234";
const secret = "admin-tests-secret-0123456789abcdefghij!!";

export type Browser = ReturnType<typeof authClient>;

/** The app; `strategy` picks the session strategy (default JWT, registered in the adapter's records). */
export function adminApp(overrides: Partial<AuthConfig> = {}, strategy: "jwt" | "database" = "jwt") {
  const memory = memoryAdapter({ sessionRecords: true });
  const admin = memoryAdmin(memory.users);
  const mails: MailMessage[] = [];
  const store: Adapter = { ...withVerificationTokens(memory.adapter), ...admin.methods };
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter: store,
    session: { strategy },
    providers: [Password({ sendMail: (mail) => void mails.push(mail) })],
    admin: { roles: ["admin"] },
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    ...overrides,
  };
  const linkTo = (to: string, path: string) => {
    const mail = [...mails].reverse().find((m) => m.to === to);
    const link = mail?.text.match(new RegExp(`https?://[^/\\s]+${path}\\?\\S+`))?.[0];
    if (!link) throw new Error(`no ${path} link to ${to}`);
    return new URL(link);
  };
  const browser = () => authClient(config, ORIGIN);
  /** Signs `email` up (proven by the mailed link) in `b`, then signs in; answers the user's id. */
  async function signUpIn(b: Browser, email: string): Promise<string> {
    await post(b, "/auth/password/sign-up", { email, password: PASSWORD });
    await post(b, "/auth/password/verify", { token: linkTo(email, "/auth/password/verify").searchParams.get("token") as string });
    const user = await store.getUserByEmail?.(email);
    if (!user) throw new Error(`no user ${email}`);
    await signIn(b, email);
    if (!(await b.session())?.user) throw new Error(`${email} is not signed in`);
    return user.id;
  }
  /** A signed-in browser of a new user `email`. */
  async function signedUp(email: string): Promise<Browser & { userId: string }> {
    const b = browser();
    return Object.assign(b, { userId: await signUpIn(b, email) });
  }
  /** A signed-in browser of a new admin `email` (the `admin` role set in the store). */
  async function signedUpAdmin(email: string): Promise<Browser & { userId: string }> {
    const b = await signedUp(email);
    const user = memory.users.get(b.userId);
    memory.users.set(b.userId, { ...user, role: "admin" } as never);
    return b;
  }
  return { config, memory, admin, store, mails, linkTo, browser, signUpIn, signedUp, signedUpAdmin };
}

/** A password sign-in in `b`: the response (a redirect to the callback URL, or to the sign-in page with `?error=`). */
export function signIn(b: Browser, email: string, password = PASSWORD) {
  return post(b, "/auth/callback/password", { email, password, callbackUrl: "/" });
}

/** A POST of `form` with the browser's CSRF token. */
export async function post(browser: Browser, path: string, form: Record<string, string>) {
  const csrfToken = await browser.csrf();
  return browser.send(path, { form: { csrfToken, ...form } });
}

/** The app served over real HTTP on 127.0.0.1, and a browser factory for it. */
export async function serve(config: AuthConfig) {
  const auth = createAuth(config);
  const server = await startNodeServer((request) => auth.handler(request));
  return { auth, server, browser: () => httpClient(server.origin) };
}
