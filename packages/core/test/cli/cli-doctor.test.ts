/**
 * `authlib doctor` as users run it: the built executable in a child process (run `npm run build`
 * first), in a throwaway app folder with its own `.env`, config module and `node_modules`. A good setup
 * (exit 0), one with warnings only (exit 0), a broken one (exit 1, one line per problem with its fix),
 * and a config module that cannot be loaded.
 */
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresAnswers, testDatabaseURL } from "../../../hosted-db-adapter/test/helpers.js";
import { freePort, runAuthlib, type TempApp, tempApp } from "../helpers/cli.js";

const STRONG_SECRET = "doctor-test-secret-0123456789abcdefghijkl";

/** The doctor's header line for an app folder with `.env`. */
const header = (production: boolean, config?: string) =>
  `authlib doctor: ${production ? "NODE_ENV=production" : "not production"}, env file .env, ${
    config ? `config ${config}` : "no config module (environment only; pass --config <module> for providers and the adapter)"
  }\n`;

/** The finding of core's `trust-host-unrestricted` warning. */
const UNRESTRICTED_TRUST_HOST =
  "AUTHLIB_URL is not set in production, and trustHost is on without AUTH_TRUSTED_HOSTS: any client can choose the host of the links authlib builds (sign-in emails, OAuth redirects) (run-time warning trust-host-unrestricted). Fix: set AUTHLIB_URL to the app's public URL (e.g. AUTHLIB_URL=https://app.example.com), or AUTH_TRUSTED_HOSTS to its host names.";
/** The finding of core's `rate-limit-memory-store` warning. */
const MEMORY_STORE =
  "The rate limits are counted in each instance's memory (no rateLimit.store) in production: instances count apart and a restart forgets the counts (run-time warning rate-limit-memory-store). Fix: set rateLimit.store to a shared store: hostedDbRateLimitStore(client) from @authlib/hosted-db-adapter, or redisRateLimitStore({ client }) from @authlib/core/rate-limit/redis. With one long-lived instance, this is fine as it is.";
/** The finding of core's `rate-limit-behind-proxy` warning. */
const BEHIND_PROXY =
  "trustHost says the app is behind a proxy, but rateLimit.clientAddress is not set: every client counts under the proxy's address, so one attacker's failed sign-ins refuse everybody (run-time warning rate-limit-behind-proxy). Fix: set rateLimit.clientAddress to read the client address your proxy sets (e.g. the last X-Forwarded-For entry); see docs/production.md.";

describe("authlib doctor without a database", () => {
  let app: TempApp;
  beforeAll(async () => {
    app = await tempApp();
  });
  afterAll(() => app.remove());

  it("a good production environment: no problems, exit 0", async () => {
    await writeFile(join(app.dir, ".env"), `AUTH_SECRET=${STRONG_SECRET}\nAUTHLIB_URL=https://app.example.com\nNODE_ENV=production\n`);
    const run = await runAuthlib(["doctor"], { cwd: app.dir });
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(run.stdout).toBe(`${header(true)}ok: no problems found.\n`);
  });

  it("warnings only (trustHost asked for without a host list, outside production): reported, exit 0", async () => {
    await writeFile(join(app.dir, ".env"), `AUTH_SECRET=${STRONG_SECRET}\nAUTH_TRUST_HOST=true\n`);
    const run = await runAuthlib(["doctor"], { cwd: app.dir });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      `${header(false)}warning: trustHost is on without AUTHLIB_URL or AUTH_TRUSTED_HOSTS: the host of the links authlib builds comes from request headers. Fix: set AUTHLIB_URL (one origin) or AUTH_TRUSTED_HOSTS (a list); keep trustHost alone only behind a proxy that overwrites Host and X-Forwarded-Host.\n0 errors, 1 warning.\n`,
    );
  });

  it("the process env wins over .env, and a missing secret is an error with the command that fixes it", async () => {
    await writeFile(join(app.dir, ".env"), "AUTHLIB_URL=https://app.example.com\n");
    const run = await runAuthlib(["doctor"], { cwd: app.dir, env: { NODE_ENV: "production", AUTHLIB_URL: "https://other.example.com" } });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(
      `${header(true)}error: No secret is set: AUTH_SECRET is empty and the config has no \`secret\`. Fix: run \`npx authlib secret --append .env\` (or set AUTH_SECRET in your host's settings).\n1 error, 0 warnings.\n`,
    );
  });

  it("a config module exporting a function (as FrameworkAuth$ takes) is called with ev.env over the doctor's environment", async () => {
    await writeFile(join(app.dir, ".env"), `AUTH_SECRET=${STRONG_SECRET}\nCORP_CLIENT=corp-app\nAUTH_CORP_SECRET=corp-secret\n`);
    await writeFile(
      join(app.dir, "qwik-config.mjs"),
      `export default (ev) => ({
  providers: [{ id: "corp", name: "Corp", type: "oidc", issuer: "https://sso.corp.example", clientId: ev.env.get("CORP_CLIENT") }],
});
`,
    );
    const run = await runAuthlib(["doctor", "--config", "qwik-config.mjs"], { cwd: app.dir });
    expect(run).toMatchObject({ code: 0, stdout: `${header(false, "qwik-config.mjs")}ok: no problems found.\n` });

    await writeFile(join(app.dir, ".env"), `AUTH_SECRET=${STRONG_SECRET}\nAUTH_CORP_SECRET=corp-secret\n`);
    const without = await runAuthlib(["doctor", "--config", "qwik-config.mjs"], { cwd: app.dir });
    expect(without.code).toBe(1);
    expect(without.stdout).toContain('error: Provider "corp" has no client id. Fix: set AUTH_CORP_ID (or `clientId` in its options).\n');
  });

  it("production with trustHost and neither AUTHLIB_URL nor AUTH_TRUSTED_HOSTS: the trust-host-unrestricted finding; a host list clears it", async () => {
    await writeFile(join(app.dir, ".env"), `AUTH_SECRET=${STRONG_SECRET}\nAUTH_TRUST_HOST=true\nNODE_ENV=production\n`);
    const run = await runAuthlib(["doctor"], { cwd: app.dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(`${header(true)}error: ${UNRESTRICTED_TRUST_HOST}\n1 error, 0 warnings.\n`);
    await writeFile(
      join(app.dir, ".env"),
      `AUTH_SECRET=${STRONG_SECRET}\nAUTH_TRUST_HOST=true\nAUTH_TRUSTED_HOSTS=app.example.com\nNODE_ENV=production\n`,
    );
    expect(await runAuthlib(["doctor"], { cwd: app.dir })).toMatchObject({ code: 0, stdout: `${header(true)}ok: no problems found.\n` });
  });

  it("rate limits: the memory store in production and a proxy without rateLimit.clientAddress are warnings; a shared store and a clientAddress clear them", async () => {
    await writeFile(
      join(app.dir, ".env"),
      `AUTH_SECRET=${STRONG_SECRET}\nAUTH_TRUST_HOST=true\nAUTH_TRUSTED_HOSTS=app.example.com\nNODE_ENV=production\n`,
    );
    await writeFile(join(app.dir, "bare.mjs"), "export default { providers: [] };\n");
    const bare = await runAuthlib(["doctor", "--config", "bare.mjs"], { cwd: app.dir });
    expect(bare.code).toBe(0);
    expect(bare.stdout).toBe(`${header(true, "bare.mjs")}warning: ${MEMORY_STORE}\nwarning: ${BEHIND_PROXY}\n0 errors, 2 warnings.\n`);

    // A store of the app's own (any object with the three methods) and a client address function.
    await writeFile(
      join(app.dir, "limited.mjs"),
      `const store = { async increment() { return { count: 1, resetAt: Date.now() + 1000 }; }, async get() { return null; }, async reset() {} };
export default {
  providers: [],
  rateLimit: { store, clientAddress: (request) => request.headers.get("x-forwarded-for")?.split(",").at(-1)?.trim() },
};
`,
    );
    expect(await runAuthlib(["doctor", "--config", "limited.mjs"], { cwd: app.dir })).toMatchObject({
      code: 0,
      stdout: `${header(true, "limited.mjs")}ok: no problems found.\n`,
    });
    // Limits switched off: nothing to say about them.
    await writeFile(join(app.dir, "off.mjs"), "export default { providers: [], rateLimit: false };\n");
    expect((await runAuthlib(["doctor", "--config", "off.mjs"], { cwd: app.dir })).stdout).toBe(
      `${header(true, "off.mjs")}ok: no problems found.\n`,
    );
  });

  it("a config module that cannot be loaded, or exports no config: one error line, exit 1", async () => {
    await writeFile(join(app.dir, ".env"), `AUTH_SECRET=${STRONG_SECRET}\n`);
    const missing = await runAuthlib(["doctor", "--config", "nowhere.mjs"], { cwd: app.dir });
    expect(missing.code).toBe(1);
    expect(missing.stdout).toMatch(/^error: The config module nowhere\.mjs could not be loaded \(Cannot find module [^\n]+\)\. Fix: /m);

    await writeFile(join(app.dir, "empty.mjs"), "export const somethingElse = 1;\n");
    const empty = await runAuthlib(["doctor", "--config", "empty.mjs"], { cwd: app.dir });
    expect(empty.code).toBe(1);
    expect(empty.stdout).toContain(
      "error: empty.mjs exports no AuthConfig (a default export or `authConfig` with a `providers` array). Fix: Export the configuration",
    );
  });
});

describe("authlib doctor on a broken setup", () => {
  let app: TempApp;
  afterAll(() => app?.remove());

  it("reports every problem, one line each with its fix, and exits 1", async () => {
    // The database package and driver are installed; nodemailer and @simplewebauthn/server are not.
    app = await tempApp(["@authlib/hosted-db-adapter", "pg"]);
    const port = await freePort();
    await writeFile(
      join(app.dir, ".env"),
      [
        "NODE_ENV=production",
        "AUTH_SECRET=too-short",
        "AUTH_TRUST_HOST=true",
        "AUTH_CORP_SECRET=corp-secret",
        `AUTHLIB_DATABASE_URL=postgres://app:db-password@127.0.0.1:${port}/app`,
        "",
      ].join("\n"),
    );
    await writeFile(
      join(app.dir, "auth.config.mjs"),
      `export default {
  experimental: { enableWebAuthn: true },
  providers: [
    { id: "corp", name: "Corp SSO", type: "oidc", issuer: "https://sso.corp.example" },
    { id: "mail", name: "Email", type: "email", server: "smtp://127.0.0.1:2525", sendVerificationRequest() {} },
    { id: "passkey", name: "Passkey", type: "webauthn" },
  ],
};
`,
    );
    const run = await runAuthlib(["doctor", "--config", "auth.config.mjs"], { cwd: app.dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe("");
    expect(run.stdout.split("\n")).toEqual([
      header(true, "auth.config.mjs").trimEnd(),
      "error: The secret (AUTH_SECRET) is 9 bytes long; authlib needs at least 32 random bytes and refuses shorter ones in production. Fix: replace it with `npx authlib secret` (`npx authlib secret --append .env --force` rewrites AUTH_SECRET; existing sessions end).",
      `error: ${UNRESTRICTED_TRUST_HOST}`,
      'error: Provider "corp" has no client id. Fix: set AUTH_CORP_ID (or `clientId` in its options).',
      "error: authlib refuses this configuration at start-up: MissingAdapter: Email sign-in needs a database adapter: set `adapter` in the config. Fix: change the configuration as the message says; until then every request ends on the configuration error page.",
      `warning: ${MEMORY_STORE}`,
      `warning: ${BEHIND_PROXY}`,
      'error: nodemailer is not installed, and the email provider "mail" sends mail over SMTP. Fix: npm install nodemailer',
      'error: @simplewebauthn/server is not installed, and the passkey provider "passkey" verifies WebAuthn responses. Fix: npm install @simplewebauthn/server',
      `error: cannot reach the database at postgres://app:***@127.0.0.1:${port}/app (connection refused). Fix: start the database, or correct AUTHLIB_DATABASE_URL (host, port, user, password, database).`,
      "7 errors, 2 warnings.",
      "",
    ]);
    expect(run.stdout).not.toContain("db-password");
    expect(run.stdout).not.toContain("too-short");
  });
});

const postgresURL = testDatabaseURL();

describe.skipIf(!(await postgresAnswers(postgresURL, "authlib doctor with a database")))(
  "authlib doctor with a database (PostgreSQL)",
  () => {
    const branch = `doctor_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
    let app: TempApp;
    let pool: pg.Pool;
    beforeAll(async () => {
      pool = new pg.Pool({ connectionString: postgresURL });
      app = await tempApp(["@authlib/hosted-db-adapter", "pg"]);
      await writeFile(
        join(app.dir, ".env"),
        [
          "NODE_ENV=production",
          `AUTH_SECRET=${STRONG_SECRET}`,
          "AUTHLIB_URL=https://app.example.com",
          "AUTH_CORP_ID=corp-app",
          "AUTH_CORP_SECRET=corp-secret",
          // Read by the app's own HostedDbClient too: the doctor exports .env to the module's process.env.
          `AUTHLIB_DATABASE_URL=${postgresURL}`,
          `AUTHLIB_BRANCH=${branch}`,
          "",
        ].join("\n"),
      );
      // The app's configuration: the hosted-db adapter (its client reads AUTHLIB_DATABASE_URL) and an OIDC provider.
      await writeFile(
        join(app.dir, "auth.config.mjs"),
        `import { HostedDbAdapter, HostedDbClient, hostedDbRateLimitStore } from "@authlib/hosted-db-adapter";
const client = new HostedDbClient();
export const authConfig = {
  adapter: HostedDbAdapter(client),
  // Shared by every instance: without it the doctor warns (rate-limit-memory-store).
  rateLimit: { store: hostedDbRateLimitStore(client) },
  providers: [{ id: "corp", name: "Corp SSO", type: "oidc", issuer: "https://sso.corp.example" }],
};
`,
      );
    });
    afterAll(async () => {
      await pool.query(`DROP SCHEMA IF EXISTS "${branch}" CASCADE`);
      await pool.end();
      await app.remove();
    });

    it("before migrating: the pending migration is an error (said once, not again for the adapter); after: no problems, exit 0", async () => {
      const before = await runAuthlib(["doctor", "--config", "auth.config.mjs"], { cwd: app.dir });
      expect(before.code).toBe(1);
      expect(before.stdout.split("\n").slice(1)).toEqual([
        `error: Branch "${branch}" of ${postgresURL} lacks migration(s) 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14: the adapter's queries fail until they are applied. Fix: run \`npx authlib db migrate\` (once per deploy).`,
        "1 error, 0 warnings.",
        "",
      ]);

      const env = { AUTHLIB_DATABASE_URL: postgresURL, AUTHLIB_BRANCH: branch };
      expect((await runAuthlib(["db", "migrate"], { cwd: app.dir, env })).code).toBe(0);
      // The app's config opened a pool; the doctor still exits once its report is written.
      const after = await runAuthlib(["doctor", "--config", "auth.config.mjs"], { cwd: app.dir });
      expect(existsSync(join(app.dir, ".authlib-db"))).toBe(false);
      expect(after).toMatchObject({ code: 0, stderr: "" });
      expect(after.stdout).toBe(`${header(true, "auth.config.mjs")}ok: no problems found.\n`);
    }, 60_000);
  },
);
