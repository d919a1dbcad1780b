/**
 * Passkeys through Auth() without a browser: a software authenticator answers the options, the hosted-db
 * adapter stores on in-memory PGlite. Every attack or mistake ends in a named error (a redirect to the
 * sign-in or error page with `?error=`), never a crash, and every callback clears the challenge cookie.
 */
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuthError } from "../../src/errors.js";
import { failureCookies } from "../../src/integration.js";
import { Auth } from "../../src/kernel/auth.js";
import { createAuth } from "../../src/kernel/instance.js";
import Passkey, { type PasskeyOptions } from "../../src/providers/passkey.js";
import type { AuthConfig } from "../../src/types/config.js";
import { storedCredentialId } from "../../src/webauthn/encoding.js";
import { authClient } from "../helpers/auth-client.js";
import { closeSharedPglite, freshDatabase, sharedPglite } from "../helpers/database.js";
import { failureLog } from "../helpers/failure-log.js";
import { SoftAuthenticator } from "./soft-authenticator.js";

const secret = "passkey-negative-secret-0123456789abcdef";
const ORIGIN = "http://localhost:3000";
const CHALLENGE_COOKIE = "authlib.challenge";

beforeAll(async () => {
  await sharedPglite().waitReady; // the cold start belongs to the hook, not to the first test
});
afterAll(closeSharedPglite);

type Client = ReturnType<typeof authClient>;

async function setup(overrides: Partial<AuthConfig> = {}, passkeys: PasskeyOptions[] = [{}]) {
  const db = await freshDatabase();
  // Every failure at its level (a user's at debug, an attack's a warning too): the flows' named errors.
  const log = failureLog();
  const events: Array<[string, unknown]> = [];
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter: db.adapter,
    providers: passkeys.map((options) => Passkey(options)),
    experimental: { enableWebAuthn: true },
    debug: true,
    logger: log.logger,
    events: {
      createUser: (message) => void events.push(["createUser", message]),
      linkAccount: (message) => void events.push(["linkAccount", message]),
      signIn: (message) => void events.push(["signIn", message]),
    },
    ...overrides,
  };
  const authenticator = new SoftAuthenticator(ORIGIN);
  return {
    ...db,
    hosted: db.client,
    config,
    log,
    /** The warnings logged; `debug: true` is the test's, not the app's, so its start-up warning is left out. */
    get warnings() {
      return log.warnings.filter((code) => code !== "debug-enabled");
    },
    events,
    authenticator,
    client: () => authClient(config, ORIGIN),
  };
}
type App = Awaited<ReturnType<typeof setup>>;

/** What GET /webauthn-options answers (options of either ceremony), or a refusal. */
interface OptionsBody {
  action?: string;
  error?: string;
  options: PublicKeyCredentialCreationOptionsJSON & PublicKeyCredentialRequestOptionsJSON;
}

async function getOptions(client: Client, action: string, query: Record<string, string> = {}, provider = "passkey") {
  const response = await client.send(`/auth/webauthn-options/${provider}?${new URLSearchParams({ action, ...query })}`);
  const body = response.headers.get("content-type")?.includes("json") ? ((await response.json()) as OptionsBody) : null;
  return { response, body: body as OptionsBody };
}

async function post(client: Client, action: string, data: unknown, options: { csrfToken?: string | null; provider?: string } = {}) {
  const csrfToken = options.csrfToken === undefined ? await client.csrf() : options.csrfToken;
  return client.send(`/auth/callback/${options.provider ?? "passkey"}`, {
    json: { action, data: typeof data === "string" ? data : JSON.stringify(data), ...(csrfToken === null ? {} : { csrfToken }) },
  });
}

/**
 * Registers a new passkey user with the display name `name` through the routes; returns the client
 * (signed in), the user and the stored authenticator.
 */
async function registerUser(app: App, name = "Ada", provider = "passkey") {
  const client = app.client();
  const { body } = await getOptions(client, "register", { name }, provider);
  const registration = await app.authenticator.register(body.options);
  const response = await post(client, "register", registration, { provider });
  expect(response.status).toBe(302);
  expect(response.headers.get("location")).toBe(`${ORIGIN}/`);
  const stored = await app.adapter.getAuthenticator!(storedCredentialId(registration.id));
  const user = await app.adapter.getUser!(stored!.userId);
  return { client, user: user!, stored: stored! };
}

/** How many users the database holds. */
async function userCount(app: App): Promise<number> {
  return (await app.hosted.db.authlib_users.filter()).length;
}

function challengeCleared(
  response: Response & { setCookies: Array<{ name: string; value: string; attributes: Record<string, unknown> }> },
) {
  return response.setCookies.some((c) => c.name === CHALLENGE_COOKIE && c.value === "" && c.attributes.maxAge === 0);
}

/** A failure: the redirect, the logged error type (at its level), and the challenge cookie cleared. */
function expectFailure(app: App, response: Awaited<ReturnType<Client["send"]>>, location: string, loggedType: string) {
  expect(response.status).toBe(302);
  expect(response.headers.get("location")).toBe(`${ORIGIN}${location}`);
  expect(app.log.types()).toContain(loggedType);
  expect(challengeCleared(response)).toBe(true);
}

describe("passkey callback: attacks and mistakes end in named errors", () => {
  it("a replayed authentication response fails (the challenge is gone); with the captured cookie put back, the counter that moved on stops it", async () => {
    const app = await setup();
    await registerUser(app);
    const client = app.client();
    const { body } = await getOptions(client, "authenticate");
    const captured = client.jar.get(CHALLENGE_COOKIE)!;
    const assertion = await app.authenticator.authenticate(body.options);

    const first = await post(client, "authenticate", assertion);
    expect(first.headers.get("location")).toBe(`${ORIGIN}/`);
    expect(challengeCleared(first)).toBe(true);
    expect((await client.session())?.user?.name).toBe("Ada");

    const replay = await post(client, "authenticate", assertion);
    expectFailure(app, replay, "/auth/error?error=Configuration", "InvalidCheck");

    // An attacker holding both the response and the challenge cookie, in another browser: the challenge
    // is bound to the browser that asked for it (http/flow-binding.ts).
    const attacker = app.client();
    attacker.jar.cookies.set(CHALLENGE_COOKIE, { name: CHALLENGE_COOKIE, value: captured, attributes: {} });
    const elsewhere = await post(attacker, "authenticate", assertion);
    expectFailure(app, elsewhere, "/auth/error?error=Configuration", "InvalidCheck");
    expect(await attacker.session()).toBeNull();

    // The same browser, signed out again, with the cookie put back: this authenticator's counter moved on,
    // so the old answer no longer verifies (a counter-0 passkey is stopped by the used challenge: below).
    await client.send("/auth/signout", { form: { csrfToken: await client.csrf() } });
    client.jar.cookies.set(CHALLENGE_COOKIE, { name: CHALLENGE_COOKIE, value: captured, attributes: {} });
    const replayWithCookie = await post(client, "authenticate", assertion);
    expectFailure(app, replayWithCookie, "/auth/error?error=WebAuthnVerificationError", "WebAuthnVerificationError");
    expect(await client.session()).toBeNull();
  });

  it.each([
    ["in the verification-token table (hashed)", true],
    ["without verification-token methods, in the per-instance used-challenge set", false],
  ])(
    "a replayed counter-0 assertion (synced passkeys) with its captured cookie is refused: the challenge was stored %s",
    async (_, withTokens) => {
      const app = await setup();
      const { createVerificationToken: _c, useVerificationToken: _u, ...withoutTokens } = app.adapter;
      const config = withTokens ? app.config : { ...app.config, adapter: withoutTokens };
      await registerUser(app);
      const victim = authClient(config, ORIGIN);
      const { body } = await getOptions(victim, "authenticate");
      const captured = victim.jar.get(CHALLENGE_COOKIE)!;
      const assertion = await app.authenticator.authenticate(body.options, { counter: 0 });
      await post(victim, "authenticate", assertion);
      expect((await victim.session())?.user?.name).toBe("Ada");

      // Replayed from the very browser (the binding matches: same CSRF cookie, signed out again): only the
      // used challenge stops it, since the counter (0) proves nothing.
      await victim.send("/auth/signout", { form: { csrfToken: await victim.csrf() } });
      victim.jar.cookies.set(CHALLENGE_COOKIE, { name: CHALLENGE_COOKIE, value: captured, attributes: {} });
      expectFailure(app, await post(victim, "authenticate", assertion), "/auth/error?error=Configuration", "InvalidCheck");
      expect(app.log.last()?.line).toMatch(/answered already/i);
      expect(await victim.session()).toBeNull();
      // Used challenges are rows (the registration's, made with the token methods, and the sign-in's when
      // it had them), each kept until its challenge expires, keyed by a hash of the challenge.
      const used = await app.hosted.db.authlib_verificationTokens.filter({ identifier: "authlib:webauthn-used-challenge" });
      expect(used).toHaveLength(withTokens ? 2 : 1);
      for (const row of used) {
        expect(row.token).toMatch(/^[0-9a-f]{64}$/);
        expect(row.token).not.toContain(body.options.challenge);
        expect(row.expires!.getTime()).toBeGreaterThan(Date.now() + 14 * 60 * 1000);
      }
    },
  );

  it("a response to a challenge from another session fails", async () => {
    const app = await setup();
    await registerUser(app);
    const victim = app.client();
    const attacker = app.client();
    const { body: victimOptions } = await getOptions(victim, "authenticate");
    await getOptions(attacker, "authenticate");
    const assertion = await app.authenticator.authenticate(victimOptions.options);

    const response = await post(attacker, "authenticate", assertion);
    expectFailure(app, response, "/auth/error?error=WebAuthnVerificationError", "WebAuthnVerificationError");
    expect(app.log.last()?.line).toMatch(/challenge/i);
    expect(await attacker.session()).toBeNull();
  });

  it("an unknown credential id fails", async () => {
    const app = await setup();
    await registerUser(app);
    const stranger = new SoftAuthenticator(ORIGIN);
    const client = app.client();
    await stranger.register((await getOptions(client, "register", { name: "Eve" })).body.options);
    const { body } = await getOptions(client, "authenticate");
    const response = await post(client, "authenticate", await stranger.authenticate(body.options));
    expectFailure(app, response, "/auth/error?error=WebAuthnVerificationError", "WebAuthnVerificationError");
    expect(app.log.last()?.line).toMatch(/unknown passkey/i);
    expect(await app.adapter.getUserByEmail!("eve@example.com")).toBeNull();
  });

  it("a missing challenge cookie fails", async () => {
    const app = await setup();
    await registerUser(app);
    const client = app.client();
    const assertion = await app.authenticator.authenticate({ challenge: "bm8tY2hhbGxlbmdlLWlzc3VlZA", rpId: "localhost" });
    const response = await post(client, "authenticate", assertion);
    expectFailure(app, response, "/auth/error?error=Configuration", "InvalidCheck");
    expect(app.log.last()?.line).toMatch(/missing/i);
  });

  it("a challenge cookie of another provider, or of the other ceremony, or tampered with, fails", async () => {
    const app = await setup({}, [{}, { id: "security-key", name: "Security key", enableConditionalUI: false }]);
    await registerUser(app);
    const client = app.client();

    const { body: other } = await getOptions(client, "authenticate", {}, "security-key");
    const response = await post(client, "authenticate", await app.authenticator.authenticate(other.options));
    expectFailure(app, response, "/auth/error?error=Configuration", "InvalidCheck");
    expect(app.log.last()?.line).toMatch(/another provider or ceremony/);

    const { body: registration } = await getOptions(client, "register", { name: "New" });
    const crossed = await post(
      client,
      "authenticate",
      await app.authenticator.authenticate({ ...registration.options, rpId: "localhost" }),
    );
    expectFailure(app, crossed, "/auth/error?error=Configuration", "InvalidCheck");

    const { body: fresh } = await getOptions(client, "authenticate");
    const sealed = client.jar.get(CHALLENGE_COOKIE)!;
    client.jar.cookies.set(CHALLENGE_COOKIE, { name: CHALLENGE_COOKIE, value: `${sealed.slice(0, -4)}AAAA`, attributes: {} });
    const tampered = await post(client, "authenticate", await app.authenticator.authenticate(fresh.options));
    expectFailure(app, tampered, "/auth/error?error=Configuration", "InvalidCheck");
    expect(app.log.last()?.line).toMatch(/could not be read/);
    expect(await client.session()).toBeNull();
  });

  it("a passkey of one WebAuthn provider does not sign in through another", async () => {
    const app = await setup({}, [{}, { id: "security-key", name: "Security key", enableConditionalUI: false }]);
    await registerUser(app);
    const client = app.client();
    const { body } = await getOptions(client, "authenticate", {}, "security-key");
    const response = await post(client, "authenticate", await app.authenticator.authenticate(body.options), { provider: "security-key" });
    expectFailure(app, response, "/auth/signin?error=AccountNotLinked", "AccountNotLinked");
  });

  it("a missing or wrong CSRF token fails (unlike the reference library, the callback is CSRF-protected)", async () => {
    const app = await setup();
    await registerUser(app);
    for (const csrfToken of [null, "0".repeat(64)]) {
      const client = app.client();
      const { body } = await getOptions(client, "authenticate");
      const response = await post(client, "authenticate", await app.authenticator.authenticate(body.options), { csrfToken });
      expectFailure(app, response, "/auth/signin?error=MissingCSRF", "MissingCSRF");
      expect(await client.session()).toBeNull();
    }
  });

  it("the signIn callback's false is honoured at sign-in and at registration (nothing is stored)", async () => {
    let allow = true;
    const app = await setup({ callbacks: { signIn: () => allow } });
    await registerUser(app);
    allow = false;

    const client = app.client();
    const { body } = await getOptions(client, "authenticate");
    const refused = await post(client, "authenticate", await app.authenticator.authenticate(body.options));
    expectFailure(app, refused, "/auth/error?error=AccessDenied", "AccessDenied");
    expect(await client.session()).toBeNull();

    const { body: registration } = await getOptions(client, "register", { name: "Bob" });
    const users = await userCount(app);
    const refusedRegistration = await post(client, "register", await app.authenticator.register(registration.options));
    expectFailure(app, refusedRegistration, "/auth/error?error=AccessDenied", "AccessDenied");
    expect(await userCount(app)).toBe(users);
  });

  it("the signIn callback's redirect string is honoured: no session, no stored registration", async () => {
    const app = await setup({ callbacks: { signIn: ({ user }) => (user.name === "Ada" ? true : "/waitlist") } });
    await registerUser(app);
    const users = await userCount(app);
    const client = app.client();
    const { body } = await getOptions(client, "register", { name: "Bob" });
    const response = await post(client, "register", await app.authenticator.register(body.options));
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/waitlist`);
    expect(challengeCleared(response)).toBe(true);
    expect(await client.session()).toBeNull();
    expect(await userCount(app)).toBe(users);
  });

  it("a response from another origin, without user verification, or malformed fails", async () => {
    const app = await setup();
    await registerUser(app);
    const client = app.client();

    const { body: a } = await getOptions(client, "authenticate");
    const wrongOrigin = await post(
      client,
      "authenticate",
      await app.authenticator.authenticate(a.options, { origin: "https://evil.example" }),
    );
    expectFailure(app, wrongOrigin, "/auth/error?error=WebAuthnVerificationError", "WebAuthnVerificationError");

    const { body: b } = await getOptions(client, "authenticate");
    const unverified = await post(client, "authenticate", await app.authenticator.authenticate(b.options, { userVerified: false }));
    expectFailure(app, unverified, "/auth/error?error=WebAuthnVerificationError", "WebAuthnVerificationError");

    for (const [action, data] of [
      ["authenticate", "{not json"],
      ["authenticate", { id: "x" }],
      ["sign-up", { id: "x", response: {} }],
      ["authenticate", { id: "%%%", rawId: "%%%", response: {}, type: "public-key" }],
    ] as const) {
      await getOptions(client, "authenticate");
      const response = await post(client, action, data);
      expectFailure(app, response, "/auth/error?error=WebAuthnVerificationError", "WebAuthnVerificationError");
    }
    expect(await client.session()).toBeNull();
  });

  it("answers fetch clients with {url} (X-Auth-Return-Redirect), still clearing the challenge", async () => {
    const app = await setup();
    const client = app.client();
    const csrfToken = await client.csrf();
    const response = await client.send("/auth/callback/passkey", {
      json: { action: "authenticate", data: "{}", csrfToken },
      headers: { "x-auth-return-redirect": "1" },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ url: `${ORIGIN}/auth/error?error=WebAuthnVerificationError` });
    expect(challengeCleared(response)).toBe(true);
  });
});

describe("passkey registration rules", () => {
  it("signed out, a new user gets user, account and authenticator rows, events, and a session: named by the display name, with no email", async () => {
    const app = await setup();
    const { client, user, stored } = await registerUser(app);
    expect(user).toMatchObject({ email: null, name: "Ada", emailVerified: null });
    expect(stored).toMatchObject({ userId: user.id, counter: 0, credentialDeviceType: "singleDevice", transports: "internal" });
    expect(stored.credentialID).toMatch(/^[A-Za-z0-9+/]+=*$/); // standard base64, as Auth.js stores it
    expect(stored.providerAccountId).toBe(stored.credentialID);
    expect(await app.adapter.getAccount!(stored.credentialID, "passkey")).toMatchObject({ userId: user.id, type: "webauthn" });
    expect(app.events.map(([name]) => name)).toEqual(["createUser", "linkAccount", "signIn"]);
    expect(app.events[0]?.[1]).toMatchObject({ user: { id: user.id, email: null, name: "Ada" } });
    expect(app.events[2]?.[1]).toMatchObject({ isNewUser: true, account: { type: "webauthn", provider: "passkey" } });
    expect((await client.session())?.user).toMatchObject({ email: null, name: "Ada" });
    expect(app.warnings).toEqual(["experimental-webauthn"]);
  });

  // Changed with issue 28: the address typed used to become the new user's name, so registering with
  // someone's address made a second account named after it. Now no address is read at all.
  it("an address that belongs to an existing user, passed as email or as name, reaches nobody and answers as an unknown one", async () => {
    const app = await setup();
    const owner = await app.adapter.createUser!({ id: crypto.randomUUID(), email: "ada@example.com", emailVerified: new Date() });
    const answer = async (query: Record<string, string>, address: string) => {
      const { response } = await getOptions(app.client(), "register", query);
      const text = await response.text();
      return { status: response.status, location: response.headers.get("location"), text: text.replaceAll(address, "E") };
    };
    for (const [known, unknown] of [
      [{ email: "ada@example.com" }, { email: "nobody@example.com" }],
      [{ name: "ada@example.com" }, { name: "nobody@example.com" }],
      [{ name: "ADA＠example.com" }, { name: "NOBODY＠example.com" }],
    ]) {
      const existing = await answer(known!, Object.values(known!)[0]!);
      expect(existing).toEqual(await answer(unknown!, Object.values(unknown!)[0]!));
      // Refused for what the text is (no display name, or one shaped like an address), never for who holds it.
      expect(existing).toMatchObject({ status: 302, location: `${ORIGIN}/auth/error?error=WebAuthnVerificationError` });
    }

    // With a display name, the address beside it changes nothing: the options are those of any other.
    const normalise = (body: OptionsBody) =>
      JSON.stringify({ ...body, options: { ...body.options, challenge: "C", user: { ...body.options.user, id: "U" } } });
    const withKnown = await getOptions(app.client(), "register", { name: "Ada", email: "ada@example.com" });
    const withUnknown = await getOptions(app.client(), "register", { name: "Ada", email: "nobody@example.com" });
    expect(withKnown.response.status).toBe(200);
    expect(normalise(withKnown.body)).toBe(normalise(withUnknown.body));
    expect(withKnown.body.options.user).toMatchObject({ name: "Ada", displayName: "Ada" });

    // Finishing it makes a separate user without an address; the owner is untouched and gets no passkey.
    const client = app.client();
    const { body } = await getOptions(client, "register", { name: "Ada", email: "ada@example.com" });
    const registration = await app.authenticator.register(body.options);
    const response = await post(client, "register", registration);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/`);
    expect((await client.session())?.user).toMatchObject({ email: null, name: "Ada" });
    const stored = await app.adapter.getAuthenticator!(storedCredentialId(registration.id));
    expect(stored?.userId).not.toBe(owner.id);
    expect(await app.adapter.getUser!(stored!.userId)).toMatchObject({ email: null, emailVerified: null, name: "Ada" });
    expect(await app.adapter.getUserByEmail!("ada@example.com")).toEqual(owner);
    expect(await app.adapter.listAuthenticatorsByUserId!(owner.id)).toEqual([]);
    const users = await app.hosted.db.authlib_users.filter();
    expect(users).toHaveLength(2);
    expect(users.filter((row) => String(row.name ?? "").includes("@"))).toEqual([]);
  });

  it("signed in, registration adds the passkey to that user (the query's name and email are ignored) and keeps the session", async () => {
    const app = await setup();
    const { client, user, stored } = await registerUser(app);
    const sessionCookie = client.jar.get("authlib.session-token");
    const { body } = await getOptions(client, "register", { name: "Someone else", email: "someone-else@example.com" });
    expect(body.options.user).toMatchObject({ name: "Ada", displayName: "Ada" });
    expect(body.options.excludeCredentials).toEqual([
      { id: stored.credentialID.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""), type: "public-key", transports: ["internal"] },
    ]);

    const second = new SoftAuthenticator(ORIGIN);
    const response = await post(client, "register", await second.register(body.options));
    expect(response.headers.get("location")).toBe(`${ORIGIN}/`);
    expect(client.jar.get("authlib.session-token")).toBe(sessionCookie);
    expect(await app.adapter.listAuthenticatorsByUserId!(user.id)).toHaveLength(2);
    expect(await app.adapter.getUserByEmail!("someone-else@example.com")).toBeNull();
    expect(app.events.filter(([name]) => name === "createUser")).toHaveLength(1);

    // The new passkey signs in as the same user.
    const other = app.client();
    const { body: options } = await getOptions(other, "authenticate");
    await post(other, "authenticate", await second.authenticate(options.options));
    expect((await other.session())?.user?.name).toBe("Ada");
    expect(await userCount(app)).toBe(1);

    // A signed-in user who proved an address has the passkey listed under it on the authenticator.
    await app.adapter.updateUser!({ id: user.id, email: "ada@example.com", emailVerified: new Date() });
    const { body: proven } = await getOptions(client, "register");
    expect(proven.options.user).toMatchObject({ name: "ada@example.com", displayName: "Ada" });
    expect(proven.options.excludeCredentials).toHaveLength(2);
  });

  it("a registration started while signed in cannot be finished after signing out", async () => {
    const app = await setup();
    const { client } = await registerUser(app);
    const { body } = await getOptions(client, "register");
    const csrfToken = await client.csrf();
    await client.send("/auth/signout", { form: { csrfToken } });
    const response = await post(client, "register", await new SoftAuthenticator(ORIGIN).register(body.options));
    // The challenge is bound to the session that asked for it (http/flow-binding.ts): refused before the
    // registration rules (which would say AccountNotLinked) are even reached.
    expectFailure(app, response, "/auth/error?error=Configuration", "InvalidCheck");
  });

  it("signed out, needs a display name: trimmed, at most 64 characters, one line, no @", async () => {
    const app = await setup();
    const refused: Array<[Record<string, string>, RegExp]> = [
      [{}, /display name is needed/],
      [{ name: "" }, /display name is needed/],
      [{ name: " \t " }, /display name is needed/],
      [{ email: "ada@example.com" }, /display name is needed/],
      [{ name: "x".repeat(65) }, /at most 64 characters/],
      [{ name: "Ada\nLovelace" }, /one line/],
      [{ name: "Ada\u2028Lovelace" }, /one line/],
      [{ name: "ada@example.com" }, /cannot contain @/],
      [{ name: "ada\uFE6Bexample.com" }, /cannot contain @/],
    ];
    for (const [query, message] of refused) {
      const { response } = await getOptions(app.client(), "register", query);
      expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=WebAuthnVerificationError`);
      expect(app.log.last()?.type).toBe("WebAuthnVerificationError");
      expect(app.log.last()?.line).toMatch(message);
    }
    for (const [name, expected] of [
      ["  Ada Lovelace  ", "Ada Lovelace"],
      ["x".repeat(64), "x".repeat(64)],
      ["🙂".repeat(64), "🙂".repeat(64)], // 64 characters, 128 UTF-16 units
      ["Ada\u0301", "Ad\u00e1"], // NFC
    ]) {
      const { response, body } = await getOptions(app.client(), "register", { name: name! });
      expect(response.status).toBe(200);
      expect(body.options.user).toMatchObject({ name: expected, displayName: expected });
    }
    expect(await userCount(app)).toBe(0);
  });
});

describe("passkey options route", () => {
  it("registration options: required resident key and user verification, RP from the request, sealed challenge cookie", async () => {
    const app = await setup();
    const client = app.client();
    const { response, body } = await getOptions(client, "register", { name: "Ada" });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toContain("no-store");
    expect(body.action).toBe("register");
    expect(body.options).toMatchObject({
      rp: { id: "localhost", name: "localhost:3000" },
      user: { name: "Ada", displayName: "Ada" },
      attestation: "none",
      timeout: 300_000,
      authenticatorSelection: { residentKey: "required", requireResidentKey: true, userVerification: "required" },
      excludeCredentials: [],
    });
    const cookie = response.setCookies.find((c) => c.name === CHALLENGE_COOKIE)!;
    expect(cookie.attributes).toMatchObject({ maxAge: 900, httponly: true, samesite: "Lax", path: "/" });
    expect(cookie.value.split(".")).toHaveLength(5); // a JWE: the challenge is not readable
    expect(cookie.value).not.toContain(body.options.challenge);
  });

  it("authentication options: allowCredentials empty by default, also for a known email (no enumeration)", async () => {
    const app = await setup();
    const { user } = await registerUser(app);
    await app.adapter.updateUser!({ id: user.id, email: "ada@example.com", emailVerified: new Date() });
    const client = app.client();
    for (const query of [{ email: "ada@example.com" }, { email: "nobody@example.com" }, {}] as Array<Record<string, string>>) {
      expect((await getOptions(client, "authenticate", query)).body.options.allowCredentials).toEqual([]);
    }
  });

  it("authentication options with allowCredentialsForEmail: the known email's credentials, empty otherwise", async () => {
    const app = await setup({}, [{ allowCredentialsForEmail: true }]);
    const { user, stored } = await registerUser(app);
    await app.adapter.updateUser!({ id: user.id, email: "ada@example.com", emailVerified: new Date() });
    const client = app.client();
    const known = await getOptions(client, "authenticate", { email: "ada@example.com" });
    expect(known.body.options).toMatchObject({ rpId: "localhost", userVerification: "required", timeout: 300_000 });
    expect(known.body.options.allowCredentials).toHaveLength(1);
    expect(known.body.options.allowCredentials?.[0]?.id).toBe(
      stored.credentialID.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""),
    );
    for (const query of [{ email: "nobody@example.com" }, {}, { email: "not an email" }] as Array<Record<string, string>>) {
      expect((await getOptions(client, "authenticate", query)).body.options.allowCredentials).toEqual([]);
    }
  });

  it("uses the configured relying party; a response for another origin then fails", async () => {
    const app = await setup({}, [{ relyingParty: { id: "example.com", name: "Example", origin: "https://app.example.com" } }]);
    const client = app.client();
    const { body } = await getOptions(client, "register", { name: "Ada" });
    expect(body.options.rp).toEqual({ id: "example.com", name: "Example" });
    const response = await post(client, "register", await app.authenticator.register(body.options));
    expectFailure(app, response, "/auth/error?error=WebAuthnVerificationError", "WebAuthnVerificationError");
    expect(app.log.last()?.line).toMatch(/origin/i);
  });

  it("refuses an unknown action (400) and a provider that is not WebAuthn", async () => {
    const app = await setup();
    const client = app.client();
    const { response, body } = await getOptions(client, "signup");
    expect(response.status).toBe(400);
    expect(body.error).toBe("UnknownAction");
    const unknown = await getOptions(client, "authenticate", {}, "github");
    expect(unknown.response.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Configuration`);
    expect(app.log.last()?.type).toBe("InvalidProvider");
  });
});

describe("passkey configuration, page and script", () => {
  it("without experimental.enableWebAuthn the config assertion fires", async () => {
    const app = await setup({ experimental: {} });
    const response = await Auth(new Request(`${ORIGIN}/auth/webauthn-options/passkey?action=authenticate`), app.config);
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ error: "Configuration" });
    expect(app.log.types()).toEqual(["ExperimentalFeatureNotEnabled"]);
    const page = await Auth(new Request(`${ORIGIN}/auth/signin`), app.config);
    expect(page.status).toBe(500);
  });

  it("conditional UI needs a form field with autocomplete 'webauthn'", async () => {
    const app = await setup({}, [{ formFields: { email: { label: "Email", autocomplete: "email" } } }]);
    const response = await Auth(new Request(`${ORIGIN}/auth/providers`), app.config);
    expect(response.status).toBe(500);
    expect(app.log.types()).toEqual(["MissingWebAuthnAutocomplete"]);
  });

  it("the sign-in page offers the passkey section and loads the library's own script (no inline script)", async () => {
    const app = await setup();
    const response = await app.client().send("/auth/signin?callbackUrl=%2Fdashboard");
    const html = await response.text();
    expect(html).toContain("Sign in with Passkey");
    expect(html).toContain("Register a passkey");
    expect(html).toMatch(
      /<label for="([^"]+)">Display name<\/label><input id="\1" name="name" type="text" autocomplete="username webauthn" required\/>/,
    );
    expect(html.slice(html.indexOf("data-webauthn-register"))).not.toContain('name="email"');
    expect(html).toContain(`data-options-url="${ORIGIN}/auth/webauthn-options/passkey"`);
    expect(html).toContain(`data-callback-url="${ORIGIN}/auth/callback/passkey"`);
    expect(html).toContain(`data-redirect-to="${ORIGIN}/dashboard"`);
    expect(html).toContain('data-conditional-ui="true"');
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts).toHaveLength(1);
    expect(scripts[0]?.[1]).toMatch(new RegExp(`^ src="${ORIGIN}/auth/webauthn-script\\?v=13-[0-9a-f]{8}" defer$`));
    expect(scripts[0]?.[2]).toBe("");
  });

  it("serves @simplewebauthn/browser and the client script from the package (no CDN)", async () => {
    const app = await setup();
    const response = await Auth(new Request(`${ORIGIN}/auth/webauthn-script?v=1`), app.config);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.getSetCookie()).toEqual([]);
    const script = await response.text();
    expect(script).toMatch(/^\/\* \[@simplewebauthn\/browser@13\./);
    expect(script).toContain("SimpleWebAuthnBrowser");
    expect(script).toContain("data-authlib-webauthn");
    expect(script).not.toMatch(/https?:\/\/(unpkg|cdn|jsdelivr)/);

    const without = { ...app.config, providers: [], experimental: {} };
    expect((await Auth(new Request(`${ORIGIN}/auth/webauthn-script`), without)).status).toBe(400);
  });

  it("through auth.api.signIn a passkey signs in, and a replayed authentication is thrown as an AuthError that still carries the cleared challenge cookie", async () => {
    const app = await setup();
    await registerUser(app);
    const auth = createAuth(app.config);
    const client = app.client();
    const { body } = await getOptions(client, "authenticate");
    const assertion = await app.authenticator.authenticate(body.options);
    const cookie = client.jar.header();
    const signIn = () =>
      auth.api.signIn(
        { url: ORIGIN, headers: { cookie } },
        { providerId: "passkey", action: "authenticate", data: JSON.stringify(assertion) },
      );
    const first = await signIn();
    expect(first.cookies.some((c) => c.name === CHALLENGE_COOKIE && c.options.maxAge === 0)).toBe(true);
    const session = first.cookies.find((c) => c.name.endsWith("session-token") && c.value !== "");
    const read = await auth.api.getSession({ url: ORIGIN, headers: { cookie: `${session?.name}=${session?.value}` } });
    expect(read.session?.user).toBeTruthy();
    // The attacker replays the captured response with the captured challenge cookie.
    const replayed = await signIn().catch((e: unknown) => e);
    expect(replayed).toBeInstanceOf(AuthError);
    expect(failureCookies(replayed).some((c) => c.name === CHALLENGE_COOKIE && c.value === "" && c.options.maxAge === 0)).toBe(true);
  });
});
