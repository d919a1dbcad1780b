/**
 * Session control (issue 27) through `createAuth` with `HostedDbAdapter`: a user lists their signed-in
 * devices and ends them, on database sessions and on JWT sessions, and a second instance on the same
 * database sees the same sessions. Runs on an in-memory PGlite (one branch per test) and, when a server
 * answers, on PostgreSQL through two pools, as two instances of an application would have.
 */

import { type AuthConfig, createAuth, type ListedSession, type SessionRevokedMessage } from "@authlib/core";
import { SessionNotFound } from "@authlib/core/errors";
import Credentials from "@authlib/core/providers/credentials";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BaseClientOptions, HostedDbAdapter, HostedDbClient } from "../src/index.js";
import { dropBranch, postgresAnswers, randomBranch, testDatabaseURL } from "./helpers.js";

const ORIGIN = "http://localhost:3000";
const CHROME_MAC = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const FIREFOX_WIN = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";

/** The users `authorize()` knows; with database sessions they are stored in the adapter too. */
const PEOPLE: Record<string, { id: string; name: string; email: string }> = {
  ada: { id: "u-ada", name: "Ada", email: "ada@example.com" },
  bob: { id: "u-bob", name: "Bob", email: "bob@example.com" },
};

function authConfig(client: HostedDbClient, session: AuthConfig["session"]) {
  const revoked: SessionRevokedMessage[] = [];
  const config: AuthConfig = {
    secret: "hosted-db-session-control-0123456789abcdef",
    trustHost: true,
    adapter: HostedDbAdapter(client),
    providers: [
      Credentials({
        credentials: { username: {}, password: {} },
        authorize: ({ username, password }) => (password === "pw" ? (PEOPLE[username as string] ?? null) : null),
      }),
    ],
    session,
    events: { sessionRevoked: (message) => void revoked.push(message) },
    logger: { error: () => {}, warn: () => {} },
  };
  return { auth: createAuth(config), revoked };
}

type Auth = ReturnType<typeof createAuth>;

/** A browser: its cookies, and the request it makes with them. */
interface Browser {
  cookie: string;
  /** The session cookie's value (the token, with database sessions). */
  sessionToken: string;
  request(): { headers: Record<string, string>; url: string };
}

/** Signs `who` in through the credentials provider, from a browser sending `userAgent`. */
async function signIn(auth: Auth, who: string, userAgent = CHROME_MAC): Promise<Browser> {
  const { cookies } = await auth.api.signIn(
    { headers: { "user-agent": userAgent }, url: ORIGIN, clientAddress: "203.0.113.7" },
    { providerId: "credentials", username: who, password: "pw" },
  );
  const session = cookies.find((cookie) => cookie.name.endsWith("session-token") && cookie.value !== "");
  if (!session) throw new Error(`signing in ${who} set no session cookie`);
  // The session cookie and its sealed assurance (when the sign-in was): what the browser sends back.
  const kept = cookies.filter((c) => c.value !== "" && (c === session || c.name.endsWith("session-assurance")));
  const cookie = kept.map((c) => `${c.name}=${encodeURIComponent(c.value)}`).join("; ");
  return { cookie, sessionToken: session.value, request: () => ({ headers: { cookie, "user-agent": userAgent }, url: ORIGIN }) };
}

/** Whether `cookies` touch the session cookie (ending another device must leave this one's alone). */
function clearsSession(cookies: { name: string }[]): boolean {
  return cookies.some((cookie) => cookie.name.endsWith("session-token"));
}

async function userOf(auth: Auth, browser: Browser): Promise<string | null> {
  const { session } = await auth.api.getSession(browser.request());
  return session?.user?.name ?? null;
}

function runSessionControl(name: string, connections: () => [BaseClientOptions, BaseClientOptions]): void {
  describe(name, () => {
    const clients: HostedDbClient[] = [];

    /** Two clients of one fresh, migrated branch: two instances of the application. */
    async function twoInstancesOfOneBranch(): Promise<[HostedDbClient, HostedDbClient]> {
      const branch = randomBranch("session_control");
      const [first, second] = connections().map((connection) => new HostedDbClient({ ...connection, branch })) as [
        HostedDbClient,
        HostedDbClient,
      ];
      clients.push(first, second);
      await first.migrate();
      return [first, second];
    }

    afterAll(async () => {
      for (let i = 0; i < clients.length; i += 2) await dropBranch(clients[i] as HostedDbClient, (clients[i] as HostedDbClient).branch);
      for (const client of clients) await client.close();
    });

    it("database sessions: two devices listed with what the user recognises, no token; sign out everywhere else", async () => {
      const [client, otherClient] = await twoInstancesOfOneBranch();
      const adapter = HostedDbAdapter(client);
      for (const person of Object.values(PEOPLE)) await adapter.createUser({ ...person, emailVerified: null });
      const { auth, revoked } = authConfig(client, { strategy: "database" });
      const other = authConfig(otherClient, { strategy: "database" }).auth;

      const laptop = await signIn(auth, "ada", CHROME_MAC);
      const phone = await signIn(other, "ada", FIREFOX_WIN);
      const bob = await signIn(auth, "bob");

      const listing = await auth.api.listSessions(laptop.request());
      expect(listing).toHaveLength(2);
      const current = listing.find((session) => session.current) as ListedSession;
      const elsewhere = listing.find((session) => !session.current) as ListedSession;
      expect(current).toMatchObject({ userAgent: "Chrome on macOS", clientAddress: "203.0.113.0/24", provider: "credentials" });
      expect(elsewhere).toMatchObject({ userAgent: "Firefox on Windows", provider: "credentials" });
      expect(current.lastSeenAt).toBe(current.createdAt);
      const json = JSON.stringify(listing);
      for (const browser of [laptop, phone, bob]) expect(json).not.toContain(browser.sessionToken);
      // The other instance lists the same sessions, its own device marked.
      const seenByOther = await other.api.listSessions(phone.request());
      expect(seenByOther.find((session) => session.current)?.id).toBe(elsewhere.id);
      expect(seenByOther.map((session) => session.id).sort()).toEqual(listing.map((session) => session.id).sort());

      // Bob's session id, revoked by Ada: not hers, so not found, and Bob stays signed in.
      const [bobsSession] = await auth.api.listSessions(bob.request());
      await expect(auth.api.revokeSession(laptop.request(), { sessionId: bobsSession?.id as string })).rejects.toBeInstanceOf(
        SessionNotFound,
      );
      expect(await userOf(auth, bob)).toBe("Bob");

      const others = await auth.api.revokeOtherSessions(laptop.request());
      expect(others.revoked).toBe(1);
      expect(clearsSession(others.cookies)).toBe(false);
      expect(await userOf(other, phone)).toBeNull();
      expect(await userOf(auth, laptop)).toBe("Ada");
      expect((await auth.api.listSessions(laptop.request())).map((session) => session.id)).toEqual([current.id]);
      expect(revoked).toEqual([
        { userId: "u-ada", session: expect.objectContaining({ id: elsewhere.id }), reason: "others", by: current.id },
      ]);
      expect(await client.db.authlib_sessions.filter({ user: { id: "u-ada" } })).toHaveLength(1);
    });

    it("JWT sessions of a user not stored in authlib_users: sign-in, listing and revocation, seen by a strict second instance", async () => {
      const [client, otherClient] = await twoInstancesOfOneBranch();
      const { auth } = authConfig(client, { strategy: "jwt" });
      const strict = authConfig(otherClient, { strategy: "jwt", revocation: "strict" }).auth;

      const laptop = await signIn(auth, "ada", CHROME_MAC);
      const phone = await signIn(auth, "ada", FIREFOX_WIN);
      expect(await client.db.authlib_users.filter()).toEqual([]);
      expect(await userOf(strict, phone)).toBe("Ada");

      const listing = await strict.api.listSessions(laptop.request());
      expect(listing.map((session) => session.userAgent).sort()).toEqual(["Chrome on macOS", "Firefox on Windows"]);
      expect(listing.every((session) => session.provider === "credentials")).toBe(true);
      const phoneId = listing.find((session) => !session.current)?.id as string;
      expect(JSON.stringify(listing)).not.toContain(laptop.sessionToken);

      await expect(auth.api.revokeSession(laptop.request(), { sessionId: "not-a-session-of-ada" })).rejects.toBeInstanceOf(SessionNotFound);
      const one = await auth.api.revokeSession(laptop.request(), { sessionId: phoneId });
      expect(one.revoked).toBe(1);
      expect(clearsSession(one.cookies)).toBe(false);
      // Ended in the database: the strict instance refuses the phone's cookie at once.
      expect(await userOf(strict, phone)).toBeNull();
      expect(await userOf(auth, phone)).toBeNull();
      expect(await userOf(strict, laptop)).toBe("Ada");
      expect((await auth.api.listSessions(laptop.request())).map((session) => session.current)).toEqual([true]);

      expect(await auth.api.revokeUserSessions({ userId: "u-ada" })).toEqual({ revoked: 1 });
      expect(await userOf(strict, laptop)).toBeNull();
    });
  });
}

describe("on PGlite (in memory)", () => {
  let pglite: PGlite;
  beforeAll(async () => {
    pglite = await PGlite.create();
  });
  afterAll(async () => {
    await pglite.close();
  });
  runSessionControl("session control with HostedDbAdapter", () => [{ pglite }, { pglite }]);
});

const databaseURL = testDatabaseURL();
const available = await postgresAnswers(databaseURL, "the PostgreSQL session control tests");

describe.skipIf(!available)(`on PostgreSQL at ${new URL(databaseURL).host}`, () => {
  const pools: pg.Pool[] = [];
  beforeAll(() => {
    for (let i = 0; i < 2; i++) pools.push(new pg.Pool({ connectionString: databaseURL, max: 2 }));
  });
  afterAll(async () => {
    for (const pool of pools) await pool.end();
  });
  runSessionControl("session control with HostedDbAdapter, two instances", () => [{ pool: pools[0] }, { pool: pools[1] }]);
});
