/**
 * The impersonation methods of `auth.api` (`FeatureDefinition.api`), over their declarations: each answers
 * its data with the cookies to set (the session moves in this browser).
 *
 * @module features/admin/impersonation-api
 */
import type { ApiRunner } from "../../types/operation.js";
import type { ImpersonationStarted, ImpersonationStopped } from "./impersonation.js";
import { impersonateUser, stopImpersonating } from "./impersonation-operations.js";
import type { ImpersonationApi } from "./impersonation-types.js";

/** `auth.api.impersonateUser` and `auth.api.stopImpersonating`. */
export const impersonationApi = {
  impersonateUser:
    (run: ApiRunner): ImpersonationApi["impersonateUser"] =>
    async (request, input) => {
      const result = await run.call<ImpersonationStarted>(request, impersonateUser, { userId: input?.userId });
      return { ...(result.body as ImpersonationStarted), cookies: result.cookies ?? [] };
    },
  stopImpersonating:
    (run: ApiRunner): ImpersonationApi["stopImpersonating"] =>
    async (request) => {
      const result = await run.call<ImpersonationStopped>(request, stopImpersonating, {});
      return { ...(result.body as ImpersonationStopped), cookies: result.cookies ?? [] };
    },
};
