/**
 * Auth.js's official adapters under authlib, unchanged: authlib's end-to-end flows through `createAuth`,
 * a real HTTP server (node:http on 127.0.0.1), a real OpenID Provider, a real SMTP server and real
 * databases (PostgreSQL, PGlite), on every adapter of `authjs-adapters.ts`.
 *
 * Per adapter and feature, either the flow runs and must succeed, or the adapter lacks a method the
 * feature needs and `createAuth` must refuse the configuration with `MissingAdapterMethods` naming the
 * feature and every missing method. The outcomes are collected, and the last test compares them with the
 * adapter table of docs/database.md, which is therefore measured here, never written by hand.
 *
 * One OP, one SMTP server, one HTTP server, one PGlite and one Chromium (passkeys, with a virtual
 * authenticator) for the whole file: the HTTP server answers with the instance of the running test
 * (`current`).
 */
import { readFileSync } from "node:fs";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresAnswers, testDatabaseURL } from "../../../hosted-db-adapter/test/helpers.js";
import {
  accountTokenMethods,
  emailMethods,
  missingMethods,
  sessionMethods,
  sessionRecordMethods,
  userMethods,
  webAuthnMethods,
} from "../../src/adapter/capabilities.js";
import { MissingAdapterMethods } from "../../src/errors.js";
import { type AuthInstance, createAuth } from "../../src/kernel/instance.js";
import Credentials from "../../src/providers/credentials.js";
import Nodemailer from "../../src/providers/nodemailer.js";
import Passkey from "../../src/providers/passkey.js";
import type { Adapter, AdapterUser } from "../../src/types/adapters.js";
import type { AuthConfig } from "../../src/types/config.js";
import { httpClient } from "../helpers/auth-client.js";
import {
  addVirtualAuthenticator,
  launchChromium,
  pageSession,
  registerPasskey,
  signInWithPasskey,
  signOutInPage,
} from "../helpers/chromium.js";
import { closeSharedPglite, sharedPglite } from "../helpers/database.js";
import { type NodeServer, startNodeServer } from "../helpers/node-server.js";
import { opProvider, startTestOP, type TestOP } from "../helpers/oidc-provider.js";
import { startSmtpServer } from "../helpers/smtp.js";
import { SoftAuthenticator } from "../webauthn/soft-authenticator.js";
import { type AuthjsAdapterKind, authjsAdapters, type OpenedAdapter } from "./authjs-adapters.js";
import { adapterTableRows, FEATURES, type Feature, type Outcome } from "./feature-table.js";

const secret = "adapter-conformance-secret-0123456789abcdef";
const postgresURL = testDatabaseURL();
const postgres = await postgresAnswers(postgresURL, "the Auth.js adapter conformance suite on PostgreSQL");

let op: TestOP;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let server: NodeServer;
/** The instance the HTTP server answers with: the running test's. */
let current: AuthInstance | undefined;
/** Chromium, started by the first passkey flow. */
let browser: Browser | undefined;

const homePage = () =>
  new Response("<!doctype html><title>Home</title><h1>Home</h1>", { headers: { "content-type": "text/html; charset=utf-8" } });

beforeAll(async () => {
  server = await startNodeServer(
    (request, { remoteAddress }) =>
      current ? current.handler(request, { clientAddress: remoteAddress }) : new Response("no instance", { status: 503 }),
    { fallback: homePage },
  );
  [op, smtp] = await Promise.all([
    startTestOP({ clients: [{ client_id: "app", client_secret: "app-secret", redirect_uris: [`${server.origin}/auth/callback/op`] }] }),
    startSmtpServer(),
  ]);
  // PGlite's cold start belongs to the hook, not to the first PGlite test.
  await sharedPglite().waitReady;
});
afterAll(async () => {
  await Promise.all([op?.close(), smtp?.close(), server?.close(), browser?.close()]);
  await closeSharedPglite();
});

/** Outcome per table row ("package (store)") and feature, filled by the tests in order. */
const measured = new Map<string, Partial<Record<Feature, Outcome>>>();

type Client = ReturnType<typeof httpClient>;

/** What a feature's flow gets: the adapter, the instance's logs, a way to start the instance. */
interface FlowContext {
  adapter: Adapter;
  /** The user every adapter starts with (created through the adapter, as an app's sign-up does). */
  ada: AdapterUser;
  errors: string[];
  /** Creates the instance of `config` (over the base configuration) and makes the HTTP server answer with it. */
  start(config: Partial<AuthConfig>): AuthInstance;
}

/** The configuration every instance shares: database sessions with the adapter, a recording logger. */
function baseConfig(adapter: Adapter, errors: string[]): AuthConfig {
  return {
    secret,
    trustHost: true,
    adapter,
    session: { strategy: "database" },
    providers: [],
    // `errors`: every failure logged, at its level (a used link is a user's: debug; a replayed challenge a
    // warning, with its line at debug), as `Type: message`.
    debug: true,
    logger: {
      error: (error) => void errors.push(`${error.name}: ${error.message}`),
      warn: () => {},
      debug: (_line, metadata) => {
        const { type, message } = (metadata ?? {}) as { type?: string; message?: string };
        if (type) errors.push(`${type}: ${message}`);
      },
    },
  };
}

/** Credentials whose `authorize` finds the user through the adapter (the password lives elsewhere in an app). */
function credentials(adapter: Adapter) {
  return Credentials({
    credentials: { email: {}, password: {} },
    authorize: async ({ email, password }) => {
      if (password !== "pw" || typeof email !== "string") return null;
      const user = await adapter.getUserByEmail?.(email);
      return user ? { id: user.id, email: user.email } : null;
    },
  });
}

async function credentialsSignIn(client: Client, email: string) {
  const csrfToken = await client.csrf();
  return client.send("/auth/callback/credentials", { form: { csrfToken, email, password: "pw", callbackUrl: "/home" } });
}

/** Starts an OAuth sign-in at the test OP as `user`, lets the OP answer, and follows the callback. */
async function oauthSignIn(client: Client, user: string, form: Record<string, string> = {}) {
  const csrfToken = await client.csrf();
  const start = await client.send("/auth/signin/op", { form: { csrfToken, callbackUrl: "/home", ...form } });
  expect(start.status).toBe(302);
  const callback = await op.authorize(start.headers.get("location") as string, { user });
  return client.send(callback.pathname + callback.search);
}

async function signOut(client: Client) {
  const csrfToken = await client.csrf();
  const response = await client.send("/auth/signout", { form: { csrfToken } });
  expect(response.status).toBe(302);
}

const sessionToken = (client: Client) => client.jar.get("authlib.session-token") as string;

/** The flow of each feature that one of the adapters has the methods for. */
const flows: Partial<Record<Feature, (context: FlowContext) => Promise<void>>> = {
  async "database sessions"({ adapter, start }) {
    start({
      providers: [credentials(adapter)],
      callbacks: {
        session: ({ session, trigger, newSession }) => ({
          user: { name: session.user.name, email: session.user.email },
          expires: session.expires,
          ...(trigger === "update" ? { theme: (newSession as { theme?: string }).theme } : {}),
        }),
      },
    });
    const client = httpClient(server.origin);
    const signedIn = await credentialsSignIn(client, "ada@example.com");
    expect(signedIn.headers.get("location")).toBe(`${server.origin}/home`);
    const token = sessionToken(client);
    expect((await adapter.getSessionAndUser?.(token))?.user.email).toBe("ada@example.com");
    expect((await client.session())?.user).toMatchObject({ email: "ada@example.com", name: "Ada" });

    // Session update: the session callback gets the new data, the row stays the same.
    const csrfToken = await client.csrf();
    const updated = await client.send("/auth/session", { json: { csrfToken, data: { theme: "dark" } } });
    expect(((await updated.json()) as { theme?: string }).theme).toBe("dark");
    expect(sessionToken(client)).toBe(token);

    await signOut(client);
    expect(await adapter.getSessionAndUser?.(token)).toBeNull();
    expect(await client.session()).toBeNull();
  },

  async "OAuth sign-in and account linking"({ adapter, ada, start }) {
    start({ providers: [credentials(adapter), opProvider(op, { checks: ["pkce", "state", "nonce"] })] });
    // A first OAuth sign-in makes a user and links the account.
    const bob = httpClient(server.origin);
    const done = await oauthSignIn(bob, "bob");
    expect(done.headers.get("location")).toBe(`${server.origin}/home`);
    expect((await bob.session())?.user).toMatchObject({ email: "bob@example.com", name: "Bob Builder" });
    expect((await adapter.getUserByAccount?.({ provider: "op", providerAccountId: "bob" }))?.email).toBe("bob@example.com");

    // A signed-in user links the OP's account to themself, then signs in with it alone.
    const client = httpClient(server.origin);
    await credentialsSignIn(client, "ada@example.com");
    const linked = await oauthSignIn(client, "alice", { link: "true" });
    expect(linked.headers.get("location")).toBe(`${server.origin}/home`);
    expect(String((await adapter.getUserByAccount?.({ provider: "op", providerAccountId: "alice" }))?.id)).toBe(String(ada.id));
    await signOut(client);
    const again = httpClient(server.origin);
    await oauthSignIn(again, "alice");
    expect((await again.session())?.user).toMatchObject({ email: "ada@example.com", name: "Ada" });
  },

  async "email link sign-in"({ adapter, errors, start }) {
    start({ providers: [Nodemailer({ server: smtp.transport, from: "Conformance <no-reply@conformance.test>" })] });
    const client = httpClient(server.origin);
    const before = smtp.mails.length;
    const csrfToken = await client.csrf();
    const requested = await client.send("/auth/signin/nodemailer", {
      form: { csrfToken, email: "grace@example.com", callbackUrl: "/home" },
    });
    expect(requested.headers.get("location")).toBe(`${server.origin}/auth/verify-request?provider=nodemailer&type=email`);
    expect(smtp.mails.length).toBe(before + 1);
    const link = smtp.mails.at(-1)?.text?.match(/http:\/\/localhost:\d+\/auth\/callback\/nodemailer\?\S+/)?.[0];
    expect(link).toBeDefined();
    const signedIn = await client.send(link as string);
    expect(signedIn.headers.get("location")).toBe(`${server.origin}/home`);
    expect((await client.session())?.user.email).toBe("grace@example.com");
    expect((await adapter.getUserByEmail?.("grace@example.com"))?.emailVerified).toBeInstanceOf(Date);
    // The link is single-use: from another browser (its confirmation page, then its button) it is refused.
    const replay = await httpClient(server.origin).openEmailLink(link as string);
    expect(replay.headers.get("location")).toBe(`${server.origin}/auth/error?error=Verification`);
    expect(errors.splice(0)).toEqual(["Verification: The sign-in link is unknown, used already, or expired."]);
  },

  async passkeys({ adapter, errors, start }) {
    // Conditional UI off: Chrome's virtual authenticator would answer the autofill request before the button.
    start({ providers: [Passkey({ enableConditionalUI: false })], experimental: { enableWebAuthn: true } });
    browser ??= await launchChromium();
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const pageErrors: string[] = [];
      page.on("pageerror", (error) => void pageErrors.push(error.message));
      const { cdp, authenticatorId } = await addVirtualAuthenticator(context, page);
      const credential = async () => (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials[0];

      await registerPasskey(page, server.origin);
      expect((await pageSession(page))?.user).toMatchObject({ name: "Ada Lovelace" });
      // Stored as Auth.js stores it: the credential id in standard base64, the account's id the same.
      const credentialID = Buffer.from((await credential())?.credentialId ?? "", "base64").toString("base64");
      const stored = await adapter.getAuthenticator?.(credentialID);
      expect(stored).toMatchObject({ providerAccountId: credentialID, credentialDeviceType: "singleDevice" });
      expect(await adapter.getAccount?.(credentialID, "passkey")).toMatchObject({ type: "webauthn", userId: stored?.userId });

      await signOutInPage(page, server.origin);
      expect(await pageSession(page)).toBeNull();
      await signInWithPasskey(page, server.origin);
      expect((await pageSession(page))?.user).toMatchObject({ name: "Ada Lovelace" });
      // The authenticator's signature counter went up, and the adapter holds the new value.
      const counter = (await adapter.getAuthenticator?.(credentialID))?.counter;
      expect(counter).toBeGreaterThan(stored?.counter ?? Number.POSITIVE_INFINITY);
      expect(counter).toBe((await credential())?.signCount);

      expect(pageErrors).toEqual([]);
    } finally {
      await context.close();
    }

    // A synced passkey's signature counter stays 0, so only the record of used challenges can refuse a
    // replayed answer: one captured with its cookies (the sealed challenge among them) and posted again.
    const synced = new SoftAuthenticator(server.origin);
    const answer = async (client: Client, action: "register" | "authenticate") => {
      const query = new URLSearchParams({ action, ...(action === "register" ? { name: "Synced" } : {}) });
      const { options } = (await (await client.send(`/auth/webauthn-options/passkey?${query}`)).json()) as { options: never };
      const data = action === "register" ? await synced.register(options) : await synced.authenticate(options, { counter: 0 });
      const csrfToken = await client.csrf();
      return { cookie: client.jar.header(), json: { action, data: JSON.stringify(data), csrfToken } };
    };
    const owner = httpClient(server.origin);
    await owner.send("/auth/callback/passkey", { json: (await answer(owner, "register")).json });
    expect((await owner.session())?.user.name).toBe("Synced");
    const client = httpClient(server.origin);
    const captured = await answer(client, "authenticate");
    await client.send("/auth/callback/passkey", { json: captured.json });
    expect((await client.session())?.user.name).toBe("Synced");
    const replay = httpClient(server.origin);
    const replayed = await replay.send("/auth/callback/passkey", { json: captured.json, headers: { cookie: captured.cookie } });
    expect(replayed.setCookies.some((c) => c.name === "authlib.session-token" && c.value !== "")).toBe(false);
    expect(errors.splice(0)).toEqual(["InvalidCheck: This WebAuthn challenge was answered already. Start again."]);
  },
};

/** The configuration of each feature, for the start-up check (the flows start their own). */
function featureConfig(feature: Feature, adapter: Adapter): Partial<AuthConfig> {
  switch (feature) {
    case "database sessions":
      return { providers: [credentials(adapter)] };
    case "OAuth sign-in and account linking":
      return { providers: [opProvider(op)] };
    case "email link sign-in":
      return { providers: [Nodemailer({ server: smtp.transport, from: "no-reply@conformance.test" })] };
    case "passkeys":
      return { providers: [Passkey({})], experimental: { enableWebAuthn: true } };
    case "access-token refresh":
      return { providers: [opProvider(op, { refreshAccessToken: true })] };
    case "session listing":
      return { providers: [credentials(adapter)], session: { strategy: "database", maxPerUser: 5 } };
  }
}

/** The adapter methods each feature needs, and the name the start-up error gives the feature. */
const needs: Record<Feature, { label: string; methods: ReadonlyArray<keyof Adapter> }> = {
  "database sessions": { label: "Database sessions", methods: [...userMethods, ...sessionMethods] },
  "OAuth sign-in and account linking": { label: "Database sessions", methods: [...userMethods, ...sessionMethods] },
  "email link sign-in": { label: "Email sign-in", methods: emailMethods },
  passkeys: { label: "WebAuthn", methods: webAuthnMethods },
  "access-token refresh": { label: "Access-token refresh with database sessions", methods: accountTokenMethods },
  "session listing": { label: "Session records", methods: sessionRecordMethods },
};

const kinds = authjsAdapters({ postgresURL, pglite: sharedPglite });

describe.each(kinds.map((kind) => [`${kind.name} (${kind.store})`, kind] as [string, AuthjsAdapterKind]))("%s", (row, kind) => {
  const available = kind.store !== "PostgreSQL" || postgres;
  let opened: OpenedAdapter;
  let ada: AdapterUser;

  beforeAll(async () => {
    if (!available) return;
    opened = await kind.open();
    ada = await (opened.adapter.createUser as NonNullable<Adapter["createUser"]>)({
      id: crypto.randomUUID(),
      email: "ada@example.com",
      emailVerified: null,
      name: "Ada",
    });
  });
  afterAll(async () => {
    current = undefined;
    await opened?.close();
  });

  it.skipIf(!available).each(FEATURES)(
    "%s",
    async (feature) => {
      const { adapter } = opened;
      const errors: string[] = [];
      const config = (extra: Partial<AuthConfig>): AuthConfig => ({ ...baseConfig(adapter, errors), ...extra });
      const missing = missingMethods(adapter, needs[feature].methods);
      let outcome: Outcome;
      if (missing.length > 0) {
        // Refused at start-up, by name: the feature and each missing method.
        let thrown: unknown;
        try {
          createAuth(config(featureConfig(feature, adapter)));
        } catch (error) {
          thrown = error;
        }
        expect(thrown).toBeInstanceOf(MissingAdapterMethods);
        const message = (thrown as Error).message;
        expect(message).toContain(needs[feature].label);
        for (const method of missing) expect(message).toContain(method);
        outcome = { works: false, missing };
      } else {
        const flow = flows[feature];
        if (!flow) throw new Error(`${row} has every method "${feature}" needs: add its flow to this suite.`);
        await flow({
          adapter,
          ada,
          errors,
          start: (extra) => {
            current = createAuth(config(extra));
            return current;
          },
        });
        expect(errors).toEqual([]);
        outcome = { works: true, missing: [] };
      }
      measured.set(row, { ...measured.get(row), [feature]: outcome });
      // Browser round trips (the passkey flow) on a busy machine: more than the default 30 s, never close to it when idle.
    },
    90_000,
  );
});

describe("docs/database.md", () => {
  // Every adapter must have run for the table to be complete: without PostgreSQL there is nothing to compare.
  it.skipIf(!postgres)("has the adapter table this suite measured, between its adapter-table markers", () => {
    const docs = readFileSync(new URL("../../../../docs/database.md", import.meta.url), "utf8");
    const section = /<!-- adapter-table:start -->\n([\s\S]*?)\n<!-- adapter-table:end -->/.exec(docs)?.[1];
    const rows = adapterTableRows(kinds.map((kind) => [`${kind.name} (${kind.store})`, measured.get(`${kind.name} (${kind.store})`)]));
    expect(measured.size).toBe(kinds.length);
    expect(section).toBe(rows.join("\n"));
  });
});
