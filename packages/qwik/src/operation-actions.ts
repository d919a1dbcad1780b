/**
 * The actions that run one core operation for the action's request, as ONE table keyed by the
 * operation's name in core (its `OperationDeclaration.name`, which `auth.api.run` reaches): the input
 * schema (validated before core: a 400 under `fieldErrors`), the operation's input made from it, what a
 * success answers and how a failure is mapped to the form (`run-operation.ts`). Adding a core operation to
 * Qwik is one entry here and one `globalAction$` line in `framework-auth.ts` (the Qwik optimizer must see
 * each `globalAction$` call where it is written: a hook cannot be made in a loop over this table).
 */
import type { ListedPasskey, TotpEnrollment } from "@authlib/core";
import { type FailReturn, type RequestEventAction, type ValidatorReturn, z } from "@builder.io/qwik-city";
import type { UnlinkAccountError } from "./accounts.js";
import { type FrameworkAuthConfigQrl, loadAuthContext } from "./context.js";
import { controlFailure } from "./control.js";
import { PASSKEY_FAILED_MESSAGE, REVOKE_FAILED_MESSAGE, UNLINK_FAILED_MESSAGE } from "./messages.js";
import { operationRequest } from "./operation.js";
import type { PasskeyError } from "./passkeys.js";
import { passwordFailure } from "./password.js";
import { data, type FailureMapping, type Presentation, presentOperation, redirects, type Success } from "./run-operation.js";
import type { RevokeSessionError } from "./session-control.js";
import { currentPage } from "./sign-in.js";
import { settingsFailure } from "./two-factor.js";
import {
  changePasswordSchema,
  type FormFailure,
  removePasskeySchema,
  renamePasskeySchema,
  requestPasswordResetSchema,
  resetPasswordSchema,
  revokeSessionFields,
  revokeSessionSchema,
  signUpSchema,
  twoFactorCodeSchema,
  unlinkAccountFields,
  unlinkAccountSchema,
  validateInput,
} from "./validation.js";

/** One action of the table: its input and how its operation's outcome is presented. */
export interface OperationAction<Schema extends z.ZodTypeAny, Field extends string, Value, Failure extends FormFailure<string>>
  extends Presentation<Value, Failure> {
  /** The action's input, checked by its `validator$` before core runs. */
  readonly input: Schema;
  /** The top-level fields of `input`, where a field's error is reported. */
  readonly fields: readonly Field[];
  /** The operation's input (its form) from the action's (default: the action's as it is). */
  body?(input: z.output<Schema>, ev: RequestEventAction): Record<string, unknown>;
}

/** An entry, its types inferred. */
function action<Schema extends z.ZodTypeAny, Field extends string, Value, Failure extends FormFailure<string>>(
  entry: OperationAction<Schema, Field, Value, Failure>,
): OperationAction<Schema, Field, Value, Failure> {
  return entry;
}

/** A password form's input as core's form: `redirectTo` is its `callbackUrl` (default: the app's root). */
function asForm({ redirectTo, ...fields }: { redirectTo?: string; [field: string]: unknown }): Record<string, unknown> {
  return { ...fields, callbackUrl: redirectTo ?? "/" };
}

/** The top-level fields of an object schema. */
function fieldsOf<Shape extends z.ZodRawShape>(schema: z.ZodObject<Shape>) {
  return schema.keyof().options;
}

const noInput = z.object({});
const passkeyFailure = controlFailure<"id" | "name", PasskeyError>(PASSKEY_FAILED_MESSAGE);

/** The table: core's operation name -> the Qwik action that runs it. */
export const operationActions = {
  revokeSession: action({
    input: revokeSessionSchema,
    fields: revokeSessionFields,
    // Ending this browser's own session clears its cookie: later reads in this request read it again.
    success: data<{ revoked: number }>({ cookies: true, session: "reread" }),
    failure: controlFailure<"sessionId" | "all", RevokeSessionError>(REVOKE_FAILED_MESSAGE),
  }),
  unlinkAccount: action({
    input: unlinkAccountSchema,
    fields: unlinkAccountFields,
    success: data<{ unlinked: number }>(),
    failure: controlFailure<"provider" | "providerAccountId", UnlinkAccountError>(UNLINK_FAILED_MESSAGE),
  }),
  renamePasskey: action({
    input: renamePasskeySchema,
    fields: fieldsOf(renamePasskeySchema),
    success: data<{ passkey: ListedPasskey }>(),
    failure: passkeyFailure,
  }),
  removePasskey: action({
    input: removePasskeySchema,
    fields: fieldsOf(removePasskeySchema),
    success: data<{ removed: number }>(),
    failure: passkeyFailure,
  }),
  signUp: action({ input: signUpSchema, fields: fieldsOf(signUpSchema), body: asForm, success: redirects(), failure: passwordFailure }),
  requestPasswordReset: action({
    input: requestPasswordResetSchema,
    fields: fieldsOf(requestPasswordResetSchema),
    body: asForm,
    success: redirects(),
    failure: passwordFailure,
  }),
  // The operations below renew or replace this browser's session: later reads in this request find none.
  resetPassword: action({
    input: resetPasswordSchema,
    fields: fieldsOf(resetPasswordSchema),
    body: asForm,
    success: redirects({ session: "replaced" }),
    failure: passwordFailure,
  }),
  changePassword: action({
    input: changePasswordSchema,
    fields: fieldsOf(changePasswordSchema),
    body: (input, ev) => asForm({ ...input, redirectTo: input.redirectTo ?? currentPage(ev) }),
    success: redirects({ session: "replaced" }),
    failure: passwordFailure,
  }),
  verifyTwoFactor: action({
    input: twoFactorCodeSchema,
    fields: fieldsOf(twoFactorCodeSchema),
    success: redirects({ session: "replaced" }),
    failure: passwordFailure,
  }),
  enrollTotp: action({ input: noInput, fields: [], success: data<TotpEnrollment>(), failure: settingsFailure }),
  confirmTotp: action({
    input: twoFactorCodeSchema,
    fields: ["code"],
    success: data<{ recoveryCodes: string[] }>(),
    failure: settingsFailure,
  }),
  disableTotp: action({ input: twoFactorCodeSchema, fields: ["code"], success: data<{ disabled: true }>(), failure: settingsFailure }),
};

/** The name of a core operation that has a Qwik action. */
export type OperationName = keyof typeof operationActions;

type Entry<Name extends OperationName> = (typeof operationActions)[Name];
type ValueOf<Name extends OperationName> = Entry<Name>["success"] extends Success<infer Value> ? Value : never;
type FailureOf<Name extends OperationName> =
  Entry<Name>["failure"] extends FailureMapping<infer Failure extends FormFailure<string>> ? Failure : never;
type FieldOf<Name extends OperationName> = Entry<Name>["fields"][number];

/** The table's entries as the runner reads them (each entry's own types are in `operationActions`). */
const entries: Record<OperationName, OperationAction<z.ZodTypeAny, string, unknown, FormFailure<string>>> = operationActions;

/**
 * The action of core's operation `name`: runs it through `auth.api.run` for the action's request with the
 * action's input (`form`, validated already) and presents the outcome as the table says.
 */
export async function runOperation<Name extends OperationName>(
  ev: RequestEventAction,
  configQrl: FrameworkAuthConfigQrl,
  name: Name,
  form: unknown,
): Promise<ValueOf<Name> | FailReturn<FailureOf<Name>>> {
  const entry = entries[name];
  const input = entry.input.parse(form);
  const context = await loadAuthContext(ev, configQrl);
  const body = entry.body?.(input, ev) ?? input;
  const outcome = presentOperation(ev, context, entry, () => context.auth.api.run(operationRequest(ev), name, body));
  // The entry's types, which `entries` forgot: its value (`undefined` for a redirect) or its failure.
  return outcome as Promise<ValueOf<Name> | FailReturn<FailureOf<Name>>>;
}

/** The `validator$` of the action of `name`: its input, or a 400 with `fieldErrors` (spec §4.1). */
export function validateOperation<Name extends OperationName>(
  name: Name,
  input: unknown,
): ValidatorReturn<FormFailure<FieldOf<Name>, never>> {
  const entry = entries[name];
  return validateInput(entry.input, entry.fields as readonly FieldOf<Name>[], input);
}
