/**
 * Every preset in `preset-fixtures/` signs in end to end: `Auth()` sends the browser to the fake
 * provider's authorization endpoint (parameters checked), the fake approves, the callback exchanges the
 * code (client authentication, code, redirect URI and PKCE checked by the fake), loads the profile from
 * the fake's API (or its signed ID token), and ends with a session holding the mapped user. Once with a
 * JWT session, once with the hosted-db adapter on PGlite, where the linked account row is checked.
 * The harness and the fixture format are described in `preset-harness.ts`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Account, AuthConfig, User } from "../../src/types/config.js";
import { authClient } from "../helpers/auth-client.js";
import { closeSharedPglite, freshDatabase, sharedPglite } from "../helpers/database.js";
import { type FakePreset, type PresetFixture, startFakePreset } from "./preset-harness.js";

const SECRET = "preset-flows-secret-0123456789abcdef0123";
const fixtureDirectory = new URL("./preset-fixtures/", import.meta.url);
const fixtures: Array<[string, PresetFixture]> = await Promise.all(
  readdirSync(fixtureDirectory)
    .filter((file) => file.endsWith(".ts"))
    .sort()
    .map(async (file) => {
      const module = (await import(new URL(file, fixtureDirectory).href)) as { default: PresetFixture };
      return [module.default.title ?? file.replace(/\.ts$/, ""), module.default] as [string, PresetFixture];
    }),
);

// PGlite's cold start (seconds on a busy machine) belongs to the hook, not to the first preset's test.
beforeAll(() => sharedPglite().waitReady);
afterAll(() => closeSharedPglite());

interface SignedIn {
  client: ReturnType<typeof authClient>;
  user: User;
  account: Account;
}

/** Runs the whole sign-in against `fake` and returns what the `signIn` callback saw. */
async function signIn(fake: FakePreset, config: Partial<AuthConfig> = {}): Promise<SignedIn> {
  const errors: string[] = [];
  let seen: { user: User; account: Account } | undefined;
  const client = authClient({
    secret: SECRET,
    trustHost: true,
    providers: [fake.provider],
    logger: { error: (error) => errors.push(`${error.name}: ${error.message} ${JSON.stringify(error.cause ?? null)}`) },
    callbacks: {
      signIn: ({ user, account }) => {
        if (account) seen = { user, account };
        return true;
      },
    },
    ...config,
  });
  const csrfToken = await client.csrf();
  const start = await client.send(`/auth/signin/${fake.provider.id}`, { form: { csrfToken, callbackUrl: "/dashboard" } });
  expect(start.status, errors.join("\n")).toBe(302);
  const callback = fake.approve(start.headers.get("location") ?? "", client.origin);
  const done = await followCallback(client, start.headers.get("location") ?? "", callback);
  expect(fake.refusals, "requests the fake refused").toEqual([]);
  expect(done.headers.get("location"), errors.join("\n")).toBe(`${client.origin}/dashboard`);
  for (const route of fake.routeKeys) expect(fake.calls(), `the preset calls ${route}`).toContain(route);
  if (!seen) throw new Error("the signIn callback never saw an account");
  return { client, ...seen };
}

/**
 * Brings the browser back to the callback: a GET of `callback`, or for `response_mode=form_post` the
 * provider page's cross-site POST (which carries none of our SameSite=Lax cookies), bounced by authlib
 * to a GET of the same parameters.
 */
async function followCallback(client: ReturnType<typeof authClient>, authorizationUrl: string, callback: string) {
  if (new URL(authorizationUrl).searchParams.get("response_mode") !== "form_post") return client.send(callback);
  const [path = "", query = ""] = callback.split("?");
  const bounce = await client.send(path, { form: Object.fromEntries(new URLSearchParams(query)), headers: { cookie: "" } });
  const next = new URL(bounce.headers.get("location") ?? "");
  expect(`${bounce.status} ${next.pathname}`, "form_post is bounced to a GET of the callback").toBe(`302 ${path}`);
  return client.send(next.pathname + next.search);
}

/** The user as the session shows it: the email only when the preset vouches for it. */
function sessionUser(fixture: PresetFixture) {
  const { name, email, image } = fixture.expected.user;
  return { name, email: fixture.expected.emailTrusted ? email : null, image };
}

it("every OAuth / OIDC preset (a providers/*.ts module exporting its meta) has a fixture here", () => {
  const sources = new URL("../../src/providers/", import.meta.url);
  const presets = readdirSync(sources)
    .filter((file) => file.endsWith(".ts") && /export const meta: PresetMeta/.test(readFileSync(new URL(file, sources), "utf8")))
    .map((file) => file.replace(/\.ts$/, ""));
  const fixtureFiles = readdirSync(fixtureDirectory).map((file) => file.replace(/\.ts$/, ""));
  expect(presets.filter((preset) => !fixtureFiles.includes(preset))).toEqual([]);
});

describe.each(fixtures)("preset %s: full authorization-code flow against a fake", (_, fixture) => {
  it("signs in with a JWT session holding the mapped user", async () => {
    const fake = await startFakePreset(fixture);
    try {
      const { client, account } = await signIn(fake);
      expect(account).toMatchObject({
        provider: fake.provider.id,
        type: fake.provider.type,
        providerAccountId: fixture.expected.user.id,
        token_type: "bearer",
      });
      expect(account.access_token).toMatch(/^fake-access-token-/);
      expect((await client.session())?.user).toEqual(sessionUser(fixture));
    } finally {
      await fake.close();
    }
  });

  it("links the account in the database (hosted-db adapter on PGlite)", async () => {
    const fake = await startFakePreset(fixture);
    const { adapter } = await freshDatabase();
    try {
      const { client } = await signIn(fake, { adapter });
      const { id: providerAccountId } = fixture.expected.user;
      const account = await adapter.getAccount?.(providerAccountId, fake.provider.id);
      expect(account).toMatchObject({ provider: fake.provider.id, providerAccountId, type: fake.provider.type });
      const user = await adapter.getUserByAccount?.({ provider: fake.provider.id, providerAccountId });
      expect(user).toMatchObject(sessionUser(fixture));
      expect(account?.userId).toBe(user?.id);
      expect((await client.session())?.user).toMatchObject(sessionUser(fixture));
    } finally {
      await fake.close();
    }
  });
});
