/**
 * The conformance suite of SCIM provisioning's adapter methods (`ScimAdapterMethods`), as vitest tests: one
 * standard for every store, run on the in-memory methods (test/sso/scim/store.test.ts) and on the hosted-db
 * adapter on PGlite and PostgreSQL (packages/hosted-db-adapter/test/scim.test.ts).
 *
 * The rules: every field round-trips (JSON resources, `null`s, dates to the millisecond); a taken id throws;
 * "not found" is `null`; every directory read and write is keyed by the organization (another organization's
 * id is not found, not changed, not listed); a live `userName` and a group's `displayName` are unique per
 * organization without case, a deleted user's name is free again; `getScimUserByUserId` prefers the live
 * entry; a revoked token keeps its first `revokedAt`; group members are only users of the group's
 * organization. Every test makes its own rows with fresh ids, so the tests may share one store.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScimAdapterMethods, ScimGroupRecord, ScimTokenRecord, ScimUserRecord } from "../../src/types/scim.js";

type Awaitable<T> = T | PromiseLike<T>;
type Store = Required<ScimAdapterMethods>;

/** Inputs of {@link runScimStoreSuite}. */
export interface ScimStoreSuiteOptions {
  name: string;
  store: () => Store;
  /** A user the store can hold entries of: its id. */
  newUser: () => Awaitable<string>;
  /** An organization the store can hold a directory of: its id. */
  newOrganization: () => Awaitable<string>;
  setup?: () => Awaitable<void>;
  teardown?: () => Awaitable<void>;
}

const at = (offset: number) => new Date(Date.UTC(2026, 0, 1) + offset);

/** A token of `organizationId` with a fresh id. */
export function newScimToken(organizationId: string, over: Partial<ScimTokenRecord> = {}): ScimTokenRecord {
  const id = randomUUID().replaceAll("-", "").slice(0, 16);
  return {
    id,
    organizationId,
    hash: randomUUID().replaceAll("-", "").repeat(2),
    start: `scim_${id.slice(0, 4)}`,
    createdBy: "user-1",
    createdAt: at(1),
    lastUsedAt: null,
    revokedAt: null,
    ...over,
  };
}

/** A directory user of `organizationId` and `userId` with a fresh id. */
export function newScimUser(organizationId: string, userId: string, over: Partial<ScimUserRecord> = {}): ScimUserRecord {
  return {
    id: randomUUID(),
    organizationId,
    userId,
    externalId: "ext-✓",
    userName: `${randomUUID()}@example.com`,
    active: true,
    resource: { name: { givenName: "Bärbel", familyName: null }, emails: [{ value: "b@example.com", primary: true }], n: 1.5, ok: false },
    version: 1,
    createdAt: at(2),
    updatedAt: at(3),
    deletedAt: null,
    ...over,
  };
}

/** A group of `organizationId` with a fresh id. */
export function newScimGroup(organizationId: string, over: Partial<ScimGroupRecord> = {}): ScimGroupRecord {
  return {
    id: randomUUID(),
    organizationId,
    externalId: null,
    displayName: `Group ${randomUUID()}`,
    resource: { description: "people" },
    version: 1,
    createdAt: at(4),
    updatedAt: at(5),
    ...over,
  };
}

/** Runs the suite. */
export function runScimStoreSuite(options: ScimStoreSuiteOptions): void {
  describe(options.name, () => {
    let store: Store;
    beforeAll(async () => {
      await options.setup?.();
      store = options.store();
    });
    afterAll(async () => {
      await options.teardown?.();
    });

    it("tokens round-trip, are listed per organization, are revoked once, are touched", async () => {
      const org = await options.newOrganization();
      const other = await options.newOrganization();
      const token = newScimToken(org);
      expect(await store.createScimToken(token)).toEqual(token);
      expect(await store.getScimToken(token.id)).toEqual(token);
      expect(await store.getScimToken("nope")).toBeNull();
      await expect(Promise.resolve().then(() => store.createScimToken(token))).rejects.toThrow();
      const later = newScimToken(org, { createdAt: at(9) });
      await store.createScimToken(later);
      await store.createScimToken(newScimToken(other));
      expect((await store.listScimTokens(org)).map((t) => t.id)).toEqual([token.id, later.id]);
      await store.revokeScimToken(other, token.id, at(10));
      expect((await store.getScimToken(token.id))?.revokedAt).toBeNull();
      await store.revokeScimToken(org, token.id, at(10));
      await store.revokeScimToken(org, token.id, at(20));
      expect((await store.getScimToken(token.id))?.revokedAt).toEqual(at(10));
      await store.touchScimToken(later.id, at(30));
      expect((await store.getScimToken(later.id))?.lastUsedAt).toEqual(at(30));
    });

    it("users round-trip and are read only through their organization", async () => {
      const org = await options.newOrganization();
      const other = await options.newOrganization();
      const userId = await options.newUser();
      const user = newScimUser(org, userId);
      expect(await store.createScimUser(user)).toEqual(user);
      expect(await store.getScimUser(org, user.id)).toEqual(user);
      expect(await store.getScimUser(other, user.id)).toBeNull();
      expect(await store.getScimUserByUserId(other, userId)).toBeNull();
      expect(await store.listScimUsers(other)).toEqual([]);
      await expect(Promise.resolve().then(() => store.updateScimUser({ ...user, organizationId: other, active: false }))).rejects.toThrow();
      expect((await store.getScimUser(org, user.id))?.active).toBe(true);
      const changed = { ...user, active: false, resource: { title: "x" }, version: 2, updatedAt: at(7) };
      expect(await store.updateScimUser(changed)).toEqual(changed);
      expect(await store.getScimUserByUserId(org, userId)).toEqual(changed);
    });

    it("a live userName is unique per organization without case; a deleted one is free again and not found", async () => {
      const org = await options.newOrganization();
      const other = await options.newOrganization();
      const first = newScimUser(org, await options.newUser(), { userName: "Taken@Example.com", createdAt: at(1) });
      await store.createScimUser(first);
      await expect(
        Promise.resolve().then(() => store.createScimUser(newScimUser(org, first.userId, { userName: "taken@example.com" }))),
      ).rejects.toThrow();
      await store.createScimUser(newScimUser(other, await options.newUser(), { userName: "taken@example.com" }));
      await store.updateScimUser({ ...first, active: false, deletedAt: at(8) });
      expect(await store.getScimUser(org, first.id)).toBeNull();
      expect(await store.listScimUsers(org)).toEqual([]);
      const again = newScimUser(org, first.userId, { userName: "taken@example.com", createdAt: at(9) });
      await store.createScimUser(again);
      // The live entry of the user is preferred to the deleted one.
      expect((await store.getScimUserByUserId(org, first.userId))?.id).toBe(again.id);
      await store.updateScimUser({ ...again, deletedAt: at(10) });
      expect((await store.getScimUserByUserId(org, first.userId))?.id).toBe(again.id);
    });

    it("groups round-trip, are unique by name without case, and are keyed by organization", async () => {
      const org = await options.newOrganization();
      const other = await options.newOrganization();
      const group = newScimGroup(org, { displayName: "Admins" });
      expect(await store.createScimGroup(group)).toEqual(group);
      expect(await store.getScimGroup(org, group.id)).toEqual(group);
      expect(await store.getScimGroup(other, group.id)).toBeNull();
      await expect(Promise.resolve().then(() => store.createScimGroup(newScimGroup(org, { displayName: "ADMINS" })))).rejects.toThrow();
      await store.createScimGroup(newScimGroup(other, { displayName: "admins" }));
      const renamed = { ...group, displayName: "Owners", version: 2, updatedAt: at(6) };
      expect(await store.updateScimGroup(renamed)).toEqual(renamed);
      await store.deleteScimGroup(other, group.id);
      expect(await store.getScimGroup(org, group.id)).toEqual(renamed);
      expect((await store.listScimGroups(org)).map((g) => g.id)).toEqual([group.id]);
      await store.deleteScimGroup(org, group.id);
      expect(await store.getScimGroup(org, group.id)).toBeNull();
    });

    it("group members: set whole, only users of the group's organization, listed both ways, gone with the group", async () => {
      const org = await options.newOrganization();
      const other = await options.newOrganization();
      const a = newScimUser(org, await options.newUser());
      const b = newScimUser(org, await options.newUser());
      const stranger = newScimUser(other, await options.newUser());
      for (const user of [a, b, stranger]) await store.createScimUser(user);
      const group = newScimGroup(org, { createdAt: at(1) });
      const second = newScimGroup(org, { createdAt: at(2) });
      await store.createScimGroup(group);
      await store.createScimGroup(second);
      await store.setScimGroupMembers(org, group.id, [a.id, b.id, stranger.id]);
      expect((await store.listScimGroupMembers(org, group.id)).sort()).toEqual([a.id, b.id].sort());
      expect(await store.listScimGroupMembers(other, group.id)).toEqual([]);
      await store.setScimGroupMembers(other, group.id, [stranger.id]);
      expect((await store.listScimGroupMembers(org, group.id)).sort()).toEqual([a.id, b.id].sort());
      await store.setScimGroupMembers(org, second.id, [a.id]);
      expect(await store.listScimGroupsOfUser(org, a.id)).toEqual([group.id, second.id]);
      expect(await store.listScimGroupsOfUser(other, a.id)).toEqual([]);
      await store.setScimGroupMembers(org, group.id, [b.id]);
      expect(await store.listScimGroupMembers(org, group.id)).toEqual([b.id]);
      await store.deleteScimGroup(org, group.id);
      expect(await store.listScimGroupsOfUser(org, b.id)).toEqual([]);
    });
  });
}
