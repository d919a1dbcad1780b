/**
 * Token confusion: every cookie authlib issues (session JWT, CSRF, callback URL, PKCE code verifier,
 * state, nonce, WebAuthn challenge), collected from real flows (credentials, an OIDC sign-in at a real
 * OpenID Provider, a passkey ceremony on PGlite), presented under the name of every other one. No
 * combination may grant a session, answer 5xx or throw.
 *
 * Two matrices: each value alone in each other slot on every route that reads cookies; and, stronger,
 * a request that would sign in (a real OP callback, credentials, a passkey assertion, a signed-in session
 * read) with exactly one of the cookies it depends on replaced by another cookie's value.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Credentials from "../../src/providers/credentials.js";
import Passkey from "../../src/providers/passkey.js";
import type { AuthConfig } from "../../src/types/config.js";
import { authClient } from "../helpers/auth-client.js";
import { closeSharedPglite, freshDatabase } from "../helpers/database.js";
import { opProvider, startTestOP, type TestOP } from "../helpers/oidc-provider.js";
import { SoftAuthenticator } from "../webauthn/soft-authenticator.js";

const ORIGIN = "http://localhost:3000";
const secret = "token-confusion-secret-0123456789abcdef";

/** The cookies authlib issues (http/cookies.ts, on http: no prefix). */
const SLOTS = {
  session: "authlib.session-token",
  csrf: "authlib.csrf-token",
  callbackUrl: "authlib.callback-url",
  pkce: "authlib.pkce.code_verifier",
  state: "authlib.state",
  nonce: "authlib.nonce",
  challenge: "authlib.challenge",
} as const;
type Slot = keyof typeof SLOTS;
const slotNames = Object.keys(SLOTS) as Slot[];

type Client = ReturnType<typeof authClient>;
type Sent = Awaited<ReturnType<Client["send"]>>;

let op: TestOP;
let config: AuthConfig;
const authenticator = new SoftAuthenticator(ORIGIN);
/** One real value of every cookie, from a reference browser's flows. */
const values = {} as Record<Slot, string>;

beforeAll(async () => {
  op = await startTestOP({ clients: [{ client_id: "app", client_secret: "app-secret", redirect_uris: [`${ORIGIN}/auth/callback/op`] }] });
  const db = await freshDatabase();
  config = {
    secret,
    trustHost: true,
    adapter: db.adapter,
    session: { strategy: "jwt" },
    experimental: { enableWebAuthn: true },
    providers: [
      Credentials({ credentials: { username: {} }, authorize: ({ username }) => (username === "ada" ? { id: "ada", name: "Ada" } : null) }),
      opProvider(op),
      Passkey({}),
    ],
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
  };

  // A passkey user to authenticate as.
  const registrant = authClient(config);
  const options = await registrant.send("/auth/webauthn-options/passkey?action=register&name=Pat");
  const registration = await authenticator.register(((await options.json()) as { options: never }).options);
  const registered = await registrant.send("/auth/callback/passkey", {
    json: { action: "register", data: JSON.stringify(registration), csrfToken: await registrant.csrf() },
  });
  expect(registered.headers.get("location")).toBe(`${ORIGIN}/`);

  // The reference browser: every cookie, each from the flow that issues it.
  const reference = authClient(config);
  const csrfToken = await reference.csrf();
  await reference.send("/auth/callback/credentials", { form: { csrfToken, username: "ada", callbackUrl: "/x" } });
  await reference.send("/auth/signin/op", { form: { csrfToken, callbackUrl: "/y" } });
  await reference.send("/auth/webauthn-options/passkey?action=authenticate");
  for (const slot of slotNames) {
    const value = reference.jar.get(SLOTS[slot]);
    if (!value) throw new Error(`the reference flows issued no ${SLOTS[slot]} cookie`);
    values[slot] = value;
  }
}, 120_000);
afterAll(async () => {
  await op?.close();
  await closeSharedPglite();
});

/** True when the answer writes a session cookie (any chunk) with a value. */
function grantsSession(response: Sent): boolean {
  return response.setCookies.some((c) => c.name.startsWith(SLOTS.session) && c.value !== "");
}

/** A browser whose jar holds `value` under the cookie name of `slot`. */
function put(client: Client, slot: Slot, value: string): void {
  client.jar.cookies.set(SLOTS[slot], { name: SLOTS[slot], value, attributes: {} });
}

/** Every (value, slot) pair whose value comes from another cookie. */
const pairs = slotNames.flatMap((from) => slotNames.filter((to) => to !== from).map((to) => [from, to] as const));

async function expectNoSession(response: Sent, client: Client): Promise<void> {
  expect(response.status).toBeLessThan(500);
  expect(grantsSession(response)).toBe(false);
  expect(await client.session()).toBeNull();
}

/** A callback URL of a real OIDC flow started (and signed in at the OP) in `client`'s browser. */
async function oidcCallback(client: Client): Promise<string> {
  const start = await client.send("/auth/signin/op", { form: { csrfToken: await client.csrf(), callbackUrl: "/" } });
  const callback = await op.authorize(start.headers.get("location") as string);
  return callback.pathname + callback.search;
}

/** A passkey assertion for the challenge issued to `client`, ready to post. */
async function passkeyAssertion(client: Client): Promise<{ action: string; data: string }> {
  const options = await client.send("/auth/webauthn-options/passkey?action=authenticate");
  const assertion = await authenticator.authenticate(((await options.json()) as { options: never }).options);
  return { action: "authenticate", data: JSON.stringify(assertion) };
}

describe("each cookie alone under every other cookie's name", () => {
  /** Routes that read cookies, each sent by a browser holding only the confused cookie. */
  const routes: Array<[string, (client: Client) => Promise<Sent>]> = [
    ["GET /session", (client) => client.send("/auth/session")],
    ["POST /session", (client) => client.send("/auth/session", { json: { csrfToken: values.csrf.split("|")[0], data: { name: "x" } } })],
    ["POST /signout", (client) => client.send("/auth/signout", { form: { csrfToken: values.csrf.split("|")[0] as string } })],
    [
      "POST /callback/credentials",
      (client) => client.send("/auth/callback/credentials", { form: { csrfToken: values.csrf.split("|")[0] as string, username: "ada" } }),
    ],
    ["GET /webauthn-options", (client) => client.send("/auth/webauthn-options/passkey?action=authenticate")],
  ];

  it.each(routes)("%s: no session, no 5xx", async (route, send) => {
    for (const [from, to] of pairs) {
      const client = authClient(config);
      put(client, to, values[from]);
      const response = await send(client);
      expect(response.status, `${from} as ${to}`).toBeLessThan(500);
      expect(grantsSession(response), `${from} as ${to}`).toBe(false);
      if (response.headers.get("content-type")?.includes("json") && route === "GET /session") expect(await response.json()).toBeNull();
    }
  });

  it("the OIDC and passkey callbacks, with a real code and a real assertion: no session, no 5xx", async () => {
    const donor = authClient(config);
    const callback = await oidcCallback(donor);
    const assertion = await passkeyAssertion(donor);
    for (const [from, to] of pairs) {
      const client = authClient(config);
      put(client, to, values[from]);
      const viaOp = await client.send(callback);
      expect(viaOp.status, `${from} as ${to}`).toBe(302);
      expect(grantsSession(viaOp), `${from} as ${to}`).toBe(false);
      const viaPasskey = await client.send("/auth/callback/passkey", { json: { ...assertion, csrfToken: values.csrf.split("|")[0] } });
      expect(viaPasskey.status, `${from} as ${to}`).toBe(302);
      expect(grantsSession(viaPasskey), `${from} as ${to}`).toBe(false);
    }
  });
});

describe("a request that would sign in, with one cookie it depends on replaced by another cookie's value", () => {
  /** What a slot is replaced with: every other cookie's value, and this kind's own from the reference browser's flow. */
  const confusions = () => slotNames.map((from) => [from, values[from]] as const);

  it("controls: each request signs in when nothing is replaced", async () => {
    const viaOp = authClient(config);
    expect(grantsSession(await viaOp.send(await oidcCallback(viaOp)))).toBe(true);
    const viaPasskey = authClient(config);
    const assertion = await passkeyAssertion(viaPasskey);
    expect(
      grantsSession(await viaPasskey.send("/auth/callback/passkey", { json: { ...assertion, csrfToken: await viaPasskey.csrf() } })),
    ).toBe(true);
    const viaCredentials = authClient(config);
    const csrfToken = await viaCredentials.csrf();
    expect(grantsSession(await viaCredentials.send("/auth/callback/credentials", { form: { csrfToken, username: "ada" } }))).toBe(true);
    expect((await viaCredentials.session())?.user.name).toBe("Ada");
  });

  it.each(["csrf", "pkce", "state", "nonce"] as const)("the OIDC callback with its %s cookie replaced", async (slot) => {
    for (const [from, value] of confusions()) {
      const client = authClient(config);
      const callback = await oidcCallback(client);
      put(client, slot, value);
      const response = await client.send(callback);
      expect(response.headers.get("location"), `${from} as ${slot}`).toMatch(/^http:\/\/localhost:3000\/auth\/error\?error=/);
      await expectNoSession(response, client);
    }
  });

  it.each(["csrf", "challenge"] as const)("the passkey callback with its %s cookie replaced", async (slot) => {
    for (const [from, value] of confusions()) {
      const client = authClient(config);
      const csrfToken = await client.csrf();
      const assertion = await passkeyAssertion(client);
      put(client, slot, value);
      const response = await client.send("/auth/callback/passkey", { json: { ...assertion, csrfToken } });
      expect(response.status, `${from} as ${slot}`).toBe(302);
      await expectNoSession(response, client);
    }
  });

  it("the credentials callback with its CSRF cookie replaced", async () => {
    for (const [from, value] of confusions()) {
      const client = authClient(config);
      const csrfToken = await client.csrf();
      put(client, "csrf", value);
      const response = await client.send("/auth/callback/credentials", { form: { csrfToken, username: "ada" } });
      expect(response.headers.get("location"), `${from} as csrf`).toContain("error=MissingCSRF");
      await expectNoSession(response, client);
    }
  });

  it("a signed-in session read with the session cookie replaced", async () => {
    for (const [from, value] of confusions().filter(([from]) => from !== "session")) {
      const client = authClient(config);
      const csrfToken = await client.csrf();
      await client.send("/auth/callback/credentials", { form: { csrfToken, username: "ada" } });
      put(client, "session", value);
      const response = await client.send("/auth/session");
      expect(response.status, `${from} as session`).toBe(200);
      expect(await response.json()).toBeNull();
      expect(grantsSession(response)).toBe(false);
    }
  });
});
