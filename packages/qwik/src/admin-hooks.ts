/**
 * The admin's hooks of `FrameworkAuth$` (core's `admin` option, docs/admin.md): one `globalAction$` per
 * core operation, written out (the Qwik optimizer makes each a segment where it sees it), each one line over
 * the table of `operation-actions.ts`. Core asks on every call whether the caller is an admin; the built-in
 * pages (`<basePath>/admin`) need none of these.
 */
import type { AdminUserDetails, AdminUserView, UserBan, UserPage } from "@authlib/core";
import { type Action, globalAction$, validator$, type z } from "@builder.io/qwik-city";
import type * as admin from "./admin.js";
import type { AdminResult as Result } from "./admin.js";
import type { FrameworkAuthConfigQrl } from "./context.js";
import { runOperation, validateOperation } from "./operation-actions.js";

/** The input of an action, as its schema takes it. */
type In<Schema extends z.ZodTypeAny> = z.input<Schema>;

/** `useListUsers`, `useGetUser`, `useCreateUser`, `useUpdateUser`: finding, reading, creating and changing users. */
export function adminUserHooks(configQrl: FrameworkAuthConfigQrl) {
  /** A page of users (fields `search`, `banned`, `cursor`, `limit`): `{ users, nextCursor }`. */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useListUsers: Action<Result<UserPage>, In<typeof admin.listUsersSchema>> = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "listUsers", form),
    validator$((_ev, data) => validateOperation("listUsers", data)),
  );

  /** One user with their accounts, sessions, ban and what other features hold for them. Fails with `UserNotFound` (404). */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useGetUser: Action<Result<AdminUserDetails>, In<typeof admin.userSchema>> = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "getUser", form),
    validator$((_ev, data) => validateOperation("getUser", data)),
  );

  /** Creates a user (the address unproven unless `emailVerified`). Fails with `UserExists` (409), `InvalidUser`. */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useCreateUser: Action<Result<AdminUserView>, In<typeof admin.createUserSchema>> = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "createUser", form),
    validator$((_ev, data) => validateOperation("createUser", data)),
  );

  /** Changes the name, role or address (a new address is unproven, and the old one is told). */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useUpdateUser: Action<Result<AdminUserView>, In<typeof admin.updateUserSchema>> = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "updateUser", form),
    validator$((_ev, data) => validateOperation("updateUser", data)),
  );
  return { useListUsers, useGetUser, useCreateUser, useUpdateUser };
}

/** `useSetUserPassword`, `useBanUser`, `useUnbanUser`, `useDeleteUser`, `useRevokeUserSessions`: acting on a user. */
export function adminActionHooks(configQrl: FrameworkAuthConfigQrl) {
  /** Sets the user's password (their sessions end, they are mailed): `{ userId }`. */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useSetUserPassword: Action<Result<{ userId: string }>, In<typeof admin.setUserPasswordSchema>> = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "setUserPassword", form),
    validator$((_ev, data) => validateOperation("setUserPassword", data)),
  );

  /** Bans the user (`reason`, `expiresIn` seconds): every session ends, every sign-in is refused. Answers the ban. */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useBanUser: Action<Result<UserBan>, In<typeof admin.banUserSchema>> = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "banUser", form),
    validator$((_ev, data) => validateOperation("banUser", data)),
  );

  /** Lifts the user's ban: `{ userId }`. */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useUnbanUser: Action<Result<{ userId: string }>, In<typeof admin.userSchema>> = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "unbanUser", form),
    validator$((_ev, data) => validateOperation("unbanUser", data)),
  );

  /** Deletes the user and everything of theirs: `{ userId }`. */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useDeleteUser: Action<Result<{ userId: string }>, In<typeof admin.userSchema>> = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "deleteUser", form),
    validator$((_ev, data) => validateOperation("deleteUser", data)),
  );

  /** Ends every session of the user: `{ userId }`. */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useRevokeUserSessions: Action<Result<{ userId: string }>, In<typeof admin.userSchema>> = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "adminRevokeUserSessions", form),
    validator$((_ev, data) => validateOperation("adminRevokeUserSessions", data)),
  );
  return { useSetUserPassword, useBanUser, useUnbanUser, useDeleteUser, useRevokeUserSessions };
}
