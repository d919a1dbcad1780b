/**
 * The admin's actions (`useListUsers`, `useBanUser`, …; core's `admin` option, docs/admin.md): their
 * bounded input schemas, and their failure, a form failure whose `code` is the error's type (`AccessDenied`
 * for a caller who is not an admin, `UserNotFound`, `UserExists`, `InvalidUser`) with core's status, never
 * an exception.
 */
import { z } from "@builder.io/qwik-city";
import { controlFailure } from "./control.js";
import type { FormFailure } from "./validation.js";

/** Shown when an admin action failed for a reason that is the operator's (the details are in the server log). */
export const ADMIN_FAILED_MESSAGE = "The user could not be changed. Please try again later.";

/** The error types an admin action reports (any other is `"Configuration"`). */
export type AdminError = "SessionRequired" | "MissingCSRF" | "AccessDenied" | "UserNotFound" | "UserExists" | "InvalidUser";

/** The failure of an admin action: `code` is the error's type (`"Configuration"`: the operator's). */
export type AdminFailure = FormFailure<string, AdminError | "Configuration">;

/** The value of an admin action: what the operation answered, or the failure. */
export type AdminResult<Value> = (Value & { failed?: undefined }) | ({ failed: true } & AdminFailure);

/** Core's status for the error (403 `AccessDenied`, 404 `UserNotFound`, …), its type as `code`. */
export const adminFailure = controlFailure<string, AdminError>(ADMIN_FAILED_MESSAGE);

const userId = z.string().min(1).max(128);
const role = z.string().max(32);

/** Input of the actions that name one user (`useGetUser`, `useUnbanUser`, `useDeleteUser`, …). */
export const userSchema = z.object({ userId });
export const listUsersSchema = z.object({
  search: z.string().max(200).optional(),
  banned: z.enum(["true", "false", "any"]).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
});
export const createUserSchema = z.object({
  email: z.string().min(3).max(320),
  name: z.string().max(100).optional(),
  emailVerified: z.union([z.boolean(), z.enum(["true", "false", "on"])]).optional(),
  password: z.string().max(1024).optional(),
  role: role.optional(),
});
export const updateUserSchema = z.object({
  userId,
  name: z.string().max(100).optional(),
  email: z.string().max(320).optional(),
  role: role.optional(),
});
export const setUserPasswordSchema = z.object({ userId, password: z.string().min(1).max(1024) });
/** `expiresIn`: seconds until the ban ends (none: until lifted). */
export const banUserSchema = z.object({
  userId,
  reason: z.string().max(500).optional(),
  expiresIn: z.coerce.number().int().min(60).optional(),
});
