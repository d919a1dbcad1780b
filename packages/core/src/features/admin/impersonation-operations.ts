/**
 * The impersonation operations' declarations (`features/admin/impersonation.ts`): their routes under
 * `<basePath>/admin/*`, their CSRF proof and their typed input. Their code loads with their first request.
 *
 * @module features/admin/impersonation-operations
 */
import { field, inputSchema } from "../../http/input.js";
import { defineOperation, lazyHandler } from "../define.js";

const impersonation = () => import("./impersonation.js");

/** `userId`: the user to act as (a store id; at most 256 characters). */
export const impersonateInput = inputSchema({ userId: field.string({ max: 256 }) });

/** POST `<basePath>/admin/impersonate`: an admin starts acting as `userId`. */
export const impersonateUser = defineOperation({
  name: "impersonateUser",
  method: "POST",
  path: "admin/impersonate",
  needs: { csrf: "prove", callbackUrl: true },
  presentation: "json",
  input: impersonateInput,
  handler: lazyHandler(impersonation, "impersonateUserAction"),
});

/** POST `<basePath>/admin/stop-impersonating`: from the impersonated session, back to the admin's own. */
export const stopImpersonating = defineOperation({
  name: "stopImpersonating",
  method: "POST",
  path: "admin/stop-impersonating",
  needs: { csrf: "prove", callbackUrl: true },
  presentation: "json",
  handler: lazyHandler(impersonation, "stopImpersonatingAction"),
});

/** The impersonation operations, for the admin feature's list. */
export const impersonationOperations = [impersonateUser, stopImpersonating] as const;
