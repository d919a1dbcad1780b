/**
 * The impersonation hooks of `FrameworkAuth$` (core's `admin` option, docs/admin.md "Impersonation"): one
 * `globalAction$` per core operation, each one line over the table of `operation-actions.ts`. While an
 * admin acts as a user, `useSession()` carries `act` and `impersonator`: an app shows its own banner with
 * `useStopImpersonating` as its Stop button (the built-in pages show theirs).
 */
import { type Action, globalAction$, validator$, type z } from "@builder.io/qwik-city";
import type { FrameworkAuthConfigQrl } from "./context.js";
import type { impersonateSchema, ImpersonationResult as Result } from "./impersonation.js";
import { runOperation, validateOperation } from "./operation-actions.js";

/** `useImpersonateUser`, `useStopImpersonating`: an admin acts as a user, and comes back. */
export function impersonationHooks(configQrl: FrameworkAuthConfigQrl) {
  /**
   * The signed-in admin acts as the user `userId`: `{ userId, expires }`; this browser's session is the
   * user's from now on (its cookies are set), the admin's kept aside. Fails with `ImpersonationForbidden`
   * (403, the `reason` in core's error: self, unknown user, another admin, banned, turned off, already
   * impersonating) or `AccessDenied` (not an admin).
   */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useImpersonateUser: Action<Result<{ userId: string; expires: string }>, z.input<typeof impersonateSchema>> = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "impersonateUser", form),
    validator$((_ev, data) => validateOperation("impersonateUser", data)),
  );

  /** From the impersonated session: ends it and gives the admin's own back: `{ restored }` (false: it had ended; signed out). */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useStopImpersonating: Action<Result<{ restored: boolean }>> = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "stopImpersonating", form),
    validator$((_ev, data) => validateOperation("stopImpersonating", data)),
  );

  return { useImpersonateUser, useStopImpersonating };
}
