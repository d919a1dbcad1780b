/**
 * The passkey callback (actions/webauthn.ts) through Auth() with the software authenticator and PGlite:
 * the `signIn` callback's redirect at authentication, and a failure that is not an AuthError (a broken
 * adapter) surfacing as CallbackRouteError, the challenge cookie still cleared.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuthError } from "../../src/errors.js";
import Passkey from "../../src/providers/passkey.js";
import type { AuthConfig } from "../../src/types/config.js";
import { authClient } from "../helpers/auth-client.js";
import { closeSharedPglite, freshDatabase, sharedPglite } from "../helpers/database.js";
import { SoftAuthenticator } from "./soft-authenticator.js";

const secret = "passkey-callback-secret-0123456789abcdef";
const ORIGIN = "http://localhost:3000";
const CHALLENGE_COOKIE = "authlib.challenge";

beforeAll(async () => {
  await sharedPglite().waitReady;
});
afterAll(closeSharedPglite);

type Client = ReturnType<typeof authClient>;

async function setup(overrides: Partial<AuthConfig> = {}) {
  const db = await freshDatabase();
  const errors: AuthError[] = [];
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter: db.adapter,
    providers: [Passkey({})],
    experimental: { enableWebAuthn: true },
    logger: { error: (error) => void errors.push(error as AuthError), warn: () => {} },
    ...overrides,
  };
  return { ...db, config, errors, authenticator: new SoftAuthenticator(ORIGIN) };
}

async function options(client: Client, action: string, query: Record<string, string> = {}) {
  const response = await client.send(`/auth/webauthn-options/passkey?${new URLSearchParams({ action, ...query })}`);
  return ((await response.json()) as { options: any }).options;
}

async function post(client: Client, action: string, data: unknown) {
  return client.send("/auth/callback/passkey", { json: { action, data: JSON.stringify(data), csrfToken: await client.csrf() } });
}

function challengeCleared(response: Awaited<ReturnType<Client["send"]>>): boolean {
  return response.setCookies.some((c) => c.name === CHALLENGE_COOKIE && c.value === "" && c.attributes.maxAge === 0);
}

describe("passkey callback", () => {
  it("the signIn callback's redirect at authentication is followed: no session, challenge cleared", async () => {
    let answer: boolean | string = true;
    const app = await setup({ callbacks: { signIn: () => answer } });
    const registering = authClient(app.config, ORIGIN);
    await post(registering, "register", await app.authenticator.register(await options(registering, "register", { name: "Ada" })));
    answer = "/waitlist";

    const client = authClient(app.config, ORIGIN);
    const response = await post(client, "authenticate", await app.authenticator.authenticate(await options(client, "authenticate")));
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/waitlist`);
    expect(challengeCleared(response)).toBe(true);
    expect(await client.session()).toBeNull();
    expect(app.errors).toEqual([]);
  });

  it("a failure that is not an AuthError is CallbackRouteError naming the provider, with the cause, and the challenge is cleared", async () => {
    const broken = new Error("the token store is down");
    let failing = false;
    const app = await setup({
      session: { strategy: "jwt" },
      callbacks: {
        jwt: ({ token }) => {
          if (failing) throw broken;
          return token;
        },
      },
    });
    const registering = authClient(app.config, ORIGIN);
    await post(registering, "register", await app.authenticator.register(await options(registering, "register", { name: "Ada" })));
    failing = true;

    const config = app.config;
    const client = authClient(config, ORIGIN);
    const response = await post(client, "authenticate", await app.authenticator.authenticate(await options(client, "authenticate")));
    expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Configuration`);
    expect(challengeCleared(response)).toBe(true);
    expect(app.errors).toHaveLength(1);
    expect(app.errors[0]?.type).toBe("CallbackRouteError");
    expect(app.errors[0]?.message).toBe("The passkey callback failed.");
    expect(app.errors[0]?.cause).toEqual({ err: broken, provider: "passkey" });
    expect(await client.session()).toBeNull();
  });
});
