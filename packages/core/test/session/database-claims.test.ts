/**
 * What a database session keeps beside its token (session/database.ts): its active organization on its row
 * when the adapter keeps session records, in its sealed claims cookie otherwise (an Auth.js adapter drops a
 * field it does not know); chosen at sign-in (an SSO sign-in makes its organization active) or by
 * `setActiveOrganization`, read by the session check and by `currentSession`, kept when the session is
 * extended, and never shown without the membership. In-process on the in-memory adapter (fast enough for
 * the `session` mutation group).
 */
import { describe, expect, it, vi } from "vitest";
import type { Adapter } from "../../src/types/adapters.js";
import type { TxtServer } from "../helpers/dns-server.js";
import { memoryAdapter, withVerificationTokens } from "../helpers/memory-adapter.js";
import { memoryOrganizations } from "../helpers/memory-organizations.js";
import { memoryScim } from "../helpers/memory-scim.js";
import { memorySso } from "../helpers/memory-sso.js";
import { type Browser, organizationsApp, postJson } from "../organizations/helpers.js";
import { oidcInput, ssoApp } from "../sso/helpers.js";

const SEALED = "authlib.session-assurance";
const TOKEN = "authlib.session-token";
/** No DNS: these organizations prove no domain. */
const noDns = { resolveTxt: async () => [], records: new Map(), close: async () => {} } as unknown as TxtServer;

/** An adapter without session records (as an Auth.js one), with the organization methods. */
function withoutRecords() {
  const memory = memoryAdapter({ sessionRecords: false });
  const adapter: Adapter = { ...withVerificationTokens(memory.adapter), ...memoryOrganizations().methods };
  return { memory, adapter };
}

/** Whether `browser`'s session may read its active organization (the default of `hasPermission`: `currentSession`'s). */
async function readsActive(app: ReturnType<typeof organizationsApp>, browser: Browser): Promise<boolean> {
  const { createAuth } = await import("../../src/kernel/instance.js");
  const request = new Request(`${browser.origin}/app`, { headers: { cookie: browser.jar.header() } });
  return createAuth(app.config).api.hasPermission(request, { permission: "organization:read" });
}

describe("setActiveOrganization on database sessions", () => {
  it("with session records: the row holds it, the sealed cookie is not written, currentSession reads the row", async () => {
    const app = organizationsApp({ session: { strategy: "database" } });
    const ada = await app.signedUp("ada@example.com");
    const organizationId = (await postJson(ada, "create", { name: "Acme", slug: "acme" })).body.organization.id as string;
    const sealedBefore = ada.jar.get(SEALED);
    expect(await readsActive(app, ada)).toBe(false);
    const answer = await postJson(ada, "active", { organizationId });
    expect(answer.body).toEqual({ activeOrganizationId: organizationId, role: "owner" });
    expect(ada.jar.get(SEALED)).toBe(sealedBefore);
    expect(app.memory.sessions.get(ada.jar.get(TOKEN) ?? "")?.activeOrganizationId).toBe(organizationId);
    expect(await ada.session()).toMatchObject({ activeOrganizationId: organizationId, activeOrganizationRole: "owner" });
    expect(await readsActive(app, ada)).toBe(true);
    await postJson(ada, "active", {});
    expect(app.memory.sessions.get(ada.jar.get(TOKEN) ?? "")?.activeOrganizationId).toBeNull();
    expect(await ada.session()).not.toHaveProperty("activeOrganizationId");
    expect(await readsActive(app, ada)).toBe(false);
  });

  it("without session records: the sealed cookie holds it (the row never), currentSession reads the cookie", async () => {
    const { memory, adapter } = withoutRecords();
    const app = organizationsApp({ session: { strategy: "database" } }, adapter);
    const ada = await app.signedUp("ada@example.com");
    const organizationId = (await postJson(ada, "create", { name: "Acme", slug: "acme" })).body.organization.id as string;
    const sealedBefore = ada.jar.get(SEALED);
    await postJson(ada, "active", { organizationId });
    expect(ada.jar.get(SEALED)).not.toBe(sealedBefore);
    expect(memory.sessions.get(ada.jar.get(TOKEN) ?? "")).not.toHaveProperty("activeOrganizationId");
    expect(await ada.session()).toMatchObject({ activeOrganizationId: organizationId });
    expect(await readsActive(app, ada)).toBe(true);
    // The cookie without its session token's row: nothing is read from it.
    const other = app.browser();
    other.jar.apply(new Response(null, { headers: [["set-cookie", `${SEALED}=${ada.jar.get(SEALED)}; Path=/`]] }));
    expect(await other.session()).toBeNull();
    await postJson(ada, "active", {});
    expect(await ada.session()).not.toHaveProperty("activeOrganizationId");
    expect(await readsActive(app, ada)).toBe(false);
  });

  it("with session records, an extended session re-seals its sign-in's claims (no organization among them)", async () => {
    const app = organizationsApp({ session: { strategy: "database", maxAge: 3600, updateAge: 60 } });
    const ada = await app.signedUp("ada@example.com");
    const organizationId = (await postJson(ada, "create", { name: "Acme", slug: "acme" })).body.organization.id as string;
    await postJson(ada, "active", { organizationId });
    const sealed = ada.jar.get(SEALED);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 120_000 });
    try {
      expect(await ada.session()).toMatchObject({ activeOrganizationId: organizationId });
      expect(ada.jar.get(SEALED)).not.toBe(sealed);
    } finally {
      vi.useRealTimers();
    }
  });

  it("without session records, an extended session keeps its organization in the re-sealed cookie", async () => {
    const { adapter } = withoutRecords();
    const app = organizationsApp({ session: { strategy: "database", maxAge: 3600, updateAge: 60 } }, adapter);
    const ada = await app.signedUp("ada@example.com");
    const organizationId = (await postJson(ada, "create", { name: "Acme", slug: "acme" })).body.organization.id as string;
    await postJson(ada, "active", { organizationId });
    const sealed = ada.jar.get(SEALED);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 120_000 });
    try {
      expect(await ada.session()).toMatchObject({ activeOrganizationId: organizationId });
      expect(ada.jar.get(SEALED)).not.toBe(sealed);
      expect(await ada.session()).toMatchObject({ activeOrganizationId: organizationId });
    } finally {
      vi.useRealTimers();
    }
  });
});

/** The in-memory SSO app's store, with or without session records. */
function ssoStore(sessionRecords: boolean) {
  const memory = memoryAdapter({ sessionRecords });
  const methods = { ...memoryOrganizations().methods, ...memorySso().methods, ...memoryScim().methods };
  const adapter: Adapter = { ...withVerificationTokens(memory.adapter), ...methods };
  return { memory, adapter };
}

describe("an SSO sign-in on database sessions starts in its organization", () => {
  /** Ada's organization with a connection; Hank signs in through it (the protocol stand-in). */
  async function signedInThroughSso(adapter?: Adapter) {
    const app = ssoApp(noDns, { session: { strategy: "database" } }, adapter);
    const ada = await app.signedUp("ada@acme.test");
    const organizationId = await app.organizationWithDomain(ada, "acme", undefined);
    const connection = await app.auth.api.createSsoConnection(app.as(ada), oidcInput(organizationId));
    const hank = app.browser();
    await app.ssoSignInWith(hank, connection.id, { subject: "hank-1", name: "Hank" });
    return { hank, organizationId };
  }

  it("with session records: on the new row", async () => {
    const { memory, adapter } = ssoStore(true);
    const { hank, organizationId } = await signedInThroughSso(adapter);
    expect(memory.sessions.get(hank.jar.get(TOKEN) ?? "")?.activeOrganizationId).toBe(organizationId);
    expect(await hank.session()).toMatchObject({ activeOrganizationId: organizationId, activeOrganizationRole: "member" });
  });

  it("without session records: in the sealed cookie, never on the row", async () => {
    const { memory, adapter } = ssoStore(false);
    const { hank, organizationId } = await signedInThroughSso(adapter);
    expect(memory.sessions.get(hank.jar.get(TOKEN) ?? "")).not.toHaveProperty("activeOrganizationId");
    expect(hank.jar.get(SEALED)).toBeTruthy();
    expect(await hank.session()).toMatchObject({ activeOrganizationId: organizationId, activeOrganizationRole: "member" });
  });
});
