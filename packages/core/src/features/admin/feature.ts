/**
 * The operator's tools (docs/admin.md): find, create, change, ban and delete users, and act as one with a
 * trail. Turned on by `admin: {…}`; who is an admin is the app's decision (`access.ts`), asked of the store
 * on every call. Its code loads with the first request to it.
 *
 * @module features/admin/feature
 */
import type { InternalOptions, RequestInternal } from "../../types/internal.js";
import type { OperationDeclaration } from "../../types/operation.js";
import { defineFeature } from "../define.js";
import { adminApi } from "./api.js";
import { adminConfigError } from "./config-check.js";
import { impersonationApi } from "./impersonation-api.js";
import { impersonationOperations } from "./impersonation-operations.js";
import { adminMessages } from "./messages.js";
import * as declared from "./operations.js";
import { adminPageOperations } from "./page-operations.js";
import { adminMethods } from "./store.js";

export type { ImpersonationApi, ImpersonationResult, StopImpersonationResult } from "./impersonation-types.js";
export type { AdminApi } from "./types.js";

const bans = () => import("./bans.js");

/** The JSON operations (every one an admin's only: `requireAdmin`), then the pages and their forms. */
export const adminOperations: readonly OperationDeclaration[] = [
  declared.listUsers,
  declared.getUser,
  declared.createUser,
  declared.updateUser,
  declared.setUserPassword,
  declared.banUser,
  declared.unbanUser,
  declared.deleteUser,
  declared.adminRevokeUserSessions,
  ...adminPageOperations,
];
/** The impersonation banner of the built-in pages (`impersonation-banner.ts`), loaded with the first page. */
async function pageBanner(options: InternalOptions, request: RequestInternal) {
  return (await import("./impersonation-banner.js")).impersonationBanner(options, request);
}

export const adminFeature = defineFeature({
  name: "admin",
  enabled: (config) => config.admin !== undefined,
  turnedOnBy: "admin",
  api: { ...adminApi(declared), ...impersonationApi },
  messages: adminMessages,
  check: adminConfigError,
  adapterNeeds: (config) => (config.admin === undefined ? undefined : { feature: "Admin (`admin`)", methods: adminMethods }),
  signInErrors: { UserBanned: "signinError.userBanned" },
  // The app's own ban message replaces the built-in one on the sign-in page, in every language.
  configuredMessages: (config) => (config.admin?.banMessage ? { "signinError.userBanned": config.admin.banMessage } : undefined),
  audit: {
    // A refused admin change (not an admin, a guarded target, a bad input) is its own failure; so is a refused
    // start or stop of an impersonation (another admin, a banned user, from an impersonated session), named
    // after the session refused.
    failures: {
      routes: [...adminOperations, ...impersonationOperations]
        .filter((operation) => operation.method === "POST")
        .map((operation) => operation.path),
      type: "adminRefused",
    },
  },
  hooks: {
    // The one gate of every first factor asks whether a ban holds (one store read per sign-in).
    signInRefusal: async (options: InternalOptions, userId: string) => (await bans()).banRefusal(options, userId),
    pageBanner,
  },
  // Acting as a user (impersonation-operations.ts): starting is an admin's; stopping is the impersonated session's.
  operations: [...adminOperations, ...impersonationOperations],
  cookies: { impersonatorSession: "impersonator-session" },
});
