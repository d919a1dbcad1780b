/**
 * Impersonation's input schema and failure type for the Qwik hooks (`impersonation-hooks.ts`).
 *
 * @module impersonation
 */
import { z } from "@builder.io/qwik-city";
import type { FormFailure } from "./validation.js";

/** `useImpersonateUser`'s field: the user to act as. */
export const impersonateSchema = z.object({ userId: z.string().min(1).max(256) });

/** Why an impersonation action failed: its `code` is core's error type. */
export type ImpersonationFailure = FormFailure<
  "userId",
  "ImpersonationForbidden" | "AccessDenied" | "SessionRequired" | "MissingCSRF" | "Configuration"
>;

/** What an impersonation action answers: its data, or the failure. */
export type ImpersonationResult<Value> = Value | ({ failed: true } & ImpersonationFailure);
