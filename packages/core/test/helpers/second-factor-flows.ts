/**
 * The passkey and second-factor flows, as steps and as one run: a passkey registered and used with the
 * software authenticator (no browser), and its answer replayed; a password sign-in held for its second
 * step, with TOTP turned on through its routes, a wrong code, the right one, a recovery code, and TOTP
 * turned off (a wrong code refused, then another recovery code). observability-email-passkey.test.ts asserts the spans of the
 * steps, hosted-db-adapter's audit-store.test.ts the rows of the run. Every value that names a person
 * or grants access goes to `remember`, so a test can look for each in what it captured.
 */
import { expect } from "vitest";
import Credentials from "../../src/providers/credentials.js";
import Passkey from "../../src/providers/passkey.js";
import { memoryRateLimitStore } from "../../src/rate-limit/store.js";
import type { AuthConfig } from "../../src/types/config.js";
import { codeOf, secondStep, wrongCodeFor } from "../two-factor/helpers.js";
import { SoftAuthenticator } from "../webauthn/soft-authenticator.js";
import { authClient } from "./auth-client.js";
import { memoryAdapter } from "./memory-adapter.js";

export const ORIGIN = "http://localhost:3000";
/** The display name the passkey flows register. */
export const PASSKEY_NAME = "Hedy Lamarr";
/** The user of the TOTP flows, already in the adapter; `TOTP_PASSWORD` is their password. */
export const TOTP_USER = { id: "u-totp-7", email: "ada@example.com", name: "Ada" } as const;
export const TOTP_PASSWORD = "totp flow password 4242";

type Client = ReturnType<typeof authClient>;
/** Takes values a flow handled that must never be captured (null and undefined are skipped). */
export type Remember = (...values: Array<string | null | undefined>) => void;
const forget: Remember = () => {};

/** How the flows' browsers show themselves: their connection address and user-agent header. */
export interface BrowserIdentity {
  address?: string;
  userAgent?: string;
}

/** A new browser of `config` that is `identity`. */
export function browserOf(config: AuthConfig, identity: BrowserIdentity = {}): Client {
  return authClient(config, ORIGIN, identity.address, identity.userAgent ? { "user-agent": identity.userAgent } : undefined);
}

/** An app with the `Passkey()` provider on the in-memory adapter, and a software authenticator. */
export function passkeyApp(secret: string, overrides: Partial<AuthConfig> = {}) {
  const memory = memoryAdapter();
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter: memory.adapter,
    providers: [Passkey({})],
    experimental: { enableWebAuthn: true },
    logger: { error: () => {}, warn: () => {} },
    ...overrides,
  };
  return { config, memory, authenticator: new SoftAuthenticator(ORIGIN) };
}

/**
 * One passkey ceremony in `client`: the options, the authenticator's answer, the callback. Answers the
 * callback's response and what was posted (to post it again).
 */
export async function passkeyCeremony(
  client: Client,
  authenticator: SoftAuthenticator,
  action: "register" | "authenticate",
  remember: Remember = forget,
) {
  const query = new URLSearchParams(action === "register" ? { action, name: PASSKEY_NAME } : { action });
  const { options } = (await (await client.send(`/auth/webauthn-options/passkey?${query}`)).json()) as { options: any };
  remember(options.challenge, options.user?.id);
  const answer = action === "register" ? await authenticator.register(options) : await authenticator.authenticate(options);
  // The credential id as the browser sends it, and as an adapter stores it.
  remember(answer.id, answer.rawId, Buffer.from(answer.id, "base64url").toString("base64"));
  const csrfToken = await client.csrf();
  remember(csrfToken);
  const posted = { action, data: JSON.stringify(answer), csrfToken };
  return { response: await client.send("/auth/callback/passkey", { json: posted }), posted };
}

/** An app with a credentials provider for {@link TOTP_USER} and `twoFactor` on, on the in-memory adapter. */
export function totpApp(secret: string, overrides: Partial<AuthConfig> = {}) {
  const memory = memoryAdapter();
  memory.users.set(TOTP_USER.id, { ...TOTP_USER, emailVerified: null });
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter: memory.adapter,
    session: { strategy: "jwt" },
    providers: [
      Credentials({
        credentials: { email: {}, password: { type: "password" } },
        authorize: ({ email, password }) =>
          email === TOTP_USER.email && password === TOTP_PASSWORD ? { id: TOTP_USER.id, email: TOTP_USER.email } : null,
      }),
    ],
    twoFactor: {},
    rateLimit: { store: memoryRateLimitStore() },
    logger: { error: () => {}, warn: () => {} },
    ...overrides,
  };
  return { config, memory };
}

/** The password sign-in of {@link TOTP_USER} in `client`: signed in, or held for the second step. */
export async function passwordSignIn(client: Client, remember: Remember = forget) {
  const csrfToken = await client.csrf();
  remember(csrfToken, TOTP_PASSWORD, TOTP_USER.email);
  return client.send("/auth/callback/credentials", {
    form: { csrfToken, email: TOTP_USER.email, password: TOTP_PASSWORD, callbackUrl: "/home" },
  });
}

/** Turns TOTP on for the user signed in in `client`, through its routes: the secret and the recovery codes. */
export async function turnOnTotp(client: Client, remember: Remember = forget) {
  const post = async (path: string, form: Record<string, string> = {}) => {
    const csrfToken = await client.csrf();
    remember(csrfToken);
    return (await client.send(path, { form: { csrfToken, ...form } })).json() as Promise<Record<string, any>>;
  };
  const { secret, uri } = (await post("/auth/two-factor/enroll")) as { secret: string; uri: string };
  const code = codeOf(secret);
  const { recoveryCodes } = (await post("/auth/two-factor/confirm", { code })) as { recoveryCodes: string[] };
  remember(secret, uri, code, ...recoveryCodes);
  expect(recoveryCodes.length).toBeGreaterThan(0);
  return { secret, recoveryCodes };
}

/**
 * The audit rows of {@link runSecondFactorFlows}, oldest first, as `[type, outcome, userId, provider,
 * detail]` (a two-step sign-in's detail is its second factor); the passkey user's id is the one the run answers.
 */
export function secondFactorAuditRows(passkeyUserId: string) {
  const ada = TOTP_USER.id;
  return [
    // The passkey: registered (a new user and their passkey), used, its answer replayed.
    ["linkAccount", "success", passkeyUserId, "passkey", null],
    ["signIn", "success", passkeyUserId, "passkey", null],
    ["signIn", "success", passkeyUserId, "passkey", null],
    ["signInFailed", "failure", null, "passkey", "InvalidCheck"],
    // TOTP: turned on (after a plain sign-in), a wrong code, the right one, a recovery code; turning it
    // off with a wrong code, then with a recovery code.
    ["signIn", "success", ada, "credentials", null],
    ["twoFactorEnabled", "success", ada, null, null],
    ["twoFactorFailed", "failure", ada, null, "IncorrectCode"],
    ["signIn", "success", ada, "credentials", "otp"],
    ["signIn", "success", ada, "credentials", "recovery"],
    ["twoFactorFailed", "failure", ada, null, "IncorrectCode"],
    ["twoFactorDisabled", "success", ada, null, null],
  ] as const;
}

/**
 * Runs the passkey and second-factor flows in browsers that are `identity`, with `overrides` on both
 * apps' configurations (an `audit` store, a `logger`, …), one request after the other. Answers every
 * value they handled that must never be captured (user ids aside: an audit row names its user), and
 * the passkey user's id.
 */
export async function runSecondFactorFlows(secret: string, overrides: Partial<AuthConfig>, identity: BrowserIdentity = {}) {
  const handled: string[] = [secret, PASSKEY_NAME];
  const remember: Remember = (...values) => {
    for (const value of values) if (value) handled.push(value);
  };
  const rememberJar = (client: Client) => remember(...[...client.jar.cookies.values()].map((cookie) => cookie.value));

  const passkeys = passkeyApp(secret, overrides);
  const registering = browserOf(passkeys.config, identity);
  const registered = await passkeyCeremony(registering, passkeys.authenticator, "register", remember);
  expect(registered.response.headers.get("location")).toBe(`${ORIGIN}/`);
  rememberJar(registering);
  const signingIn = browserOf(passkeys.config, identity);
  const signedIn = await passkeyCeremony(signingIn, passkeys.authenticator, "authenticate", remember);
  expect(signedIn.response.headers.get("location")).toBe(`${ORIGIN}/`);
  rememberJar(signingIn);
  const replayed = await signingIn.send("/auth/callback/passkey", { json: signedIn.posted });
  expect(replayed.headers.get("location")).toContain("error=");
  const [passkeyUser] = passkeys.memory.users.values();

  const totp = totpApp(secret, overrides);
  const owner = browserOf(totp.config, identity);
  await passwordSignIn(owner, remember);
  const { secret: totpSecret, recoveryCodes } = await turnOnTotp(owner, remember);
  const held = browserOf(totp.config, identity);
  expect((await passwordSignIn(held, remember)).headers.get("location")).toBe(`${ORIGIN}/auth/two-factor`);
  const wrong = wrongCodeFor(totpSecret);
  // The next step's code (within the window): the current one was spent turning TOTP on.
  const right = codeOf(totpSecret, 1);
  remember(wrong, right);
  expect((await secondStep(held, wrong)).headers.get("location")).toContain("error=IncorrectCode");
  expect((await secondStep(held, right)).headers.get("location")).toBe(`${ORIGIN}/home`);
  const recovering = browserOf(totp.config, identity);
  await passwordSignIn(recovering, remember);
  expect((await secondStep(recovering, recoveryCodes[0] as string)).headers.get("location")).toBe(`${ORIGIN}/home`);
  const disable = async (code: string) =>
    (await held.send("/auth/two-factor/disable", { form: { csrfToken: await held.csrf(), code } })).json();
  expect(await disable(wrong)).toEqual({ error: "IncorrectCode" });
  expect(await disable(recoveryCodes[1] as string)).toEqual({ disabled: true });
  for (const client of [owner, held, recovering]) rememberJar(client);
  return { handled, passkeyUserId: passkeyUser?.id as string };
}
