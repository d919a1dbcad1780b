/**
 * The operator's tools (docs/admin.md): find, create, change, ban and delete users, and act as one with a
 * trail. Turned on by `admin: {…}`; who is an admin is the app's decision (`access.ts`). Its code loads
 * with the first request to it.
 *
 * @module features/admin/feature
 */
import type { InternalOptions, RequestInternal } from "../../types/internal.js";
import { defineFeature } from "../define.js";
import { impersonationApi } from "./impersonation-api.js";
import { impersonationOperations } from "./impersonation-operations.js";

export type { ImpersonationApi, ImpersonationResult, StopImpersonationResult } from "./impersonation-types.js";

/** The impersonation banner of the built-in pages (`impersonation-banner.ts`), loaded with the first page. */
async function pageBanner(options: InternalOptions, request: RequestInternal) {
  return (await import("./impersonation-banner.js")).impersonationBanner(options, request);
}

export const adminFeature = defineFeature({
  name: "admin",
  enabled: (config) => config.admin !== undefined,
  turnedOnBy: "admin",
  operations: [...impersonationOperations],
  api: { ...impersonationApi },
  hooks: { pageBanner },
  cookies: { impersonatorSession: "impersonator-session" },
});
