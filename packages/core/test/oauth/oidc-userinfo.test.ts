/**
 * An OpenID Provider with its default settings (oidc-provider's `conformIdTokenClaims: true`): the ID
 * token of the code flow carries only `sub`, and email and name come from the userinfo endpoint. authlib
 * completes the profile from userinfo (issue 17), keeps the ID token's `sub`, refuses a userinfo answer
 * about someone else, and does exactly what `idToken: true | false` asks.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OAuthConfig } from "../../src/providers/types.js";
import type { AuthConfig } from "../../src/types/config.js";
import { authClient } from "../helpers/auth-client.js";
import { closeSharedPglite, freshDatabase } from "../helpers/database.js";
import { opProvider, startTestOP, type TestOP } from "../helpers/oidc-provider.js";

const secret = "oidc-userinfo-secret-0123456789abcdef";
const origin = "http://localhost:3000";
const providerIds = ["op", "op-id-token", "op-userinfo", "op-foreign"];

let op: TestOP;
/** Counts the OP's userinfo requests (`/me`). */
let userinfoRequests = 0;
/** While true, the OP's userinfo endpoint answers 503. */
let userinfoDown = false;
/** A userinfo endpoint that answers for another subject than the ID token's. */
let foreign: Server;
let foreignUrl: string;

beforeAll(async () => {
  op = await startTestOP({
    clients: [{ client_id: "app", client_secret: "app-secret", redirect_uris: providerIds.map((id) => `${origin}/auth/callback/${id}`) }],
    // oidc-provider's default: the code flow's ID token has no email or name (only userinfo does).
    configuration: { conformIdTokenClaims: true },
  });
  countUserinfoRequests(op, () => userinfoRequests++);
  (op.provider as unknown as { use(middleware: (ctx: KoaContext, next: () => Promise<void>) => Promise<void>): void }).use(
    async (ctx, next) => {
      if (ctx.path !== "/me" || !userinfoDown) return next();
      ctx.status = 503;
      ctx.body = "down for maintenance";
    },
  );
  foreign = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ sub: "mallory", email: "mallory@example.com", email_verified: true, name: "Mallory" }));
  });
  await new Promise<void>((resolve) => foreign.listen(0, "127.0.0.1", resolve));
  foreignUrl = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}/userinfo`;
});

afterAll(async () => {
  await op?.close();
  await new Promise((resolve) => foreign?.close(resolve));
  await closeSharedPglite();
});

/** The part of oidc-provider's Koa context the middlewares below use. */
interface KoaContext {
  path: string;
  status: number;
  body: unknown;
}

/** Calls `count` on every request to the OP's userinfo endpoint (oidc-provider's `/me`), through its Koa middleware. */
function countUserinfoRequests(server: TestOP, count: () => void): void {
  type Middleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void>;
  (server.provider as unknown as { use(middleware: Middleware): void }).use(async (ctx, next) => {
    if (ctx.path === "/me") count();
    await next();
  });
}

const provider = (id: string, extra: Partial<OAuthConfig> = {}) => opProvider(op, { id, ...extra });

/** Starts a sign-in at `providerId`, lets alice log in at the OP, and follows the callback. */
async function signIn(client: ReturnType<typeof authClient>, providerId: string) {
  const csrfToken = await client.csrf();
  const start = await client.send(`/auth/signin/${providerId}`, { form: { csrfToken, callbackUrl: "/dashboard" } });
  expect(start.status).toBe(302);
  const callback = await op.authorize(start.headers.get("location") as string);
  return client.send(callback.pathname + callback.search);
}

function configFor(providers: OAuthConfig[], extra: Partial<AuthConfig> = {}) {
  const errors: string[] = [];
  const config: AuthConfig = {
    secret,
    trustHost: true,
    providers,
    logger: { error: (error) => void errors.push(`${error.name}: ${error.message}`), warn: () => {} },
    ...extra,
  };
  return { config, errors };
}

describe("OIDC: an ID token without email and name", () => {
  it("is completed from the userinfo endpoint: the session has the email and the name (JWT sessions)", async () => {
    const { config, errors } = configFor([provider("op")]);
    const client = authClient(config);
    const before = userinfoRequests;
    const done = await signIn(client, "op");
    expect(errors).toEqual([]);
    expect(done.headers.get("location")).toBe(`${origin}/dashboard`);
    expect(userinfoRequests).toBe(before + 1);
    expect((await client.session())?.user).toEqual({
      name: "Alice Liddell",
      email: "alice@example.com",
      image: "https://images.example.com/alice.png",
    });
  });

  it("with an adapter: the user row gets the email and the name, and the sign-in ends signed in (not on an error page)", async () => {
    const { adapter } = await freshDatabase();
    const { config, errors } = configFor([provider("op")], { adapter });
    const client = authClient(config);
    const done = await signIn(client, "op");
    expect(errors).toEqual([]);
    expect(done.headers.get("location")).toBe(`${origin}/dashboard`);
    const stored = await adapter.getUserByAccount!({ provider: "op", providerAccountId: "alice" });
    expect(stored).toMatchObject({ email: "alice@example.com", name: "Alice Liddell" });
    expect(stored?.emailVerified).toBeInstanceOf(Date);
    expect((await client.session())?.user).toMatchObject({ email: "alice@example.com", name: "Alice Liddell" });
    // The first PGlite of the file starts here (~3 s alone, much more on a busy machine).
  }, 60_000);

  it("idToken: true keeps to the ID token's claims and asks nothing more", async () => {
    const { config, errors } = configFor([provider("op-id-token", { idToken: true })]);
    const client = authClient(config);
    const before = userinfoRequests;
    const done = await signIn(client, "op-id-token");
    expect(errors).toEqual([]);
    expect(done.headers.get("location")).toBe(`${origin}/dashboard`);
    expect(userinfoRequests).toBe(before);
    expect((await client.session())?.user).toEqual({ name: null, email: null, image: null });
  });

  it("idToken: false asks userinfo at every sign-in, also when the ID token has every claim", async () => {
    const complete = await startTestOP({
      clients: [{ client_id: "app", client_secret: "app-secret", redirect_uris: [`${origin}/auth/callback/op-userinfo`] }],
    });
    let asked = 0;
    countUserinfoRequests(complete, () => asked++);
    try {
      const { config, errors } = configFor([opProvider(complete, { id: "op-userinfo", idToken: false })]);
      const client = authClient(config);
      const csrfToken = await client.csrf();
      const start = await client.send("/auth/signin/op-userinfo", { form: { csrfToken, callbackUrl: "/dashboard" } });
      const callback = await complete.authorize(start.headers.get("location") as string);
      const done = await client.send(callback.pathname + callback.search);
      expect(errors).toEqual([]);
      expect(done.headers.get("location")).toBe(`${origin}/dashboard`);
      expect(asked).toBe(1);
      expect((await client.session())?.user?.email).toBe("alice@example.com");
    } finally {
      await complete.close();
    }
  });

  it("a userinfo endpoint that fails is not fatal by default: the ID token's claims are used, and the log says why", async () => {
    const warnings: string[] = [];
    const { config, errors } = configFor([provider("op")]);
    config.logger = { ...config.logger, warn: (code) => void warnings.push(code) };
    const client = authClient(config);
    userinfoDown = true;
    try {
      const done = await signIn(client, "op");
      expect(done.headers.get("location")).toBe(`${origin}/dashboard`);
    } finally {
      userinfoDown = false;
    }
    expect(errors).toEqual([]);
    expect(warnings).toEqual(["userinfo-unavailable"]);
    expect((await client.session())?.user).toEqual({ name: null, email: null, image: null });
  });

  it("a userinfo answer about another subject fails the sign-in (OIDC Core 5.3.2), nobody is signed in", async () => {
    const { config, errors } = configFor([provider("op-foreign", { userinfo: foreignUrl })]);
    const client = authClient(config);
    const done = await signIn(client, "op-foreign");
    expect(done.headers.get("location")).toBe(`${origin}/auth/signin?error=OAuthCallbackError`);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^OAuthCallbackError: /);
    expect(await client.session()).toBeNull();
  });
});
