/**
 * Session control in Chromium (issue 27's acceptance): two browser contexts sign in as the same user on
 * authlib's built-in sign-in page, both are listed on an app's "devices" page, and the first ends the
 * other ("Sign out everywhere else", or "Sign out" on the other's row). The other device and a replayed
 * copy of its cookies then get no session (from the next request, or within the row's bound for eventual
 * revocation), while the first device and another user's session go on.
 *
 * Each configuration is one row of {@link deployments}: a function that returns `{ config, close }`. Every
 * row runs on two instances (`createAuth(config)` twice, each behind its own server on 127.0.0.1 and
 * sharing the configuration's store): A on the first, B on the second, so that "strict" and database
 * sessions are shown to end on an instance that did not revoke them, and "eventual" within its bound.
 * Both servers are `http://localhost:<port>`; cookies are per host name, not per port, so a context's
 * cookies reach both. The rows are issue 27's: JWT sessions registered in Redis (strict) and in PostgreSQL
 * (eventual), and database sessions in PostgreSQL; a row whose service does not answer is skipped.
 */
import { randomUUID } from "node:crypto";
import type { Browser, BrowserContext, Cookie, Page } from "playwright-core";
import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HostedDbAdapter, HostedDbClient, hostedDbSessionStore } from "../../../hosted-db-adapter/src/index.js";
import { dropBranch, postgresAnswers, randomBranch, testDatabaseURL } from "../../../hosted-db-adapter/test/helpers.js";
import { createAuth } from "../../src/kernel/instance.js";
import Credentials from "../../src/providers/credentials.js";
import { redisSessionStore } from "../../src/session/redis.js";
import type { AuthConfig, SessionOptions } from "../../src/types/config.js";
import type { SessionRegistry } from "../../src/types/session-registry.js";
import { launchChromium } from "../helpers/chromium.js";
import { type NodeServer, startNodeServer, type WebHandler } from "../helpers/node-server.js";
import { redisAnswers, redisURL } from "../helpers/redis.js";

const secret = "session-control-browser-secret-0123456789";
/** Browser round trips on a busy machine: more than the default, never close to it when idle. */
const BROWSER_TEST_TIMEOUT = 90_000;

const users = {
  ada: { id: "u-ada", name: "Ada", email: "ada@example.com" },
  bob: { id: "u-bob", name: "Bob", email: "bob@example.com" },
};
type UserName = keyof typeof users;

/** Distinct browsers, so the listing's labels tell the two devices apart. */
const CHROME_MAC = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const CHROME_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

/** A configuration under test and what to release after it. */
interface Deployment {
  config: AuthConfig;
  close(): Promise<void>;
}

/** One configuration of the table. */
interface DeploymentRow {
  name: string;
  /** How long a revoked session may still be answered on an instance that did not revoke it: 0 is "not from the next request". */
  revokedWithinMs: number;
  /** False when the service the row needs does not answer (the row is skipped, saying why). */
  available: boolean;
  open(): Promise<Deployment>;
}

/** A configuration with the credentials provider (password "pw" for every user in {@link users}). */
function appConfig(overrides: Partial<AuthConfig>): AuthConfig {
  return {
    secret,
    trustHost: true,
    providers: [
      Credentials({
        credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
        authorize: ({ username, password }) => (password === "pw" ? (users[username as UserName] ?? null) : null),
      }),
    ],
    logger: { error: () => {}, warn: () => {} },
    ...overrides,
  };
}

/** JWT sessions registered in `store`; `close` releases what the store uses (a client's connection). */
function jwt(store: SessionRegistry, session: Partial<SessionOptions> = {}, close: () => Promise<unknown> = async () => {}): Deployment {
  return { config: appConfig({ session: { store, ...session } }), close: async () => void (await close()) };
}

/** A fresh branch of the tests' PostgreSQL database, migrated, with its drop as `close`. */
async function postgresBranch(): Promise<{ client: HostedDbClient; close: () => Promise<void> }> {
  const branch = randomBranch("session_browser");
  const client = new HostedDbClient({ databaseURL: testDatabaseURL(), branch });
  await client.migrate();
  return {
    client,
    close: async () => {
      await dropBranch(client, branch);
      await client.close();
    },
  };
}

/** Database sessions in PostgreSQL (the hosted-db adapter), whose session rows are their records. */
async function databaseSessions(): Promise<Deployment> {
  const { client, close } = await postgresBranch();
  const adapter = HostedDbAdapter(client);
  // A database session points at a stored user: `authorize`'s users are found by their email.
  for (const user of Object.values(users)) await adapter.createUser?.({ ...user, emailVerified: null });
  return { config: appConfig({ adapter, session: { strategy: "database" } }), close };
}

/** JWT sessions registered in PostgreSQL (`hostedDbSessionStore`). */
async function postgresRegistry(session: Partial<SessionOptions>): Promise<Deployment> {
  const { client, close } = await postgresBranch();
  return jwt(hostedDbSessionStore(client), session, close);
}

/** JWT sessions registered in Redis (`redisSessionStore`), under a prefix of their own. */
async function redisRegistry(session: Partial<SessionOptions>): Promise<Deployment> {
  const client = await createClient({ url: redisURL }).connect();
  return jwt(redisSessionStore({ client, prefix: `authlib-session-browser-${randomUUID()}:` }), session, async () => client.destroy());
}

const postgres = await postgresAnswers(testDatabaseURL(), "the session control browser rows on PostgreSQL");
const redis = await redisAnswers("the session control browser row on Redis");

/** Issue 27's three: JWT sessions registered in Redis and in PostgreSQL, and database sessions. */
const deployments: DeploymentRow[] = [
  { name: "JWT + Redis registry, strict", available: redis, revokedWithinMs: 0, open: () => redisRegistry({ revocation: "strict" }) },
  {
    name: "JWT + PostgreSQL registry, eventual (revalidateAfter 1 s)",
    available: postgres,
    revokedWithinMs: 5000,
    open: () => postgresRegistry({ revalidateAfter: 1 }),
  },
  { name: "database sessions in PostgreSQL", available: postgres, revokedWithinMs: 0, open: () => databaseSessions() },
];

const html = (body: string) => new Response(body, { headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });

/** `/`: who is signed in, read from `/auth/session`. `data-ready` once it is known. */
const HOME_PAGE = `<!doctype html><meta charset="utf-8"><title>Home</title>
<p id="status">Loading</p>
<script>
  const status = document.getElementById("status");
  fetch("/auth/session", { cache: "no-store" })
    .then((response) => response.json())
    .then((session) => { status.textContent = session && session.user ? "Signed in as " + session.user.name : "Not signed in"; })
    .catch((error) => { status.textContent = "Failed: " + error.message; })
    .finally(() => { status.dataset.ready = ""; });
</script>`;

/**
 * `/devices`: the user's sessions (`GET /auth/sessions`), each with its id, browser, a "This device"
 * marker on the current one and a "Sign out" button; and "Sign out everywhere else". Both buttons post
 * the form with the CSRF token of `/auth/csrf`. `body[data-loads]` counts the finished listings.
 */
const DEVICES_PAGE = `<!doctype html><meta charset="utf-8"><title>Devices</title>
<h1>Your devices</h1>
<p id="result"></p>
<ul id="sessions"></ul>
<button id="others" type="button">Sign out everywhere else</button>
<script>
  const list = document.getElementById("sessions");
  const result = document.getElementById("result");
  let loads = 0;

  async function revoke(fields) {
    const { csrfToken } = await (await fetch("/auth/csrf", { cache: "no-store" })).json();
    const response = await fetch("/auth/sessions/revoke", { method: "POST", body: new URLSearchParams({ csrfToken, ...fields }) });
    const answer = await response.json();
    result.textContent = response.ok ? "Signed out " + answer.revoked : "Failed: " + answer.error;
    await load();
  }

  function row(session) {
    const item = document.createElement("li");
    item.className = "session";
    item.dataset.sessionId = session.id;
    const id = document.createElement("code");
    id.textContent = session.id;
    const device = document.createElement("span");
    device.className = "device";
    device.textContent = " " + (session.userAgent || "Unknown browser") + (session.current ? " (This device) " : " ");
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = "Sign out";
    button.addEventListener("click", () => revoke({ sessionId: session.id }));
    item.append(id, device, button);
    return item;
  }

  async function load() {
    const response = await fetch("/auth/sessions", { cache: "no-store" });
    const answer = await response.json();
    list.replaceChildren(...(response.ok ? answer.sessions.map(row) : []));
    if (!response.ok) result.textContent = "Failed: " + answer.error;
    document.body.dataset.loads = String(++loads);
  }

  document.getElementById("others").addEventListener("click", () => revoke({ all: "others" }));
  load();
</script>`;

/** The app's own pages; everything under `/auth` goes to the instance. */
const appPages: WebHandler = (request) => {
  const { pathname } = new URL(request.url);
  if (pathname === "/") return html(HOME_PAGE);
  if (pathname === "/devices") return html(DEVICES_PAGE);
  return new Response("Not found", { status: 404 });
};

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

/** What `/` says on `origin`. */
async function homeStatus(page: Page, origin: string): Promise<string> {
  await page.goto(`${origin}/`);
  await page.locator("#status[data-ready]").waitFor();
  return (await page.locator("#status").textContent()) ?? "";
}

/** Polls `/` until it says "Not signed in", for at most `withinMs` (0: asks once); answers the last status. */
async function signedOutWithin(page: Page, origin: string, withinMs: number): Promise<string> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const status = await homeStatus(page, origin);
    if (status === "Not signed in" || Date.now() >= deadline) return status;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Signs in as `user` on the built-in sign-in page of `origin`, landing on `/`. */
async function signIn(page: Page, origin: string, user: UserName): Promise<void> {
  await page.goto(`${origin}/auth/signin?callbackUrl=${encodeURIComponent(`${origin}/`)}`);
  await page.getByLabel("Username").fill(user);
  await page.getByLabel("Password").fill("pw");
  await Promise.all([page.waitForURL(`${origin}/`), page.getByRole("button", { name: "Sign in with Credentials" }).click()]);
}

interface ListedRow {
  id: string;
  device: string;
}

/** The rows of `/devices` on `origin`, after its listing has loaded `loads` times. */
async function devices(page: Page, loads = 1): Promise<ListedRow[]> {
  await page.waitForFunction((count) => Number(document.body.dataset.loads ?? 0) >= count, loads);
  return page.locator("li.session").evaluateAll((items) =>
    items.map((item) => ({
      id: (item as HTMLElement).dataset.sessionId ?? "",
      device: item.querySelector(".device")?.textContent?.trim() ?? "",
    })),
  );
}

/** A browser context whose page's script errors are collected. */
async function openContext(
  userAgent = CHROME_MAC,
  cookies: Cookie[] = [],
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ userAgent });
  if (cookies.length > 0) await context.addCookies(cookies);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => void errors.push(error.message));
  return { context, page, errors };
}

/** How A ends B's session on its devices page. */
const revocations = [
  { how: "Sign out everywhere else", click: (page: Page) => page.getByRole("button", { name: "Sign out everywhere else" }).click() },
  {
    how: "Sign out on B's row",
    click: (page: Page, otherId: string) =>
      page.locator(`li.session[data-session-id="${otherId}"]`).getByRole("button", { name: "Sign out" }).click(),
  },
];

describe.each(deployments.filter((row) => row.available))("session control in Chromium: $name", (row) => {
  it.each(revocations)(
    "both devices listed; after A's $how, B and a replayed copy of B's cookies get no session; A and another user stay",
    async ({ click }) => {
      const deployment = await row.open();
      const servers: NodeServer[] = [];
      const contexts: BrowserContext[] = [];
      try {
        // Two instances of one configuration, as two processes behind a load balancer would be.
        for (const auth of [createAuth(deployment.config), createAuth(deployment.config)]) {
          const server = await startNodeServer((request, { remoteAddress }) => auth.handler(request, { clientAddress: remoteAddress }), {
            fallback: appPages,
          });
          servers.push(server);
        }
        const [first, second] = servers.map((server) => server.origin) as [string, string];
        const a = await openContext(CHROME_MAC);
        const b = await openContext(CHROME_WINDOWS);
        const c = await openContext(CHROME_MAC);
        contexts.push(a.context, b.context, c.context);

        await signIn(a.page, first, "ada");
        await signIn(b.page, second, "ada");
        await signIn(c.page, first, "bob");
        expect(await homeStatus(a.page, first)).toBe("Signed in as Ada");
        expect(await homeStatus(b.page, second)).toBe("Signed in as Ada");

        // Both of Ada's devices are listed on either; each marks itself; Bob's is not among them.
        await a.page.goto(`${first}/devices`);
        const seenByA = await devices(a.page);
        expect(seenByA).toHaveLength(2);
        const [own, other] = [
          seenByA.filter((s) => s.device.includes("(This device)")),
          seenByA.filter((s) => !s.device.includes("(This device)")),
        ];
        expect(own).toEqual([{ id: expect.any(String), device: "Chrome on macOS (This device)" }]);
        expect(other).toEqual([{ id: expect.any(String), device: "Chrome on Windows" }]);
        await b.page.goto(`${second}/devices`);
        const seenByB = await devices(b.page);
        expect(seenByB.map((s) => s.id).sort()).toEqual(seenByA.map((s) => s.id).sort());
        expect(seenByB.find((s) => s.device.includes("(This device)"))?.id).toBe(other[0]?.id);

        // B's cookies, as someone who copied them before the revocation holds them.
        const copied = await b.context.cookies();
        expect(copied.length).toBeGreaterThan(0);

        await click(a.page, other[0]?.id as string);
        await a.page.waitForFunction(() => document.getElementById("result")?.textContent !== "");
        expect(await a.page.locator("#result").textContent()).toBe("Signed out 1");
        expect(await devices(a.page, 2)).toEqual(own);

        expect(await signedOutWithin(b.page, second, row.revokedWithinMs)).toBe("Not signed in");
        const replay = await openContext(CHROME_WINDOWS, copied);
        contexts.push(replay.context);
        expect(await signedOutWithin(replay.page, second, row.revokedWithinMs)).toBe("Not signed in");
        // B's devices page on the instance that did not revoke it: no session, nothing listed.
        await b.page.goto(`${second}/devices`);
        expect(await devices(b.page)).toEqual([]);
        expect(await b.page.locator("#result").textContent()).toBe("Failed: SessionRequired");

        expect(await homeStatus(a.page, first)).toBe("Signed in as Ada");
        expect(await homeStatus(a.page, second)).toBe("Signed in as Ada");
        expect(await homeStatus(c.page, first)).toBe("Signed in as Bob");
        for (const context of [a, b, c, replay]) expect(context.errors).toEqual([]);
      } finally {
        await Promise.all(contexts.map((context) => context.close()));
        await Promise.all(servers.map((server) => server.close()));
        await deployment.close();
      }
    },
    BROWSER_TEST_TIMEOUT,
  );
});
