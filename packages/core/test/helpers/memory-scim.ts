/**
 * SCIM provisioning's adapter methods (`ScimAdapterMethods`) on plain maps, for the tests that drive the
 * feature: the rules a database keeps are kept here too (a taken id throws, a live `userName` or a group's
 * `displayName` is unique per organization without case, every directory read is keyed by the
 * organization, a revoked token keeps its first `revokedAt`), and records are copied in and out. The
 * hosted-db adapter is held to the same suite (`scim-store-suite.ts`).
 */
import type { ScimAdapterMethods, ScimGroupRecord, ScimTokenRecord, ScimUserRecord } from "../../src/types/scim.js";

/** The in-memory methods and the maps they keep, for a test that looks at what was stored. */
export interface MemoryScim {
  methods: Required<ScimAdapterMethods>;
  tokens: Map<string, ScimTokenRecord>;
  users: Map<string, ScimUserRecord>;
  groups: Map<string, ScimGroupRecord>;
  /** `organizationId/groupId` → SCIM user ids. */
  members: Map<string, string[]>;
}

const copy = <T>(value: T): T => structuredClone(value);
const byCreation = <T extends { createdAt: Date; id: string }>(a: T, b: T) =>
  a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1);

/** A fresh in-memory SCIM store. */
export function memoryScim(): MemoryScim {
  const tokens = new Map<string, ScimTokenRecord>();
  const users = new Map<string, ScimUserRecord>();
  const groups = new Map<string, ScimGroupRecord>();
  const members = new Map<string, string[]>();
  const ofOrg = <T extends { organizationId: string }>(record: T | undefined, organizationId: string) =>
    record && record.organizationId === organizationId ? copy(record) : null;
  const liveNameTaken = (user: ScimUserRecord) =>
    [...users.values()].some(
      (other) =>
        other.id !== user.id &&
        other.organizationId === user.organizationId &&
        other.deletedAt === null &&
        user.deletedAt === null &&
        other.userName.toLowerCase() === user.userName.toLowerCase(),
    );
  const groupNameTaken = (group: ScimGroupRecord) =>
    [...groups.values()].some(
      (other) =>
        other.id !== group.id &&
        other.organizationId === group.organizationId &&
        other.displayName.toLowerCase() === group.displayName.toLowerCase(),
    );
  const methods: Required<ScimAdapterMethods> = {
    createScimToken(token) {
      if (tokens.has(token.id)) throw new Error(`unique violation: scim token ${token.id}`);
      tokens.set(token.id, copy(token));
      return copy(token);
    },
    getScimToken: (id) => copy(tokens.get(id) ?? null),
    listScimTokens: (organizationId) =>
      [...tokens.values()]
        .filter((token) => token.organizationId === organizationId)
        .sort(byCreation)
        .map(copy),
    revokeScimToken(organizationId, id, revokedAt) {
      const token = tokens.get(id);
      if (token && token.organizationId === organizationId && token.revokedAt === null) token.revokedAt = new Date(revokedAt);
    },
    touchScimToken(id, usedAt) {
      const token = tokens.get(id);
      if (token) token.lastUsedAt = new Date(usedAt);
    },
    createScimUser(user) {
      if (users.has(user.id) || liveNameTaken(user)) throw new Error(`unique violation: scim user ${user.id}`);
      users.set(user.id, copy(user));
      return copy(user);
    },
    getScimUser: (organizationId, id) => {
      const user = ofOrg(users.get(id), organizationId);
      return user && user.deletedAt === null ? user : null;
    },
    getScimUserByUserId(organizationId, userId) {
      const entries = [...users.values()].filter((user) => user.organizationId === organizationId && user.userId === userId);
      const live = entries.find((user) => user.deletedAt === null);
      const latest = entries.sort((a, b) => (b.deletedAt?.getTime() ?? 0) - (a.deletedAt?.getTime() ?? 0))[0];
      return copy(live ?? latest ?? null);
    },
    listScimUsers: (organizationId) =>
      [...users.values()]
        .filter((user) => user.organizationId === organizationId && user.deletedAt === null)
        .sort(byCreation)
        .map(copy),
    updateScimUser(user) {
      const stored = users.get(user.id);
      if (!stored || stored.organizationId !== user.organizationId) throw new Error(`no scim user ${user.id}`);
      if (liveNameTaken(user)) throw new Error(`unique violation: userName ${user.userName}`);
      users.set(user.id, copy(user));
      return copy(user);
    },
    createScimGroup(group) {
      if (groups.has(group.id) || groupNameTaken(group)) throw new Error(`unique violation: scim group ${group.id}`);
      groups.set(group.id, copy(group));
      return copy(group);
    },
    getScimGroup: (organizationId, id) => ofOrg(groups.get(id), organizationId),
    listScimGroups: (organizationId) =>
      [...groups.values()]
        .filter((group) => group.organizationId === organizationId)
        .sort(byCreation)
        .map(copy),
    updateScimGroup(group) {
      const stored = groups.get(group.id);
      if (!stored || stored.organizationId !== group.organizationId) throw new Error(`no scim group ${group.id}`);
      if (groupNameTaken(group)) throw new Error(`unique violation: displayName ${group.displayName}`);
      groups.set(group.id, copy(group));
      return copy(group);
    },
    deleteScimGroup(organizationId, id) {
      const group = groups.get(id);
      if (!group || group.organizationId !== organizationId) return;
      groups.delete(id);
      members.delete(`${organizationId}/${id}`);
    },
    setScimGroupMembers(organizationId, groupId, userIds) {
      const group = groups.get(groupId);
      if (!group || group.organizationId !== organizationId) return;
      // Only users of the group's organization (a database's join keeps no other).
      members.set(
        `${organizationId}/${groupId}`,
        [...new Set(userIds)].filter((id) => users.get(id)?.organizationId === organizationId),
      );
    },
    listScimGroupMembers: (organizationId, groupId) => [...(members.get(`${organizationId}/${groupId}`) ?? [])],
    listScimGroupsOfUser: (organizationId, userId) =>
      [...groups.values()]
        .filter((group) => group.organizationId === organizationId && (members.get(`${organizationId}/${group.id}`) ?? []).includes(userId))
        .sort(byCreation)
        .map((group) => group.id),
  };
  return { methods, tokens, users, groups, members };
}
