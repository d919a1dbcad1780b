/**
 * The core Password() flows (packages/core/test/password) over HTTP (`Auth()`) with the hosted-db adapter
 * on a real PostgreSQL server: `AUTHLIB_TEST_DATABASE_URL`, else `postgres://postgres@127.0.0.1:5432/test`.
 * Unlike PGlite (one connection), the server runs concurrent redemptions of one link on separate
 * connections, so "exactly one wins" is decided by the database's constraints, not by a queue.
 *
 * And the interop the Password() issue asks for: a Password() user of the hosted-db adapter, written into
 * `@auth/pg-adapter`'s tables by the real `@auth/pg-adapter`, comes back through `importFromAuthjs` and
 * signs in with the same password.
 *
 * One pool and one SMTP server per file; every test works in branches (schemas) of its own, dropped after
 * it. Skipped, saying why, when no server answers.
 */
import type { AdapterAccount as AuthjsAccount } from "@auth/core/adapters";
import PostgresAdapter from "@auth/pg-adapter";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startSmtpServer } from "../../core/test/helpers/smtp.js";
import { linkIn, mailTo, ORIGIN, passwordApp, post, type Smtp, signIn, signUpAndVerify } from "../../core/test/password/helpers.js";
import { HostedDbAdapter, HostedDbClient, importFromAuthjs } from "../src/index.js";
import { quoteIdentifier } from "../src/sql.js";
import { dropBranch, postgresAnswers, randomBranch, testDatabaseURL } from "./helpers.js";

const databaseURL = testDatabaseURL();
const available = await postgresAnswers(databaseURL, "the Password() flows on PostgreSQL");
const CONCURRENT = 50;

describe.skipIf(!available)(`Password() on PostgreSQL at ${new URL(databaseURL).host}`, () => {
  let pool: pg.Pool;
  let smtp: Smtp;
  const clients: HostedDbClient[] = [];
  const schemas: string[] = [];

  beforeAll(async () => {
    // More connections than the default 10 would not add contention: 10 already run the races in parallel.
    pool = new pg.Pool({ connectionString: databaseURL, max: 10 });
    smtp = await startSmtpServer();
  });

  afterEach(async () => {
    for (const client of clients.splice(0)) {
      await dropBranch(client, client.branch);
      await client.close();
    }
    for (const schema of schemas.splice(0)) await pool.query(`DROP SCHEMA IF EXISTS ${quoteIdentifier(schema)} CASCADE`);
  });

  afterAll(async () => {
    await smtp?.close();
    await pool?.end();
  });

  /** A migrated branch of its own on the server, with its adapter (dropped after the test). */
  async function postgresBranch(prefix = "pw") {
    const client = new HostedDbClient({ pool, branch: randomBranch(prefix) });
    clients.push(client);
    await client.migrate();
    return { client, adapter: HostedDbAdapter(client) };
  }

  describe.each(["jwt", "database"] as const)("with %s sessions", (strategy) => {
    const app = () => passwordApp(smtp, { strategy, database: () => postgresBranch() });

    it("sign up → verify → sign out → sign in; the account row holds the hash", async () => {
      const { adapter, browser } = await app();
      const ada = browser();
      await signUpAndVerify(smtp, ada, "ada@example.com", "correct horse battery", "Ada Lovelace");
      expect((await ada.session())?.user).toMatchObject({ email: "ada@example.com", name: "Ada Lovelace" });
      const user = await adapter.getUserByEmail("ada@example.com");
      expect(user?.emailVerified).toBeInstanceOf(Date);
      const account = await adapter.getAccount(user?.id as string, "password");
      expect(account).toMatchObject({ type: "credentials", provider: "password", providerAccountId: user?.id, userId: user?.id });
      expect(account?.access_token).toMatch(/^scrypt\$\d+\$\d+\$\d+\$/);

      await post(ada, "/auth/signout", {});
      expect(await ada.session()).toBeNull();
      expect((await signIn(ada, "ada@example.com", "not the password")).headers.get("location")).toBe(
        `${ORIGIN}/auth/signin?error=CredentialsSignin&code=credentials&provider=password&email=ada%40example.com`,
      );
      expect((await signIn(ada, "ADA@example.com", "correct horse battery")).headers.get("location")).toBe(`${ORIGIN}/home`);
      expect((await ada.session())?.user).toMatchObject({ email: "ada@example.com" });
    });

    it("forgot → reset: the old password is refused, every other session ends, the link is spent", async () => {
      const { browser, events } = await app();
      const laptop = browser();
      await signUpAndVerify(smtp, laptop, "grace@example.com", "first password 1");
      const phone = browser();
      await signIn(phone, "grace@example.com", "first password 1");
      expect(await phone.session()).not.toBeNull();

      const asker = browser();
      const since = smtp.mails.length;
      await post(asker, "/auth/password/forgot", { email: "grace@example.com", callbackUrl: "/after-reset" });
      const token = linkIn(mailTo(smtp, "grace@example.com", since), "/auth/password/reset").searchParams.get("token") as string;
      const reset = await post(asker, "/auth/password/reset", { token, password: "second password 2" });
      expect(reset.headers.get("location")).toBe(`${ORIGIN}/after-reset`);
      expect((await asker.session())?.user).toMatchObject({ email: "grace@example.com" });
      expect(await laptop.session()).toBeNull();
      expect(await phone.session()).toBeNull();

      const other = browser();
      expect((await signIn(other, "grace@example.com", "first password 1")).headers.get("location")).toContain("error=CredentialsSignin");
      expect((await signIn(other, "grace@example.com", "second password 2")).headers.get("location")).toBe(`${ORIGIN}/home`);
      const again = await post(asker, "/auth/password/reset", { token, password: "third password 3" });
      expect(again.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`);
      expect(events.filter((e) => e.startsWith("passwordChanged"))).toHaveLength(1);
    });

    it("change: needs the current password, ends the user's other sessions, the old password stops working", async () => {
      const { browser } = await app();
      const linus = browser();
      await signUpAndVerify(smtp, linus, "linus@example.com", "old password 1");
      const other = browser();
      await signIn(other, "linus@example.com", "old password 1");

      const wrong = await post(linus, "/auth/password/change", {
        currentPassword: "nope nope 1",
        password: "new password 2",
        callbackUrl: "/settings",
      });
      // A browser's refused form goes back to the page it came from.
      expect(wrong.headers.get("location")).toBe(`${ORIGIN}/settings?error=IncorrectPassword`);
      expect(await other.session()).not.toBeNull();

      expect((await post(linus, "/auth/password/change", { currentPassword: "old password 1", password: "new password 2" })).status).toBe(
        302,
      );
      expect(await linus.session()).not.toBeNull();
      expect(await other.session()).toBeNull();
      const fresh = browser();
      expect((await signIn(fresh, "linus@example.com", "old password 1")).headers.get("location")).toContain("error=CredentialsSignin");
      expect((await signIn(fresh, "linus@example.com", "new password 2")).headers.get("location")).toBe(`${ORIGIN}/home`);
    });

    it(`${CONCURRENT} concurrent redemptions of one reset link: exactly one sets the password, the rest are refused`, async () => {
      const { browser, events } = await app();
      await signUpAndVerify(smtp, browser(), "race@example.com", "owner password 1");
      const asker = browser();
      const since = smtp.mails.length;
      await post(asker, "/auth/password/forgot", { email: "race@example.com" });
      const token = linkIn(mailTo(smtp, "race@example.com", since), "/auth/password/reset").searchParams.get("token") as string;
      const csrfToken = await asker.csrf();
      const answers = await Promise.all(
        Array.from({ length: CONCURRENT }, (_, i) =>
          asker.send("/auth/password/reset", { form: { csrfToken, token, password: `concurrent password ${i}` } }),
        ),
      );
      const locations = answers.map((a) => [a.status, a.headers.get("location")]);
      const winners = locations.flatMap(([, location], i) => (location === `${ORIGIN}/` ? [i] : []));
      expect(winners).toHaveLength(1);
      // Every loser is the link's refusal, not a database error.
      expect(
        locations.filter(([status, location]) => status === 302 && location === `${ORIGIN}/auth/error?error=Verification`),
      ).toHaveLength(CONCURRENT - 1);
      expect(events.filter((e) => e.startsWith("passwordChanged"))).toHaveLength(1);
      // The winner's password is the one stored.
      const fresh = browser();
      expect((await signIn(fresh, "race@example.com", "owner password 1")).headers.get("location")).toContain("error=CredentialsSignin");
      expect((await signIn(fresh, "race@example.com", `concurrent password ${winners[0]}`)).headers.get("location")).toBe(`${ORIGIN}/home`);
    });

    it(`${CONCURRENT} concurrent redemptions of one sign-up link: exactly one user with one password account`, async () => {
      const { client, browser, events } = await app();
      const signer = browser();
      const since = smtp.mails.length;
      await post(signer, "/auth/password/sign-up", { email: "twice@example.com", password: "owner password 1" });
      const token = linkIn(mailTo(smtp, "twice@example.com", since), "/auth/password/verify").searchParams.get("token") as string;
      const csrfToken = await signer.csrf();
      const answers = await Promise.all(
        Array.from({ length: CONCURRENT }, () => signer.send("/auth/password/verify", { form: { csrfToken, token } })),
      );
      const locations = answers.map((a) => [a.status, a.headers.get("location")]);
      expect(locations.filter(([, location]) => location === `${ORIGIN}/`)).toHaveLength(1);
      expect(
        locations.filter(([status, location]) => status === 302 && location === `${ORIGIN}/auth/error?error=Verification`),
      ).toHaveLength(CONCURRENT - 1);
      expect(events.filter((e) => e.startsWith("createUser"))).toHaveLength(1);
      // Counted in the tables themselves, not through the adapter's single-row reads.
      const users = await client.db.authlib_users.filter({ email: "twice@example.com" });
      expect(users).toHaveLength(1);
      expect(await client.db.authlib_accounts.filter({ provider: "password" })).toHaveLength(1);
      expect((await signIn(browser(), "twice@example.com", "owner password 1")).headers.get("location")).toBe(`${ORIGIN}/home`);
    });
  });

  describe("interop with the Auth.js import path", () => {
    /** `@auth/pg-adapter`'s tables as its documentation gives them, in `schema`. */
    async function pgAdapterSchema(): Promise<string> {
      const schema = randomBranch("authjs_pw");
      schemas.push(schema);
      const s = quoteIdentifier(schema);
      await pool.query(`CREATE SCHEMA ${s}`);
      for (const statement of [
        `CREATE TABLE ${s}.verification_token (identifier TEXT NOT NULL, expires TIMESTAMPTZ NOT NULL, token TEXT NOT NULL,
          PRIMARY KEY (identifier, token))`,
        `CREATE TABLE ${s}.accounts (id SERIAL, "userId" INTEGER NOT NULL, type VARCHAR(255) NOT NULL, provider VARCHAR(255) NOT NULL,
          "providerAccountId" VARCHAR(255) NOT NULL, refresh_token TEXT, access_token TEXT, expires_at BIGINT, id_token TEXT,
          scope TEXT, session_state TEXT, token_type TEXT, PRIMARY KEY (id))`,
        `CREATE TABLE ${s}.sessions (id SERIAL, "userId" INTEGER NOT NULL, expires TIMESTAMPTZ NOT NULL,
          "sessionToken" VARCHAR(255) NOT NULL, PRIMARY KEY (id))`,
        `CREATE TABLE ${s}.users (id SERIAL, name VARCHAR(255), email VARCHAR(255), "emailVerified" TIMESTAMPTZ, image TEXT,
          PRIMARY KEY (id))`,
      ]) {
        await pool.query(statement);
      }
      return schema;
    }

    it("a Password() user copied by @auth/pg-adapter into its tables is imported and signs in with the same password", async () => {
      const source = await passwordApp(smtp, { strategy: "database", database: () => postgresBranch("pw_src") });
      const ada = source.browser();
      const since = smtp.mails.length;
      await signUpAndVerify(smtp, ada, "interop@example.com", "interop password 1", "Ada");
      const signUpLink = linkIn(mailTo(smtp, "interop@example.com", since), "/auth/password/verify").searchParams.get("token") as string;
      const original = await source.adapter.getUserByEmail("interop@example.com");
      if (!original) throw new Error("the sign-up stored no user");
      const [account, ...others] = await source.adapter.listAccountsByUserId(original.id);
      if (!account) throw new Error("the sign-up stored no password account");
      expect(others).toEqual([]);
      // Exactly these columns (the adapter leaves empty ones out), so the copy below carries all of them.
      expect(account).toEqual({
        userId: original.id,
        type: "credentials",
        provider: "password",
        providerAccountId: original.id,
        access_token: expect.stringMatching(/^scrypt\$/),
      });

      // The copy is made by Auth.js's own adapter, as an Auth.js app holding this user would hold it. Its
      // SERIAL ids give the user a new id, so the copy re-keys the references to the user (the account's and
      // sessions' userId) and copies every other column as the hosted-db adapter returns it, the password
      // account's providerAccountId (the old id) included: core finds a password account by user and
      // provider (password-accounts/account.ts), so a renumbered copy still signs in.
      const schema = await pgAdapterSchema();
      const authjsPool = new pg.Pool({ connectionString: databaseURL, max: 2, options: `-c search_path=${schema}` });
      try {
        const authjs = PostgresAdapter(authjsPool);
        const copied = await authjs.createUser?.({ ...original, email: original.email as string });
        if (!copied) throw new Error("@auth/pg-adapter stored no user");
        // Auth.js's types name no "credentials" account type; its adapter stores the row all the same.
        await authjs.linkAccount?.({
          userId: copied.id,
          type: account.type as AuthjsAccount["type"],
          provider: account.provider,
          providerAccountId: account.providerAccountId,
          access_token: account.access_token,
        });
        for (const session of await source.client.db.authlib_sessions.filter({ user: { id: original.id } })) {
          await authjs.createSession?.({
            sessionToken: session.sessionToken ?? "",
            userId: copied.id,
            expires: session.expires ?? new Date(),
          });
        }
        // The claim that spent the sign-up link (a live verification token of the address).
        for (const token of await source.client.db.authlib_verificationTokens.filter({ identifier: "interop@example.com" })) {
          await authjs.createVerificationToken?.({
            identifier: token.identifier ?? "",
            token: token.token ?? "",
            expires: token.expires ?? new Date(),
          });
        }
        // Auth.js reads the user back, by address and by the password account.
        expect(await authjs.getUserByEmail?.("interop@example.com")).toMatchObject({ id: copied.id, name: "Ada" });
        expect(await authjs.getUserByAccount?.({ provider: "password", providerAccountId: account.providerAccountId })).toMatchObject({
          id: copied.id,
        });
      } finally {
        await authjsPool.end();
      }

      const target = await postgresBranch("pw_dst");
      const imported = await importFromAuthjs(target.client, { from: databaseURL, schema, tables: "pg-adapter" });
      expect(imported).toEqual({
        users: { read: 1, imported: 1 },
        accounts: { read: 1, imported: 1 },
        sessions: { read: 1, imported: 1 },
        authenticators: { read: 0, imported: 0 },
        pendingSignInLinks: 1,
      });
      const user = await target.adapter.getUserByEmail("interop@example.com");
      expect(user).toMatchObject({ email: "interop@example.com", name: "Ada", emailVerified: original.emailVerified });
      const [moved] = await target.adapter.listAccountsByUserId(user?.id as string);
      // The hash string is carried byte for byte, parameters included.
      expect(moved).toMatchObject({ type: "credentials", provider: "password", access_token: account.access_token });

      const app = await passwordApp(smtp, { strategy: "database", database: async () => target });
      const browser = app.browser();
      expect((await signIn(browser, "interop@example.com", "not the password")).headers.get("location")).toBe(
        `${ORIGIN}/auth/signin?error=CredentialsSignin&code=credentials&provider=password&email=interop%40example.com`,
      );
      expect(await browser.session()).toBeNull();
      expect((await signIn(browser, "interop@example.com", "interop password 1")).headers.get("location")).toBe(`${ORIGIN}/home`);
      expect((await browser.session())?.user).toMatchObject({ email: "interop@example.com", name: "Ada" });

      // The database session from before the copy still signs the same browser in on the imported branch.
      const returning = app.browser();
      for (const [name, cookie] of ada.jar.cookies) returning.jar.cookies.set(name, cookie);
      expect((await returning.session())?.user).toMatchObject({ email: "interop@example.com" });
      // The import leaves the link claims behind; the sign-up link still adds nothing to the user who has the
      // address by now: the page offers a reset instead.
      const replay = await post(returning, "/auth/password/verify", { token: signUpLink });
      expect(replay.headers.get("location")).toBe(`${ORIGIN}/auth/verify-request?provider=password&type=password-exists`);
      expect(await target.client.db.authlib_users.filter({ email: "interop@example.com" })).toHaveLength(1);
    });
  });
});
