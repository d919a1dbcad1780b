/**
 * An app with organizations on the in-memory adapter: `Password()` accounts (so every address is proven),
 * the mails kept in memory, and browsers that sign up and sign in.
 */
import Password from "../../src/providers/password.js";
import type { Adapter } from "../../src/types/adapters.js";
import type { AuthConfig } from "../../src/types/config.js";
import type { OrganizationChangedMessage } from "../../src/types/organizations.js";
import type { MailMessage } from "../../src/types/providers.js";
import { authClient } from "../helpers/auth-client.js";
import { memoryAdapter, withVerificationTokens } from "../helpers/memory-adapter.js";
import { memoryOrganizations } from "../helpers/memory-organizations.js";

export const ORIGIN = "http://localhost:3000";
const secret = "organizations-secret-0123456789abcdef!!";

export type Browser = ReturnType<typeof authClient>;

/**
 * The app; `adapter` replaces the in-memory one (the hosted-db adapter on PGlite, say): `memory` and `orgs`
 * are then left empty.
 */
export function organizationsApp(overrides: Partial<AuthConfig> = {}, adapter?: Adapter) {
  const memory = memoryAdapter({ sessionRecords: true });
  const orgs = memoryOrganizations();
  const mails: MailMessage[] = [];
  const events: OrganizationChangedMessage[] = [];
  const store: Adapter = adapter ?? { ...withVerificationTokens(memory.adapter), ...orgs.methods };
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter: store,
    providers: [Password({ sendMail: (mail) => void mails.push(mail) })],
    organizations: {},
    events: { organizationChanged: (message) => void events.push(message) },
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    ...overrides,
  };
  /** The last link to `to` whose path is `path` (`/auth/password/verify`, `/auth/organization/invitation`). */
  const linkTo = (to: string, path: string) => {
    const mail = [...mails].reverse().find((m) => m.to === to);
    const link = mail?.text.match(new RegExp(`${ORIGIN}${path}\\?\\S+`))?.[0];
    if (!link) throw new Error(`no ${path} link to ${to}`);
    return new URL(link);
  };
  const browser = () => authClient(config, ORIGIN);
  /** A browser whose user signed up with `email` (proven by the mailed link) and is signed in. */
  async function signedUp(email: string, password = "a long password 1234"): Promise<Browser & { userId: string }> {
    const b = browser();
    await post(b, "/auth/password/sign-up", { email, password });
    await post(b, "/auth/password/verify", { token: linkTo(email, "/auth/password/verify").searchParams.get("token") as string });
    const user = await store.getUserByEmail?.(email);
    if (!user) throw new Error(`no user ${email}`);
    const signIn = await post(b, "/auth/callback/password", { email, password, callbackUrl: "/" });
    if (!(await b.session())?.user) throw new Error(`${email} is not signed in (${signIn.status})`);
    return Object.assign(b, { userId: user.id });
  }
  return { config, memory, orgs, mails, events, linkTo, browser, signedUp };
}

/** A POST of `form` with the browser's CSRF token. */
export async function post(browser: Browser, path: string, form: Record<string, string>) {
  const csrfToken = await browser.csrf();
  return browser.send(path, { form: { csrfToken, ...form } });
}

/** A POST answered as JSON: its status and body. */
export async function postJson(browser: Browser, path: string, form: Record<string, string>) {
  const response = await post(browser, `/auth/organization/${path}`, form);
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

/** A GET answered as JSON. */
export async function getJson(browser: Browser, path: string, query: Record<string, string> = {}) {
  const response = await browser.send(`/auth/organization/${path}?${new URLSearchParams(query)}`);
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}
