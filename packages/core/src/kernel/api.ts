/**
 * `auth.api`: the operations of an instance for the app's own server code and for framework
 * integrations, in process. Each takes the incoming request (or any object with its headers) and its
 * input, runs its declared operation through the same pipeline as the HTTP surface (`pipeline.ts`) and
 * returns data; a failure is thrown as a typed `AuthError` (logged already), carrying the cookies it must
 * still set (`failureCookies` of `@authlib/core/integration`). An operation is reached by its name, never
 * by a URL path or a form-field string; the shapes are in `types/api.ts`.
 *
 * CSRF: an operation has no form to carry a token, because the app's own code calls it. It is refused
 * (`MissingCSRF`) when the browser says the request came from another site (`Sec-Fetch-Site:
 * cross-site`, or an `Origin` that is not the app's), so calling it from a route that a cross-site form
 * can reach does not make that route a CSRF hole.
 *
 * @module kernel/api
 */
import { InvalidProvider, InvalidSessionId, UnknownAction } from "../errors.js";
import { asAuthError } from "../http/error-response.js";
import { isSessionId, loadRegistry } from "../session/registry-of.js";
import type {
  AuthApi,
  EmailCodeInput,
  RecentAuthInput,
  RedirectResult,
  RequestLike,
  RevokeUserSessionsInput,
  SignInInput,
} from "../types/api.js";
import type { SessionAssurance } from "../types/base.js";
import type { ResponseInternal } from "../types/internal.js";
import { inProcessRequest, type OperationCall } from "./api-request.js";
import { perform, readSession, type UsableAuth } from "./pipeline.js";

/** The answer of an operation whose route redirects, as a {@link RedirectResult}. */
function redirectOf(result: ResponseInternal): RedirectResult {
  // Every route an operation runs answers a redirect; anything else is authlib's own bug, said as such.
  if (!result.redirect) throw new UnknownAction("The operation answered without a redirect.");
  return { redirect: result.redirect, cookies: result.cookies ?? [] };
}

/** The API of a usable resolved configuration. */
export function createApi(resolved: UsableAuth): AuthApi {
  const run = (request: RequestLike, call: OperationCall) => perform(resolved, inProcessRequest(resolved, request, call));
  /** The JSON body of an operation (`body[key]` when given). */
  const data = async <T>(request: RequestLike, operation: string, body?: Record<string, unknown>, key?: string): Promise<T> => {
    const answered = (await run(request, { operation, body })).body as Record<string, unknown>;
    return (key === undefined ? answered : answered[key]) as T;
  };
  /** A form operation: `input` as its posted form, `redirectTo` as its `callbackUrl`. */
  const form = async (request: RequestLike, operation: string, input: object | undefined) => {
    const { redirectTo, ...fields } = (input ?? {}) as { redirectTo?: string };
    return redirectOf(await run(request, { operation, body: { ...fields, callbackUrl: redirectTo ?? "/" } }));
  };
  return {
    // async: a request it cannot read is a rejected promise, never a throw from the call itself.
    getSession: async (request) => readSession(resolved, inProcessRequest(resolved, request, { operation: "getSession" })),
    signIn: async (request, input) => redirectOf(await run(request, signInCall(resolved, input))),
    signInWithEmailCode: async (request, input) => redirectOf(await run(request, emailCodeCall(resolved, input))),
    signOut: (request, input) => form(request, "signOut", input),
    listSessions: (request) => data(request, "listSessions", undefined, "sessions"),
    revokeSession: (request, input) => revoke(run, request, { sessionId: input?.sessionId }),
    revokeOtherSessions: (request) => revoke(run, request, { all: "others" }),
    revokeUserSessions: (input) => revokeUserSessions(resolved, input),
    listAccounts: (request) => data(request, "listAccounts", undefined, "accounts"),
    unlinkAccount: (request, input) =>
      data(request, "unlinkAccount", { provider: input?.provider, providerAccountId: input?.providerAccountId }),
    listPasskeys: (request) => data(request, "listPasskeys", undefined, "passkeys"),
    renamePasskey: (request, input) => data(request, "renamePasskey", { id: input?.id, name: input?.name }, "passkey"),
    removePasskey: (request, input) => data(request, "removePasskey", { ...input }),
    signUp: (request, input) => form(request, "signUp", input),
    verifyEmail: (request, input) => form(request, "verifyEmail", input),
    requestPasswordReset: (request, input) => form(request, "requestPasswordReset", input),
    resetPassword: (request, input) => form(request, "resetPassword", input),
    resendPasswordReset: (request, input) => form(request, "resendPasswordReset", input),
    changePassword: (request, input) => form(request, "changePassword", input),
    changeEmail: (request, input) => form(request, "changeEmail", input),
    addEmail: (request, input) => form(request, "changeEmail", input),
    confirmEmail: (request, input) => form(request, "confirmEmail", input),
    deleteAccount: (request, input) => form(request, "deleteAccount", input),
    enrollTotp: (request) => data(request, "enrollTotp", {}),
    confirmTotp: (request, input) => data(request, "confirmTotp", { code: input?.code }),
    disableTotp: async (request, input) => void (await data(request, "disableTotp", { code: input?.code })),
    regenerateRecoveryCodes: (request, input) => data(request, "regenerateRecoveryCodes", { code: input?.code }),
    getTwoFactorStatus: (request) => data(request, "getTwoFactorStatus"),
    verifyTwoFactor: async (request, input) =>
      redirectOf(await run(request, { operation: "verifyTwoFactor", body: { code: input?.code } })),
    requireRecentAuth: (request, input) => requireRecentAuth(run, request, input),
    run: async (request, operation, input = {}) => {
      const get = resolved.router.named(operation).method === "GET";
      const query = Object.fromEntries(Object.entries(input).map(([key, value]) => [key, String(value)]));
      const { body, redirect, cookies = [] } = await run(request, { operation, ...(get ? { query } : { body: { ...input } }) });
      return { body, redirect, cookies };
    },
  };
}

type Run = (request: RequestLike, call: OperationCall) => Promise<ResponseInternal>;

/** A sign-in's call: credentials and passkeys are checked where their forms post (the callback); the rest start at `signin`. */
function signInCall(resolved: UsableAuth, input: SignInInput): OperationCall {
  const { providerId, redirectTo, link, authorizationParams, ...fields } = input;
  const type = resolved.providers.find((p) => p.id === providerId)?.type;
  if (type === undefined) throw new InvalidProvider(`Unknown provider "${providerId}".`);
  const body: Record<string, unknown> = { ...fields, callbackUrl: redirectTo ?? "/" };
  if (link) body.link = "true";
  const operation = type === "credentials" || type === "webauthn" ? "callbackPost" : "signIn";
  return { operation, providerId, body, query: authorizationParams };
}

/** The call of a mailed code: the email provider's callback (without `redirectTo`, where the mail was asked to lead). */
function emailCodeCall(resolved: UsableAuth, input: EmailCodeInput): OperationCall {
  const { providerId, ...fields } = input ?? ({} as EmailCodeInput);
  const id = providerId ?? resolved.providers.find((p) => p.type === "email")?.id;
  if (id === undefined || resolved.providers.find((p) => p.id === id)?.type !== "email")
    throw new InvalidProvider(`No email provider "${providerId ?? ""}" is configured.`);
  const body = { code: fields.code, ...(fields.redirectTo ? { callbackUrl: fields.redirectTo } : {}) };
  return { operation: "callbackPost", providerId: id, body };
}

async function revoke(run: Run, request: RequestLike, body: Record<string, unknown>) {
  const result = await run(request, { operation: "revokeSession", body });
  return { revoked: (result.body as { revoked: number }).revoked, cookies: result.cookies ?? [] };
}

/** For server code: no request, no CSRF check (never call it with a user id taken from a request unchecked). */
async function revokeUserSessions(resolved: UsableAuth, input: RevokeUserSessionsInput): Promise<{ revoked: number }> {
  const { userId, except } = input ?? ({} as RevokeUserSessionsInput);
  try {
    if (typeof userId !== "string" || userId === "") throw new InvalidSessionId("revokeUserSessions needs the user's id (`userId`).");
    if (except !== undefined && !isSessionId(except)) throw new InvalidSessionId("`except` is not a session id.");
    const ended = await (await loadRegistry()).revokeSessions(resolved.options, { userId, except, reason: "server" });
    return { revoked: ended.length };
  } catch (error) {
    const authError = asAuthError(error);
    resolved.logger.error(authError);
    throw authError;
  }
}

async function requireRecentAuth(run: Run, request: RequestLike, input: RecentAuthInput) {
  const { maxAge, aal = 1 } = input ?? ({} as RecentAuthInput);
  if (!(Number.isFinite(maxAge) && maxAge >= 0) || (aal !== 1 && aal !== 2))
    throw new TypeError("requireRecentAuth needs `maxAge` (seconds, 0 or more) and `aal` 1 or 2.");
  const result = await run(request, { operation: "sessionAssurance", query: { maxAge: String(maxAge), aal: String(aal) } });
  const { userId, assurance } = result.body as { userId: string; assurance: SessionAssurance };
  return { userId, ...assurance };
}
