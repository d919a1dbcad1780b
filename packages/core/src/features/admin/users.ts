/**
 * The admin's operations on users (docs/admin.md): list (search, filter, a stable cursor), read (with what
 * other features hold for the user), create, change, set a password, delete, end sessions. Each asks
 * `requireAdmin` first, from the store, on this request; each change is an audit row naming the admin and
 * the user (never a secret).
 *
 * An address an admin gives is unproven unless they vouch for it at creation (`emailVerified`): whoever
 * proves it first takes it ("proof wins", `sign-in/proven-address.ts`), so an admin's typo or a stolen admin
 * session cannot hand someone else's address to an account. Changing an address also mails the old one.
 *
 * @module features/admin/users
 */
import { InvalidEmailAddress, normalizeEmail } from "../../address/normalize.js";
import { InvalidPassword, InvalidUser, UserExists } from "../../errors.js";
import { hashPassword } from "../../password.js";
import { isPasswordProvider } from "../../provider-kind.js";
import { endUserSessions } from "../../session/end-user-sessions.js";
import { loadRegistry } from "../../session/registry-of.js";
import { suspendUser } from "../../session/suspend-user.js";
import { passwordStore, storePasswordHash } from "../../sign-in/password-account.js";
import { newPassword } from "../../sign-in/password-rules.js";
import { tellOwner } from "../../sign-in/tell-owner.js";
import type { AdapterUser } from "../../types/adapters.js";
import type { AdminSessionView, AdminUserDetails, AdminUserView, UserPage } from "../../types/admin.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../../types/internal.js";
import type { InputOf } from "../../types/operation.js";
import { assertMayActOn, requireAdmin } from "./access.js";
import { adminAnswer, audited, targetOf, userView } from "./answer.js";
import { isBanLive } from "./bans.js";
import type { createUserInput, listUsersInput, setPasswordInput, updateUserInput, userInput } from "./input.js";
import { type AdminStore, storeOf } from "./store.js";

/** Users per page unless the caller asks for another number (1 to 100). */
const DEFAULT_PAGE = 20;

/** The opaque cursor after `userId`: its id's UTF-8 bytes in hex (ids sort in byte order, so a page never repeats or skips a user that stays). */
export function cursorAfter(userId: string): string {
  return [...new TextEncoder().encode(userId)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The user id a cursor stands for, or `InvalidUser`. */
export function cursorId(cursor: string): string {
  if (!/^(?:[0-9a-f]{2}){1,100}$/.test(cursor)) throw new InvalidUser("`cursor` is not a cursor of listUsers.");
  const bytes = Uint8Array.from(cursor.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new InvalidUser("`cursor` is not a cursor of listUsers.");
  }
}

/** GET admin/list-users: one page of users by id, with their live bans. */
export async function listUsers(
  options: InternalOptions,
  request: RequestInternal,
  input: InputOf<typeof listUsersInput>,
): Promise<ResponseInternal<UserPage>> {
  const admin = await requireAdmin(options, request);
  const limit = Math.floor(input.limit ?? DEFAULT_PAGE);
  const after = input.cursor === undefined ? undefined : cursorId(input.cursor);
  const found = await storeOf(options).listUsers({
    ...(input.search ? { search: input.search } : {}),
    ...(input.banned === undefined ? {} : { banned: input.banned }),
    ...(after === undefined ? {} : { after }),
    limit: limit + 1,
    now: new Date(),
  });
  const page = found.slice(0, limit);
  const last = page.at(-1);
  audited(options, request, "adminUserListed", admin.userId, null);
  return adminAnswer({
    users: page.map(({ user, ban }) => userView(user, isBanLive(ban) ? ban : null)),
    nextCursor: found.length > limit && last ? cursorAfter(last.user.id) : null,
  });
}

/** The user's live sessions as an admin sees them, or `null` without a registry. */
async function sessionsOf(options: InternalOptions, userId: string): Promise<AdminSessionView[] | null> {
  const registry = options.sessionRegistry;
  if (!registry) return null;
  const { isMark } = await loadRegistry();
  const now = Date.now();
  return (await registry.listByUser(userId))
    .filter((record) => !isMark(record) && record.expires.getTime() > now)
    .map(({ id, createdAt, lastSeenAt, expires, userAgent, provider }) => ({ id, createdAt, lastSeenAt, expires, userAgent, provider }));
}

/** Everything about one user an admin may see: accounts, sessions, ban, and each feature's part. */
export async function userDetails(options: InternalOptions, user: AdapterUser): Promise<AdminUserDetails> {
  const store = storeOf(options);
  const ban = await store.getUserBan(user.id);
  const accounts = (await store.listAccountsByUserId(user.id)).map(({ provider, type, providerAccountId }) => ({
    provider,
    type,
    providerAccountId,
  }));
  const features: Record<string, unknown> = {};
  for (const part of options.userDetails ?? []) {
    const value = await part.read(options, user.id);
    if (value !== undefined) features[part.name] = value;
  }
  return { user: userView(user, isBanLive(ban) ? ban : null), accounts, sessions: await sessionsOf(options, user.id), features };
}

/** GET admin/get-user. */
export async function getUser(options: InternalOptions, request: RequestInternal, { userId }: InputOf<typeof userInput>) {
  const admin = await requireAdmin(options, request);
  const user = await targetOf(storeOf(options), userId);
  audited(options, request, "adminUserViewed", admin.userId, userId);
  return adminAnswer(await userDetails(options, user));
}

/** `given` as an address, or `InvalidUser`. */
function addressOf(given: string): string {
  try {
    return normalizeEmail(given);
  } catch (error) {
    if (error instanceof InvalidEmailAddress) throw new InvalidUser(`\`email\` is not an address: ${error.message}`);
    throw error;
  }
}

/** The Password provider's rules and hash for `given`, or `InvalidUser` (no such provider, or a password the rules refuse). */
async function passwordHashOf(options: InternalOptions, given: string) {
  const provider = options.providers.find(isPasswordProvider);
  if (!provider) throw new InvalidUser("Setting a password needs the Password() provider in the configuration.");
  let password: string;
  try {
    password = newPassword(given, provider.passwordAccounts);
  } catch (error) {
    if (error instanceof InvalidPassword) throw new InvalidUser(`\`password\`: ${error.message}`);
    throw error;
  }
  return { provider, hash: await hashPassword(password) };
}

/** `UserExists` when a user other than `except` holds `email`. */
async function assertAddressFree(store: AdminStore, email: string, except?: string): Promise<void> {
  const holder = await store.getUserByEmail(email);
  if (holder && holder.id !== except) throw new UserExists("Another user has this address.");
}

/** POST admin/create-user. */
export async function createUser(
  options: InternalOptions,
  request: RequestInternal,
  input: InputOf<typeof createUserInput>,
): Promise<ResponseInternal<AdminUserView>> {
  const admin = await requireAdmin(options, request);
  const store = storeOf(options);
  const email = addressOf(input.email);
  // Refused before anything is stored: a password the rules refuse leaves no user behind.
  const password = input.password === undefined ? undefined : await passwordHashOf(options, input.password);
  await assertAddressFree(store, email);
  const user = await store.createUser({
    id: crypto.randomUUID(),
    email,
    emailVerified: input.emailVerified ? new Date() : null,
    name: input.name ?? null,
    ...(input.role ? { role: input.role } : {}),
  });
  if (password) await storePasswordHash(passwordStore(options), password.provider, user.id, password.hash);
  await options.events.createUser({ user });
  audited(options, request, "adminUserCreated", admin.userId, user.id, password ? "password=set" : undefined);
  return adminAnswer(userView(user, null));
}

/** POST admin/update-user: a new name, role or address (see the module comment for the address). */
export async function updateUser(
  options: InternalOptions,
  request: RequestInternal,
  input: InputOf<typeof updateUserInput>,
): Promise<ResponseInternal<AdminUserView>> {
  const admin = await requireAdmin(options, request);
  const store = storeOf(options);
  const target = await targetOf(store, input.userId);
  const changes: Partial<AdapterUser> & { role?: string | null } = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.role !== undefined) changes.role = input.role;
  const email = input.email === undefined ? undefined : addressOf(input.email);
  const newAddress = email !== undefined && email !== target.email;
  if (newAddress) {
    await assertMayActOn(options, admin, target, "changeEmail");
    await assertAddressFree(store, email, target.id);
    changes.email = email;
    changes.emailVerified = null;
  }
  const fields = Object.keys(changes).filter((name) => name !== "emailVerified");
  const updated = fields.length === 0 ? target : await store.updateUser({ id: target.id, ...changes });
  if (newAddress && target.email) await tellOwner(options, request, { id: target.id, email: target.email }, "emailChangedByAdmin");
  if (fields.length > 0) await options.events.updateUser({ user: updated });
  audited(options, request, "adminUserUpdated", admin.userId, target.id, fields.length > 0 ? `fields=${fields.join(",")}` : undefined);
  const ban = await store.getUserBan(target.id);
  return adminAnswer(userView(updated, isBanLive(ban) ? ban : null));
}

/** POST admin/set-password: the new password (the Password provider's rules), the user's sessions end, and they are mailed. */
export async function setUserPassword(options: InternalOptions, request: RequestInternal, input: InputOf<typeof setPasswordInput>) {
  const admin = await requireAdmin(options, request);
  const store = storeOf(options);
  const target = await targetOf(store, input.userId);
  await assertMayActOn(options, admin, target, "setPassword");
  const { provider, hash } = await passwordHashOf(options, input.password);
  await storePasswordHash(passwordStore(options), provider, target.id, hash);
  await endUserSessions(options, store, target.id);
  await tellOwner(options, request, target, "passwordChanged");
  audited(options, request, "adminPasswordSet", admin.userId, target.id);
  return adminAnswer({ userId: target.id });
}

/** POST admin/delete-user: ends every session and credential, then deletes the user and what the adapter holds of theirs. */
export async function deleteUser(options: InternalOptions, request: RequestInternal, { userId }: InputOf<typeof userInput>) {
  const admin = await requireAdmin(options, request);
  const store = storeOf(options);
  const target = await targetOf(store, userId);
  await assertMayActOn(options, admin, target, "delete");
  await suspendUser(options, store, userId, "deleted");
  await store.deleteUserBan(userId);
  await store.deleteUser(userId);
  await options.events.userDeleted({ user: target });
  audited(options, request, "adminUserDeleted", admin.userId, userId);
  return adminAnswer({ userId });
}

/** POST admin/revoke-sessions: every session of the user ends (and their grants with them). */
export async function revokeUserSessions(options: InternalOptions, request: RequestInternal, { userId }: InputOf<typeof userInput>) {
  const admin = await requireAdmin(options, request);
  const store = storeOf(options);
  await targetOf(store, userId);
  await endUserSessions(options, store, userId);
  audited(options, request, "adminSessionsRevoked", admin.userId, userId);
  return adminAnswer({ userId });
}
