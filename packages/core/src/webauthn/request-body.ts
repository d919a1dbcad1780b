/**
 * Reading the body the browser posts to the WebAuthn callback: `{ action, data }`, where `data` is the
 * credential response (the JSON of `startRegistration()`/`startAuthentication()`), as a JSON string or
 * as an object.
 *
 * @module webauthn/request-body
 */
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import { WebAuthnVerificationError } from "../errors.js";
import type { WebAuthnAction } from "./challenge.js";

/** A callback body, checked for shape only: the signature checks come later. */
export type CredentialPost =
  | { action: "register"; response: RegistrationResponseJSON }
  | { action: "authenticate" | "second-factor"; response: AuthenticationResponseJSON };

function isAction(value: unknown): value is WebAuthnAction {
  return value === "register" || value === "authenticate" || value === "second-factor";
}

/** The posted fields a passkey's answer is read from, as they came (their shape is checked here). */
export interface PostedFields {
  action?: unknown;
  data?: unknown;
}

/** The action and credential response of the posted fields. Throws `WebAuthnVerificationError` for anything malformed. */
export function readCredentialPost({ action, data }: PostedFields): CredentialPost {
  if (!isAction(action))
    throw new WebAuthnVerificationError('The WebAuthn callback needs `action` "register", "authenticate" or "second-factor".');
  let response: unknown = data;
  if (typeof data === "string") {
    try {
      response = JSON.parse(data);
    } catch (error) {
      throw new WebAuthnVerificationError("The WebAuthn response is not JSON.", { cause: error as Error });
    }
  }
  if (typeof response !== "object" || response === null) throw new WebAuthnVerificationError("The WebAuthn response is missing.");
  const fields = response as Record<string, unknown>;
  if (typeof fields.id !== "string" || fields.id === "" || typeof fields.response !== "object" || fields.response === null) {
    throw new WebAuthnVerificationError("The WebAuthn response has no credential id or no authenticator response.");
  }
  return action === "register"
    ? { action, response: response as RegistrationResponseJSON }
    : { action, response: response as AuthenticationResponseJSON };
}
