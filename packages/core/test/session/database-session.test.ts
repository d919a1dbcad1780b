import { afterAll, describe, expect, it, vi } from "vitest";
import Credentials from "../../src/providers/credentials.js";
import type { AuthConfig } from "../../src/types/config.js";
import { authClient } from "../helpers/auth-client.js";
import { closeSharedPglite, freshDatabase } from "../helpers/database.js";

const secret = "db-session-secret-0123456789abcdef";
afterAll(closeSharedPglite);

async function setup(overrides: Partial<AuthConfig> = {}) {
  const db = await freshDatabase();
  const user = await db.adapter.createUser!({ id: crypto.randomUUID(), email: "ada@example.com", emailVerified: null, name: "Ada" });
  const calls: Array<[string, any]> = [];
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter: db.adapter,
    providers: [
      Credentials({
        credentials: { email: {}, password: {} },
        authorize: ({ email, password }) => {
          if (password !== "pw") return null;
          if (email === "by-id") return { id: user.id, name: "whatever" };
          return { id: "app-side-id", email: String(email) };
        },
      }),
    ],
    callbacks: {
      session: (params) => {
        calls.push(["session", params]);
        return {
          ...params.session,
          ...("user" in params ? { userId: params.user.id } : {}),
          update: params.trigger === "update" ? params.newSession : undefined,
        } as never;
      },
    },
    events: {
      signOut: (m) => void calls.push(["signOut", m]),
      session: (m) => void calls.push(["event.session", m]),
    },
    ...overrides,
  };
  return { ...db, user, config, calls, client: authClient(config) };
}

async function signIn(client: ReturnType<typeof authClient>, email: string, password = "pw") {
  const csrfToken = await client.csrf();
  return client.send("/auth/callback/credentials", { form: { csrfToken, email, password, callbackUrl: "/home" } });
}

describe("database sessions through Auth()", () => {
  it("credentials sign-in creates a session row; the cookie holds only its token", async () => {
    const { client, user } = await setup();
    const response = await signIn(client, "ada@example.com");
    expect(response.headers.get("location")).toBe("http://localhost:3000/home");
    const token = client.jar.get("authlib.session-token") as string;
    expect(token).toMatch(/^[0-9a-f-]{36}$/);
    const session = await client.session();
    expect(session?.user).toMatchObject({ email: "ada@example.com", name: "Ada" });
    expect(session?.userId).toBe(user.id);
  });

  it("finds the credentials user by id first, then by email", async () => {
    const { client, user } = await setup();
    await signIn(client, "by-id");
    expect((await client.session())?.userId).toBe(user.id);
  });

  it("a credentials user unknown to the adapter ends on the configuration error, and the log says to create it first", async () => {
    const { client } = await setup();
    const logged: string[] = [];
    const spy = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" ")));
    try {
      const response = await signIn(client, "stranger@example.com");
      // Not "check the details you provided": the password was right, only the operator can fix this.
      expect(response.headers.get("location")).toBe("http://localhost:3000/auth/error?error=Configuration");
    } finally {
      spy.mockRestore();
    }
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/^\[authlib\]\[error\] UnknownCredentialsUser: authorize\(\) returned a user the adapter does not know/);
    expect(logged[0]).toContain("Create the user in the adapter first (`adapter.createUser`");
    expect(logged[0]).not.toContain("stranger@example.com");
    expect(await client.session()).toBeNull();
  });

  it("a session check with no update due costs exactly one SQL statement", async () => {
    const { client, counter } = await setup();
    await signIn(client, "ada@example.com");
    counter.queries = 0;
    const response = await client.send("/auth/session");
    expect(((await response.json()) as { user: { email: string } }).user.email).toBe("ada@example.com");
    expect(counter.queries).toBe(1);
    expect(response.setCookies.some((c) => c.name === "authlib.session-token")).toBe(false);
  });

  it("updates the row (and the cookie) when updateAge has passed; 0 means every access", async () => {
    const { client, counter } = await setup({ session: { updateAge: 0 } });
    await signIn(client, "ada@example.com");
    counter.queries = 0;
    const response = await client.send("/auth/session");
    // Read the session with its user, extend it, and move its record's lastSeenAt (session control).
    expect(counter.queries).toBe(3);
    expect(response.setCookies.some((c) => c.name === "authlib.session-token")).toBe(true);
  });

  it("deletes an expired session on access and clears the cookie", async () => {
    const { client, adapter } = await setup();
    await signIn(client, "ada@example.com");
    const token = client.jar.get("authlib.session-token") as string;
    await adapter.updateSession!({ sessionToken: token, expires: new Date(Date.now() - 1000) });
    const response = await client.send("/auth/session");
    expect(await response.json()).toBeNull();
    expect(response.setCookies.find((c) => c.name === "authlib.session-token")?.attributes.maxAge).toBe(0);
    expect(await adapter.getSessionAndUser!(token)).toBeNull();
  });

  it("a session update passes newSession and trigger to the session callback", async () => {
    const { client, calls } = await setup();
    await signIn(client, "ada@example.com");
    const csrfToken = await client.csrf();
    const response = await client.send("/auth/session", { json: { csrfToken, data: { theme: "dark" } } });
    expect(((await response.json()) as { update: unknown }).update).toEqual({ theme: "dark" });
    const last = calls.filter(([n]) => n === "session").at(-1)?.[1];
    expect(last.trigger).toBe("update");
    expect(last.user.email).toBe("ada@example.com");
  });

  it("sign-out deletes the row and fires signOut with the session", async () => {
    const { client, calls, adapter } = await setup();
    await signIn(client, "ada@example.com");
    const token = client.jar.get("authlib.session-token") as string;
    const csrfToken = await client.csrf();
    const response = await client.send("/auth/signout", { form: { csrfToken } });
    expect(response.status).toBe(302);
    expect(await adapter.getSessionAndUser!(token)).toBeNull();
    const signOut = calls.find(([n]) => n === "signOut")?.[1];
    expect(signOut.session.sessionToken).toBe(token);
    expect(await client.session()).toBeNull();
  });

  it("an unknown session token gives null and clears the cookie; explicit jwt strategy still wins", async () => {
    const { client } = await setup();
    const response = await client.send("/auth/session", { headers: { cookie: "authlib.session-token=not-a-real-token" } });
    expect(await response.json()).toBeNull();
    expect(response.setCookies.find((c) => c.name === "authlib.session-token")?.attributes.maxAge).toBe(0);

    const jwt = await setup({ session: { strategy: "jwt" } });
    await signIn(jwt.client, "ada@example.com");
    expect((jwt.client.jar.get("authlib.session-token") as string).split(".")).toHaveLength(5);
  });
});
