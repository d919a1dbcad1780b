/**
 * The built-in admin pages and their forms (`pages.ts`, `page-forms.ts`): the user list at
 * `<basePath>/admin` and one user's page at `<basePath>/admin/user?userId=…`. A page mints the CSRF token its
 * forms prove; each form runs its JSON operation by name and comes back with `?done=` or `?error=`.
 *
 * @module features/admin/page-operations
 */
import type { OperationDeclaration } from "../../types/operation.js";
import { lazyHandler } from "../define.js";
import { change } from "./operations.js";

const pages = () => import("./pages.js");
const pageForms = () => import("./page-forms.js");

/** A form of the user page (`admin/form-<path>`): runs the JSON operation `run` and comes back with `?done=<done>`. */
function pageForm(name: string, path: string, run: string, done: string): OperationDeclaration {
  return {
    name,
    method: "POST",
    path: `admin/form-${path}`,
    needs: change,
    presentation: async (options, request, error) => (await pageForms()).formRefusal(options, request, error),
    handler: async (options, request) => (await pageForms()).runForm(options, request, run, done),
  };
}

export const adminPageOperations: readonly OperationDeclaration[] = [
  {
    name: "adminUsersPage",
    method: "GET",
    path: "admin",
    needs: { csrf: "mint" },
    presentation: "page",
    handler: lazyHandler(pages, "usersPage"),
  },
  {
    name: "adminUserPage",
    method: "GET",
    path: "admin/user",
    needs: { csrf: "mint" },
    presentation: "page",
    handler: lazyHandler(pages, "userPage"),
  },
  pageForm("adminBanForm", "ban", "banUser", "banned"),
  pageForm("adminUnbanForm", "unban", "unbanUser", "unbanned"),
  pageForm("adminRevokeSessionsForm", "revoke-sessions", "adminRevokeUserSessions", "sessionsRevoked"),
  pageForm("adminSetPasswordForm", "set-password", "setUserPassword", "passwordSet"),
  pageForm("adminDeleteForm", "delete", "deleteUser", "deleted"),
];
