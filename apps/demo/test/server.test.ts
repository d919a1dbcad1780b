/**
 * The demo's server modules on their own: the development secret file, the demo user, the database
 * (in-memory PGlite), the development SMTP server and OP, the services' options, and the configuration
 * built from the env.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CredentialsConfig, Session } from "@authlib/core";
import { CredentialsSignin } from "@authlib/core";
import { createTransport } from "nodemailer";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { listEvents } from "../src/server/audit-log";
import { DEMO_MAIL_FROM, demoAuthConfig } from "../src/server/auth-config";
import { type DemoDatabase, demoDatabaseURL, listActiveSessions, openDemoDatabase } from "../src/server/database";
import { DEMO_ORGANIZATIONS, ensureDemoOrganizations } from "../src/server/demo-organizations";
import { authorizeDemoUser, DEMO_EMAIL, DEMO_PASSWORD, DEMO_USER_ID, demoPasswordHash } from "../src/server/demo-user";
import { devOidcAccountId, devOidcClaims, startDevOidcProvider } from "../src/server/dev-oidc";
import { localDevSecret } from "../src/server/dev-secret";
import { startDevSmtpServer } from "../src/server/dev-smtp";
import { isLocalDevRequest } from "../src/server/dev-tools";
import { DevMailbox, findSignInLink } from "../src/server/mailbox";
import { type DemoServices, demoRedirectUris, demoServicesOptions } from "../src/server/services";

const env = (values: Record<string, string>) => ({ get: (name: string) => values[name] });
const dirs: string[] = [];
let database: DemoDatabase;

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "authlib-demo-"));
  dirs.push(dir);
  return dir;
}

/** Services for the configuration: the real in-memory database; the OP and SMTP server only by their addresses. */
function services(): DemoServices {
  return {
    database,
    oidc: { issuer: "http://localhost:3001", clientId: "authlib-demo", clientSecret: "s", close: async () => {} },
    smtp: {
      port: 3002,
      transport: { host: "127.0.0.1", port: 3002, secure: false, ignoreTLS: true },
      mailbox: new DevMailbox(),
      close: async () => {},
    },
  };
}

beforeAll(async () => {
  database = await openDemoDatabase("memory://");
});

afterAll(async () => {
  await database?.close();
});

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe("localDevSecret", () => {
  test("generates a secret once, keeps it in <dataDir>/secret (owner-only) and warns", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const dir = tempDir();
    const secret = localDevSecret(dir);
    expect(secret).toMatch(/^[\w-]{43}$/);
    expect(readFileSync(join(dir, "secret"), "utf8").trim()).toBe(secret);
    expect(statSync(join(dir, "secret")).mode & 0o777).toBe(0o600);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("AUTH_SECRET is not set"));
    expect(localDevSecret(dir)).toBe(secret);
  });
});

describe("the demo user", () => {
  test("signs in with the shown password only, whatever the case of the email", async () => {
    expect(await demoPasswordHash()).toMatch(/^scrypt\$/);
    expect(await authorizeDemoUser(DEMO_EMAIL.toUpperCase(), DEMO_PASSWORD)).toMatchObject({ email: DEMO_EMAIL });
    expect(await authorizeDemoUser(DEMO_EMAIL, "wrong")).toBeNull();
    expect(await authorizeDemoUser("someone@else.dev", DEMO_PASSWORD)).toBeNull();
    expect(await authorizeDemoUser(undefined, DEMO_PASSWORD)).toBeNull();
  });
});

describe("the database", () => {
  test("is the PGlite folder .data/db unless AUTHLIB_DATABASE_URL says otherwise", () => {
    expect(demoDatabaseURL({})).toBe(`file://${join(process.cwd(), ".data", "db")}`);
    expect(demoDatabaseURL({ DEMO_DATA_DIR: "/tmp/x" })).toBe("file:///tmp/x/db");
    expect(demoDatabaseURL({ AUTHLIB_DATABASE_URL: "memory://", DEMO_DATA_DIR: "/tmp/x" })).toBe("memory://");
  });

  test("holds the demo user from the start, under the id authorize() returns", async () => {
    expect(await database.adapter.getUser(DEMO_USER_ID)).toMatchObject({ email: DEMO_EMAIL, name: "Demo User" });
  });

  test("holds the demo user's two organizations from the start, Vault asking for a second factor, added once", async () => {
    const { adapter } = database;
    const owned = async () =>
      Promise.all(
        (await adapter.listMembershipsByUser(DEMO_USER_ID)).map(async (member) => ({
          role: member.role,
          organization: await adapter.getOrganization(member.organizationId),
        })),
      );
    const expected = [
      { role: "owner", organization: expect.objectContaining({ name: "Acme", slug: "acme", policy: {} }) },
      { role: "owner", organization: expect.objectContaining({ name: "Vault", slug: "vault", policy: { requireSecondFactor: true } }) },
    ];
    expect(await owned()).toEqual(expected);
    // A restart on the same database: looked up by slug, nothing added.
    const again = await ensureDemoOrganizations(adapter);
    expect(again.map((organization) => organization.slug)).toEqual(DEMO_ORGANIZATIONS.map(({ slug }) => slug));
    expect(await owned()).toEqual(expected);
  });

  test("lists a user's live sessions by a short token prefix, newest first, marking the current one", async () => {
    const { adapter, client } = database;
    const user = await adapter.createUser({ id: "", email: "lister@example.com", emailVerified: null });
    const inAnHour = new Date(Date.now() + 3_600_000);
    await adapter.createSession({ sessionToken: "aaaaaaaa-first-token", userId: user.id, expires: inAnHour });
    await adapter.createSession({ sessionToken: "bbbbbbbb-second-token", userId: user.id, expires: inAnHour });
    await adapter.createSession({ sessionToken: "cccccccc-expired-token", userId: user.id, expires: new Date(Date.now() - 1000) });

    const sessions = await listActiveSessions(client, user.id, "aaaaaaaa-first-token");
    expect(sessions.map((session) => [session.tokenPrefix, session.current])).toEqual([
      ["bbbbbb…", false],
      ["aaaaaa…", true],
    ]);
    expect(JSON.stringify(sessions)).not.toContain("first-token");
  });
});

describe("the mailbox", () => {
  test("finds the sign-in link in the text part, preferring an authlib callback, and only http(s) links", () => {
    const callback = "http://localhost:3000/auth/callback/nodemailer?token=abc&email=a%40b.c";
    expect(findSignInLink(`Sign in to localhost:3000\nhttps://example.com/help\n${callback}\n`)).toBe(callback);
    expect(findSignInLink("See https://example.com/x.")).toBe("https://example.com/x.");
    expect(findSignInLink("javascript:alert(1) data:text/html,<b>")).toBeNull();
  });

  test("receives what nodemailer sends to the development SMTP server", async () => {
    const smtp = await startDevSmtpServer({ port: 0 });
    try {
      const link = "http://localhost:3000/auth/callback/nodemailer?token=t&email=x%40example.com";
      await createTransport(smtp.transport).sendMail({
        from: DEMO_MAIL_FROM,
        to: "x@example.com",
        subject: "Sign in to localhost:3000",
        text: `Sign in to localhost:3000\n${link}\n`,
        html: `<p><a href="${link}">Sign in</a></p><script>alert(1)</script>`,
      });
      const [mail] = smtp.mailbox.list();
      expect(mail).toMatchObject({ id: 1, to: "x@example.com", subject: "Sign in to localhost:3000", signInLink: link });
      expect(mail?.html).toContain("<script>");
    } finally {
      await smtp.close();
    }
  });
});

describe("the development OpenID Provider", () => {
  test("publishes its discovery document under http://localhost:<port> and makes claims from the username", async () => {
    const op = await startDevOidcProvider({ port: 0, redirectUris: ["http://localhost:3000/auth/callback/demo-op"] });
    try {
      expect(op.issuer).toMatch(/^http:\/\/localhost:\d+$/);
      const discovery = (await (await fetch(`${op.issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
      expect(discovery).toMatchObject({ issuer: op.issuer, authorization_endpoint: `${op.issuer}/auth` });
    } finally {
      await op.close();
    }
    expect(devOidcAccountId("  Ada Lovelace ")).toBe("ada-lovelace");
    expect(devOidcAccountId("Zoë_Ünal!")).toBe("zoe_unal");
    expect(devOidcAccountId("x".repeat(50))).toBe("x".repeat(40));
    expect(devOidcAccountId(" !?* ")).toBeUndefined();
    expect(devOidcClaims("ada.lovelace")).toEqual({
      sub: "ada.lovelace",
      email: "ada.lovelace@example.com",
      email_verified: true,
      name: "Ada Lovelace",
      preferred_username: "ada.lovelace",
    });
  });
});

describe("the services' options", () => {
  test("put the OP on PORT + 1 and the SMTP server on PORT + 2 unless told otherwise", () => {
    expect(demoServicesOptions({})).toMatchObject({ oidcPort: 3001, smtpPort: 3002 });
    expect(demoServicesOptions({ PORT: "8080" })).toMatchObject({ oidcPort: 8081, smtpPort: 8082 });
    expect(demoServicesOptions({ DEMO_OIDC_PORT: "0", DEMO_SMTP_PORT: "2525" })).toMatchObject({ oidcPort: 0, smtpPort: 2525 });
    expect(() => demoServicesOptions({ DEMO_SMTP_PORT: "smtp" })).toThrow(/DEMO_SMTP_PORT must be a port number/);
  });

  test("register the demo's callback URL for every origin it answers under", () => {
    expect(demoRedirectUris({ PORT: "4000" })).toEqual([
      "http://localhost:4000/auth/callback/demo-op",
      "http://127.0.0.1:4000/auth/callback/demo-op",
      "http://[::1]:4000/auth/callback/demo-op",
    ]);
    expect(demoRedirectUris({ HOST: "demo.test", AUTHLIB_URL: "https://auth.example.com/api/auth" })).toEqual(
      expect.arrayContaining(["http://demo.test:3000/auth/callback/demo-op", "https://auth.example.com/api/auth/callback/demo-op"]),
    );
  });
});

describe("demoAuthConfig", () => {
  test("uses AUTH_SECRET when set, and otherwise the local secret", () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(demoAuthConfig(env({ AUTH_SECRET: "from-env" }), services()).secret).toBeUndefined();
    const dir = tempDir();
    vi.stubEnv("DEMO_DATA_DIR", dir);
    expect(demoAuthConfig(env({}), services()).secret).toBe(readFileSync(join(dir, "secret"), "utf8").trim());
  });

  test("turns on organizations and the second factor (Vault's policy needs it)", () => {
    const config = demoAuthConfig(env({ AUTH_SECRET: "s".repeat(32) }), services());
    expect(config.organizations).toEqual({});
    expect(config.twoFactor).toBeDefined();
  });

  test("keeps sessions in the database and enables passkeys", () => {
    const config = demoAuthConfig(env({ AUTH_SECRET: "x" }), services());
    expect(config.adapter).toBe(database.adapter);
    expect(config.session?.strategy).toBe("database");
    expect(config.experimental?.enableWebAuthn).toBe(true);
  });

  test("offers the development OP, email, passkeys and password accounts, and GitHub and Google only when their id and secret are set", () => {
    const ids = (values: Record<string, string>) =>
      demoAuthConfig(env({ AUTH_SECRET: "x", ...values }), services()).providers.map(
        (provider) => (typeof provider === "function" ? provider() : provider).id,
      );
    const always = ["credentials", "demo-op", "nodemailer", "passkey", "password"];
    expect(ids({})).toEqual(always);
    expect(ids({ AUTH_GITHUB_ID: "id" })).toEqual(always);
    expect(ids({ AUTH_GITHUB_ID: "id", AUTH_GITHUB_SECRET: "s", AUTH_GOOGLE_ID: "id", AUTH_GOOGLE_SECRET: "s" })).toEqual([
      ...always,
      "github",
      "google",
    ]);
  });

  test("rejects a wrong password with a CredentialsSignin whose code does not say which field was wrong", async () => {
    const [credentials] = demoAuthConfig(env({ AUTH_SECRET: "x" }), services()).providers as [CredentialsConfig];
    const attempt = credentials.authorize({ email: DEMO_EMAIL, password: "wrong" }, new Request("http://localhost/"));
    await expect(attempt).rejects.toBeInstanceOf(CredentialsSignin);
    await expect(attempt).rejects.toMatchObject({ code: "invalid-login" });
  });

  test("shows the user's id but never the session token, and stores a name sent by a session update", async () => {
    const { callbacks } = demoAuthConfig(env({ AUTH_SECRET: "x" }), services());
    const user = await database.adapter.createUser({ id: "", email: "renamed@example.com", name: "Old", emailVerified: null });
    const expires = new Date(Date.now() + 60_000);
    const stored = { sessionToken: "secret-token", userId: user.id, expires };
    const session = { ...stored, user, expires: expires.toISOString() } as unknown as Session & typeof stored;

    const plain = await callbacks?.session?.({ session, user });
    expect(plain).toEqual({
      user: { id: user.id, name: "Old", email: "renamed@example.com", image: null },
      expires: expires.toISOString(),
    });
    expect(JSON.stringify(plain)).not.toContain("secret-token");

    const updated = await callbacks?.session?.({ session, user, trigger: "update", newSession: { name: "  New name  " } });
    expect(updated?.user?.name).toBe("New name");
    expect((await database.adapter.getUser(user.id))?.name).toBe("New name");
  });

  test("keeps authlib's audit trail in the demo database, which the audit page reads with the user's email", async () => {
    const { audit } = demoAuthConfig(env({ AUTH_SECRET: "x" }), services());
    await audit?.store.write({
      time: new Date(),
      type: "signIn",
      outcome: "success",
      userId: DEMO_USER_ID,
      provider: "credentials",
      clientAddressPrefix: "127.0.0.0/24",
      userAgentLabel: "Chrome on Linux",
      detail: null,
    });
    const [entry] = await listEvents(database.client, database.adapter);
    expect(entry).toMatchObject({ event: "signIn", subject: DEMO_EMAIL });
    expect(entry?.detail).toBe("provider credentials, 127.0.0.0/24, Chrome on Linux");
  });
});

describe("the development tools' guard", () => {
  const event = (ip: string | undefined, headers: Record<string, string> = {}) => ({
    clientConn: { ip },
    request: new Request("http://localhost:3000/dev/mailbox", { headers }),
  });

  test.each(["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"])("a direct client from %s is local", (ip) => {
    expect(isLocalDevRequest(event(ip))).toBe(true);
  });

  test.each([undefined, "", "10.0.0.5", "192.168.1.2", "203.0.113.7", "::ffff:10.0.0.1", "fe80::1", "127.0.0.1.evil", "0.0.0.0"])(
    "a client from %s is not",
    (ip) => {
      expect(isLocalDevRequest(event(ip))).toBe(false);
    },
  );

  test.each(["forwarded", "x-forwarded-for", "x-forwarded-host", "x-real-ip", "via"])(
    "a loopback peer that forwards for someone else (%s) is not local",
    (header) => {
      expect(isLocalDevRequest(event("127.0.0.1", { [header]: "1.2.3.4" }))).toBe(false);
    },
  );
});
