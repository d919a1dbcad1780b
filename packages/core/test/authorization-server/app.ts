/**
 * An app that is an authorization server, served over real HTTP on 127.0.0.1 (clients such as
 * `openid-client` and the MCP SDK talk to it as to any server): `Password()` accounts, the in-memory
 * adapter with the authorization server's methods, the mails kept in memory, and browsers (cookie jars
 * over HTTP) that sign up, sign in and decide on the consent page.
 */
import { Auth } from "../../src/kernel/auth.js";
import Password from "../../src/providers/password.js";
import type { Adapter } from "../../src/types/adapters.js";
import type { AuthConfig } from "../../src/types/config.js";
import type { MailMessage } from "../../src/types/providers.js";
import { formOf, httpClient } from "../helpers/auth-client.js";
import { memoryAdapter, withVerificationTokens } from "../helpers/memory-adapter.js";
import { memoryAdmin } from "../helpers/memory-admin.js";
import { memoryAuthorizationServer } from "../helpers/memory-authorization-server.js";
import { type NodeServer, startNodeServer, type WebHandler } from "../helpers/node-server.js";

const secret = "authorization-server-secret-0123456789!!";
export const PASSWORD = "a long password 1234";

/** A browser over HTTP, with the user it signed in. */
export type Browser = ReturnType<typeof httpClient>;

/** Options of {@link startServerApp}. */
export interface ServerAppOptions {
  /** Merged over the defaults (`authorizationServer` replaces the default one). */
  config?: Partial<AuthConfig>;
  /** Replaces the in-memory store (the hosted-db adapter, say). */
  adapter?: Adapter;
  /** Answers the paths outside `/auth` (an MCP server's routes, say). */
  fallback?: WebHandler;
}

/** A running authorization server. */
export async function startServerApp(options: ServerAppOptions = {}) {
  const memory = memoryAdapter({ sessionRecords: true });
  const oauth = memoryAuthorizationServer();
  const mails: MailMessage[] = [];
  const admin = memoryAdmin(memory.users);
  const store: Adapter = options.adapter ?? { ...withVerificationTokens(memory.adapter), ...oauth.methods, ...admin.methods };
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter: store,
    providers: [Password({ sendMail: (mail) => void mails.push(mail) })],
    authorizationServer: { scopes: { "read:projects": { description: "Read your projects" } } },
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    ...options.config,
  };
  const server: NodeServer = await startNodeServer(
    (request, { remoteAddress }) => Auth(request, config, { clientAddress: remoteAddress }),
    options.fallback ? { fallback: options.fallback, wellKnownToAuth: true } : { wellKnownToAuth: true },
  );
  const origin = server.origin;
  const issuer = `${origin}/auth`;

  /** The last link to `to` whose path is `path`. */
  const linkTo = (to: string, path: string) => {
    const mail = [...mails].reverse().find((m) => m.to === to);
    const link = mail?.text.match(new RegExp(`${origin}${path}\\?\\S+`))?.[0];
    if (!link) throw new Error(`no ${path} link to ${to}`);
    return new URL(link);
  };

  /** A browser whose user signed up with `email` (proven by the mailed link) and is signed in. */
  async function signedUp(email: string): Promise<Browser & { userId: string }> {
    const b = httpClient(origin);
    await post(b, "/auth/password/sign-up", { email, password: PASSWORD });
    await post(b, "/auth/password/verify", { token: linkTo(email, "/auth/password/verify").searchParams.get("token") as string });
    const user = await store.getUserByEmail?.(email);
    if (!user) throw new Error(`no user ${email}`);
    await post(b, "/auth/callback/password", { email, password: PASSWORD, callbackUrl: "/" });
    if (!(await b.session())?.user) throw new Error(`${email} is not signed in`);
    return Object.assign(b, { userId: user.id });
  }

  return { server, origin, issuer, config, store, oauth, admin, memory, mails, linkTo, signedUp, close: () => server.close() };
}

/** A POST of `form` with the browser's CSRF token. */
export async function post(browser: Browser, path: string, form: Record<string, string>) {
  const csrfToken = await browser.csrf();
  return browser.send(path, { form: { csrfToken, ...form } });
}

/**
 * Opens `authorizeUrl` in the browser and, when the consent page shows, clicks `decision`: answers where
 * the server sent the browser last (the client's redirect URI with the code, or the sign-in page), and the
 * consent page's HTML when one showed.
 */
export async function authorizeIn(browser: Browser, authorizeUrl: string, decision: "allow" | "deny" = "allow") {
  const opened = await browser.send(authorizeUrl);
  if (opened.status !== 200) return { location: opened.headers.get("location") as string, status: opened.status, page: undefined };
  const page = await opened.text();
  const form = formOf(page);
  if (!form) throw new Error(`the authorize page has no form: ${page.slice(0, 200)}`);
  const decided = await browser.send(form.action, { form: { ...form.fields, decision } });
  return { location: decided.headers.get("location") as string, status: decided.status, page };
}
