/**
 * The owner-present rule's decision and its table, in process on the in-memory adapter (fast enough per
 * mutant: mutation group `owner-present`). The attacks end to end on PGlite and PostgreSQL:
 * owner-present-attacks.test.ts.
 */
import { afterEach, describe, expect, test, vi } from "vitest";
import { requestFields } from "../../src/http/input.js";
import { encode } from "../../src/jwt.js";
import { operationsOf } from "../../src/kernel/features.js";
import { createAuth } from "../../src/kernel/instance.js";
import Credentials from "../../src/providers/credentials.js";
import Passkey from "../../src/providers/passkey.js";
import { memoryRateLimitStore } from "../../src/rate-limit/store.js";
import { guardedOperation, missingPresence, OWNER_PRESENT_SECONDS } from "../../src/sign-in/owner-present.js";
import type { AuthConfig } from "../../src/types/config.js";
import { authClient } from "../helpers/auth-client.js";
import { memoryAdapter } from "../helpers/memory-adapter.js";
import { codeOf } from "../two-factor/helpers.js";

const ORIGIN = "http://localhost:3000";
const PASSWORD = "right password";
const secret = "owner-present-rule-secret-0123456789abcdef";
const REAUTHENTICATE = `${ORIGIN}/auth/signin?callbackUrl=${encodeURIComponent(`${ORIGIN}/auth/account`)}&error=RecentSignInRequired`;

afterEach(() => void vi.useRealTimers());

function app(overrides: Partial<AuthConfig> = {}, sessionRecords = true) {
  const memory = memoryAdapter({ sessionRecords });
  memory.users.set("u1", { id: "u1", email: "ada@example.com", emailVerified: null, name: "Ada" });
  const errors: string[] = [];
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter: memory.adapter,
    session: { strategy: "jwt" },
    providers: [
      Credentials({
        credentials: { email: {}, password: { type: "password" } },
        authorize: ({ email, password }) => (email === "ada@example.com" && password === PASSWORD ? { id: "u1", email } : null),
      }),
    ],
    rateLimit: { store: memoryRateLimitStore({ now: () => Date.now() }) },
    callbacks: { session: ({ session }) => session },
    // `errors`: every failure logged, at its level (a user's refusal at debug, a client's signal a warning too).
    debug: true,
    logger: {
      error: (error) => void errors.push((error as { type?: string }).type ?? error.name),
      warn: () => {},
      debug: (_line, metadata) => {
        const type = (metadata as { type?: string } | undefined)?.type;
        if (type) errors.push(type);
      },
    },
    ...overrides,
  };
  const auth = createAuth(config);
  return { config, auth, memory, errors, browser: () => authClient(config, ORIGIN) };
}
type App = ReturnType<typeof app>;
type Browser = ReturnType<App["browser"]>;

async function post(browser: Browser, path: string, form: Record<string, string>) {
  return browser.send(path, { form: { csrfToken: await browser.csrf(), ...form } });
}

async function signedIn(a: App): Promise<Browser> {
  const browser = a.browser();
  await post(browser, "/auth/callback/credentials", { email: "ada@example.com", password: PASSWORD });
  return browser;
}

const requestOf = (browser: Browser) => new Request(`${ORIGIN}/page`, { headers: { cookie: browser.jar.header() } });
const later = (seconds: number) => vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + seconds * 1000 });

describe("the decision", () => {
  const now = 1_000_000;
  const base = { maxAge: 600, now, passwordProven: false, hasSecondFactor: false };
  const signedInAgo = (seconds: number, aal: 1 | 2 = 1) => ({ authTime: now - seconds, amr: ["pwd"], aal });

  test("a sign-in at most maxAge seconds ago, at the level the user needs, is presence; older is not", () => {
    expect(missingPresence({ ...base, assurance: signedInAgo(0) })).toBeUndefined();
    expect(missingPresence({ ...base, assurance: signedInAgo(600) })).toBeUndefined();
    expect(missingPresence({ ...base, assurance: signedInAgo(601) })).toEqual({ maxAge: 600, aal: 1 });
    expect(missingPresence({ ...base, maxAge: 120, assurance: signedInAgo(121) })).toEqual({ maxAge: 120, aal: 1 });
  });

  test("a session of unknown age, or from the future, is never recent; the password stands for a sign-in", () => {
    expect(missingPresence({ ...base, assurance: undefined })).toEqual({ maxAge: 600, aal: 1 });
    expect(missingPresence({ ...base, assurance: signedInAgo(-1) })).toEqual({ maxAge: 600, aal: 1 });
    expect(missingPresence({ ...base, assurance: undefined, passwordProven: true })).toBeUndefined();
    expect(missingPresence({ ...base, assurance: signedInAgo(5000), passwordProven: true })).toBeUndefined();
  });

  test("a user with a second factor needs a session of level 2, recent or with the password", () => {
    const factor = { ...base, hasSecondFactor: true };
    expect(missingPresence({ ...factor, assurance: signedInAgo(10, 1) })).toEqual({ maxAge: 600, aal: 2 });
    expect(missingPresence({ ...factor, assurance: signedInAgo(10, 1), passwordProven: true })).toEqual({ maxAge: 600, aal: 2 });
    expect(missingPresence({ ...factor, assurance: undefined, passwordProven: true })).toEqual({ maxAge: 600, aal: 2 });
    expect(missingPresence({ ...factor, assurance: signedInAgo(10, 2) })).toBeUndefined();
    expect(missingPresence({ ...factor, assurance: signedInAgo(5000, 2) })).toEqual({ maxAge: 600, aal: 2 });
    expect(missingPresence({ ...factor, assurance: signedInAgo(5000, 2), passwordProven: true })).toBeUndefined();
    expect(OWNER_PRESENT_SECONDS).toBe(600);
  });
});

describe("the table", () => {
  // Every feature on: the table is the declarations' `needs.ownerPresent`, read from the real operation list.
  const declared = operationsOf({ providers: [], twoFactor: {} } as unknown as AuthConfig);
  const options = {
    providers: [
      { id: "passkey", type: "webauthn" },
      { id: "github", type: "oauth" },
    ],
  } as never;
  const request = (method: "GET" | "POST", rest: Record<string, unknown> = {}) => ({ method, query: {}, body: {}, ...rest }) as never;
  const named = (name: string) => {
    const operation = declared.find((candidate) => candidate.name === name);
    if (!operation) throw new Error(`no operation ${name}`);
    return operation;
  };

  test("names every operation that changes how someone signs in, and nothing else", () => {
    // Always guarded: the declaration names its owner-present operation.
    const always = Object.fromEntries(
      declared.filter((o) => typeof o.needs?.ownerPresent === "string").map((o) => [`${o.method} ${o.path}`, o.needs?.ownerPresent]),
    );
    expect(always).toEqual({
      "POST sessions/revoke": "revokeSessions",
      "POST accounts/unlink": "unlinkAccount",
      "POST account/unlink": "unlinkAccount",
      "POST passkeys/remove": "removePasskey",
      "POST account/passkey-remove": "removePasskey",
      "POST password/change": "changePassword",
      "POST account/email": "changeEmail",
      "POST account/delete": "deleteAccount",
      "POST two-factor/enroll": "enrollTotp",
      "POST two-factor/confirm": "confirmTotp",
      "POST two-factor/disable": "disableTotp",
      "POST two-factor/recovery-codes": "regenerateRecoveryCodes",
      // The account page's second-factor forms run the same operations.
      "POST account/two-factor-enroll": "enrollTotp",
      "POST account/two-factor-confirm": "confirmTotp",
      "POST account/two-factor-disable": "disableTotp",
      "POST account/two-factor-recovery-codes": "regenerateRecoveryCodes",
    });
    // Guarded as the request decides: a sign-in that links, a passkey registration.
    const decided = declared.filter((o) => typeof o.needs?.ownerPresent === "function").map((o) => `${o.method} ${o.path}`);
    expect(decided).toEqual(["POST signin", "POST signin/:provider", "GET webauthn-options/:provider"]);
    // Every other operation (the reads, the sign-in, the other forms) asks nothing.
    for (const operation of declared.filter((o) => o.needs?.ownerPresent === undefined)) {
      expect([operation.name, guardedOperation(options, request(operation.method), operation, undefined)]).toEqual([
        operation.name,
        undefined,
      ]);
    }
    for (const name of ["renamePasskey", "renamePasskeyForm", "confirmEmail", "resetPassword", "verifyTwoFactor", "getSession"])
      expect(named(name).needs?.ownerPresent).toBeUndefined();
  });

  test("the request decides for a sign-in that links and for a passkey registration", () => {
    const cases: Array<[string, unknown, string | undefined]> = [
      ["webAuthnOptions", request("GET", { providerId: "passkey", query: { action: "register" } }), "addPasskey"],
      ["webAuthnOptions", request("GET", { providerId: "passkey", query: { action: "authenticate" } }), undefined],
      ["webAuthnOptions", request("GET", { providerId: "github", query: { action: "register" } }), undefined],
      ["webAuthnOptions", request("GET", { providerId: undefined, query: { action: "register" } }), undefined],
      ["signIn", request("POST", { providerId: "github", body: { link: "true" } }), "linkAccount"],
      ["signIn", request("POST", { providerId: "github", body: {} }), undefined],
      ["signIn", request("POST", { providerId: "github", body: { link: "yes" } }), undefined],
      ["signInForm", request("POST", { body: { link: "true" } }), "linkAccount"],
      ["signInForm", request("POST", { body: {} }), undefined],
    ];
    // The rule reads the input the operation's schema parsed from the request (as the pipeline hands it).
    for (const [name, req, operation] of cases) {
      const declaration = named(name);
      const input = declaration.input?.parse(requestFields(declaration, req as never));
      expect([name, req, guardedOperation(options, req as never, declaration, input)]).toEqual([name, req, operation]);
    }
  });

  test("a configuration that turns a feature off has none of its guarded operations", () => {
    const off = operationsOf({ providers: [] } as unknown as AuthConfig)
      .map((o) => o.needs?.ownerPresent)
      .filter((o) => typeof o === "string");
    expect(off).not.toContain("enrollTotp");
    expect(off).not.toContain("confirmTotp");
    expect(off).not.toContain("disableTotp");
    expect(off).toContain("revokeSessions");
  });
});

describe("the rule in the pipeline", () => {
  test("no session: the route answers (SessionRequired), the rule asks nothing", async () => {
    const a = app();
    const response = await post(a.browser(), "/auth/accounts/unlink", { provider: "x", providerAccountId: "y" });
    expect([response.status, await response.json()]).toEqual([401, { error: "SessionRequired" }]);
  });

  test("a cross-site POST is MissingCSRF before any password is checked or counted", async () => {
    const a = app();
    const browser = await signedIn(a);
    later(3600);
    const response = await browser.send("/auth/accounts/unlink", {
      form: { provider: "x", providerAccountId: "y", currentPassword: "guess" },
    });
    expect([response.status, await response.json()]).toEqual([403, { error: "MissingCSRF" }]);
  });

  test("signing out this device through revoke takes no proof; ending the others does", async () => {
    const a = app({ session: { strategy: "database" } });
    const browser = await signedIn(a);
    const [own] = await a.auth.api.listSessions(requestOf(browser));
    later(3600);
    const others = await post(browser, "/auth/sessions/revoke", { all: "others" });
    expect([others.status, await others.json()]).toEqual([403, { error: "RecentSignInRequired" }]);
    const mixed = await post(browser, "/auth/sessions/revoke", { sessionId: own?.id as string, all: "others" });
    expect(mixed.status).toBe(403);
    // Another session's id, or this one's id in another operation's body, is no sign-out of this device.
    const another = await post(browser, "/auth/sessions/revoke", { sessionId: "s".repeat(32) });
    expect([another.status, await another.json()]).toEqual([403, { error: "RecentSignInRequired" }]);
    const unlink = await post(browser, "/auth/accounts/unlink", { sessionId: own?.id as string, provider: "x", providerAccountId: "y" });
    expect([unlink.status, await unlink.json()]).toEqual([403, { error: "RecentSignInRequired" }]);
    const self = await post(browser, "/auth/sessions/revoke", { sessionId: own?.id as string });
    expect([self.status, await self.json()]).toEqual([200, { revoked: 1 }]);
  });

  test("JWT sessions without records have no session id: a revoke naming none is no sign-out of this device", async () => {
    const a = app({}, false);
    const browser = await signedIn(a);
    later(3600);
    const response = await browser.send("/auth/sessions/revoke", {
      json: { csrfToken: (await browser.csrf()).split("|")[0], sessionId: null },
    });
    expect([response.status, await response.json()]).toEqual([403, { error: "RecentSignInRequired" }]);
  });

  test("auth.api gets the refusal thrown, for the account page's operations too", async () => {
    const a = app();
    const browser = await signedIn(a);
    later(3600);
    await expect(a.auth.api.changeEmail(requestOf(browser), { email: "new@example.com" })).rejects.toMatchObject({
      type: "RecentSignInRequired",
      operation: "changeEmail",
    });
    await expect(a.auth.api.deleteAccount(requestOf(browser))).rejects.toMatchObject({
      type: "RecentSignInRequired",
      operation: "deleteAccount",
    });
  });

  test("refusals come back as the route presents them: the sign-in page and back, JSON, or thrown", async () => {
    // The second factor's settings exist only when twoFactor turns the feature on (issue 45).
    const a = app({ twoFactor: {} });
    const browser = await signedIn(a);
    later(3600);
    expect((await post(browser, "/auth/account/unlink", { provider: "x", providerAccountId: "y" })).headers.get("location")).toBe(
      REAUTHENTICATE,
    );
    const pwd = await post(browser, "/auth/password/change", { password: "x", callbackUrl: `${ORIGIN}/settings?done=saved` });
    expect(pwd.headers.get("location")).toBe(
      `${ORIGIN}/auth/signin?callbackUrl=${encodeURIComponent(`${ORIGIN}/settings`)}&error=RecentSignInRequired`,
    );
    const link = await post(browser, "/auth/signin/credentials", { link: "true", callbackUrl: `${ORIGIN}/me` });
    expect(link.headers.get("location")).toBe(
      `${ORIGIN}/auth/signin?callbackUrl=${encodeURIComponent(`${ORIGIN}/me`)}&error=RecentSignInRequired`,
    );
    // A link's other refusals are a sign-in's, on the sign-in page.
    const crossSite = await browser.send("/auth/signin/credentials", { form: { link: "true" } });
    expect(crossSite.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=MissingCSRF`);
    const totp = await post(browser, "/auth/two-factor/enroll", {});
    expect([totp.status, totp.headers.get("cache-control"), await totp.json()]).toEqual([
      403,
      expect.stringContaining("no-store"),
      { error: "RecentSignInRequired" },
    ]);
    await expect(a.auth.api.revokeOtherSessions(requestOf(browser))).rejects.toMatchObject({ type: "RecentSignInRequired" });
    expect(a.errors.filter((type) => type === "RecentSignInRequired")).toHaveLength(5);
    expect(a.errors.filter((type) => type === "MissingCSRF")).toHaveLength(1);
  });

  test("ownerPresent.maxAge is the window; a value outside 60..86400 is a start-up error", async () => {
    const a = app({ ownerPresent: { maxAge: 120 } });
    const browser = await signedIn(a);
    later(119);
    await expect(a.auth.api.revokeOtherSessions(requestOf(browser))).resolves.toMatchObject({ revoked: 0 });
    later(122);
    await expect(a.auth.api.revokeOtherSessions(requestOf(browser))).rejects.toMatchObject({
      type: "RecentSignInRequired",
      maxAge: 120,
      aal: 1,
      message: "Sign in again to continue: changing how you sign in needs a sign-in in the last 2 minutes.",
    });
    for (const maxAge of [59, 86401, 600.5, Number.NaN]) expect(() => app({ ownerPresent: { maxAge } })).toThrow("ownerPresent.maxAge");
    for (const maxAge of [60, 86400]) expect(() => app({ ownerPresent: { maxAge } })).not.toThrow();
  });

  test("a user with TOTP: an old level-1 session is refused at level 2; a TOTP turned on from this session counts", async () => {
    // No session records: a token made here is a session.
    const a = app({ twoFactor: {} }, false);
    // Signed in and turned on within one second: the factor is no older than the session.
    vi.useFakeTimers({ toFake: ["Date"], now: Math.floor(Date.now() / 1000) * 1000 });
    const browser = await signedIn(a);
    const { secret: totpSecret } = await a.auth.api.enrollTotp(requestOf(browser));
    // Turned on after this session signed in: the session set it up, and stays enough while recent.
    await a.auth.api.confirmTotp(requestOf(browser), { code: codeOf(totpSecret) });
    await expect(a.auth.api.revokeOtherSessions(requestOf(browser))).rejects.toMatchObject({ type: "SessionRegistryMissing" });
    // A level-1 session signed in after the factor was on (twoFactor turned on since, a token from before
    // assurance levels): the factor must be proven.
    later(60);
    const old = a.browser();
    const token = await encode({
      token: { sub: "u1", authTime: Math.floor(Date.now() / 1000) - 30, amr: ["pwd"], aal: 1 },
      secret,
      salt: "authlib.session-token",
    });
    old.jar.cookies.set("authlib.session-token", { name: "authlib.session-token", value: token, attributes: {} } as never);
    await expect(a.auth.api.revokeOtherSessions(requestOf(old))).rejects.toMatchObject({
      type: "RecentSignInRequired",
      aal: 2,
      message: "Sign in again with your second factor to continue: this changes how you sign in.",
    });
    // Turning TOTP off and making new recovery codes take one of its codes: that proves the factor, the
    // session need only be recent.
    await expect(a.auth.api.disableTotp(requestOf(old), { code: "000000" })).rejects.not.toMatchObject({ type: "RecentSignInRequired" });
    await expect(a.auth.api.regenerateRecoveryCodes(requestOf(old), { code: "000000" })).rejects.toMatchObject({ type: "IncorrectCode" });
  });
});

describe("assurance never comes from the client", () => {
  test("a token without assurance stays level 1 of unknown age, whatever an update merges into it", async () => {
    const a = app({
      callbacks: {
        session: ({ session }) => session,
        // A common Auth.js pattern: merge the update's data into the token.
        jwt: ({ token, trigger, session }) => (trigger === "update" ? { ...token, ...(session as object) } : token),
      },
    });
    const browser = a.browser();
    const token = await encode({ token: { sub: "u1", email: "ada@example.com" }, secret, salt: "authlib.session-token" });
    browser.jar.cookies.set("authlib.session-token", { name: "authlib.session-token", value: token, attributes: {} } as never);
    const forged = { authTime: Math.floor(Date.now() / 1000), amr: ["otp"], aal: 2 };
    const updated = await browser.send("/auth/session", { json: { csrfToken: (await browser.csrf()).split("|")[0], data: forged } });
    expect(updated.status).toBe(200);
    const session = (await browser.session()) as Record<string, unknown>;
    expect(session.user).toMatchObject({ email: "ada@example.com" });
    expect([session.authTime, session.amr, session.aal]).toEqual([undefined, undefined, undefined]);
    await expect(a.auth.api.revokeOtherSessions(requestOf(browser))).rejects.toMatchObject({ type: "RecentSignInRequired" });
    const assurance = await a.auth.api.requireRecentAuth(requestOf(browser), { maxAge: 600, aal: 1 }).catch((e: unknown) => e);
    expect(assurance).toMatchObject({ type: "RecentSignInRequired" });
  });
});

describe("the refusal's wording and its CSRF check", () => {
  test("every operation names itself in a cross-site refusal, checked before the session is read", async () => {
    const { requireOwnerPresent } = await import("../../src/sign-in/owner-present.js");
    // A feature's operations are labelled by the feature (`FeatureDefinition.ownerOperations`), as an instance has them.
    const { ownerOperationsOf } = await import("../../src/kernel/features.js");
    const ownerOperations = ownerOperationsOf({ providers: [] } as never);
    const labels = {
      addPasskey: "passkey registration",
      removePasskey: "passkey removal",
      changeEmail: "email change",
      changePassword: "password change",
      linkAccount: "account link",
      unlinkAccount: "account unlink",
      revokeSessions: "session revoke",
      deleteAccount: "account deletion",
      enrollTotp: "TOTP enrollment",
      confirmTotp: "TOTP confirmation",
      disableTotp: "TOTP removal",
      regenerateRecoveryCodes: "recovery codes regeneration",
    } as const;
    const strategy = { currentAssurance: () => Promise.reject(new Error("read before the CSRF check")) };
    for (const [operation, label] of Object.entries(labels)) {
      const options = { csrfTokenVerified: false, sessionStrategy: strategy, ownerOperations } as never;
      await expect(requireOwnerPresent(options, { method: "POST", body: {} } as never, operation as never)).rejects.toMatchObject({
        type: "MissingCSRF",
        message: `The CSRF token was missing or wrong during the ${label} action.`,
      });
    }
    // A GET (a passkey's options) carries no form token: only the session is asked.
    const signedOut = { csrfTokenVerified: false, sessionStrategy: { currentAssurance: async () => null } } as never;
    await expect(requireOwnerPresent(signedOut, { method: "GET", body: {} } as never, "addPasskey")).resolves.toBeUndefined();
  });

  test("a recent session gets a passkey's registration options", async () => {
    const a = app({ providers: [...app().config.providers, Passkey({})], experimental: { enableWebAuthn: true } });
    const browser = await signedIn(a);
    const options = await browser.send("/auth/webauthn-options/passkey?action=register");
    expect(options.status).toBe(200);
    later(601);
    expect((await browser.send("/auth/webauthn-options/passkey?action=register")).status).toBe(403);
  });
});

describe("with passkeys as the second factor, and with the current password", () => {
  const passkey = {
    credentialID: "cred",
    userId: "u1",
    providerAccountId: "cred",
    credentialPublicKey: "key",
    counter: 0,
    credentialDeviceType: "singleDevice",
    credentialBackedUp: false,
  };

  /** A session of `a` made by hand: `assurance` claims, or none. */
  async function sessionWith(a: App, assurance: Record<string, unknown>): Promise<Browser> {
    const browser = a.browser();
    const token = await encode({ token: { sub: "u1", ...assurance }, secret, salt: "authlib.session-token" });
    browser.jar.cookies.set("authlib.session-token", { name: "authlib.session-token", value: token, attributes: {} } as never);
    return browser;
  }
  const now = () => Math.floor(Date.now() / 1000);

  test("a user whose passkey is a second factor needs a level-2 session; without twoFactor.passkeys a passkey is no factor", async () => {
    for (const passkeys of [true, false]) {
      const a = app(
        { providers: [...app().config.providers, Passkey({})], experimental: { enableWebAuthn: true }, twoFactor: { passkeys } },
        false,
      );
      await a.memory.adapter.createAuthenticator?.(passkey as never);
      const browser = await sessionWith(a, { authTime: now() - 5, amr: ["pwd"], aal: 1 });
      const answer = await a.auth.api.revokeOtherSessions(requestOf(browser)).catch((e: unknown) => e);
      if (passkeys) expect(answer).toMatchObject({ type: "RecentSignInRequired", aal: 2 });
      else expect(answer).toMatchObject({ type: "SessionRegistryMissing" });
      const strong = await sessionWith(a, { authTime: now() - 5, amr: ["pwd", "hwk"], aal: 2 });
      await expect(a.auth.api.revokeOtherSessions(requestOf(strong))).rejects.toMatchObject({ type: "SessionRegistryMissing" });
      if (!passkeys) continue;
      // A TOTP turned on after the weak session signed in does not excuse it: the passkey was there before.
      const { secret: totpSecret } = await a.auth.api.enrollTotp(requestOf(strong));
      await a.auth.api.confirmTotp(requestOf(strong), { code: codeOf(totpSecret) });
      await expect(a.auth.api.revokeOtherSessions(requestOf(browser))).rejects.toMatchObject({ type: "RecentSignInRequired", aal: 2 });
    }
  });

  test("a user whose TOTP is older than the session: level 2, and a password cannot stand for it (not even checked)", async () => {
    const a = app({ twoFactor: {} }, false);
    const signedIn1 = await sessionWith(a, { authTime: now(), amr: ["pwd"], aal: 1 });
    const { secret: totpSecret } = await a.auth.api.enrollTotp(requestOf(signedIn1));
    await a.auth.api.confirmTotp(requestOf(signedIn1), { code: codeOf(totpSecret) });
    later(3600);
    const weak = await sessionWith(a, { authTime: now() - 1800, amr: ["pwd"], aal: 1 });
    const response = await post(weak, "/auth/accounts/unlink", { provider: "x", providerAccountId: "y", currentPassword: "anything" });
    expect([response.status, await response.json()]).toEqual([403, { error: "RecentSignInRequired" }]);
  });

  test("the current password stands for a recent sign-in, not for the second factor; a wrong one is refused", async () => {
    const { default: Password } = await import("../../src/providers/password.js");
    const { withVerificationTokens } = await import("../helpers/memory-adapter.js");
    const { hashPassword } = await import("../../src/password.js");
    const memory = memoryAdapter({ sessionRecords: false });
    memory.users.set("u1", { id: "u1", email: "ada@example.com", emailVerified: new Date(), name: "Ada" });
    const hash = await hashPassword(PASSWORD);
    memory.accounts.push({ userId: "u1", type: "credentials", provider: "password", providerAccountId: "u1", access_token: hash });
    const a = app({ adapter: withVerificationTokens(memory.adapter), providers: [Password({ sendMail: () => {} })], twoFactor: {} }, false);
    const old = await sessionWith(a, { authTime: now() - 3600, amr: ["pwd"], aal: 1 });
    const unknown = await sessionWith(a, {});
    const unlink = async (browser: Browser, currentPassword?: string) => {
      const form = { provider: "nope", providerAccountId: "nope", ...(currentPassword === undefined ? {} : { currentPassword }) };
      const response = await post(browser, "/auth/accounts/unlink", form);
      return [response.status, await response.json()];
    };
    expect(await unlink(old)).toEqual([403, { error: "RecentSignInRequired" }]);
    expect(await unlink(old, "wrong password")).toEqual([403, { error: "IncorrectPassword" }]);
    // The password proves presence: the route runs (and finds no such account).
    expect(await unlink(old, PASSWORD)).toEqual([404, { error: "AccountNotFound" }]);
    expect(await unlink(unknown, PASSWORD)).toEqual([404, { error: "AccountNotFound" }]);
    // A recent session needs no password: a wrong one is not even checked.
    const recent = await sessionWith(a, { authTime: now() - 5, amr: ["pwd"], aal: 1 });
    expect(await unlink(recent, "wrong password")).toEqual([404, { error: "AccountNotFound" }]);
    // A form's wrong password goes back to its page, without a way to sign in.
    const form = await post(old, "/auth/account/email", { email: "x@example.com", currentPassword: "wrong password" });
    expect(form.headers.get("location")).toBe(`${ORIGIN}/auth/account?error=IncorrectPassword`);
    const totp = await post(old, "/auth/two-factor/enroll", { currentPassword: "wrong password" });
    expect([totp.status, await totp.json()]).toEqual([403, { error: "IncorrectPassword" }]);
    // A user without a password: a `currentPassword` proves nothing.
    memory.accounts.splice(0);
    expect(await unlink(old, PASSWORD)).toEqual([403, { error: "RecentSignInRequired" }]);
  });
});
