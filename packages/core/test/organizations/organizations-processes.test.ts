/**
 * Organizations across instances: TWO authlib instances in two real processes (helpers/org-instance.ts)
 * sharing one organization store (helpers/org-store-server.ts: an HTTP store in this process, until the
 * hosted-db adapter has the organization methods) and one session registry in Redis, JWT sessions. A role
 * change or a removal made on instance A is seen by instance B's organization operations at once (they read
 * the store on every request), and by B's view of the session (its active organization and role) within
 * `revalidateAfter` with `revocation: "eventual"`, at once with `"strict"`. Skipped, saying why, when Redis
 * does not answer.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { forkInstance } from "../helpers/forked-instance.js";
import type { OrgInstanceCommand } from "../helpers/org-instance.js";
import { startStoreServer } from "../helpers/org-store-server.js";
import { redisAnswers, redisURL } from "../helpers/redis.js";

const secret = "organizations-processes-secret-0123456789";
const redis = await redisAnswers("the organization tests across processes");

/** `revalidateAfter` of the eventual rows, in seconds: the bound a change must reach the other instance's session view in. */
const REVALIDATE_AFTER = 2;
/** The bound plus scheduling slack on a busy machine (never a timing assert: a poll that gives up after it). */
const POLL = { timeout: REVALIDATE_AFTER * 1000 + 4000, interval: 100 };

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** A command to an instance, without the id the fork gives it. */
type Command = DistributiveOmit<Exclude<OrgInstanceCommand, { close: true }>, "id">;

interface Instance {
  ask(command: Command): Promise<unknown>;
  /** The error type the command failed with (`undefined`: it did not fail). */
  refusal(command: Command): Promise<string | undefined>;
  close(): Promise<void>;
}

async function startInstance(env: Record<string, string>): Promise<Instance> {
  const forked = await forkInstance<Command, { value?: unknown; error?: string }>(
    new URL("../helpers/org-instance.ts", import.meta.url),
    env,
  );
  return {
    async ask(command) {
      const reply = await forked.ask(command);
      if (reply.error) throw new Error(reply.error);
      return reply.value;
    },
    async refusal(command) {
      return (await forked.ask(command)).error;
    },
    close: () => forked.close(),
  };
}

for (const revocation of ["eventual", "strict"] as const) {
  describe.skipIf(!redis)(`two instances in two processes, JWT sessions, revocation ${revocation}`, () => {
    let store: Awaited<ReturnType<typeof startStoreServer>>;
    let a: Instance;
    let b: Instance;

    beforeAll(async () => {
      store = await startStoreServer();
      const env = {
        AUTH_SECRET: secret,
        STORE_URL: store.url,
        REDIS_URL: redisURL,
        REDIS_PREFIX: `authlib-organizations-${randomUUID()}:`,
        REVOCATION: revocation,
        REVALIDATE_AFTER: String(REVALIDATE_AFTER),
      };
      [a, b] = await Promise.all([startInstance(env), startInstance(env)]);
    }, 120_000);

    afterAll(async () => {
      await Promise.all([a?.close(), b?.close()]);
      await store?.close();
    });

    /** The session `instance` shows for `cookie`: its active organization and role. */
    const sessionOn = async (instance: Instance, cookie: string) => {
      const session = (await instance.ask({ op: "session", cookie })) as Record<string, unknown> | null;
      return { organization: session?.activeOrganizationId ?? null, role: session?.activeOrganizationRole ?? null };
    };

    it("a role change and a removal on A: B's operations see them at once, B's session view within the bound", async () => {
      const ada = (await a.ask({ op: "signIn", user: "ada" })) as string;
      let bob = (await b.ask({ op: "signIn", user: "bob" })) as string;
      const created = (await a.ask({ op: "api", cookie: ada, name: "createOrganization", input: { name: "Acme", slug: "acme" } })) as {
        organization: { id: string };
      };
      const organizationId = created.organization.id;
      await store.orgs.methods.createMember({ organizationId, userId: "user-bob", role: "member", createdAt: new Date() });

      // Bob makes it his active organization on B; both instances show it with his role.
      const active = (await b.ask({ op: "api", cookie: bob, name: "setActiveOrganization", input: { organizationId } })) as {
        cookie: string;
      };
      bob = active.cookie;
      expect(await sessionOn(b, bob)).toEqual({ organization: organizationId, role: "member" });
      expect(await sessionOn(a, bob)).toEqual({ organization: organizationId, role: "member" });
      const canInvite = { op: "api", cookie: bob, name: "hasPermission", input: { organizationId, permission: "member:invite" } } as const;
      expect(await b.ask(canInvite)).toBe(false);

      // A makes Bob an admin: B's operations decide by the new role at once.
      await a.ask({ op: "api", cookie: ada, name: "updateMemberRole", input: { organizationId, userId: "user-bob", role: "admin" } });
      expect(await b.ask(canInvite)).toBe(true);
      expect(await b.ask({ op: "api", cookie: bob, name: "getOrganization", input: { organizationId } })).toMatchObject({ role: "admin" });
      if (revocation === "strict") expect(await sessionOn(b, bob)).toEqual({ organization: organizationId, role: "admin" });
      else await expect.poll(() => sessionOn(b, bob), POLL).toEqual({ organization: organizationId, role: "admin" });

      // A removes Bob: B refuses him at once in the organization; his session on B drops it within the bound.
      await a.ask({ op: "api", cookie: ada, name: "removeMember", input: { organizationId, userId: "user-bob" } });
      expect(await b.refusal({ op: "api", cookie: bob, name: "getOrganization", input: { organizationId } })).toBe("OrganizationNotFound");
      expect(await b.ask(canInvite)).toBe(false);
      expect(await b.refusal({ op: "api", cookie: bob, name: "listMembers", input: { organizationId } })).toBe("OrganizationNotFound");
      expect(await b.refusal({ op: "api", cookie: bob, name: "setActiveOrganization", input: { organizationId } })).toBe(
        "OrganizationNotFound",
      );
      if (revocation === "strict") expect(await sessionOn(b, bob)).toEqual({ organization: null, role: null });
      else await expect.poll(() => sessionOn(b, bob), POLL).toEqual({ organization: null, role: null });
      // A, which made the change, shows it at once whatever the revocation.
      expect(await sessionOn(a, bob)).toEqual({ organization: null, role: null });
      // Ada, still the owner, is unaffected on both.
      expect(await b.ask({ op: "api", cookie: ada, name: "getOrganization", input: { organizationId } })).toMatchObject({ role: "owner" });
    }, 60_000);
  });
}
