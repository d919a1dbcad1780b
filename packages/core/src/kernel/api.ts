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
import type { AuthApi, EmailCodeInput, RedirectResult, RequestLike, RevokeUserSessionsInput, SignInInput } from "../types/api.js";
import type { ResponseInternal } from "../types/internal.js";
import type { ApiRunner, OperationDeclaration } from "../types/operation.js";
import { inProcessRequest, type RouteParts } from "./api-request.js";
import * as operations from "./features.js";
import { performCall, readSession, type UsableAuth } from "./pipeline.js";

/** The answer of an operation whose route redirects, as a {@link RedirectResult}. */
function redirectOf(result: ResponseInternal): RedirectResult {
  // Every route an operation runs answers a redirect; anything else is authlib's own bug, said as such.
  if (!result.redirect) throw new UnknownAction("The operation answered without a redirect.");
  return { redirect: result.redirect, cookies: result.cookies ?? [] };
}

/** The data of a JSON operation, as its declaration types it. */
function dataOf<Body>(result: ResponseInternal<Body>): Body {
  if (result.body === undefined) throw new UnknownAction("The operation answered without data.");
  return result.body;
}

/**
 * Runs `operation` of the instance (`UnknownAction` when its feature is off) for the caller's request, its
 * typed `input` parsed by its schema; `parts` only for a route that names a provider or reads the request itself.
 */
type Call = <Body>(
  like: RequestLike,
  operation: OperationDeclaration<unknown, Body>,
  input?: object,
  parts?: RouteParts,
) => Promise<ResponseInternal<Body>>;

function caller(resolved: UsableAuth): Call {
  return (like, operation, input = {}, parts) => {
    const declared = resolved.router.named(operation.name);
    return performCall(resolved, inProcessRequest(resolved, like, declared, parts), operation, input);
  };
}

/** The API of a usable resolved configuration. */
export function createApi(resolved: UsableAuth): AuthApi {
  const call = caller(resolved);
  const named = (name: string) => resolved.router.named(name);
  /** A form operation: its typed input, `redirectTo` as its `callbackUrl` (the form's field). */
  const form = async (like: RequestLike, name: string, input: object | undefined) =>
    redirectOf(await call(like, named(name), { ...input, callbackUrl: redirectToOf(input) ?? "/" }));
  const shared = {
    // async: a request it cannot read is a rejected promise, never a throw from the call itself.
    getSession: async (request) => readSession(resolved, inProcessRequest(resolved, request, named("getSession"))),
    signIn: async (request, input) => redirectOf(await signIn(resolved, call, request, input)),
    signInWithEmailCode: async (request, input) => redirectOf(await signInWithEmailCode(resolved, call, request, input)),
    signOut: (request, input) => form(request, "signOut", input),
    listSessions: async (request) => dataOf(await call(request, operations.listSessions)).sessions,
    revokeSession: async (request, input) => revoked(await call(request, operations.revokeSession, { sessionId: input?.sessionId })),
    revokeOtherSessions: async (request) => revoked(await call(request, operations.revokeSession, { all: "others" })),
    revokeUserSessions: (input) => revokeUserSessions(resolved, input),
    listAccounts: async (request) => dataOf(await call(request, operations.listAccounts)).accounts,
    unlinkAccount: async (request, input) => dataOf(await call(request, operations.unlinkAccount, { ...input })),
    listPasskeys: async (request) => dataOf(await call(request, operations.listPasskeys)).passkeys,
    renamePasskey: async (request, input) => dataOf(await call(request, operations.renamePasskey, { ...input })).passkey,
    removePasskey: async (request, input) => dataOf(await call(request, operations.removePasskey, { ...input })),
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
    run: async (request, name, input = {}) => {
      const operation = named(name);
      const { body, redirect, cookies = [] } = await call(request, operation, input, operation.input ? {} : asFields(operation, input));
      return { body, redirect, cookies };
    },
  } satisfies Partial<AuthApi>;
  // The built-in features' methods (`FeatureDefinition.api`): `AuthApi` declares them through their `types.ts`.
  return { ...shared, ...featureMethods(call, resolved) } as AuthApi;
}

/** The `redirectTo` of a form operation's input (every one that has it types it as a string). */
function redirectToOf(input: object | undefined): string | undefined {
  const value: unknown = input && Object.hasOwn(input, "redirectTo") ? Reflect.get(input, "redirectTo") : undefined;
  return typeof value === "string" ? value : undefined;
}

/** An operation without a schema reads its request: `input` as its form (a POST) or its query (a GET). */
function asFields(operation: OperationDeclaration, input: Record<string, unknown>): RouteParts {
  if (operation.method === "POST") return { body: { ...input } };
  return { query: Object.fromEntries(Object.entries(input).map(([key, value]) => [key, String(value)])) };
}

function revoked(result: ResponseInternal<{ revoked: number }>) {
  return { revoked: dataOf(result).revoked, cookies: result.cookies ?? [] };
}

/**
 * A sign-in: credentials and passkeys are checked where their forms post (the callback); the rest start
 * at `signin`. Both take the caller's typed fields, parsed by their schemas (`actions/sign-in-input.ts`).
 */
function signIn(resolved: UsableAuth, call: Call, like: RequestLike, input: SignInInput) {
  const { providerId, redirectTo, link, authorizationParams, ...fields } = input;
  const type = resolved.providers.find((p) => p.id === providerId)?.type;
  if (type === undefined) throw new InvalidProvider(`Unknown provider "${providerId}".`);
  const callbackUrl = redirectTo ?? "/";
  // Credentials and passkeys: the provider's fields as the form would post them.
  if (type === "credentials" || type === "webauthn")
    return call(like, named(resolved, "callbackPost"), { ...fields, callbackUrl }, { providerId });
  return call(like, named(resolved, "signIn"), { ...fields, callbackUrl, link, authorizationParams }, { providerId });
}

function named(resolved: UsableAuth, name: string) {
  return resolved.router.named(name);
}

/** A mailed code: the email provider's callback (without `redirectTo`, where the mail was asked to lead). */
function signInWithEmailCode(resolved: UsableAuth, call: Call, like: RequestLike, input: EmailCodeInput) {
  const { providerId, code, redirectTo } = { ...input };
  const id = providerId ?? resolved.providers.find((p) => p.type === "email")?.id;
  if (id === undefined || resolved.providers.find((p) => p.id === id)?.type !== "email")
    throw new InvalidProvider(`No email provider "${providerId ?? ""}" is configured.`);
  return call(like, named(resolved, "callbackPost"), { code, ...(redirectTo ? { callbackUrl: redirectTo } : {}) }, { providerId: id });
}

/** For server code: no request, no CSRF check (never call it with a user id taken from a request unchecked). */
async function revokeUserSessions(resolved: UsableAuth, input: RevokeUserSessionsInput): Promise<{ revoked: number }> {
  const { userId, except } = { ...input };
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

/** The built-in features' methods of `auth.api`, each made from a runner over `call` (async: a throw is a rejection). */
function featureMethods(call: Call, resolved: UsableAuth): Record<string, unknown> {
  const run: ApiRunner = {
    call: (request, operation, input) => call(request, operation, input),
    data: async (request, operation, input) => dataOf(await call(request, operation, input)),
    redirect: async (request, operation, input) => redirectOf(await call(request, operation, input)),
    server: async (work) => {
      try {
        return await work(resolved.options);
      } catch (error) {
        const authError = asAuthError(error);
        resolved.logger.error(authError);
        throw authError;
      }
    },
  };
  return Object.fromEntries(Object.entries(operations.builtInApi).map(([name, make]) => [name, make(run)]));
}
