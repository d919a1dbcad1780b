/**
 * A ban refuses every way in, at the one gate every first factor passes (`sign-in/start-session.ts`):
 * credentials, a password, an email link from a real SMTP server, OAuth/OIDC at a real OpenID Provider, and
 * a passkey (a software authenticator). Each signs in once, is refused with `UserBanned` while the ban
 * holds (no session cookie is set), and signs in again once it is lifted.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuth } from "../../src/kernel/instance.js";
import Credentials from "../../src/providers/credentials.js";
import Nodemailer from "../../src/providers/nodemailer.js";
import Passkey from "../../src/providers/passkey.js";
import { memoryRateLimitStore } from "../../src/rate-limit/store.js";
import { authClient } from "../helpers/auth-client.js";
import { opProvider, startTestOP, type TestOP } from "../helpers/oidc-provider.js";
import { startSmtpServer } from "../helpers/smtp.js";
import { SoftAuthenticator } from "../webauthn/soft-authenticator.js";
import { adminApp, ORIGIN, post, signIn } from "./helpers.js";

type Client = ReturnType<typeof authClient>;

describe("a ban refuses every sign-in method", () => {
  let op: TestOP;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  beforeAll(async () => {
    [op, smtp] = await Promise.all([
      startTestOP({
        clients: [
          { client_id: "app", client_secret: "ban-methods-client-secret-0123456789", redirect_uris: [`${ORIGIN}/auth/callback/op`] },
        ],
      }),
      startSmtpServer(),
    ]);
  }, 30_000);
  afterAll(async () => {
    await Promise.all([op?.close(), smtp?.close()]);
  });

  it("credentials, password, email link, OIDC and passkey: refused while banned, let in once lifted", async () => {
    const base = adminApp();
    base.memory.users.set("u-ada", { id: "u-ada", email: "ada@example.com", emailVerified: new Date(), name: "Ada" });
    const app = adminApp({
      adapter: base.config.adapter,
      session: { strategy: "jwt", revocation: "strict" },
      experimental: { enableWebAuthn: true },
      providers: [
        ...base.config.providers,
        Credentials({
          credentials: { username: {} },
          authorize: ({ username }) => (username === "ada" ? { id: "u-ada", email: "ada@example.com" } : null),
        }),
        Nodemailer({ server: smtp.transport, from: "no-reply@example.com", rateLimit: { store: memoryRateLimitStore() } }),
        opProvider(op, { clientSecret: "ban-methods-client-secret-0123456789" }),
        Passkey({}),
      ],
    });
    const admin = await base.signedUpAdmin("admin@example.com");
    const { api } = createAuth(app.config);
    const as = { headers: { cookie: admin.jar.header() }, url: ORIGIN };
    const browser = () => authClient(app.config, ORIGIN);
    const authenticator = new SoftAuthenticator(ORIGIN);

    /** Each method: one sign-in in a fresh browser; its response's redirect (or JSON) and whether a session started. */
    const methods: Record<string, (b: Client) => Promise<Response>> = {
      credentials: async (b) => post(b, "/auth/callback/credentials", { username: "ada", callbackUrl: "/" }),
      password: async (b) => signIn(b, "pat@example.com"),
      email: async (b) => {
        await post(b, "/auth/signin/nodemailer", { email: "em@example.com", callbackUrl: "/" });
        const mail = [...smtp.mails].reverse().find((m) => (m.to as { text: string } | undefined)?.text === "em@example.com");
        const link = mail?.text?.match(/http:\/\/localhost:3000\/auth\/callback\/nodemailer\?\S+/)?.[0] as string;
        return b.send(link);
      },
      oidc: async (b) => {
        const start = await post(b, "/auth/signin/op", { callbackUrl: "/" });
        const callback = await op.authorize(start.headers.get("location") as string);
        return b.send(callback.pathname + callback.search);
      },
      passkey: async (b) => {
        const action = authenticator.credentials.length === 0 ? "register" : "authenticate";
        const optionsResponse = await b.send(
          `/auth/webauthn-options/passkey?${new URLSearchParams(action === "register" ? { action, name: "Hedy Lamarr" } : { action })}`,
        );
        if (optionsResponse.status !== 200)
          throw new Error(`webauthn-options: ${optionsResponse.status} ${optionsResponse.headers.get("location")}`);
        const { options } = (await optionsResponse.json()) as { options: any };
        const answer = action === "register" ? await authenticator.register(options) : await authenticator.authenticate(options);
        return b.send("/auth/callback/passkey", { json: { action, data: JSON.stringify(answer), csrfToken: await b.csrf() } });
      },
    };
    // The password user exists first (signed up and proven through the base app: same adapter and secret).
    await base.signUpIn(base.browser(), "pat@example.com");

    for (const [method, run] of Object.entries(methods)) {
      const first = browser();
      await run(first);
      const user = (await first.session())?.user as { id?: string; email?: string } | undefined;
      const userId = user?.id ?? (await app.config.adapter?.getUserByEmail?.(user?.email as string))?.id;
      expect(userId, `${method}: first sign-in`).toBeTruthy();
      await api.banUser(as, { userId: userId as string, reason: method });
      expect(await first.session(), `${method}: the open session ends`).toBeNull();

      const refused = browser();
      const response = await run(refused);
      const answer = `${response.headers.get("location") ?? ""} ${response.status === 200 ? await response.text() : ""}`;
      expect(answer, `${method}: refused as banned`).toContain("UserBanned");
      expect(await refused.session(), `${method}: no session`).toBeNull();

      await api.unbanUser(as, { userId: userId as string });
      const again = browser();
      await run(again);
      const back = (await again.session())?.user as { id?: string; email?: string } | undefined;
      expect(back?.id ?? (await app.config.adapter?.getUserByEmail?.(back?.email as string))?.id, `${method}: back in once lifted`).toBe(
        userId,
      );
    }
  }, 120_000);
});
