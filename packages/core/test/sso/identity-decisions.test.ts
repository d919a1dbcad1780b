/**
 * Who an SSO sign-in is (`features/sso/identity.ts`), decided in process over records written straight into
 * the in-memory stores (no password sign-up, no DNS proof per test: fast enough per mutant, mutation group
 * `sso-identity`). Each refusal's reason as the audit row names it, the user a first sign-in makes or links,
 * the membership and its role, the session's assurance, the `signIn` callback's say, and two first sign-ins
 * of one identity at once. identity.test.ts states the same through sign-up and a real domain proof.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { SsoSignInFailed } from "../../src/errors.js";
import { failed, roleFor } from "../../src/features/sso/identity.js";
import { decode } from "../../src/jwt.js";
import type { Adapter } from "../../src/types/adapters.js";
import type { AuthConfig } from "../../src/types/config.js";
import type { SsoConnection } from "../../src/types/sso.js";
import { startTxtServer, type TxtServer } from "../helpers/dns-server.js";
import { type Browser, ORIGIN, secret, ssoApp } from "./helpers.js";

let dns: TxtServer;
beforeAll(async () => {
  dns = await startTxtServer();
});
afterAll(async () => {
  await dns?.close();
});
afterEach(() => void vi.useRealTimers());

const ORG = "org-acme";
const OTHER_ORG = "org-globex";
const CONNECTION = "connection-acme";

/** An app whose organizations, proven domains, connection and users are written straight into its stores. */
function seeded(overrides: Partial<AuthConfig> = {}, connectionOver: Partial<SsoConnection> = {}) {
  const app = ssoApp(dns, overrides);
  const now = new Date();
  for (const [id, slug] of [
    [ORG, "acme"],
    [OTHER_ORG, "globex"],
  ])
    app.orgs.organizations.set(id, { id, name: slug, slug, policy: {}, domainJoin: "off", createdAt: now });
  const domain = (id: string, organizationId: string, name: string, verifiedAt: Date | null) =>
    app.orgs.domains.set(id, { id, organizationId, name, token: `token-${id}`, verifiedAt, createdAt: now });
  domain("d-acme", ORG, "acme.test", now);
  domain("d-claimed", ORG, "claimed.test", null);
  domain("d-globex", OTHER_ORG, "globex.test", now);
  const connection: SsoConnection = {
    id: CONNECTION,
    organizationId: ORG,
    protocol: "oidc",
    name: "Okta",
    defaultRole: "member",
    attributeMapping: {},
    ssoRequired: false,
    oidc: { issuer: "https://idp.example.com", clientId: "authlib-client", clientSecret: "client-secret-value-1234567890" },
    createdAt: now,
    updatedAt: now,
    ...connectionOver,
  };
  app.sso.connections.set(connection.id, connection);
  const user = (id: string, email: string | null, emailVerified: Date | null, name: string | null = null) =>
    void app.memory.users.set(id, { id, email, emailVerified, name } as never);
  return { ...app, connection, user };
}

/** An app whose store is `wrap`ped (a store that fails, or that another sign-in races). */
function seededWith(wrap: (store: Adapter) => Adapter, overrides: Partial<AuthConfig> = {}) {
  const plain = seeded(overrides);
  const app = ssoApp(dns, overrides, wrap(plain.store));
  // The wrapped app shares the seeded stores; only its adapter (and its audit rows) differ.
  return { ...plain, auth: app.auth, audit: app.audit, refused: app.refused, browser: app.browser, ssoSignInWith: app.ssoSignInWith };
}

/** A store where another sign-in records the identity for `winner` just before this one does (its insert then fails). */
function raceLostTo(winner: string) {
  return (store: Adapter): Adapter => ({
    ...store,
    createSsoIdentity: async (identity) => {
      await store.createSsoIdentity?.({ ...identity, userId: winner });
      return (store.createSsoIdentity as NonNullable<Adapter["createSsoIdentity"]>)(identity);
    },
  });
}

type App = ReturnType<typeof seeded>;

/** Lets the audit writes (fired without waiting) land. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

/** The reason the last refused SSO sign-in was audited with. */
async function refusal(app: Pick<App, "audit">) {
  await settled();
  const row = app.audit.filter((event) => event.type === "ssoSignInFailed").at(-1);
  expect(row).toMatchObject({ outcome: "failure" });
  return row?.detail?.replace(`organization=${ORG} connection=${CONNECTION} reason=`, "");
}

/** The user the last SSO sign-in signed in (its audit row). */
async function signedInUser(app: Pick<App, "audit">) {
  await settled();
  return app.audit.filter((event) => event.type === "ssoSignIn").at(-1)?.userId;
}

/** The browser's session assurance: the JWT's claims, or a database session's sealed ones. */
async function assuranceOf(browser: Browser, strategy: "jwt" | "database") {
  const name = strategy === "jwt" ? "authlib.session-token" : "authlib.session-assurance";
  return decode<Record<string, unknown>>({ token: browser.jar.get(name) as string, secret, salt: name });
}

/** Signs `claims` in through the seeded connection in a fresh browser: the response and the browser. */
async function signIn(app: Pick<App, "browser" | "ssoSignInWith">, claims: Record<string, unknown>) {
  const browser = app.browser();
  const response = await app.ssoSignInWith(browser, CONNECTION, claims);
  return { response, browser, session: await browser.session() };
}

describe("roleFor: the role of a first sign-in", () => {
  const connection = { defaultRole: "member", groupRoles: { Engineering: "admin", Finance: "billing" } };
  it("is the role of the first mapping (in the connection's order) whose group the user holds", () => {
    expect(roleFor(connection, ["Finance", "Engineering"])).toBe("admin");
    expect(roleFor(connection, ["Finance"])).toBe("billing");
  });
  it("is the default role without a held mapped group, without groups, or without mappings", () => {
    expect(roleFor(connection, ["Everyone"])).toBe("member");
    expect(roleFor(connection, [])).toBe("member");
    expect(roleFor(connection, undefined)).toBe("member");
    expect(roleFor({ defaultRole: "viewer" }, ["Engineering"])).toBe("viewer");
  });
});

describe("failed: a refusal", () => {
  it("is an SsoSignInFailed carrying its reason and message", () => {
    const error = failed("noSubject", "No subject.");
    expect(error).toBeInstanceOf(SsoSignInFailed);
    expect(error.reason).toBe("noSubject");
    expect(error.message).toBe("No subject.");
  });
});

describe.each(["jwt", "database"] as const)("an SSO sign-in (%s sessions)", (strategy) => {
  const app = (overrides: Partial<AuthConfig> = {}, connectionOver: Partial<SsoConnection> = {}) =>
    seeded({ session: { strategy }, ...overrides }, connectionOver);

  it("refuses a subject that is empty, not text or longer than 512 characters (noSubject), storing nothing", async () => {
    const a = app();
    for (const subject of ["", 42, null, "s".repeat(513)]) {
      const { response, session } = await signIn(a, { subject, email: "ada@acme.test" });
      expect(response.headers.get("location")).toContain("error=SsoSignInFailed");
      expect(session).toBeNull();
      expect(await refusal(a)).toBe("noSubject");
    }
    expect(a.sso.identities.size).toBe(0);
    expect(a.memory.users.size).toBe(0);
  });

  it("accepts a subject of exactly 512 characters", async () => {
    const a = app();
    const subject = "s".repeat(512);
    const { session } = await signIn(a, { subject });
    expect(session?.user).toBeDefined();
    expect(await a.sso.methods.getSsoIdentity(CONNECTION, subject)).toMatchObject({ userId: await signedInUser(a) });
  });

  it("refuses when the connection's organization is gone (organizationGone)", async () => {
    const a = app();
    a.orgs.organizations.delete(ORG);
    const { session } = await signIn(a, { subject: "00u-ada", email: "ada@acme.test" });
    expect(session).toBeNull();
    expect(await refusal(a)).toBe("organizationGone");
    expect(a.memory.users.size).toBe(0);
  });

  it("refuses an identity whose user is gone (userGone), making no user in its place", async () => {
    const created: unknown[] = [];
    const a = app({ events: { createUser: ({ user }) => void created.push(user.id) } });
    await a.sso.methods.createSsoIdentity({ connectionId: CONNECTION, subject: "00u-ada", userId: "gone", createdAt: new Date() });
    const { session } = await signIn(a, { subject: "00u-ada", email: "ada@acme.test" });
    expect(session).toBeNull();
    expect(await refusal(a)).toBe("userGone");
    expect(a.memory.users.size).toBe(0);
    expect(created).toEqual([]);
  });

  it("each refusal says why, in words for the organization's admin or the user", async () => {
    const a = app();
    const messages = async (claims: Record<string, unknown>) => {
      a.refused.length = 0;
      await signIn(a, claims);
      return a.refused.map((error) => (error as SsoSignInFailed).message);
    };
    expect(await messages({ subject: "" })).toEqual([
      "The identity provider gave no usable subject: the organization's admin checks the connection.",
    ]);
    await a.sso.methods.createSsoIdentity({ connectionId: CONNECTION, subject: "00u-gone", userId: "gone", createdAt: new Date() });
    expect(await messages({ subject: "00u-gone" })).toEqual([
      "The user of this SSO identity is gone: the organization's admin checks the connection.",
    ]);
    a.user("u-ada", "ada@acme.test", new Date());
    await a.sso.methods.createSsoIdentity({ connectionId: CONNECTION, subject: "00u-ada", userId: "u-ada", createdAt: new Date() });
    const now = new Date();
    a.scim.users.set("scim-ada", {
      id: "scim-ada",
      organizationId: ORG,
      userId: "u-ada",
      externalId: null,
      userName: "ada@acme.test",
      active: false,
      resource: {},
      version: 1,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
    });
    expect(await messages({ subject: "00u-ada" })).toEqual([
      "Your organization's directory has ended your access: ask your organization's admin.",
    ]);
    a.orgs.organizations.delete(ORG);
    expect(await messages({ subject: "00u-ada" })).toEqual(["This connection's organization is gone."]);
  });

  it("refuses a known user the directory deprovisioned (deprovisioned), and lets in one it keeps active", async () => {
    const a = app();
    a.user("u-ada", "ada@acme.test", new Date());
    await a.sso.methods.createSsoIdentity({ connectionId: CONNECTION, subject: "00u-ada", userId: "u-ada", createdAt: new Date() });
    const scimUser = (active: boolean) => {
      const now = new Date();
      return {
        id: "scim-ada",
        organizationId: ORG,
        userId: "u-ada",
        externalId: null,
        userName: "ada@acme.test",
        active,
        resource: {},
        version: 1,
        createdAt: now,
        updatedAt: now,
        deletedAt: null,
      };
    };
    await a.scim.methods.createScimUser(scimUser(true));
    expect((await signIn(a, { subject: "00u-ada" })).session?.user?.email).toBe("ada@acme.test");
    expect(await signedInUser(a)).toBe("u-ada");
    a.scim.users.set("scim-ada", scimUser(false));
    expect((await signIn(a, { subject: "00u-ada" })).session).toBeNull();
    expect(await refusal(a)).toBe("deprovisioned");
  });

  it("a first sign-in on the proven domain makes a user with the proven address (trimmed, lower case), a member with the default role, a new user", async () => {
    const created: unknown[] = [];
    const joined: unknown[] = [];
    const signedIn: unknown[] = [];
    const a = app({
      pages: { newUser: "/welcome" },
      events: {
        createUser: ({ user }) => void created.push(user.id),
        organizationChanged: (message) => void joined.push(message),
        signIn: ({ user, isNewUser }) => void signedIn.push([user.id, isNewUser]),
      },
    });
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-12-01T10:00:00Z") });
    const { response, session, browser } = await signIn(a, { subject: "00u-ada", email: "  Ada@ACME.test ", name: "Ada" });
    const identity = await a.sso.methods.getSsoIdentity(CONNECTION, "00u-ada");
    const user = await a.store.getUser?.(identity?.userId as string);
    expect(user).toMatchObject({ email: "ada@acme.test", name: "Ada", emailVerified: new Date("2026-12-01T10:00:00Z") });
    expect(identity).toMatchObject({ connectionId: CONNECTION, subject: "00u-ada", createdAt: new Date("2026-12-01T10:00:00Z") });
    expect(response.headers.get("location")).toBe(`${ORIGIN}/welcome?callbackUrl=${encodeURIComponent(`${ORIGIN}/`)}`);
    expect(session).toMatchObject({
      user: { email: "ada@acme.test", name: "Ada" },
      sso: { organizationId: ORG, connectionId: CONNECTION },
      activeOrganizationId: ORG,
      activeOrganizationRole: "member",
    });
    expect(await assuranceOf(browser, strategy)).toMatchObject({
      authTime: Date.parse("2026-12-01T10:00:00Z") / 1000,
      amr: ["sso"],
      aal: 1,
      sso: { organizationId: ORG, connectionId: CONNECTION },
    });
    expect(await a.orgs.methods.getMember(ORG, user?.id as string)).toMatchObject({
      role: "member",
      createdAt: new Date("2026-12-01T10:00:00Z"),
    });
    expect(created).toEqual([user?.id]);
    expect(signedIn).toEqual([[user?.id, true]]);
    expect(joined).toEqual([{ organizationId: ORG, actorId: user?.id, change: "memberAdded", targetId: user?.id, role: "member" }]);
    await settled();
    expect(a.audit.filter((row) => row.type === "ssoSignIn")).toMatchObject([
      { outcome: "success", userId: user?.id, detail: `organization=${ORG} connection=${CONNECTION}` },
    ]);
  });

  it("the next sign-in is the known user: no new user, no new membership, not a new user, the role kept", async () => {
    const created: unknown[] = [];
    const signedIn: unknown[] = [];
    const a = app(
      {
        pages: { newUser: "/welcome" },
        events: { createUser: ({ user }) => void created.push(user.id), signIn: ({ isNewUser }) => void signedIn.push(isNewUser) },
      },
      { groupRoles: { Engineering: "admin" } },
    );
    const first = await signIn(a, { subject: "00u-ada", email: "ada@acme.test" });
    const again = await signIn(a, { subject: "00u-ada", email: "ada.lovelace@acme.test", name: "Other", groups: ["Engineering"] });
    expect(first.session?.user?.email).toBe("ada@acme.test");
    expect(again.session).toMatchObject({ user: { email: "ada@acme.test" }, activeOrganizationRole: "member" });
    expect(again.response.headers.get("location")).toBe(`${ORIGIN}/`);
    expect(created).toHaveLength(1);
    expect(signedIn).toEqual([true, false]);
    expect(a.memory.users.size).toBe(1);
    expect(a.orgs.members.size).toBe(1);
  });

  it("a known user who is not (or no longer) a member becomes one with the mapped role", async () => {
    const a = app({}, { groupRoles: { Engineering: "admin" } });
    a.user("u-ada", "ada@acme.test", new Date());
    await a.sso.methods.createSsoIdentity({ connectionId: CONNECTION, subject: "00u-ada", userId: "u-ada", createdAt: new Date() });
    const { session } = await signIn(a, { subject: "00u-ada", groups: ["Engineering"] });
    expect(session).toMatchObject({ user: { email: "ada@acme.test" }, activeOrganizationRole: "admin" });
    expect(await signedInUser(a)).toBe("u-ada");
    expect(await a.orgs.methods.getMember(ORG, "u-ada")).toMatchObject({ role: "admin" });
  });

  it("a proven address held with proof signs in its holder (linked), not a new user, no createUser", async () => {
    const created: unknown[] = [];
    const a = app({ pages: { newUser: "/welcome" }, events: { createUser: ({ user }) => void created.push(user.id) } });
    a.user("u-linus", "linus@acme.test", new Date("2026-01-01"), "Linus");
    const { session, response } = await signIn(a, { subject: "00u-linus", email: "linus@acme.test", name: "Someone" });
    expect(session?.user).toMatchObject({ email: "linus@acme.test", name: "Linus" });
    expect(await signedInUser(a)).toBe("u-linus");
    expect(await a.sso.methods.getSsoIdentity(CONNECTION, "00u-linus")).toMatchObject({ userId: "u-linus" });
    expect(response.headers.get("location")).toBe(`${ORIGIN}/`);
    expect(created).toEqual([]);
    expect(a.memory.users.size).toBe(1);
  });

  it("a proven address held without proof is taken from its holder: the prover is a new user with it", async () => {
    const a = app();
    a.user("u-holder", "linus@acme.test", null, "Holder");
    const { session } = await signIn(a, { subject: "00u-linus", email: "linus@acme.test" });
    expect(session?.user?.email).toBe("linus@acme.test");
    expect(await signedInUser(a)).not.toBe("u-holder");
    expect(await a.store.getUser?.("u-holder")).toMatchObject({ email: null });
  });

  it("an address not proven by this organization (claimed only, another's, none, not an address) is not stored and links nothing", async () => {
    const a = app();
    a.user("u-ceo", "ceo@globex.test", new Date());
    a.user("u-someone", "someone@claimed.test", new Date());
    for (const email of ["ceo@globex.test", "someone@claimed.test", "nobody@elsewhere.test", "not-an-address", "ada@", undefined]) {
      const subject = `subject-${email}`;
      const { session } = await signIn(a, { subject, email });
      const identity = await a.sso.methods.getSsoIdentity(CONNECTION, subject);
      expect(["u-ceo", "u-someone"]).not.toContain(identity?.userId);
      expect(await a.store.getUser?.(identity?.userId as string)).toMatchObject({ email: null, emailVerified: null, name: null });
      expect(session?.user?.email ?? null).toBeNull();
    }
    expect(await a.store.getUser?.("u-ceo")).toMatchObject({ email: "ceo@globex.test" });
  });

  it("the signIn callback is asked first, with the candidate user and the subject: a URL redirects there, nothing stored", async () => {
    const asked: unknown[] = [];
    const a = app({
      callbacks: {
        signIn: (params) => {
          asked.push(params);
          return "/not-yet";
        },
      },
    });
    const { response, session } = await signIn(a, { subject: "00u-ada", email: "ada@acme.test", name: "Ada" });
    expect(response.headers.get("location")).toBe(`${ORIGIN}/not-yet`);
    expect(session).toBeNull();
    expect(asked).toEqual([{ user: { name: "Ada", email: null, emailVerified: null }, account: null, profile: { sub: "00u-ada" } }]);
    expect(a.memory.users.size).toBe(0);
    expect(a.sso.identities.size).toBe(0);
    expect(a.orgs.members.size).toBe(0);
    const nameless = await signIn(a, { subject: "00u-nameless" });
    expect(nameless.session).toBeNull();
    expect(asked.at(-1)).toMatchObject({ user: { name: null } });
    // A known user is passed as stored.
    a.user("u-ada", "ada@acme.test", new Date(), "Ada L.");
    await a.sso.methods.createSsoIdentity({ connectionId: CONNECTION, subject: "00u-ada", userId: "u-ada", createdAt: new Date() });
    await signIn(a, { subject: "00u-ada" });
    expect(asked.at(-1)).toMatchObject({ user: { id: "u-ada", name: "Ada L.", email: "ada@acme.test" }, profile: { sub: "00u-ada" } });
  });

  it("two first sign-ins of one identity at once end as one user: the loser's user is removed, it signs in the winner's", async () => {
    const a = app();
    const [one, two] = [a.browser(), a.browser()];
    await Promise.all([one.csrf(), two.csrf()]);
    await Promise.all([a.ssoSignInWith(one, CONNECTION, { subject: "00u-ada" }), a.ssoSignInWith(two, CONNECTION, { subject: "00u-ada" })]);
    expect(await one.session()).toMatchObject({ activeOrganizationId: ORG });
    expect(await two.session()).toMatchObject({ activeOrganizationId: ORG });
    const identity = await a.sso.methods.getSsoIdentity(CONNECTION, "00u-ada");
    await settled();
    expect(a.audit.filter((row) => row.type === "ssoSignIn").map((row) => row.userId)).toEqual([identity?.userId, identity?.userId]);
    expect([...a.memory.users.keys()]).toEqual([identity?.userId]);
    expect(a.orgs.members.size).toBe(1);
  });

  it("a store failure while recording the identity is not taken for a race: the error is audited by its type", async () => {
    const a = seededWith(
      (store) => ({
        ...store,
        createSsoIdentity: () => {
          throw new Error("the database is down");
        },
      }),
      { session: { strategy } },
    );
    const { session } = await signIn(a, { subject: "00u-ada" });
    expect(session).toBeNull();
    await settled();
    expect(a.audit.filter((row) => row.type === "ssoSignInFailed").map((row) => row.detail)).toEqual([
      `organization=${ORG} connection=${CONNECTION} reason=AdapterError`,
    ]);
  });
  it("a sign-in that lost the identity's race signs in the winner's user, not a new one, and removes the user it made", async () => {
    const created: unknown[] = [];
    const a = seededWith(raceLostTo("u-winner"), {
      session: { strategy },
      pages: { newUser: "/welcome" },
      events: { createUser: ({ user }) => void created.push(user.id) },
    });
    a.user("u-winner", null, null, "Winner");
    const { response, session } = await signIn(a, { subject: "00u-ada", name: "Loser" });
    expect(session?.user).toMatchObject({ name: "Winner" });
    expect(await signedInUser(a)).toBe("u-winner");
    expect(response.headers.get("location")).toBe(`${ORIGIN}/`);
    expect([...a.memory.users.keys()]).toEqual(["u-winner"]);
    expect(created).toEqual([]);
  });

  it("a user linked by a proven address is kept when another sign-in won the identity", async () => {
    const a = seededWith(raceLostTo("u-winner"), { session: { strategy } });
    a.user("u-winner", null, null, "Winner");
    a.user("u-linus", "linus@acme.test", new Date(), "Linus");
    const { session } = await signIn(a, { subject: "00u-linus", email: "linus@acme.test" });
    expect(session?.user).toMatchObject({ name: "Winner" });
    expect(await a.store.getUser?.("u-linus")).toMatchObject({ email: "linus@acme.test" });
  });

  it("a lost race whose winner's user is gone is refused (userGone), leaving no user behind", async () => {
    const a = seededWith(raceLostTo("u-gone"), { session: { strategy } });
    const { session } = await signIn(a, { subject: "00u-ada" });
    expect(session).toBeNull();
    expect(await refusal(a)).toBe("userGone");
    expect(a.refused.map((error) => (error as Error).message)).toEqual(["The user of this SSO identity is gone: sign in again."]);
    expect(a.memory.users.size).toBe(0);
  });

  it("a membership a parallel sign-in made first is the one kept; a failure to make one refuses the sign-in", async () => {
    const raced = seededWith(
      (store) => ({
        ...store,
        createMember: async (member) => {
          await store.createMember?.({ ...member, role: "raced-role" });
          return (store.createMember as NonNullable<Adapter["createMember"]>)(member);
        },
      }),
      { session: { strategy } },
    );
    const { session } = await signIn(raced, { subject: "00u-ada" });
    expect(session).toMatchObject({ activeOrganizationId: ORG, activeOrganizationRole: "raced-role" });

    const failing = seededWith(
      (store) => ({
        ...store,
        createMember: () => {
          throw new Error("the database is down");
        },
      }),
      { session: { strategy } },
    );
    expect((await signIn(failing, { subject: "00u-ada" })).session).toBeNull();
    expect(await refusal(failing)).toBe("AdapterError");
  });
});
