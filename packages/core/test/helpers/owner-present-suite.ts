/**
 * The owner-present rule's attacks, run against a database the caller gives (PGlite here, a PostgreSQL
 * server in packages/hosted-db-adapter/test): a session cookie copied from its owner and used 30 minutes
 * after the sign-in, with JWT and database sessions, asks for every operation that changes how the owner
 * signs in (over HTTP and through `auth.api`) and gets `RecentSignInRequired`, with nothing changed. The
 * owner, signed in again (or typing the current password), gets through.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { createAuth } from "../../src/kernel/instance.js";
import GitHub from "../../src/providers/github.js";
import Passkey from "../../src/providers/passkey.js";
import type { Adapter } from "../../src/types/adapters.js";
import type { AuthConfig, SessionStrategy } from "../../src/types/config.js";
import { type Browser, ORIGIN, passwordApp, post, type Smtp, signIn, signUpAndVerify } from "../password/helpers.js";

const PASSWORD = "correct horse battery staple";
const REAUTHENTICATE = `${ORIGIN}/auth/signin?callbackUrl=${encodeURIComponent(`${ORIGIN}/auth/account`)}&error=RecentSignInRequired`;
const THIRTY_MINUTES = 30 * 60 * 1000;
/** Each test signs up (scrypt) and sends a dozen requests: generous on a loaded 2-core machine. */
const TIMEOUT = 120_000;

/** A copy of `browser`'s cookies in a new browser of `app`: what a thief holds. */
function copyOf(app: { browser: () => Browser }, browser: Browser): Browser {
  const thief = app.browser();
  for (const [name, cookie] of browser.jar.cookies) thief.jar.cookies.set(name, cookie);
  return thief;
}

const requestOf = (browser: Browser) => new Request(`${ORIGIN}/app`, { headers: { cookie: browser.jar.header() } });

/**
 * The suite, on databases made by `database` (a fresh migrated one per call), with the SMTP server `smtp()`
 * gives (started by the caller).
 */
export function ownerPresentSuite(name: string, smtp: () => Smtp, database: () => Promise<{ adapter: Adapter }>): void {
  afterEach(() => void vi.useRealTimers());

  async function ownerApp(strategy: SessionStrategy, config: Partial<AuthConfig> = {}) {
    const app = await passwordApp(smtp(), {
      strategy,
      database,
      config: {
        experimental: { enableWebAuthn: true },
        // The second factor's settings (TOTP enrollment) exist only with the feature on (issue 45).
        twoFactor: {},
        callbacks: { session: ({ session }) => session },
        ...config,
      },
    });
    app.config.providers.push(GitHub({ clientId: "gh-id", clientSecret: "gh-secret" }), Passkey({}));
    const auth = createAuth(app.config);
    return { ...app, auth };
  }

  /** The owner signed up (and in) with a password and a linked GitHub account; a thief's copy 30 minutes on. */
  async function stolenSession(strategy: SessionStrategy, email: string) {
    const app = await ownerApp(strategy);
    const owner = app.browser();
    await signUpAndVerify(smtp(), owner, email, PASSWORD);
    const user = await app.adapter.getUserByEmail?.(email);
    if (!user) throw new Error("no user");
    await app.adapter.linkAccount?.({ userId: user.id, type: "oauth", provider: "github", providerAccountId: `gh-${user.id}` });
    const thief = copyOf(app, owner);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + THIRTY_MINUTES });
    return { app, owner, thief, user };
  }

  for (const strategy of ["jwt", "database"] as const) {
    describe(`${name}, ${strategy} sessions: a copied session 30 minutes old`, () => {
      it(
        "is still a session, but every change to how the owner signs in is refused over HTTP, nothing changed",
        async () => {
          const { app, thief, user } = await stolenSession(strategy, `owner-${strategy}@example.com`);
          expect((await thief.session())?.user?.email).toBe(`owner-${strategy}@example.com`);
          const json = async (response: Response) => [response.status, await response.json()];
          const refusedJson = [403, { error: "RecentSignInRequired" }];

          expect(await json(await thief.send("/auth/webauthn-options/passkey?action=register"))).toEqual(refusedJson);
          expect(
            await json(await post(thief, "/auth/accounts/unlink", { provider: "github", providerAccountId: `gh-${user.id}` })),
          ).toEqual(refusedJson);
          expect(await json(await post(thief, "/auth/sessions/revoke", { all: "others" }))).toEqual(refusedJson);
          expect(await json(await post(thief, "/auth/two-factor/enroll", {}))).toEqual(refusedJson);
          const forms: Array<[string, Record<string, string>]> = [
            ["/auth/account/email", { email: "thief@example.com" }],
            ["/auth/account/unlink", { provider: "github", providerAccountId: `gh-${user.id}` }],
            ["/auth/account/delete", {}],
            ["/auth/password/change", { password: "the thief's new password", callbackUrl: `${ORIGIN}/auth/account` }],
            ["/auth/signin/github", { link: "true", callbackUrl: `${ORIGIN}/auth/account` }],
          ];
          for (const [path, form] of forms) {
            const response = await post(thief, path, form);
            expect([path, response.headers.get("location")]).toEqual([path, REAUTHENTICATE]);
          }

          // Nothing changed: the address, the linked account, the password, the user.
          expect((await app.adapter.getUser?.(user.id))?.email).toBe(`owner-${strategy}@example.com`);
          expect((await app.adapter.listAccountsByUserId?.(user.id))?.some((a) => a.provider === "github")).toBe(true);
          vi.useRealTimers();
          expect((await signIn(app.browser(), `owner-${strategy}@example.com`, PASSWORD)).headers.get("location")).toBe(`${ORIGIN}/home`);
          expect(app.logs.filter((line) => line.startsWith("RecentSignInRequired")).length).toBeGreaterThanOrEqual(forms.length + 4);
        },
        TIMEOUT,
      );

      it(
        "through auth.api: RecentSignInRequired carrying what it needs, for each operation",
        async () => {
          const { app, thief, user } = await stolenSession(strategy, `api-${strategy}@example.com`);
          const request = requestOf(thief);
          const account = { provider: "github", providerAccountId: `gh-${user.id}` };
          const calls: Array<[string, () => Promise<unknown>]> = [
            ["changeEmail", () => app.auth.api.changeEmail(request, { email: "thief@example.com" })],
            ["unlinkAccount", () => app.auth.api.unlinkAccount(request, account)],
            ["revokeSessions", () => app.auth.api.revokeOtherSessions(request)],
            ["deleteAccount", () => app.auth.api.deleteAccount(request, {})],
            // @ts-expect-error the thief does not know the current password
            ["changePassword", () => app.auth.api.changePassword(request, { password: "the thief's new password" })],
            ["enrollTotp", () => app.auth.api.enrollTotp(request)],
          ];
          for (const [operation, call] of calls) {
            await expect(call(), operation).rejects.toMatchObject({ type: "RecentSignInRequired", operation, maxAge: 600, aal: 1 });
          }
        },
        TIMEOUT,
      );

      it(
        "the owner present: a new sign-in, or the current password, gets through",
        async () => {
          const { app, thief, owner } = await stolenSession(strategy, `back-${strategy}@example.com`);
          // The current password proves the owner is here, even on an old session.
          const changed = await post(thief, "/auth/password/change", {
            currentPassword: PASSWORD,
            password: "a brand new password",
            callbackUrl: `${ORIGIN}/auth/account`,
          });
          expect(changed.headers.get("location")).toBe(`${ORIGIN}/auth/account`);
          expect(app.events.filter((e) => e.startsWith("passwordChanged"))).toHaveLength(1);
          // A wrong one is refused (and counted) like a sign-in's.
          const wrong = await post(thief, "/auth/account/email", { email: "x@example.com", currentPassword: "not it" });
          expect(wrong.headers.get("location")).toBe(`${ORIGIN}/auth/account?error=IncorrectPassword`);
          // A sign-in now: the owner's new session changes the address.
          const fresh = app.browser();
          expect((await signIn(fresh, `back-${strategy}@example.com`, "a brand new password")).headers.get("location")).toBe(
            `${ORIGIN}/home`,
          );
          const asked = await post(fresh, "/auth/account/email", { email: `new-${strategy}@example.com` });
          expect(asked.headers.get("location")).toBe(`${ORIGIN}/auth/account?done=email-sent`);
          expect(owner).toBeDefined();
        },
        TIMEOUT,
      );
    });
  }
}
