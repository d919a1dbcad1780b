/**
 * The actions that run one core operation for the action's request, as ONE table keyed by the operation's
 * name in core (its `OperationDeclaration.name`, which `auth.api.run` reaches): the input schema (checked
 * before core by the action's `validator$`: a 400 under `fieldErrors`), the operation's input made from it,
 * what a success answers and how a failure becomes the form's. Adding a core operation to Qwik is one entry
 * here and one `globalAction$` line in `framework-auth.ts` (the Qwik optimizer must see each `globalAction$`
 * call where it is written: a hook cannot be made in a loop over this table).
 *
 * A success answers the operation's data as the action's value, or sets core's cookies and redirects
 * (303) as `useSignIn` does; a failure is a form failure with its status, never an exception or an error
 * page. CSRF: core refuses an operation the browser sent from another site (`MissingCSRF`), and Qwik
 * City's `checkOrigin` refuses a cross-origin action POST before it runs.
 */
import type {
  AdminUserDetails,
  AdminUserView,
  CreatedApiKey,
  ListedApiKey,
  ListedDomain,
  ListedInvitation,
  ListedMember,
  ListedPasskey,
  Member,
  OperationResult,
  Organization,
  OrganizationMembership,
  TotpEnrollment,
  UserBan,
  UserPage,
} from "@authlib/core";
import { UnknownAction } from "@authlib/core/errors";
import { type FailReturn, type RequestEventAction, type RequestEventCommon, z } from "@builder.io/qwik-city";
import type { AccountsResult, UnlinkAccountError } from "./accounts.js";
import * as admin from "./admin.js";
import * as keys from "./api-keys.js";
import { type AuthContext, type FrameworkAuthConfigQrl, loadAuthContext } from "./context.js";
import { controlFailure, type FailureMapping, listingError } from "./control.js";
import { loadCore } from "./core.js";
import { impersonateSchema } from "./impersonation.js";
import { IMPERSONATION_FAILED_MESSAGE, PASSKEY_FAILED_MESSAGE, REVOKE_FAILED_MESSAGE, UNLINK_FAILED_MESSAGE } from "./messages.js";
import { operationRequest } from "./operation.js";
import * as orgs from "./organizations.js";
import type { PasskeyError, PasskeysResult } from "./passkeys.js";
import { passwordFailure } from "./password.js";
import { appendCookies } from "./response.js";
import { readSession, readSessionAfter } from "./session.js";
import type { RevokeSessionError, SessionsResult } from "./session-control.js";
import { currentPage, redirect } from "./sign-in.js";
import { settingsFailure } from "./two-factor.js";
import * as inputs from "./validation.js";

/**
 * What a success answers: `"data"`, the operation's data (its JSON body); `"redirect"`, core's cookies set
 * and a 303 to where core sends the browser. `cookies`: set core's cookies with data too. `session`: the
 * operation changed this browser's session, so later reads in this request (the loaders Qwik runs after
 * the action) read it again (`"reread"`), read the one its new cookies carry (`"cookies"`: the active
 * organization) or find none (`"replaced"`: the old cookie is stale).
 */
interface Success<Value> {
  kind: "data" | "redirect";
  cookies?: boolean;
  session?: "reread" | "cookies" | "replaced";
  /** The type of the value (never set). */
  value?: Value;
}

/** One entry: the action's input, the operation's input made from it (default: the same), and its outcome. */
interface OperationAction<Schema extends z.ZodTypeAny, Value, Failure> {
  input: Schema;
  body?(input: z.output<Schema>, ev: RequestEventAction): Record<string, unknown>;
  success: Success<Value>;
  failure: FailureMapping<Failure>;
}

function data<Value>(options: Omit<Success<Value>, "kind"> = {}): Success<Value> {
  return { kind: "data", ...options };
}

function redirects(session?: "replaced"): Success<undefined> {
  return { kind: "redirect", session };
}

/** A password form's input as core's form: `redirectTo` is its `callbackUrl` (default: the app's root). */
function asForm({ redirectTo, ...fields }: { redirectTo?: string }): Record<string, unknown> {
  return { ...fields, callbackUrl: redirectTo ?? "/" };
}

/** `useChangePassword`'s form: `redirectTo` defaults to the page the form was posted from. */
function changeForm(input: inputs.ChangePasswordInput, ev: RequestEventAction): Record<string, unknown> {
  return asForm({ ...input, redirectTo: input.redirectTo ?? currentPage(ev) });
}

const revoked = controlFailure<"sessionId" | "all", RevokeSessionError>(REVOKE_FAILED_MESSAGE);
const unlinked = controlFailure<"provider" | "providerAccountId", UnlinkAccountError>(UNLINK_FAILED_MESSAGE);
const passkey = controlFailure<"id" | "name", PasskeyError>(PASSKEY_FAILED_MESSAGE);
const org = orgs.organizationFailure;
const adminFailed = admin.adminFailure;
const impersonation = controlFailure<"userId", "ImpersonationForbidden" | "AccessDenied">(IMPERSONATION_FAILED_MESSAGE);
/** What `useSetActiveOrganization` answers: the active organization (`null`: none) and the member's role there. */
type Active = { activeOrganizationId: string | null; role?: string };

/** The table: core's operation name -> the action that runs it. */
const operationActions = {
  // Ending this browser's own session clears its cookie.
  revokeSession: {
    input: inputs.revokeSessionSchema,
    success: data<{ revoked: number }>({ cookies: true, session: "reread" }),
    failure: revoked,
  },
  unlinkAccount: { input: inputs.unlinkAccountSchema, success: data<{ unlinked: number }>(), failure: unlinked },
  renamePasskey: { input: inputs.renamePasskeySchema, success: data<{ passkey: ListedPasskey }>(), failure: passkey },
  removePasskey: { input: inputs.removePasskeySchema, success: data<{ removed: number }>(), failure: passkey },
  signUp: { input: inputs.signUpSchema, body: asForm, success: redirects(), failure: passwordFailure },
  requestPasswordReset: { input: inputs.requestPasswordResetSchema, body: asForm, success: redirects(), failure: passwordFailure },
  // These renew or replace this browser's session.
  resetPassword: { input: inputs.resetPasswordSchema, body: asForm, success: redirects("replaced"), failure: passwordFailure },
  changePassword: { input: inputs.changePasswordSchema, body: changeForm, success: redirects("replaced"), failure: passwordFailure },
  verifyTwoFactor: { input: inputs.twoFactorCodeSchema, success: redirects("replaced"), failure: passwordFailure },
  enrollTotp: { input: z.object({}), success: data<TotpEnrollment>(), failure: settingsFailure },
  confirmTotp: { input: inputs.twoFactorCodeSchema, success: data<{ recoveryCodes: string[] }>(), failure: settingsFailure },
  disableTotp: { input: inputs.twoFactorCodeSchema, success: data<{ disabled: true }>(), failure: settingsFailure },
  regenerateRecoveryCodes: { input: inputs.twoFactorCodeSchema, success: data<{ recoveryCodes: string[] }>(), failure: settingsFailure },
  // Organizations (core's `organizations` option): each answers its data; the active organization sets core's cookie.
  createOrganization: { input: orgs.createOrganizationSchema, success: data<OrganizationMembership>(), failure: org },
  updateOrganization: { input: orgs.updateOrganizationSchema, success: data<{ organization: Organization }>(), failure: org },
  deleteOrganization: { input: orgs.organizationSchema, success: data<{ deleted: true }>(), failure: org },
  getOrganization: { input: orgs.organizationSchema, success: data<OrganizationMembership>(), failure: org },
  joinOrganization: { input: orgs.organizationSchema, success: data<{ organizationId: string; role: string }>(), failure: org },
  listMembers: { input: orgs.organizationSchema, success: data<{ members: ListedMember[] }>(), failure: org },
  updateMemberRole: { input: orgs.memberRoleSchema, success: data<{ member: Member }>(), failure: org },
  removeMember: { input: orgs.memberSchema, success: data<{ removed: true }>(), failure: org },
  leaveOrganization: { input: orgs.organizationSchema, success: data<{ left: true }>({ cookies: true, session: "cookies" }), failure: org },
  setActiveOrganization: {
    input: orgs.activeOrganizationSchema,
    success: data<Active>({ cookies: true, session: "cookies" }),
    failure: org,
  },
  hasPermission: { input: orgs.permissionSchema, success: data<{ allowed: boolean }>(), failure: org },
  inviteMember: { input: orgs.inviteSchema, success: data<{ invitation: ListedInvitation }>(), failure: org },
  listInvitations: { input: orgs.organizationSchema, success: data<{ invitations: ListedInvitation[] }>(), failure: org },
  revokeInvitation: { input: orgs.invitationSchema, success: data<{ revoked: true }>(), failure: org },
  acceptInvitation: { input: orgs.acceptInvitationSchema, success: data<{ organizationId: string; role: string }>(), failure: org },
  listDomains: { input: orgs.organizationSchema, success: data<{ domains: ListedDomain[] }>(), failure: org },
  addDomain: { input: orgs.domainSchema, success: data<{ domain: ListedDomain }>(), failure: org },
  verifyDomain: { input: orgs.domainIdSchema, success: data<{ domain: ListedDomain }>(), failure: org },
  removeDomain: { input: orgs.domainIdSchema, success: data<{ removed: true }>(), failure: org },
  // The admin's operations (core's `admin` option): each answers its data.
  listUsers: { input: admin.listUsersSchema, success: data<UserPage>(), failure: adminFailed },
  getUser: { input: admin.userSchema, success: data<AdminUserDetails>(), failure: adminFailed },
  createUser: { input: admin.createUserSchema, success: data<AdminUserView>(), failure: adminFailed },
  updateUser: { input: admin.updateUserSchema, success: data<AdminUserView>(), failure: adminFailed },
  setUserPassword: { input: admin.setUserPasswordSchema, success: data<{ userId: string }>(), failure: adminFailed },
  banUser: { input: admin.banUserSchema, success: data<UserBan>(), failure: adminFailed },
  unbanUser: { input: admin.userSchema, success: data<{ userId: string }>(), failure: adminFailed },
  deleteUser: { input: admin.userSchema, success: data<{ userId: string }>(), failure: adminFailed },
  adminRevokeUserSessions: { input: admin.userSchema, success: data<{ userId: string }>(), failure: adminFailed },
  // Impersonation (core's `admin` option): this browser's session moves to the user and back.
  impersonateUser: {
    input: impersonateSchema,
    success: data<{ userId: string; expires: string }>({ cookies: true, session: "cookies" }),
    failure: impersonation,
  },
  stopImpersonating: {
    input: z.object({}),
    success: data<{ restored: boolean }>({ cookies: true, session: "cookies" }),
    failure: impersonation,
  },
  // API keys (core's `apiKeys` option): a new key is in the value once.
  createApiKey: { input: keys.createApiKeySchema, success: data<CreatedApiKey>(), failure: keys.apiKeyFailure },
  listApiKeys: { input: keys.listApiKeysSchema, success: data<{ apiKeys: ListedApiKey[] }>(), failure: keys.apiKeyFailure },
  rotateApiKey: { input: keys.apiKeySchema, success: data<CreatedApiKey>(), failure: keys.apiKeyFailure },
  revokeApiKey: { input: keys.apiKeySchema, success: data<{ revoked: true }>(), failure: keys.apiKeyFailure },
} satisfies Record<string, OperationAction<z.ZodTypeAny, unknown, unknown>>;

/** The name of a core operation that has an action here. */
export type OperationName = keyof typeof operationActions;
type Entry<Name extends OperationName> = (typeof operationActions)[Name];
/** What the action of `Name` answers: its value (`undefined` for a redirect) or its failure. */
type Answer<Name extends OperationName> =
  | (Entry<Name>["success"] extends Success<infer Value> ? Value : never)
  | FailReturn<Entry<Name>["failure"] extends FailureMapping<infer Failure> ? Failure : never>;

/** The `validator$` check of the action of `name`: its input, or a 400 with `fieldErrors`. */
export function validateOperation(name: OperationName, input: unknown) {
  return inputs.validateInput(operationActions[name].input, input);
}

/** The action of core's operation `name`: runs it through `auth.api.run` for the action's request with its validated input. */
export async function runOperation<Name extends OperationName>(
  ev: RequestEventAction,
  configQrl: FrameworkAuthConfigQrl,
  name: Name,
  form: unknown,
) {
  const entry: OperationAction<z.ZodTypeAny, unknown, unknown> = operationActions[name];
  const input = entry.input.parse(form);
  const context = await loadAuthContext(ev, configQrl);
  const body = entry.body?.(input, ev) ?? input;
  // The entry's own types, which `entry` does not keep.
  return present(ev, context, entry, () => context.auth.api.run(operationRequest(ev), name, body)) as Promise<Answer<Name>>;
}

/** `useEmailCode`: not an entry, because its operation is the email provider's callback (`auth.api.signInWithEmailCode` finds it). */
export async function signInWithEmailCode(ev: RequestEventAction, configQrl: FrameworkAuthConfigQrl, form: unknown) {
  const context = await loadAuthContext(ev, configQrl);
  const emailCode = { success: redirects("replaced"), failure: passwordFailure };
  return present(ev, context, emailCode, () =>
    context.auth.api.signInWithEmailCode(operationRequest(ev), inputs.emailCodeSchema.parse(form)),
  );
}

/**
 * The loaders that list the signed-in user's things: core's listing operation -> the key of its list in
 * the value, and the error types a page is told (any other is `"Configuration"`; core has logged it).
 */
const listings = {
  listSessions: listing<SessionsResult>("sessions", ["SessionRequired", "SessionRegistryMissing"]),
  listAccounts: listing<AccountsResult>("accounts", ["SessionRequired", "AccountsUnavailable"]),
  listPasskeys: listing<PasskeysResult>("passkeys", ["SessionRequired", "UnknownAction", "MissingAdapterMethods"]),
  listOrganizations: listing<OrganizationsResult>("organizations", ["SessionRequired", "UnknownAction"]),
};

/** The value of `useOrganizations`: the user's organizations with their role in each, or why there is no list. */
export type OrganizationsResult =
  | { organizations: OrganizationMembership[]; error?: undefined }
  | { organizations: null; error: "SessionRequired" | "UnknownAction" | "Configuration" };

/** A listing: `{ [key]: list }`, or `{ [key]: null, error }` (`value`: its type, never set). */
function listing<Value>(key: string, named: readonly string[]): { key: string; named: readonly string[]; value?: Value } {
  return { key, named };
}

/**
 * The loader of core's listing `name`. The session is read first (once per request, shared with
 * `useSession`): a signed-out visitor costs no listing, and after a change in this request (a session
 * ended, an account unlinked) the listing is of what is left. Never throws for an `AuthError`.
 */
export async function runListing<Name extends keyof typeof listings>(
  ev: RequestEventCommon,
  configQrl: FrameworkAuthConfigQrl,
  name: Name,
): Promise<NonNullable<(typeof listings)[Name]["value"]>> {
  type Value = NonNullable<(typeof listings)[Name]["value"]>;
  const { key, named } = listings[name];
  const context = await loadAuthContext(ev, configQrl);
  if (!(await readSession(ev, context))) return { [key]: null, error: "SessionRequired" } as Value;
  try {
    const { body } = await context.auth.api.run(operationRequest(ev), name);
    return { [key]: (body as Record<string, unknown>)[key] } as Value;
  } catch (error) {
    return { [key]: null, error: listingError(error, named) } as Value;
  }
}

/** Runs `call` and presents its outcome: the action's value (`undefined` after a redirect), or `ev.fail` with the failure. */
async function present<Value, Failure>(
  ev: RequestEventAction,
  context: AuthContext,
  { success, failure }: Pick<OperationAction<z.ZodTypeAny, Value, Failure>, "success" | "failure">,
  call: () => Promise<OperationResult>,
): Promise<Value | FailReturn<Failure> | undefined> {
  let result: OperationResult;
  try {
    result = await call();
    // Every redirecting operation answers one; anything else is authlib's own bug, said as such.
    if (success.kind === "redirect" && !result.redirect) throw new UnknownAction("The operation answered without a redirect.");
  } catch (error) {
    const failed = await failure(ev, context, error);
    return ev.fail(failed.status, failed.failure as Failure & Record<string, unknown>);
  }
  if (success.kind === "redirect" || success.cookies) appendCookies(ev, await loadCore(), result.cookies);
  if (success.session === "cookies") readSessionAfter(ev, context, result.cookies);
  else if (success.session) context.session = success.session === "reread" ? undefined : Promise.resolve(null);
  if (success.kind === "data") return result.body as Value;
  redirect(ev, result.redirect as string);
  return undefined;
}
