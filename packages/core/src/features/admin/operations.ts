/**
 * The admin JSON operations, one declaration each: its route under `<basePath>/admin/`, its needs (a change
 * proves the CSRF token; a read needs none), its typed input and its handler, whose code loads with its
 * first request. Every handler asks `requireAdmin` first. `auth.api` calls them by these declarations
 * (`api.ts`).
 *
 * @module features/admin/operations
 */
import type { OperationNeeds } from "../../types/operation.js";
import { defineOperation, lazyHandler } from "../define.js";
import { banInput, createUserInput, listUsersInput, setPasswordInput, updateUserInput, userInput } from "./input.js";

const users = () => import("./users.js");
const bans = () => import("./bans.js");

/** A change proves the form's CSRF token first; a read needs none. */
export const change: OperationNeeds = { csrf: "prove" };

export const listUsers = defineOperation({
  name: "listUsers",
  method: "GET",
  path: "admin/list-users",
  presentation: "json",
  input: listUsersInput,
  handler: lazyHandler(users, "listUsers"),
});
export const getUser = defineOperation({
  name: "getUser",
  method: "GET",
  path: "admin/get-user",
  presentation: "json",
  input: userInput,
  handler: lazyHandler(users, "getUser"),
});
export const createUser = defineOperation({
  name: "createUser",
  method: "POST",
  path: "admin/create-user",
  needs: change,
  presentation: "json",
  input: createUserInput,
  handler: lazyHandler(users, "createUser"),
});
export const updateUser = defineOperation({
  name: "updateUser",
  method: "POST",
  path: "admin/update-user",
  needs: change,
  presentation: "json",
  input: updateUserInput,
  handler: lazyHandler(users, "updateUser"),
});
export const setUserPassword = defineOperation({
  name: "setUserPassword",
  method: "POST",
  path: "admin/set-password",
  needs: change,
  presentation: "json",
  input: setPasswordInput,
  handler: lazyHandler(users, "setUserPassword"),
});
export const banUser = defineOperation({
  name: "banUser",
  method: "POST",
  path: "admin/ban-user",
  needs: change,
  presentation: "json",
  input: banInput,
  handler: lazyHandler(bans, "banUser"),
});
export const unbanUser = defineOperation({
  name: "unbanUser",
  method: "POST",
  path: "admin/unban-user",
  needs: change,
  presentation: "json",
  input: userInput,
  handler: lazyHandler(bans, "unbanUser"),
});
export const deleteUser = defineOperation({
  name: "deleteUser",
  method: "POST",
  path: "admin/delete-user",
  needs: change,
  presentation: "json",
  input: userInput,
  handler: lazyHandler(users, "deleteUser"),
});
export const adminRevokeUserSessions = defineOperation({
  name: "adminRevokeUserSessions",
  method: "POST",
  path: "admin/revoke-sessions",
  needs: change,
  presentation: "json",
  input: userInput,
  handler: lazyHandler(users, "revokeUserSessions"),
});
