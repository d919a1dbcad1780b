/**
 * The passkey routes (actions/webauthn.ts) through Auth() with the software authenticator and an adapter
 * kept in memory (helpers/memory-adapter.ts, no database start-up, so every test takes milliseconds): what the options route answers,
 * what a registration and an authentication give back (session, cookies, the `signIn` callback and event),
 * how a failure is reported (the logged error, the cleared challenge cookie), and the script route.
 */
import { describe, expect, it } from "vitest";
import { type AuthError, UnknownAction } from "../../src/errors.js";
import { Auth } from "../../src/kernel/auth.js";
import Credentials from "../../src/providers/credentials.js";
import Passkey from "../../src/providers/passkey.js";
import type { AuthConfig } from "../../src/types/config.js";
import type { InternalOptions } from "../../src/types/internal.js";
import { authClient } from "../helpers/auth-client.js";
import { recordFailures } from "../helpers/failure-log.js";
import { memoryAdapter } from "../helpers/memory-adapter.js";
import { SoftAuthenticator } from "./soft-authenticator.js";

const secret = "passkey-action-secret-0123456789abcdef";
const ORIGIN = "http://localhost:3000";
const CHALLENGE_COOKIE = "authlib.challenge";
const SESSION_COOKIE = "authlib.session-token";

function setup(overrides: Partial<AuthConfig> = {}) {
  const memory = memoryAdapter();
  /** When set, the `jwt` callback throws it (a failure that is not an AuthError); JWT sessions only. */
  const failure: { jwt?: Error } = {};
  const errors: AuthError[] = [];
  const signIns: Array<{ isNewUser?: boolean; userId?: string }> = [];
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter: memory.adapter,
    providers: [Passkey({})],
    experimental: { enableWebAuthn: true },
    // `errors`: every failure logged, at its level (a user's mistake at debug).
    debug: true,
    logger: { ...recordFailures(errors), warn: () => {} },
    callbacks: {
      jwt: ({ token }) => {
        if (failure.jwt) throw failure.jwt;
        return token;
      },
    },
    events: { signIn: ({ isNewUser, user }) => void signIns.push({ isNewUser, userId: user.id }) },
    ...overrides,
  };
  return {
    ...memory,
    failure,
    config,
    errors,
    signIns,
    authenticator: new SoftAuthenticator(ORIGIN),
    client: () => authClient(config, ORIGIN),
  };
}
type App = ReturnType<typeof setup>;

/** JWT sessions whose `jwt` callback throws `app.failure.jwt` once it is set. */
const jwtThatFails: Partial<AuthConfig> = { session: { strategy: "jwt" } };
type Client = ReturnType<App["client"]>;
type Sent = Awaited<ReturnType<Client["send"]>>;

async function getOptions(client: Client, action: string, query: Record<string, string> = {}) {
  return client.send(`/auth/webauthn-options/passkey?${new URLSearchParams({ action, ...query })}`);
}

async function options(client: Client, action: string, query: Record<string, string> = {}) {
  return ((await (await getOptions(client, action, query)).json()) as { options: any }).options;
}

async function post(client: Client, action: string, data: unknown, csrfToken: string | null = "") {
  const token = csrfToken === "" ? await client.csrf() : csrfToken;
  return client.send("/auth/callback/passkey", {
    json: { action, data: JSON.stringify(data), ...(token === null ? {} : { csrfToken: token }) },
  });
}

function challengeCleared(response: Sent): boolean {
  return response.setCookies.some((c) => c.name === CHALLENGE_COOKIE && c.value === "" && c.attributes.maxAge === 0);
}

function sessionSet(response: Sent): boolean {
  return response.setCookies.some((c) => c.name === SESSION_COOKIE && c.value !== "");
}

/** Registers a new user through the routes; returns the response and the client (signed in). */
async function register(app: App, name = "Ada") {
  const client = app.client();
  const response = await post(client, "register", await app.authenticator.register(await options(client, "register", { name })));
  return { client, response };
}

describe("passkey options route", () => {
  it("answers the options of the asked ceremony as JSON, never cached, with the sealed challenge cookie", async () => {
    const app = setup();
    for (const action of ["register", "authenticate"]) {
      const response = await getOptions(app.client(), action, { name: "Ada" });
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("private, no-cache, no-store");
      const body = (await response.json()) as { action: string; options: { challenge: string; rp?: { id: string } } };
      expect(body.action).toBe(action);
      expect(body.options.challenge).toMatch(/^[\w-]{20,}$/);
      const challenge = response.setCookies.find((c) => c.name === CHALLENGE_COOKIE);
      expect(challenge?.value).toBeTruthy();
      expect(challenge?.attributes.httponly).toBe(true);
    }
  });

  it("an action that is not register, authenticate or second-factor is an UnknownAction naming them", async () => {
    const app = setup();
    const response = await getOptions(app.client(), "login");
    expect(response.status).toBe(400);
    expect(response.setCookies.some((c) => c.name === CHALLENGE_COOKIE)).toBe(false);
    expect(app.errors.map((e) => [e.type, e.message])).toEqual([
      ["UnknownAction", 'The WebAuthn options need `action` "register", "authenticate" or "second-factor".'],
    ]);
  });
});

describe("passkey callback route", () => {
  it("a new user's registration signs them in as a new user, stores the passkey and clears the challenge", async () => {
    const app = setup();
    const { client, response } = await register(app);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/`);
    expect(challengeCleared(response)).toBe(true);
    expect(sessionSet(response)).toBe(true);
    expect((await client.session())?.user?.name).toBe("Ada");
    expect(app.authenticators.size).toBe(1);
    expect(app.signIns).toEqual([{ isNewUser: true, userId: [...app.users.keys()][0] }]);
  });

  it("a signed-in user adding a passkey keeps their session and is sent to the callback URL, not signed in again", async () => {
    const app = setup();
    const { client } = await register(app);
    const before = client.jar.get(SESSION_COOKIE);
    const response = await post(client, "register", await app.authenticator.register(await options(client, "register")));
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/`);
    expect(challengeCleared(response)).toBe(true);
    expect(sessionSet(response)).toBe(false);
    expect(client.jar.get(SESSION_COOKIE)).toBe(before);
    expect(app.users.size).toBe(1);
    expect(app.authenticators.size).toBe(2);
    expect(app.signIns).toHaveLength(1);
  });

  it("an authentication signs the user in as an existing user and clears the challenge", async () => {
    const app = setup();
    await register(app);
    const client = app.client();
    const response = await post(client, "authenticate", await app.authenticator.authenticate(await options(client, "authenticate")));
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/`);
    expect(challengeCleared(response)).toBe(true);
    expect(sessionSet(response)).toBe(true);
    expect((await client.session())?.user?.name).toBe("Ada");
    expect(app.signIns.map((s) => s.isNewUser)).toEqual([true, false]);
    expect(app.errors).toEqual([]);
  });

  it("the signIn callback's redirect at registration is followed: nothing stored, no session, challenge cleared", async () => {
    const app = setup({ callbacks: { signIn: () => "/waitlist" } });
    const { client, response } = await register(app);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/waitlist`);
    expect(challengeCleared(response)).toBe(true);
    expect(sessionSet(response)).toBe(false);
    expect(await client.session()).toBeNull();
    expect(app.users.size).toBe(0);
    expect(app.authenticators.size).toBe(0);
    expect(app.signIns).toEqual([]);
  });

  it("the signIn callback's redirect at authentication is followed: no session, challenge cleared", async () => {
    let answer: boolean | string = true;
    const app = setup({ callbacks: { signIn: () => answer } });
    await register(app);
    answer = "/waitlist";
    const client = app.client();
    const response = await post(client, "authenticate", await app.authenticator.authenticate(await options(client, "authenticate")));
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/waitlist`);
    expect(challengeCleared(response)).toBe(true);
    expect(sessionSet(response)).toBe(false);
    expect(await client.session()).toBeNull();
    expect(app.signIns).toHaveLength(1);
  });

  it("a callback without the CSRF token is refused as MissingCSRF naming the passkey callback, and the challenge is cleared", async () => {
    const app = setup();
    const client = app.client();
    const registration = await app.authenticator.register(await options(client, "register", { name: "Ada" }));
    const response = await post(client, "register", registration, null);
    expect(response.status).toBe(302);
    expect(challengeCleared(response)).toBe(true);
    expect(app.errors.map((e) => [e.type, e.message])).toEqual([
      ["MissingCSRF", "The CSRF token was missing or wrong during the WebAuthn callback action."],
    ]);
    expect(app.users.size).toBe(0);
  });

  it("a failure that is not an AuthError is CallbackRouteError naming the provider, with the cause, and the challenge is cleared", async () => {
    const broken = new Error("the session store is down");
    const app = setup(jwtThatFails);
    await register(app);
    app.failure.jwt = broken;
    const client = app.client();
    const response = await post(client, "authenticate", await app.authenticator.authenticate(await options(client, "authenticate")));
    expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Configuration`);
    expect(challengeCleared(response)).toBe(true);
    expect(app.errors).toHaveLength(1);
    expect(app.errors[0]?.type).toBe("CallbackRouteError");
    expect(app.errors[0]?.message).toBe("The passkey callback failed.");
    expect(app.errors[0]?.cause).toEqual({ err: broken, provider: "passkey" });
  });

  it("a provider with its own id is named in the CallbackRouteError", async () => {
    const broken = new Error("the session store is down");
    const app = setup({ ...jwtThatFails, providers: [Passkey({ id: "security-key" })] });
    const client = app.client();
    const creation = (await (
      await client.send(`/auth/webauthn-options/security-key?${new URLSearchParams({ action: "register", name: "Ada" })}`)
    ).json()) as { options: Parameters<SoftAuthenticator["register"]>[0] };
    app.failure.jwt = broken;
    const registration = await app.authenticator.register(creation.options);
    const response = await client.send("/auth/callback/security-key", {
      json: { action: "register", data: JSON.stringify(registration), csrfToken: await client.csrf() },
    });
    expect(challengeCleared(response)).toBe(true);
    expect(app.errors.map((e) => e.message)).toEqual(["The security-key callback failed."]);
    expect(app.errors[0]?.cause).toEqual({ err: broken, provider: "security-key" });
  });
});

describe("passkey script route", () => {
  it("serves the browser script as JavaScript, never cached nor framed, also next to other providers", async () => {
    const app = setup({ providers: [Credentials({ authorize: () => null }), Passkey({})] });
    const response = await Auth(new Request(`${ORIGIN}/auth/webauthn-script?v=1`), app.config);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(await response.text()).toContain("data-authlib-webauthn");
    expect(app.errors).toEqual([]);
  });

  it("the script action itself refuses an instance without a WebAuthn provider (UnknownAction), whatever other providers it has", async () => {
    // The route loads the action only when a WebAuthn provider is configured; the action keeps the rule for any other caller.
    // Imported here, like the route does on first use, so its module is not loaded before the tests run.
    const { webAuthnScriptAction } = await import("../../src/webauthn/routes.js");
    for (const providers of [[], [{ id: "credentials", type: "credentials" }], [{ id: "github", type: "oauth" }]]) {
      const refused = await webAuthnScriptAction({ providers } as unknown as InternalOptions).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(refused).toBeInstanceOf(UnknownAction);
      expect((refused as UnknownAction).message).toBe("No WebAuthn provider is configured.");
    }
    const served = await webAuthnScriptAction({
      providers: [
        { id: "github", type: "oauth" },
        { id: "passkey", type: "webauthn" },
      ],
    } as unknown as InternalOptions);
    expect(served.headers?.["Content-Type"]).toBe("text/javascript; charset=utf-8");
  });

  it("serves the script when the passkey provider is the only one", async () => {
    const app = setup();
    const response = await Auth(new Request(`${ORIGIN}/auth/webauthn-script`), app.config);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("SimpleWebAuthnBrowser");
  });
});
