/**
 * The `authlib` command line as users run it: the built executable in a child process (run `npm run
 * build` first). Usage and exit codes, `secret` (format, randomness, `--append`), and `db migrate` /
 * `db status` on PGlite, on PostgreSQL and against a database that is down, and `db prune` on PostgreSQL. `doctor` is in
 * cli-doctor.test.ts.
 */
import { cp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresAnswers, testDatabaseURL } from "../../../hosted-db-adapter/test/helpers.js";
import { formatFinding, formatSummary } from "../../src/cli/doctor/findings.js";
import { colourAllowed, paint } from "../../src/cli/terminal.js";
import { freePort, REPO_ROOT, runAuthlib, type TempApp, tempApp } from "../helpers/cli.js";

const BASE64URL_32_BYTES = /^[A-Za-z0-9_-]{43}$/;
/** The ANSI escape character: output to a pipe must have none. */
const ESCAPE = String.fromCharCode(0x1b);

describe("authlib: usage and exit codes", () => {
  it("help and --help print the usage on stdout with exit code 0", async () => {
    for (const args of [["help"], ["--help"], ["-h"]]) {
      const run = await runAuthlib(args);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^Usage: authlib <command> \[options\]\n/);
      for (const command of ["secret", "db migrate|status", "db import-authjs", "doctor"]) expect(run.stdout).toContain(command);
      expect(run.stderr).toBe("");
    }
  });

  it("the package's bin is a committed file (npm links it in a fresh clone before dist/ exists); unbuilt, it says to build", async () => {
    const pkg = JSON.parse(await readFile(join(REPO_ROOT, "packages/core/package.json"), "utf8")) as { bin: { authlib: string } };
    const bin = join(REPO_ROOT, "packages/core", pkg.bin.authlib);
    expect(pkg.bin.authlib).not.toMatch(/^\.?\/?dist\//);
    expect((await runAuthlib(["help"], { script: bin })).stdout).toMatch(/^Usage: authlib <command>/);
    const unbuilt = await tempApp();
    try {
      await cp(bin, join(unbuilt.dir, "bin/authlib.mjs"));
      const run = await runAuthlib(["help"], { script: join(unbuilt.dir, "bin/authlib.mjs") });
      expect(run).toEqual({
        code: 1,
        stdout: "",
        stderr: "authlib: the command line is not built yet: run `npm run build` first (in the authlib repository).\n",
      });
    } finally {
      await unbuilt.remove();
    }
  });

  it("no command, an unknown command or an unknown option: the usage on stderr and exit code 2", async () => {
    const none = await runAuthlib([]);
    expect(none).toMatchObject({ code: 2, stdout: "" });
    expect(none.stderr).toMatch(/^Usage: authlib/);

    const unknown = await runAuthlib(["deploy"]);
    expect(unknown).toMatchObject({ code: 2, stdout: "" });
    expect(unknown.stderr).toMatch(/^authlib: unknown command "deploy"\n\nUsage: authlib/);

    const option = await runAuthlib(["secret", "--length", "8"]);
    expect(option.code).toBe(2);
    expect(option.stderr).toMatch(/^authlib: Unknown option '--length'/);

    const force = await runAuthlib(["secret", "--force"]);
    expect(force.code).toBe(2);
    expect(force.stderr).toMatch(/^authlib: --force only goes with --append <file>\n/);
  });
});

describe("colour: only on a terminal, never with NO_COLOR", () => {
  it("is allowed on a TTY without NO_COLOR (an empty NO_COLOR counts as unset), and nowhere else", () => {
    expect(colourAllowed(true, {})).toBe(true);
    expect(colourAllowed(true, { NO_COLOR: "" })).toBe(true);
    expect(colourAllowed(true, { NO_COLOR: "1" })).toBe(false);
    expect(colourAllowed(false, {})).toBe(false);
    expect(colourAllowed(undefined, {})).toBe(false);
  });

  it("paints findings only when allowed", () => {
    const finding = { level: "error" as const, problem: "Broken.", fix: "mend it." };
    expect(formatFinding({ colour: false }, finding)).toBe("error: Broken. Fix: mend it.\n");
    expect(formatFinding({ colour: true }, finding)).toBe("\u001b[31merror\u001b[0m: Broken. \u001b[2mFix:\u001b[0m mend it.\n");
    expect(paint({ colour: false }, "green", "ok")).toBe("ok");
    expect(formatSummary({ colour: false }, [finding, { ...finding, level: "warning" }])).toBe("1 error, 1 warning.\n");
  });
});

describe("authlib secret", () => {
  let app: TempApp;
  beforeAll(async () => {
    app = await tempApp();
  });
  afterAll(() => app.remove());

  it("prints 32 random bytes as base64url (43 characters), a different one every time, without colour", async () => {
    const runs = await Promise.all(Array.from({ length: 6 }, () => runAuthlib(["secret"])));
    const secrets = runs.map((run) => {
      expect(run).toMatchObject({ code: 0, stderr: "" });
      expect(run.stdout).not.toContain(ESCAPE);
      expect(run.stdout.endsWith("\n")).toBe(true);
      return run.stdout.trimEnd();
    });
    for (const secret of secrets) {
      expect(secret).toMatch(BASE64URL_32_BYTES);
      expect(Buffer.from(secret, "base64url")).toHaveLength(32);
    }
    expect(new Set(secrets).size).toBe(secrets.length);
    // Not a fixed pattern: the six secrets together use many distinct characters.
    expect(new Set(secrets.join("")).size).toBeGreaterThan(40);
  });

  it("--append creates a missing env file (mode 0600) and never prints the secret", async () => {
    const run = await runAuthlib(["secret", "--append", "new.env"], { cwd: app.dir });
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(run.stdout).toBe("Created new.env with AUTH_SECRET (32 random bytes, base64url). Keep new.env out of version control.\n");
    const text = await readFile(join(app.dir, "new.env"), "utf8");
    expect(text).toMatch(/^AUTH_SECRET=[A-Za-z0-9_-]{43}\n$/);
    expect(run.stdout).not.toContain(text.slice("AUTH_SECRET=".length).trim());
    expect((await stat(join(app.dir, "new.env"))).mode & 0o777).toBe(0o600);
  });

  it("--append adds a line to an existing file, keeping its other lines (even without a final newline)", async () => {
    const file = join(app.dir, ".env");
    await writeFile(file, "# app settings\nDATABASE_URL=postgres://db/app");
    const run = await runAuthlib(["secret", "--append", ".env"], { cwd: app.dir });
    expect(run).toMatchObject({
      code: 0,
      stdout: "Added to .env: AUTH_SECRET (32 random bytes, base64url). Keep .env out of version control.\n",
    });
    expect(await readFile(file, "utf8")).toMatch(/^# app settings\nDATABASE_URL=postgres:\/\/db\/app\nAUTH_SECRET=[A-Za-z0-9_-]{43}\n$/);
  });

  it("keeps an existing AUTH_SECRET (exit 1) unless --force, which replaces only that line", async () => {
    const file = join(app.dir, "keep.env");
    const before = 'FIRST=1\nexport AUTH_SECRET="old-secret"\nLAST=2\n';
    await writeFile(file, before);
    const refused = await runAuthlib(["secret", "--append", "keep.env"], { cwd: app.dir });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toMatch(/^authlib: keep\.env already has an AUTH_SECRET; it was kept\. Use --force to replace it/);
    expect(await readFile(file, "utf8")).toBe(before);

    const forced = await runAuthlib(["secret", "--append", "keep.env", "--force"], { cwd: app.dir });
    expect(forced).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Replaced in keep\.env: AUTH_SECRET/) });
    expect(await readFile(file, "utf8")).toMatch(/^FIRST=1\nexport AUTH_SECRET=[A-Za-z0-9_-]{43}\nLAST=2\n$/);
  });

  it("fills an empty AUTH_SECRET= line without --force", async () => {
    const file = join(app.dir, "empty.env");
    await writeFile(file, "AUTH_SECRET=\nOTHER=x\n");
    const run = await runAuthlib(["secret", "--append", "empty.env"], { cwd: app.dir });
    expect(run.code).toBe(0);
    expect(await readFile(file, "utf8")).toMatch(/^AUTH_SECRET=[A-Za-z0-9_-]{43}\nOTHER=x\n$/);
  });
});

describe("authlib db on PGlite (a folder)", () => {
  let app: TempApp;
  beforeAll(async () => {
    app = await tempApp();
  });
  afterAll(() => app.remove());

  it("status shows pending migrations (exit 1), migrate applies them, status is then clean (exit 0)", async () => {
    const url = `file://${join(app.dir, "db")}`;
    const before = await runAuthlib(["db", "status", "--url", url]);
    expect(before).toMatchObject({ code: 1, stderr: "" });
    expect(before.stdout).toBe(
      `Database: ${url}, branch "main"\nApplied:  none\nPending:  1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14 (run \`authlib db migrate\`)\nTables:   none\n`,
    );

    // Run in the app's folder: the database folder is in it, and no .gitignore names it yet.
    const migrate = await runAuthlib(["db", "migrate", "--url", url], { cwd: app.dir });
    expect(migrate).toMatchObject({ code: 0, stderr: "" });
    expect(migrate.stdout).toBe(
      [
        `Opening ${url} (embedded PGlite: its first start takes a while)…`,
        `Applying 14 migration(s) to branch "main", in one transaction:`,
        "  1 authlib tables",
        "  2 rate-limit windows",
        "  3 verification-token expiry index",
        "  4 session records",
        "  5 audit events",
        "  6 passkey names",
        "  7 organizations",
        "  8 authorization server",
        "  9 api keys",
        "  10 admin: bans and roles",
        "  11 audit impersonator",
        "  12 sso connections and identities",
        "  13 scim directory",
        "  14 session active organization",
        `Applied migration(s) 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14 to branch "main" of ${url}; now at version 14.`,
        `db/ holds this machine's database, not source: add it to .gitignore (echo "db/" >> .gitignore).`,
        "",
      ].join("\n"),
    );
    // Once .gitignore names the folder, the hint is gone; an up-to-date branch applies nothing.
    await writeFile(join(app.dir, ".gitignore"), "node_modules/\n/db/\n");
    const again = await runAuthlib(["db", "migrate", "--url", url], { cwd: app.dir });
    expect(again).toMatchObject({
      code: 0,
      stderr: "",
      stdout: `Opening ${url} (embedded PGlite: its first start takes a while)…\nUp to date: branch "main" of ${url} is at version 14.\n`,
    });
    await rm(join(app.dir, ".gitignore"));

    const after = await runAuthlib(["db", "status"], { env: { AUTHLIB_DATABASE_URL: url } });
    expect(after).toMatchObject({ code: 0, stderr: "" });
    expect(after.stdout).toMatch(
      /^Applied: {2}1 \(authlib tables, \d{4}-\d\d-\d\dT[\d:.]+Z\), 2 \(rate-limit windows, \d{4}-\d\d-\d\dT[\d:.]+Z\), 3 \(verification-token expiry index, \d{4}-\d\d-\d\dT[\d:.]+Z\), 4 \(session records, \d{4}-\d\d-\d\dT[\d:.]+Z\), 5 \(audit events, \d{4}-\d\d-\d\dT[\d:.]+Z\), 6 \(passkey names, \d{4}-\d\d-\d\dT[\d:.]+Z\), 7 \(organizations, \d{4}-\d\d-\d\dT[\d:.]+Z\), 8 \(authorization server, \d{4}-\d\d-\d\dT[\d:.]+Z\), 9 \(api keys, \d{4}-\d\d-\d\dT[\d:.]+Z\), 10 \(admin: bans and roles, \d{4}-\d\d-\d\dT[\d:.]+Z\), 11 \(audit impersonator, \d{4}-\d\d-\d\dT[\d:.]+Z\), 12 \(sso connections and identities, \d{4}-\d\d-\d\dT[\d:.]+Z\), 13 \(scim directory, \d{4}-\d\d-\d\dT[\d:.]+Z\), 14 \(session active organization, \d{4}-\d\d-\d\dT[\d:.]+Z\)$/m,
    );
    expect(after.stdout).toContain("Pending:  none\n");
    expect(after.stdout).toContain(
      "Tables:   authlib_accounts, authlib_api_keys, authlib_audit_events, authlib_authenticators, authlib_domains, authlib_invitations, authlib_members, authlib_migrations, authlib_oauth_clients, authlib_oauth_codes, authlib_oauth_consents, authlib_oauth_device_codes, authlib_oauth_grants, authlib_oauth_signing_keys, authlib_organizations, authlib_rate_limits, authlib_scim_group_members, authlib_scim_groups, authlib_scim_tokens, authlib_scim_users, authlib_session_records, authlib_sessions, authlib_sso_connections, authlib_sso_identities, authlib_user_bans, authlib_users, authlib_users_accounts, authlib_users_sessions, authlib_verificationTokens (29)\n",
    );
    // Four PGlite starts in child processes, the first writing a new database to disk.
  }, 180_000);

  it("reads AUTHLIB_DATABASE_URL and AUTHLIB_BRANCH from the working directory's .env, as doctor does; the process env wins", async () => {
    const url = `file://${join(app.dir, "from-env-file")}`;
    await writeFile(join(app.dir, ".env"), `AUTHLIB_DATABASE_URL=${url}\nAUTHLIB_BRANCH=envbranch\n`);
    try {
      const status = await runAuthlib(["db", "status"], { cwd: app.dir });
      expect(status.stdout.split("\n")[0]).toBe(`Database: ${url}, branch "envbranch"`);
      const other = `file://${join(app.dir, "from-process")}`;
      const overridden = await runAuthlib(["db", "status"], { cwd: app.dir, env: { AUTHLIB_DATABASE_URL: other } });
      expect(overridden.stdout.split("\n")[0]).toBe(`Database: ${other}, branch "envbranch"`);
    } finally {
      await rm(join(app.dir, ".env"));
    }
  }, 120_000);

  it("an invalid branch is one line and exit code 1", async () => {
    const run = await runAuthlib(["db", "status", "--url", "memory://", "--branch", "Bad Name"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^authlib: Invalid branch name "Bad Name": [^\n]+\n$/);
  });
});

describe("authlib db against a database that is down", () => {
  it("says so in one line with the password masked, exit code 1, no stack", async () => {
    const port = await freePort();
    const url = `postgres://tester:s3cret-pw@127.0.0.1:${port}/x`;
    for (const command of ["migrate", "status"]) {
      const run = await runAuthlib(["db", command, "--url", url]);
      expect(run.code).toBe(1);
      // migrate says which database it opens (the password masked) before it tries.
      expect(run.stdout).toBe(command === "migrate" ? `Opening postgres://tester:***@127.0.0.1:${port}/x…\n` : "");
      expect(run.stderr).toBe(`authlib: cannot reach the database at postgres://tester:***@127.0.0.1:${port}/x (connection refused)\n`);
    }
    const fromEnv = await runAuthlib(["db", "migrate"], { env: { AUTHLIB_DATABASE_URL: url } });
    expect(fromEnv.stderr).toBe(`authlib: cannot reach the database at postgres://tester:***@127.0.0.1:${port}/x (connection refused)\n`);
  });

  it("authlib-db, the adapter's old name, behaves the same", async () => {
    const port = await freePort();
    const run = await runAuthlib(["migrate", "--url", `postgres://tester:pw@127.0.0.1:${port}/x`], {
      script: join(REPO_ROOT, "packages/hosted-db-adapter/dist/cli.js"),
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`authlib-db: cannot reach the database at postgres://tester:***@127.0.0.1:${port}/x (connection refused)\n`);
  });
});

describe("authlib db without @authlib/hosted-db-adapter installed", () => {
  let app: TempApp;
  afterAll(() => app?.remove());

  it("says what to install, in one line, exit code 1", async () => {
    const manifest = JSON.parse(await readFile(join(REPO_ROOT, "packages/core/package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    // An app with @authlib/core (a copy, so nothing resolves from the repo) and its dependencies only.
    app = await tempApp(Object.keys(manifest.dependencies));
    const core = join(app.dir, "node_modules/@authlib/core");
    await cp(join(REPO_ROOT, "packages/core/dist"), join(core, "dist"), { recursive: true });
    await cp(join(REPO_ROOT, "packages/core/package.json"), join(core, "package.json"));
    const run = await runAuthlib(["db", "migrate"], { cwd: app.dir, script: join(core, "dist/cli/main.js") });
    expect(run).toMatchObject({ code: 1, stdout: "" });
    expect(run.stderr).toBe(
      "authlib: the db commands come with @authlib/hosted-db-adapter, which is not installed: npm install @authlib/hosted-db-adapter\n",
    );
    // secret needs nothing more.
    const secret = await runAuthlib(["secret"], { cwd: app.dir, script: join(core, "dist/cli/main.js") });
    expect(secret.stdout.trimEnd()).toMatch(BASE64URL_32_BYTES);
  });
});

const postgresURL = testDatabaseURL();

describe.skipIf(!(await postgresAnswers(postgresURL, "authlib db on PostgreSQL")))("authlib db on PostgreSQL", () => {
  const branch = `cli_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  let pool: pg.Pool;
  beforeAll(() => {
    pool = new pg.Pool({ connectionString: postgresURL });
  });
  afterAll(async () => {
    await pool.query(`DROP SCHEMA IF EXISTS "${branch}" CASCADE`);
    await pool.end();
  });

  it("status (pending), migrate, status (clean), migrate again (up to date), on a branch of its own", async () => {
    const env = { AUTHLIB_DATABASE_URL: postgresURL, AUTHLIB_BRANCH: branch };
    const before = await runAuthlib(["db", "status"], { env });
    expect(before).toMatchObject({ code: 1, stderr: "" });
    expect(before.stdout).toContain(`branch "${branch}"\nApplied:  none\nPending:  1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14 `);

    const migrate = await runAuthlib(["db", "migrate"], { env });
    expect(migrate).toMatchObject({ code: 0, stderr: "" });
    // A server's database is no folder of the app: no .gitignore hint.
    expect(migrate.stdout).toBe(
      `Opening ${postgresURL}…\nApplying 14 migration(s) to branch "${branch}", in one transaction:\n  1 authlib tables\n  2 rate-limit windows\n  3 verification-token expiry index\n  4 session records\n  5 audit events\n  6 passkey names\n  7 organizations\n  8 authorization server\n  9 api keys\n  10 admin: bans and roles\n  11 audit impersonator\n  12 sso connections and identities\n  13 scim directory\n  14 session active organization\n` +
        `Applied migration(s) 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14 to branch "${branch}" of ${postgresURL}; now at version 14.\n`,
    );
    const { rows } = await pool.query("SELECT count(*)::int AS tables FROM information_schema.tables WHERE table_schema = $1", [branch]);
    expect(rows).toEqual([{ tables: 29 }]);

    const after = await runAuthlib(["db", "status", "--branch", branch, "--url", postgresURL]);
    expect(after).toMatchObject({ code: 0, stderr: "" });
    expect(after.stdout).toContain("Pending:  none\n");
    expect(after.stdout).toContain("(29)\n");

    const again = await runAuthlib(["db", "migrate"], { env });
    expect(again).toMatchObject({
      code: 0,
      stdout: `Opening ${postgresURL}…\nUp to date: branch "${branch}" of ${postgresURL} is at version 14.\n`,
    });
  }, 60_000);

  it("prune deletes the expired rows (sign-in links, used passkey challenges, sessions, JWT session records, rate-limit windows, device codes, signing keys) and nothing live", async () => {
    const env = { AUTHLIB_DATABASE_URL: postgresURL, AUTHLIB_BRANCH: branch };
    expect((await runAuthlib(["db", "migrate"], { env })).code).toBe(0);
    const s = `"${branch}"`;
    await pool.query(
      `INSERT INTO ${s}."authlib_verificationTokens" ("identifier", "token", "expires")
       SELECT CASE WHEN i % 2 = 0 THEN 'ada@example.com' ELSE 'authlib:webauthn-used-challenge' END, md5(i::text), now() - interval '1 hour'
       FROM generate_series(1, 30) AS i`,
    );
    await pool.query(
      `INSERT INTO ${s}."authlib_verificationTokens" ("identifier", "token", "expires") VALUES ('ada@example.com', 'live', now() + interval '1 hour')`,
    );
    const user = await pool.query<{ id: string }>(`INSERT INTO ${s}."authlib_users" ("email") VALUES ('ada@example.com') RETURNING "id"`);
    await pool.query(
      `INSERT INTO ${s}."authlib_sessions" ("user_id", "sessionToken", "expires") VALUES ($1, 'old', now() - interval '1 day'), ($1, 'current', now() + interval '1 day')`,
      [user.rows[0]?.id],
    );
    await pool.query(
      `INSERT INTO ${s}."authlib_rate_limits" ("key", "count", "reset_at") VALUES ('ended', 1, now() - interval '1 minute')`,
    );
    await pool.query(
      `INSERT INTO ${s}."authlib_session_records" ("id", "user_id", "created_at", "last_seen_at", "expires")
       VALUES ('ended-jwt', 'credentials-user', now() - interval '2 days', now() - interval '2 days', now() - interval '1 day')`,
    );

    // The authorization server's: an expired device code, an expired signing key and a live one.
    await pool.query(
      `INSERT INTO ${s}."authlib_oauth_device_codes" ("device_code_hash", "user_code", "client_id", "scopes", "resources", "status", "interval", "expires_at", "created_at")
       VALUES ('dc-expired', 'ABCDEFGH', 'cli', '{}', '{}', 'pending', 5, now() - interval '1 minute', now() - interval '11 minutes')`,
    );
    await pool.query(
      `INSERT INTO ${s}."authlib_oauth_signing_keys" ("kid", "alg", "public_jwk", "sealed_private_jwk", "created_at", "retires_at", "expires_at")
       VALUES ('old', 'ES256', '{}', 'sealed', now() - interval '90 days', now() - interval '60 days', now() - interval '1 day'),
              ('current', 'ES256', '{}', 'sealed', now(), now() + interval '30 days', now() + interval '60 days')`,
    );

    const run = await runAuthlib(["db", "prune"], { env });
    expect(run).toMatchObject({
      code: 0,
      stderr: "",
      stdout: `Pruned branch "${branch}" of ${postgresURL}: 30 expired verification token(s) (sign-in links, passkey challenges), 1 expired session(s), 1 expired JWT session record(s), 1 ended rate-limit window(s), 0 expired authorization code(s), 1 expired device code(s), 0 ended OAuth grant(s), 1 expired signing key(s), 0 ended API key(s), 0 ended ban(s).\n`,
    });
    const left = await pool.query(
      `SELECT (SELECT count(*)::int FROM ${s}."authlib_verificationTokens") AS tokens, (SELECT count(*)::int FROM ${s}."authlib_sessions") AS sessions, (SELECT count(*)::int FROM ${s}."authlib_rate_limits") AS windows, (SELECT count(*)::int FROM ${s}."authlib_oauth_signing_keys") AS keys`,
    );
    expect(left.rows).toEqual([{ tokens: 1, sessions: 1, windows: 0, keys: 1 }]);

    const again = await runAuthlib(["db", "prune", "--branch", branch, "--url", postgresURL]);
    expect(again.stdout).toContain(
      ": 0 expired verification token(s) (sign-in links, passkey challenges), 0 expired session(s), 0 expired JWT session record(s), 0 ended",
    );
  }, 60_000);

  it("prune on a branch that is not migrated says so in one line, exit code 1", async () => {
    const run = await runAuthlib(["db", "prune"], { env: { AUTHLIB_DATABASE_URL: postgresURL, AUTHLIB_BRANCH: `${branch}_none` } });
    expect(run).toMatchObject({ code: 1, stdout: "" });
    expect(run.stderr).toMatch(/^authlib: [^\n]*migrat[^\n]*\n$/);
  });
});
