/**
 * Session control on JWT sessions with a registry (issue 27): every sign-in is a listed device; a user
 * ends one device or all others, by route and by `auth.api`; a revoked session's cookie (and any copy of
 * it) gets no session; nobody reaches another user's sessions; bad input is a typed error that changes
 * nothing.
 */
import { describe, expect, it } from "vitest";
import {
  InvalidSessionConfig,
  InvalidSessionId,
  MissingCSRF,
  SessionNotFound,
  SessionRegistryMissing,
  SessionRequired,
} from "../../src/errors.js";
import { createAuth } from "../../src/kernel/instance.js";
import { memorySessionStore } from "../../src/session/memory-store.js";
import type { AuthConfig } from "../../src/types/config.js";
import type { ListedSession } from "../../src/types/session-registry.js";
import { authClient } from "../helpers/auth-client.js";
import { memoryAdapter } from "../helpers/memory-adapter.js";
import { sessionControlConfig, users } from "../helpers/session-control.js";
import { sessionRegistryContract } from "../helpers/session-registry-conformance.js";

/** What the session routes answer: the listing, the count ended, or the error's type. */
interface RouteBody {
  sessions: ListedSession[];
  revoked?: number;
  error?: string;
}

const CHROME_MAC = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const FIREFOX_WIN = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";

/** A browser signed in as `user` through the credentials form. */
async function signedIn(config: AuthConfig, user: string, userAgent = CHROME_MAC, address = "203.0.113.7") {
  const client = authClient(config, "http://localhost:3000", address);
  const csrfToken = await client.csrf();
  const response = await client.send("/auth/callback/credentials", {
    form: { csrfToken, username: user, password: "pw" },
    headers: { "user-agent": userAgent },
  });
  expect(response.status).toBe(302);
  expect((await client.session())?.user?.name).toBe(users[user]?.name);
  return client;
}

async function listed(client: ReturnType<typeof authClient>) {
  const response = await client.send("/auth/sessions");
  return { status: response.status, body: (await response.json()) as RouteBody };
}

async function revoke(client: ReturnType<typeof authClient>, form: Record<string, string>) {
  const csrfToken = await client.csrf();
  const response = await client.send("/auth/sessions/revoke", { form: { csrfToken, ...form } });
  return { status: response.status, body: (await response.json()) as RouteBody };
}

describe("session control on JWT sessions with a registry", () => {
  it("lists every signed-in device of the user, the current one marked, with what the user recognises", async () => {
    const { config } = sessionControlConfig(memorySessionStore());
    const a = await signedIn(config, "ada", CHROME_MAC, "203.0.113.7");
    const b = await signedIn(config, "ada", FIREFOX_WIN, "2001:db8:1:2::5");
    await signedIn(config, "bob");
    const { status, body } = await listed(a);
    expect(status).toBe(200);
    expect(body.sessions).toHaveLength(2);
    const mine = body.sessions.find((s) => s.current);
    const other = body.sessions.find((s) => !s.current) as ListedSession;
    expect(mine).toMatchObject({ userAgent: "Chrome on macOS", clientAddress: "203.0.113.0/24", provider: "credentials" });
    expect(other).toMatchObject({ userAgent: "Firefox on Windows", clientAddress: "2001:db8:1::/48", provider: "credentials" });
    for (const s of body.sessions) expect(s.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect((await listed(b)).body.sessions.find((s) => s.current)?.id).toBe(other.id);
  });

  it("sign out everywhere else: the other device and a replayed copy of its cookie get no session; this one stays", async () => {
    const { config, revoked } = sessionControlConfig(memorySessionStore());
    const a = await signedIn(config, "ada");
    const b = await signedIn(config, "ada", FIREFOX_WIN);
    const copied = b.jar.header();
    const result = await revoke(a, { all: "others" });
    expect(result).toEqual({ status: 200, body: { revoked: 1 } });
    expect(await b.session()).toBeNull();
    const replay = await authClient(config).send("/auth/session", { headers: { cookie: copied } });
    expect(await replay.json()).toBeNull();
    expect((await a.session())?.user?.name).toBe("Ada");
    expect(revoked).toHaveLength(1);
    expect(revoked[0]).toMatchObject({ userId: "u-ada", reason: "others" });
  });
});

describe("session control bad input", () => {
  it("refuses a configuration without a registry for listing (typed), while sessions still work", async () => {
    const { config } = sessionControlConfig(undefined);
    const a = await signedIn(config, "ada");
    expect(await listed(a)).toEqual({ status: 501, body: { error: "SessionRegistryMissing" } });
    const auth = createAuth(config);
    await expect(auth.api.listSessions({ headers: { cookie: a.jar.header() }, url: a.origin })).rejects.toBeInstanceOf(
      SessionRegistryMissing,
    );
  });

  it("refuses bad session options at creation", () => {
    expect(() => createAuth(sessionControlConfig(memorySessionStore(), { session: { revocation: "sometimes" as never } }).config)).toThrow(
      InvalidSessionConfig,
    );
  });

  it("typed errors for no session, unknown, malformed and foreign ids, missing CSRF: nothing changes", async () => {
    const store = memorySessionStore();
    const { config } = sessionControlConfig(store);
    const auth = createAuth(config);
    const a = await signedIn(config, "ada");
    const bob = await signedIn(config, "bob");
    const bobId = (await listed(bob)).body.sessions[0]?.id as string;
    const anonymous = authClient(config);
    expect(await listed(anonymous)).toEqual({ status: 401, body: { error: "SessionRequired" } });
    expect((await revoke(a, { sessionId: "unknown-id-000000000000" })).status).toBe(404);
    expect((await revoke(a, { sessionId: bobId })).body).toEqual({ error: "SessionNotFound" });
    expect((await revoke(a, { sessionId: "not a session id!" })).body).toEqual({ error: "InvalidSessionId" });
    const noToken = await a.send("/auth/sessions/revoke", { form: { all: "others" } });
    expect(noToken.status).toBe(403);
    const headers = { cookie: a.jar.header() };
    await expect(auth.api.revokeSession({ headers, url: a.origin }, { sessionId: bobId })).rejects.toBeInstanceOf(SessionNotFound);
    await expect(auth.api.revokeSession({ headers, url: a.origin }, { sessionId: "../../x" })).rejects.toBeInstanceOf(InvalidSessionId);
    await expect(auth.api.listSessions({ headers: {}, url: a.origin })).rejects.toBeInstanceOf(SessionRequired);
    await expect(
      auth.api.revokeOtherSessions({ headers: { ...headers, "sec-fetch-site": "cross-site" }, url: a.origin }),
    ).rejects.toBeInstanceOf(MissingCSRF);
    expect((await bob.session())?.user?.name).toBe("Bob");
    expect((await a.session())?.user?.name).toBe("Ada");
    expect(await store.listByUser("u-bob")).toHaveLength(1);
  });
});

describe("memorySessionStore keeps the registry contract", () => {
  sessionRegistryContract(() => memorySessionStore());
});

describe("which registry JWT sessions use", () => {
  it("session.store when set, even beside an adapter with session records; else the adapter's", async () => {
    const withRecords = memoryAdapter({ sessionRecords: true });
    const store = memorySessionStore();
    const explicit = sessionControlConfig(store, { adapter: withRecords.adapter, session: { strategy: "jwt" } }).config;
    await signedIn(explicit, "ada");
    expect(await store.listByUser("u-ada")).toHaveLength(1);
    expect(await withRecords.adapter.listSessionRecords?.("u-ada")).toEqual([]);

    const implicit = sessionControlConfig(undefined, { adapter: withRecords.adapter, session: { strategy: "jwt" } }).config;
    await signedIn(implicit, "ada");
    expect(await withRecords.adapter.listSessionRecords?.("u-ada")).toHaveLength(1);
  });
});
