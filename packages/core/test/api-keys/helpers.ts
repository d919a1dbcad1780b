/**
 * An app with API keys and organizations on the in-memory adapter: `Password()` accounts, the mails, logs
 * and audit rows kept in memory, browsers that sign up and sign in, and an app feature that suspends a user
 * (`session/suspend-user.ts`, what an operator's ban runs) so the `userSuspended` notice can be tested.
 */

import { defineFeature } from "../../src/features/define.js";
import { createAuth } from "../../src/kernel/instance.js";
import Password from "../../src/providers/password.js";
import { suspendUser } from "../../src/session/suspend-user.js";
import type { Adapter } from "../../src/types/adapters.js";
import type { AuthConfig } from "../../src/types/config.js";
import type { MailMessage } from "../../src/types/providers.js";
import type { AuditEvent } from "../../src/types/telemetry.js";
import { authClient } from "../helpers/auth-client.js";
import { memoryAdapter, withVerificationTokens } from "../helpers/memory-adapter.js";
import { memoryApiKeys } from "../helpers/memory-api-keys.js";
import { memoryOrganizations } from "../helpers/memory-organizations.js";

export const ORIGIN = "http://localhost:3000";
export const secret = "api-keys-secret-0123456789abcdef!!!!";
export const PASSWORD = "a long password 1234";

export type Browser = ReturnType<typeof authClient>;

/** The app's own feature that suspends a user by id (what an admin's ban will call). */
const suspendFeature = defineFeature({
  name: "test-suspend",
  operations: [
    {
      name: "testSuspend",
      method: "POST",
      path: "test-suspend",
      presentation: "json",
      handler: async (options, request) => {
        const userId = String(request.body.userId);
        await suspendUser(options, options.adapter as Adapter, userId, "banned");
        return { body: { suspended: userId } };
      },
    },
  ],
});

/** The app; `adapter` replaces the in-memory one (the hosted-db adapter), and `overrides` the configuration's parts. */
export function apiKeysApp(overrides: Partial<AuthConfig> = {}, adapter?: Adapter, origin = ORIGIN) {
  const memory = memoryAdapter({ sessionRecords: true });
  const orgs = memoryOrganizations();
  const keys = memoryApiKeys();
  const mails: MailMessage[] = [];
  const logs: string[] = [];
  const audit: AuditEvent[] = [];
  const log =
    (level: string) =>
    (...args: unknown[]) =>
      void logs.push(
        `${level} ${args.map((arg) => (arg instanceof Error ? `${arg.name}: ${arg.message} ${JSON.stringify(arg.cause ?? {})}` : JSON.stringify(arg))).join(" ")}`,
      );
  const store: Adapter = adapter ?? {
    ...withVerificationTokens(memory.adapter),
    ...orgs.methods,
    ...keys.methods,
    deleteUser: async (userId: string) => {
      keys.deleteUser(userId);
      return memory.adapter.deleteUser?.(userId);
    },
  };
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter: store,
    providers: [Password({ sendMail: (mail) => void mails.push(mail) })],
    organizations: {},
    apiKeys: {
      prefix: "acme",
      scopes: { "projects:read": { description: "Read projects" }, "projects:write": { description: "Change projects" } },
      header: "x-api-key",
    },
    features: [suspendFeature],
    audit: { store: { write: (event) => void audit.push(event) } },
    logger: { error: log("error"), warn: log("warn"), debug: log("debug") },
    debug: true,
    ...overrides,
  };
  const auth = createAuth(config);
  /** The last link to `to` whose path is `path`. */
  const linkTo = (to: string, path: string) => {
    const mail = [...mails].reverse().find((m) => m.to === to);
    const link = mail?.text.match(new RegExp(`${origin}${path}\\?\\S+`))?.[0];
    if (!link) throw new Error(`no ${path} link to ${to}`);
    return new URL(link);
  };
  const browser = () => authClient(config, origin);
  /** A browser whose user signed up with `email` (proven by the mailed link) and is signed in. */
  async function signedUp(email: string): Promise<Browser & { userId: string }> {
    const b = browser();
    await post(b, "/auth/password/sign-up", { email, password: PASSWORD });
    await post(b, "/auth/password/verify", { token: linkTo(email, "/auth/password/verify").searchParams.get("token") as string });
    const user = await store.getUserByEmail?.(email);
    if (!user) throw new Error(`no user ${email}`);
    await post(b, "/auth/callback/password", { email, password: PASSWORD, callbackUrl: "/" });
    if (!(await b.session())?.user) throw new Error(`${email} is not signed in`);
    return Object.assign(b, { userId: user.id });
  }
  /** A request carrying `browser`'s cookies, for `auth.api`. */
  const as = (b: Browser) => new Request(`${origin}/app`, { headers: { cookie: b.jar.header() } });
  /** A request carrying `key` as a bearer token (or in `header`). */
  const bearing = (key: string, header = "authorization") =>
    new Request(`${origin}/api/projects`, { headers: { [header]: header === "authorization" ? `Bearer ${key}` : key } });
  return { config, auth, store, memory, orgs, keys, mails, logs, audit, linkTo, browser, signedUp, as, bearing };
}

/** A POST of `form` with the browser's CSRF token. */
export async function post(browser: Browser, path: string, form: Record<string, string>) {
  const csrfToken = await browser.csrf();
  return browser.send(path, { form: { csrfToken, ...form } });
}

/** A POST to `<basePath>/api-keys/<path>` answered as JSON: its status and body. */
export async function postJson(browser: Browser, path: string, form: Record<string, string>) {
  const response = await post(browser, `/auth/api-keys/${path}`, form);
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

/** A POST to `<basePath>/organization/<path>` answered as JSON. */
export async function orgJson(browser: Browser, path: string, form: Record<string, string>) {
  const response = await post(browser, `/auth/organization/${path}`, form);
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}
