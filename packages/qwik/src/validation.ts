/**
 * Input validation of `useSignIn`, `useSignOut`, `useRevokeSession`, `useUnlinkAccount` and the password
 * actions (`useSignUp`, …), with the result shape of spec §4.1: on invalid input
 * `{ failed: true, formErrors: string[], fieldErrors: { <field>?: string[] } }`.
 *
 * Qwik City's `zod$` reports each field error as a single string under a dotted key
 * (`"options.redirectTo": "…"`); the spec wants arrays of messages under the top-level field names,
 * which is zod's own `flatten()`. Hence a `validator$` around the same zod schemas.
 */
import { type ValidatorReturn, z } from "@builder.io/qwik-city";
import type { AuthorizationParams } from "./sign-in.js";

/** What a failed action reports besides `failed: true` (spec §4.1, §7.4). */
export interface FormFailure<Field extends string, Code extends string = string> {
  formErrors: string[];
  fieldErrors: Partial<Record<Field, string[]>>;
  /**
   * Set when credentials were rejected (the `CredentialsSignin` code: safe to show; never says which field
   * was wrong), `"RateLimited"` for a refusal by a rate limit, or the error's type for a failed revocation.
   */
  code?: Code;
  /**
   * What the refusal says beyond its code, as core's JSON refusal does: an organization's sign-in policy
   * names the `missing` methods and the `stepUp` URL that satisfies it.
   */
  details?: Readonly<Record<string, unknown>>;
}

/** The failure of `useSignIn`. */
export type SignInFailure = FormFailure<"providerId" | "redirectTo" | "options" | "authorizationParams">;

/** The failure of `useSignOut`. */
export type SignOutFailure = FormFailure<"redirectTo">;

/** Input of `useSignIn` (spec §4.1). Form fields may use dot notation: `options.redirectTo`, `options.email`. */
export type SignInInput = {
  /** The provider to sign in with. Without it, the user is sent to the sign-in page. */
  providerId?: string;
  /** Where to go after signing in (same origin). `options.redirectTo` wins when both are given. */
  redirectTo?: string;
  /** Passed to the provider (`email`, the credentials' fields, …), with an optional `redirectTo`. */
  options?: { redirectTo?: string; [field: string]: unknown };
  /** Extra parameters of an OAuth/OIDC authorization request. */
  authorizationParams?: AuthorizationParams;
};

/** Input of `useSignOut` (spec §4.1). */
export type SignOutInput = {
  /** Where to go after signing out (same origin). Default: the current page. */
  redirectTo?: string;
};

/** Input of `useRevokeSession`: one session by its id, or every session but the current one. */
export type RevokeSessionInput = { sessionId: string; all?: undefined } | { all: "others"; sessionId?: undefined };

/** Validates the input of `useSignIn`. */
export const signInSchema = z.object({
  providerId: z.string().optional(),
  redirectTo: z.string().optional(),
  options: z.object({ redirectTo: z.string() }).passthrough().partial().optional(),
  authorizationParams: z.union([z.string(), z.instanceof(URLSearchParams), z.record(z.string())]).optional(),
}) satisfies InputSchema<SignInInput>;

/** Validates the input of `useSignOut`. */
export const signOutSchema = z.object({ redirectTo: z.string().optional() }) satisfies InputSchema<SignOutInput>;

/** Validates the input of `useRevokeSession`: `sessionId` or `all: "others"`, exactly one of them. */
export const revokeSessionSchema = z
  .object({ sessionId: z.string().optional(), all: z.literal("others").optional() })
  .refine(
    (input) => (input.sessionId === undefined) !== (input.all === undefined),
    'Give either the id of a session to end (`sessionId`) or `all: "others"`.',
  )
  // The refinement leaves one of the two: the type says so.
  .transform((input): RevokeSessionInput => (input.all === "others" ? { all: "others" } : { sessionId: input.sessionId ?? "" }));

/**
 * Input of `useUnlinkAccount`: the account to unlink, as `useAccounts` lists it. Core's `UnlinkAccountInput`
 * in a type alias, which Qwik's `Action` takes as form data (an interface has no index signature).
 */
export type UnlinkAccountInput = { provider: string; providerAccountId: string };

/** Longest `provider` / `providerAccountId` sent on to core (core's own bound: longer is junk). */
const MAX_ACCOUNT_ID_LENGTH = 512;
const accountId = z.string().min(1).max(MAX_ACCOUNT_ID_LENGTH);

/** Validates the input of `useUnlinkAccount`: `provider` and `providerAccountId`, non-empty bounded strings. */
export const unlinkAccountSchema = z.object({
  provider: accountId,
  providerAccountId: accountId,
}) satisfies InputSchema<UnlinkAccountInput>;

/** Input of `useRenamePasskey`: the passkey's `id`, as `usePasskeys` lists it, and its new `name`. */
export type RenamePasskeyInput = { id: string; name: string };

/** Input of `useRemovePasskey`: the passkey's `id`, and the `currentPassword` when the sign-in is not recent. */
export type RemovePasskeyInput = { id: string; currentPassword?: string };

/** Longest passkey id sent on to core (a credential id is at most 1023 bytes, 1364 in base64: core's own bound). */
const passkeyId = z.string().min(1).max(1400);

/** Validates the input of `useRenamePasskey` (core checks the name: one line, at most 64 characters). */
export const renamePasskeySchema = z.object({ id: passkeyId, name: z.string().max(256) }) satisfies InputSchema<RenamePasskeyInput>;

/** Validates the input of `useRemovePasskey`. */
export const removePasskeySchema = z.object({
  id: passkeyId,
  currentPassword: z.string().max(4096).optional(),
}) satisfies InputSchema<RemovePasskeyInput>;

// The password actions' bounds are against junk only, above core's own rules, which answer with typed
// errors the form can show (a password is at most 1024 characters in any configuration, a name 64, a
// link's token 8192). Empty strings go on to core, which names what is missing (`InvalidPassword`, rule
// "missing"). `redirectTo` is same-origin only (core's `redirect` callback decides).
const email = z.string().max(320);
const password = z.string().max(4096);
const redirectTo = z.string().max(4096).optional();
const name = z.string().max(256).optional();
const token = z.string().max(8192);
const currentPassword = password;

/**
 * Input of `useSignUp`: `email`, `password`, an optional `name` (one line, at most 64 characters) and
 * `redirectTo`, where the verification link signs the user in to (default: the app's root).
 */
export type SignUpInput = { email: string; password: string; name?: string; redirectTo?: string };

/** Input of `useRequestPasswordReset`: `email`, and `redirectTo`, where the reset link signs the user in to (default: the app's root). */
export type RequestPasswordResetInput = { email: string; redirectTo?: string };

/** Input of `useResetPassword`: the reset link's `token` (its `?token=`) and the new `password`. */
export type ResetPasswordInput = { token: string; password: string };

/** Input of `useChangePassword`: `currentPassword`, the new `password`, and `redirectTo` (default: the current page). */
export type ChangePasswordInput = { currentPassword: string; password: string; redirectTo?: string };

/** Input of `useEmailCode`: the mailed `code`, and `redirectTo` (default: where the sign-in mail was asked to lead). */
export type EmailCodeInput = { code: string; redirectTo?: string };

/** A schema whose input is `T`. */
type InputSchema<T> = z.ZodType<unknown, z.ZodTypeDef, T>;

/** Validates the input of `useSignUp`. */
export const signUpSchema = z.object({ email, password, name, redirectTo }) satisfies InputSchema<SignUpInput>;

/** Validates the input of `useRequestPasswordReset`. */
export const requestPasswordResetSchema = z.object({ email, redirectTo }) satisfies InputSchema<RequestPasswordResetInput>;

/** Validates the input of `useResetPassword`. */
export const resetPasswordSchema = z.object({ token, password }) satisfies InputSchema<ResetPasswordInput>;

/** Validates the input of `useEmailCode`. */
export const emailCodeSchema = z.object({ code: z.string().max(32), redirectTo }) satisfies InputSchema<EmailCodeInput>;

/** Validates the input of `useChangePassword`. */
export const changePasswordSchema = z.object({ currentPassword, password, redirectTo }) satisfies InputSchema<ChangePasswordInput>;

/**
 * The value of `useSignIn` / `useSignOut` (spec §4.1): all fields undefined after a successful
 * submission (which redirects), or `failed: true` with the errors.
 */
export type FormResult<Failure> = ({ failed: true } & Failure) | { [K in keyof Failure | "failed"]?: undefined };

/**
 * Validates `data` against an action's schema: the parsed data, or a 400 with the spec's error shape (an
 * error is reported under the top-level field it is in, such as `options` for one in `options.redirectTo`).
 */
export function validateInput<Schema extends z.ZodTypeAny>(
  schema: Schema,
  data: unknown,
): ValidatorReturn<FormFailure<keyof z.input<Schema> & string, never>> {
  const result = schema.safeParse(data);
  if (result.success) return { success: true, data: result.data };
  const { formErrors, fieldErrors } = result.error.flatten();
  return {
    success: false,
    status: 400,
    error: { formErrors, fieldErrors: fieldErrors as Partial<Record<keyof z.input<Schema> & string, string[]>> },
  };
}

/** Input of `useTwoFactor`, `useConfirmTotp` and `useDisableTotp`: a code of the authenticator app, or a recovery code. */
export type TwoFactorCodeInput = { code: string };

/** Validates a second-factor code. */
export const twoFactorCodeSchema = z.object({ code: z.string().min(1).max(64) }) satisfies InputSchema<TwoFactorCodeInput>;
