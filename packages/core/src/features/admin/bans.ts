/**
 * Bans (docs/admin.md): an admin bans a user (a reason, an optional end) and every way they are let in
 * ends (`suspendUser`: their sessions on both strategies within the session-control bound, their grants and
 * keys); every later sign-in is refused with `UserBanned` at the one gate every first factor passes
 * (`signInRefusal`, asked by `sign-in/start-session.ts`). A ban past its end no longer counts (and the
 * store's prune deletes it). An admin cannot ban themselves nor another admin (demote them first).
 *
 * @module features/admin/bans
 */
import { UserBanned } from "../../errors.js";
import { suspendUser } from "../../session/suspend-user.js";
import type { UserBan } from "../../types/adapters.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../../types/internal.js";
import type { InputOf } from "../../types/operation.js";
import { adminConfigOf, assertMayActOn, requireAdmin } from "./access.js";
import { adminAnswer, audited, targetOf } from "./answer.js";
import type { banInput, userInput } from "./input.js";
import { storeOf } from "./store.js";

/** True when `ban` still holds at `now`: no end, or an end still to come. */
export function isBanLive(ban: UserBan | null | undefined, now: number = Date.now()): ban is UserBan {
  if (!ban) return false;
  return ban.expiresAt === null || ban.expiresAt.getTime() > now;
}

/** The built-in refusal's message (the sign-in page shows `signinError.userBanned`, or the app's `banMessage`). */
const BANNED = "This account is suspended.";

/** The refusal of a sign-in by `userId` while a ban holds (`SignInHooks.signInRefusal`), else `undefined`. */
export async function banRefusal(options: InternalOptions, userId: string): Promise<UserBanned | undefined> {
  const ban = await options.adapter?.getUserBan?.(userId);
  if (!isBanLive(ban)) return undefined;
  return new UserBanned(adminConfigOf(options).banMessage ?? BANNED);
}

/** POST admin/ban-user: stores the ban, then ends every session and credential of the user. */
export async function banUser(
  options: InternalOptions,
  request: RequestInternal,
  { userId, reason, expiresIn }: InputOf<typeof banInput>,
): Promise<ResponseInternal<UserBan>> {
  const admin = await requireAdmin(options, request);
  const store = storeOf(options);
  const target = await targetOf(store, userId);
  await assertMayActOn(options, admin, target, "ban");
  const createdAt = new Date();
  const ban: UserBan = {
    userId,
    reason: reason ?? null,
    bannedBy: admin.userId,
    createdAt,
    expiresAt: expiresIn === undefined ? null : new Date(createdAt.getTime() + Math.floor(expiresIn) * 1000),
  };
  await store.saveUserBan(ban);
  await suspendUser(options, store, userId, "banned");
  audited(
    options,
    request,
    "adminUserBanned",
    admin.userId,
    userId,
    ban.expiresAt ? `until=${ban.expiresAt.toISOString()}` : "until=lifted",
  );
  return adminAnswer(ban);
}

/** POST admin/unban-user: lifts the ban (none: nothing changes). */
export async function unbanUser(options: InternalOptions, request: RequestInternal, { userId }: InputOf<typeof userInput>) {
  const admin = await requireAdmin(options, request);
  const store = storeOf(options);
  await targetOf(store, userId);
  await store.deleteUserBan(userId);
  audited(options, request, "adminUserUnbanned", admin.userId, userId);
  return adminAnswer({ userId });
}
