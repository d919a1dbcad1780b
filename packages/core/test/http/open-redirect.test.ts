/**
 * The open-redirect corpus (helpers/open-redirect-corpus.ts) through every input of core that becomes a
 * URL, on GET and POST: callbackUrl in the query, the body and the cookie (planted, or sealed for this
 * browser) of sign-in, sign-out and the credentials callback; a full OIDC sign-in against a real OpenID
 * Provider; an email sign-in whose link is read from a real SMTP server; the string a `signIn` callback
 * returns; `pages` overrides; and the redirect proxy's sealed state. Every redirect, form field and
 * remembered callback URL must stay on the app's origin. (Qwik's `redirectTo`: packages/qwik/test.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sealCallbackUrl } from "../../src/http/flow-binding.js";
import { encode } from "../../src/jwt.js";
import Credentials from "../../src/providers/credentials.js";
import Nodemailer from "../../src/providers/nodemailer.js";
import { memoryRateLimitStore } from "../../src/rate-limit/store.js";
import type { AuthConfig, PagesOptions } from "../../src/types/config.js";
import { authClient } from "../helpers/auth-client.js";
import { closeSharedPglite, freshDatabase } from "../helpers/database.js";
import { opProvider, startTestOP, type TestOP } from "../helpers/oidc-provider.js";
import { expectStaysOnOrigin, OPEN_REDIRECT_PAYLOADS, payloadName } from "../helpers/open-redirect-corpus.js";
import { startSmtpServer } from "../helpers/smtp.js";

const ORIGIN = "http://localhost:3000";
const secret = "open-redirect-secret-0123456789abcdef";
const quiet = { error: () => {}, warn: () => {}, debug: () => {} };

let op: TestOP;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let config: AuthConfig;
/** What the `signIn` callback returns, set by the input that tests it (`true` otherwise). */
let signInCallbackResult: string | boolean = true;

beforeAll(async () => {
  [op, smtp] = await Promise.all([
    startTestOP({ clients: [{ client_id: "app", client_secret: "app-secret", redirect_uris: [`${ORIGIN}/auth/callback/op`] }] }),
    startSmtpServer(),
  ]);
  const db = await freshDatabase();
  config = {
    secret,
    trustHost: true,
    adapter: db.adapter,
    providers: [
      Credentials({ credentials: { username: {} }, authorize: ({ username }) => (username === "ada" ? { id: "ada", name: "Ada" } : null) }),
      opProvider(op),
      Nodemailer({ server: smtp.transport, from: "no-reply@demo.test", rateLimit: { store: memoryRateLimitStore() } }),
    ],
    callbacks: { signIn: () => signInCallbackResult },
    logger: quiet,
  };
}, 120_000);
afterAll(async () => {
  await Promise.all([op?.close(), smtp?.close()]);
  await closeSharedPglite();
});

type Client = ReturnType<typeof authClient>;
type Sent = Awaited<ReturnType<Client["send"]>>;

/** The URL the callback-URL cookie (`<binding HMAC>|<url>`) that `response` sets remembers, if it sets one. */
function rememberedUrl(response: Sent): string[] {
  return response.setCookies
    .filter((c) => c.name === "authlib.callback-url" && c.value !== "")
    .map((c) => c.value.slice(c.value.indexOf("|") + 1));
}

/** The hidden callbackUrl field of a rendered page. */
function formCallbackUrl(html: string): string {
  const field = html.match(/name="callbackUrl" value="([^"]*)"/)?.[1];
  expect(field, "the page has a callbackUrl field").toBeDefined();
  return (field as string).replaceAll("&amp;", "&").replaceAll("&quot;", '"').replaceAll("&#39;", "'");
}

async function signedInClient(): Promise<Client> {
  const client = authClient(config);
  const csrfToken = await client.csrf();
  await client.send("/auth/callback/credentials", { form: { csrfToken, username: "ada", callbackUrl: "/" } });
  return client;
}

let mailCounter = 0;

/** Requests an email sign-in with `callbackUrl`; resolves the link of the mail the SMTP server received. */
async function emailLink(client: Client, callbackUrl: string): Promise<string> {
  const email = `user${++mailCounter}@example.com`;
  const csrfToken = await client.csrf();
  const response = await client.send("/auth/signin/nodemailer", { form: { csrfToken, email, callbackUrl } });
  expectStaysOnOrigin(response.headers.get("location"), ORIGIN);
  const mail = smtp.mails.find((m) => (m.to as { text: string } | undefined)?.text === email);
  const link = mail?.text?.match(/http:\/\/localhost:3000\/auth\/callback\/nodemailer\?\S+/)?.[0];
  if (!link) throw new Error(`no sign-in link in the mail to ${email}`);
  return link;
}

/**
 * One input that becomes a URL: its method, and a run that feeds it the payload and returns every URL the
 * answer sends the browser to or remembers for later.
 */
interface RedirectInput {
  name: string;
  method: "GET" | "POST";
  run(payload: string): Promise<Array<string | null>>;
}

/** How a POST carries the payload: as the form field, in the query, or in the callback-URL cookie. */
const CARRIERS = ["body", "query", "planted cookie", "sealed cookie"] as const;
type Carrier = (typeof CARRIERS)[number];

/**
 * POSTs `form` (with this browser's CSRF token) to `path`, the payload carried as `carrier`. A planted
 * cookie is the raw URL (as a sibling subdomain could set it); a sealed one is bound to this browser, as
 * authlib itself would have written it, and must still be re-validated when read.
 */
async function postCarrying(client: Client, path: string, form: Record<string, string>, carrier: Carrier, payload: string) {
  const csrfToken = await client.csrf();
  const fields = { ...form, csrfToken, ...(carrier === "body" ? { callbackUrl: payload } : {}) };
  const url = carrier === "query" ? `${path}?callbackUrl=${encodeURIComponent(payload)}` : path;
  if (carrier === "planted cookie" || carrier === "sealed cookie") {
    const value = carrier === "sealed cookie" ? await sealCallbackUrl(secret, csrfToken, payload) : payload;
    client.jar.cookies.set("authlib.callback-url", { name: "authlib.callback-url", value, attributes: {} });
  }
  return client.send(url, { form: fields });
}

/** The POST actions that take a callback URL, and how each ends. */
const postActions: Array<{
  name: string;
  browser: () => Promise<Client>;
  path: string;
  form: Record<string, string>;
  finish(client: Client, response: Sent): Promise<Array<string | null>>;
}> = [
  {
    name: "credentials sign-in (/callback/credentials)",
    browser: async () => authClient(config),
    path: "/auth/callback/credentials",
    form: { username: "ada" },
    finish: async (_client, response) => [response.headers.get("location"), ...rememberedUrl(response)],
  },
  {
    name: "sign-out (/signout)",
    browser: signedInClient,
    path: "/auth/signout",
    form: {},
    finish: async (_client, response) => [response.headers.get("location"), ...rememberedUrl(response)],
  },
  {
    name: "OIDC sign-in (/signin/op), finished at a real OpenID Provider",
    browser: async () => authClient(config),
    path: "/auth/signin/op",
    form: {},
    async finish(client, start) {
      const remembered = rememberedUrl(start);
      const callback = await op.authorize(start.headers.get("location") as string);
      const done = await client.send(callback.pathname + callback.search);
      expect((await client.session())?.user.name).toBe("Alice Liddell");
      return [done.headers.get("location"), ...remembered];
    },
  },
];

const inputs: RedirectInput[] = [
  ...postActions.flatMap((action) =>
    CARRIERS.map(
      (carrier): RedirectInput => ({
        name: `${action.name}, callbackUrl in the ${carrier}`,
        method: "POST",
        async run(payload) {
          const client = await action.browser();
          return action.finish(client, await postCarrying(client, action.path, action.form, carrier, payload));
        },
      }),
    ),
  ),
  {
    name: "credentials sign-in, callbackUrl in the query, answered as JSON (X-Auth-Return-Redirect)",
    method: "POST",
    async run(payload) {
      const client = authClient(config);
      const csrfToken = await client.csrf();
      const response = await client.send(`/auth/callback/credentials?callbackUrl=${encodeURIComponent(payload)}`, {
        form: { csrfToken, username: "ada" },
        headers: { "x-auth-return-redirect": "1" },
      });
      return [((await response.json()) as { url: string }).url];
    },
  },
  ...(["signin", "signout"] as const).map(
    (page): RedirectInput => ({
      name: `the ${page} page, callbackUrl in the query (form field and cookie)`,
      method: "GET",
      async run(payload) {
        const client = authClient(config);
        const response = await client.send(`/auth/${page}?callbackUrl=${encodeURIComponent(payload)}`);
        expect(response.status).toBe(200);
        return [formCallbackUrl(await response.text()), ...rememberedUrl(response)];
      },
    }),
  ),
  {
    name: "the OIDC callback, callbackUrl in its query",
    method: "GET",
    async run(payload) {
      const client = authClient(config);
      const start = await client.send("/auth/signin/op", { form: { csrfToken: await client.csrf(), callbackUrl: "/" } });
      const callback = await op.authorize(start.headers.get("location") as string);
      callback.searchParams.set("callbackUrl", payload);
      return [(await client.send(callback.pathname + callback.search)).headers.get("location")];
    },
  },
  {
    name: "an email sign-in with callbackUrl in the body, following the link of the mail",
    method: "POST",
    async run(payload) {
      const client = authClient(config);
      const link = await emailLink(client, payload);
      const done = await client.send(link);
      expect((await client.session())?.user.email).toMatch(/@example\.com$/);
      return [link, new URL(link).searchParams.get("callbackUrl"), done.headers.get("location")];
    },
  },
  {
    name: "the email link, its callbackUrl replaced",
    method: "GET",
    async run(payload) {
      const client = authClient(config);
      const link = new URL(await emailLink(client, "/"));
      link.searchParams.set("callbackUrl", payload);
      return [(await client.send(link.href)).headers.get("location")];
    },
  },
  {
    name: "the string a signIn callback returns",
    method: "POST",
    async run(payload) {
      signInCallbackResult = payload;
      try {
        const client = authClient(config);
        const csrfToken = await client.csrf();
        const response = await client.send("/auth/callback/credentials", { form: { csrfToken, username: "ada" } });
        return [response.headers.get("location")];
      } finally {
        signInCallbackResult = true;
      }
    },
  },
];

describe.each(inputs)("open redirects: $method, $name", (input) => {
  it.each(OPEN_REDIRECT_PAYLOADS.map((payload) => [payloadName(payload), payload]))("%s stays on the origin", async (_, payload) => {
    const targets = await input.run(payload);
    expect(targets.length).toBeGreaterThan(0);
    for (const target of targets) expectStaysOnOrigin(target, ORIGIN);
  });
});

describe("open redirects: pages overrides", () => {
  const routes: Array<[keyof PagesOptions, string]> = [
    ["signIn", "/auth/signin"],
    ["signOut", "/auth/signout"],
    ["error", "/auth/error?error=AccessDenied"],
    ["verifyRequest", "/auth/verify-request"],
  ];
  it("a corpus of at least 60 distinct payloads", () => {
    expect(new Set(OPEN_REDIRECT_PAYLOADS).size).toBe(OPEN_REDIRECT_PAYLOADS.length);
    expect(OPEN_REDIRECT_PAYLOADS.length).toBeGreaterThanOrEqual(60);
  });

  it.each(OPEN_REDIRECT_PAYLOADS.map((payload) => [payloadName(payload), payload]))(
    "a page set to %s is refused at start-up or stays on the origin",
    async (_, payload) => {
      for (const [page, route] of routes) {
        const errors: Error[] = [];
        const pageConfig: AuthConfig = { ...config, pages: { [page]: payload }, logger: { ...quiet, error: (e) => void errors.push(e) } };
        const response = await authClient(pageConfig).send(route);
        if (response.status === 500) {
          expect(errors.map((e) => e.name)).toEqual(["InvalidOriginConfig"]);
          expect(response.headers.get("location")).toBeNull();
        } else {
          expect(response.status).toBe(302);
          expectStaysOnOrigin(response.headers.get("location"), ORIGIN);
        }
      }
    },
  );

  it("a path, or a URL on the canonical url's origin, is accepted", async () => {
    for (const pages of [{ signIn: "/login" }, { signIn: "login?x=1" }]) {
      const response = await authClient({ ...config, pages }).send("/auth/signin");
      expect(response.headers.get("location")).toMatch(/^http:\/\/localhost:3000\/login\?/);
    }
    const canonical = { ...config, trustHost: undefined, url: ORIGIN, pages: { error: `${ORIGIN}/oops` } };
    expect((await authClient(canonical).send("/auth/error?error=AccessDenied")).headers.get("location")).toBe(
      `${ORIGIN}/oops?error=AccessDenied`,
    );
  });
});

describe("open redirects: the redirect proxy's state", () => {
  const proxyConfig = (): AuthConfig => ({
    ...config,
    redirectProxyUrl: `${ORIGIN}/auth`,
    redirectProxyAllowedOrigins: ["https://preview-*.example.com"],
  });

  /** States naming the payload: as the whole destination, and as a host with the provider's callback path. */
  async function states(payload: string): Promise<string[]> {
    const seal = (origin: string) => encode({ token: { origin, random: "r" }, secret, salt: "encodedState" });
    return [payload, await seal(payload), await seal(`${payload}/auth/callback/op`)];
  }

  it.each(OPEN_REDIRECT_PAYLOADS.map((payload) => [payloadName(payload), payload]))(
    "a state naming %s is never forwarded off the origin, on GET or POST (form_post)",
    async (_, payload) => {
      const proxy = proxyConfig();
      for (const state of await states(payload)) {
        const params = { code: "stolen-code", state, iss: op.issuer };
        const client = authClient(proxy);
        const get = await client.send(`/auth/callback/op?${new URLSearchParams(params)}`);
        expectStaysOnOrigin(get.headers.get("location"), ORIGIN);
        const post = await client.send("/auth/callback/op", { form: params });
        const bounce = post.headers.get("location");
        expectStaysOnOrigin(bounce, ORIGIN);
        expectStaysOnOrigin((await client.send(bounce as string)).headers.get("location"), ORIGIN);
      }
    },
  );

  it("still forwards a sealed state naming an allowed preview (the check above is not vacuous)", async () => {
    const state = await encode({
      token: { origin: "https://preview-7.example.com/auth/callback/op", random: "r" },
      secret,
      salt: "encodedState",
    });
    const response = await authClient(proxyConfig()).send(`/auth/callback/op?${new URLSearchParams({ code: "c", state })}`);
    expect(new URL(response.headers.get("location") as string).origin).toBe("https://preview-7.example.com");
  });
});
