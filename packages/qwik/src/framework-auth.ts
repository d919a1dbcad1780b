/**
 * `FrameworkAuth$`: the four members an app exports from `src/routes/plugin@auth.ts`.
 */
import { CredentialsSignin, InvalidProvider, type Session } from "@authlib/core";
import { implicit$FirstArg } from "@builder.io/qwik";
import { isServer } from "@builder.io/qwik/build";
import { globalAction$, type RequestEventCommon, routeLoader$, z, zod$ } from "@builder.io/qwik-city";
import { type FrameworkAuthConfig, type FrameworkAuthConfigQrl, loadAuthContext } from "./context.js";
import { handleRequest } from "./request.js";
import { readSession } from "./session.js";
import { startSignIn, startSignOut } from "./sign-in.js";

/** What a failed `useSignIn` / `useSignOut` reports (besides `failed: true`), per spec §4.1 and §7.4. */
export interface SignInFailure {
  formErrors: string[];
  fieldErrors: {
    providerId?: string[];
    redirectTo?: string[];
    options?: string[];
    authorizationParams?: string[];
  };
  /** Set when credentials were rejected: the `code` of the `CredentialsSignin` (safe to show, never which field was wrong). */
  code?: string;
}

/** The message a form shows for rejected credentials. */
export const CREDENTIALS_SIGNIN_MESSAGE = "Sign in failed. Check the details you provided are correct.";

/**
 * Initialises authlib for Qwik City from a QRL of the configuration function. Prefer
 * {@link FrameworkAuth$}; this is what the optimizer turns it into.
 */
export function FrameworkAuthQrl(configQrl: FrameworkAuthConfigQrl) {
  /**
   * Request hook. Under `basePath` (default `/auth`) core answers: the built-in pages, the JSON
   * endpoints and the OAuth callbacks, with core's CSRF check. Elsewhere it does no auth work.
   */
  const onRequest = async (ev: RequestEventCommon): Promise<void> => {
    // The client build drops this body, and with it core, from the browser bundles.
    if (!isServer) return;
    await handleRequest(ev, configQrl);
  };

  /** The current session, or `null` when signed out. */
  const useSession = routeLoader$(async (ev): Promise<Session | null> => readSession(ev, await loadAuthContext(ev, configQrl)));

  /**
   * Signs in. Fields: `providerId`, `redirectTo` (or `options.redirectTo`), `options.*` (passed to the
   * provider: `options.email`, `options.password`, …), `authorizationParams`. Redirects (303) on success;
   * rejected credentials give `{ failed: true, formErrors, fieldErrors, code }` with status 401.
   */
  const useSignIn = globalAction$(
    async ({ providerId, redirectTo, options, authorizationParams }, ev) => {
      const context = await loadAuthContext(ev, configQrl);
      const { redirectTo: optionsRedirectTo, ...fields } = options ?? {};
      try {
        await startSignIn(ev, context, providerId, { ...fields, redirectTo: optionsRedirectTo ?? redirectTo }, authorizationParams);
      } catch (error) {
        if (error instanceof CredentialsSignin) {
          return ev.fail(401, failure({ formErrors: [CREDENTIALS_SIGNIN_MESSAGE], code: error.code }));
        }
        if (error instanceof InvalidProvider) {
          return ev.fail(400, failure({ fieldErrors: { providerId: [error.message] } }));
        }
        throw error;
      }
    },
    zod$({
      providerId: z.string().optional(),
      redirectTo: z.string().optional(),
      options: z.object({ redirectTo: z.string() }).passthrough().partial().optional(),
      authorizationParams: z.union([z.string(), z.instanceof(URLSearchParams), z.record(z.string())]).optional(),
    }),
  );

  /** Signs out, then redirects (303) to `redirectTo` (default: the current page). */
  const useSignOut = globalAction$(
    async ({ redirectTo }, ev) => {
      await startSignOut(ev, await loadAuthContext(ev, configQrl), redirectTo);
    },
    zod$({ redirectTo: z.string().optional() }),
  );

  return { onRequest, useSession, useSignIn, useSignOut };
}

function failure(partial: Partial<SignInFailure>): SignInFailure {
  return { formErrors: [], fieldErrors: {}, ...partial };
}

/** What {@link FrameworkAuth$} returns. */
export type FrameworkAuthResult = ReturnType<typeof FrameworkAuthQrl>;


/**
 * Initialises authlib for Qwik City (spec §4.1). The function receives the request event and returns
 * the configuration; it runs once per request, and `setEnvDefaults` then fills it from Qwik's `ev.env`
 * (`AUTH_SECRET`, `AUTHLIB_URL`, `AUTH_TRUST_HOST`, `AUTH_<PROVIDER>_ID`, …).
 *
 * @example
 * ```ts
 * // src/routes/plugin@auth.ts
 * import { FrameworkAuth$ } from "@authlib/qwik";
 * import GitHub from "@authlib/core/providers/github";
 *
 * export const { onRequest, useSession, useSignIn, useSignOut } = FrameworkAuth$(() => ({ providers: [GitHub] }));
 * ```
 */
export const FrameworkAuth$: (
  config: (ev: RequestEventCommon) => FrameworkAuthConfig | Promise<FrameworkAuthConfig>,
) => FrameworkAuthResult = /*#__PURE__*/ implicit$FirstArg(FrameworkAuthQrl);
