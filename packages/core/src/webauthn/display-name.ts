/**
 * The display name a person gives when registering a passkey while signed out. It becomes the new
 * user's `name` and the passkey's name on the authenticator. It is never an email address: a passkey
 * proves nothing about an address, so a name shaped like one would only let a stranger's account look
 * like the address owner's (and tempt the owner to think the address was attached). Nothing is looked
 * up: every rule depends on the text alone, so the answer is the same whoever holds which address.
 *
 * @module webauthn/display-name
 */
import { WebAuthnVerificationError } from "../errors.js";

/**
 * The longest display name, in characters. WebAuthn authenticators must keep at least 64 bytes of a
 * user's name and may cut longer ones; 64 characters is short enough to show anywhere.
 */
export const MAX_DISPLAY_NAME_LENGTH = 64;

/** Control characters and line or paragraph separators: a name is one line of plain text. */
const NOT_ONE_LINE = /[\p{Cc}\p{Zl}\p{Zp}]/u;

/**
 * The display name of `input`, trimmed and NFC-normalised. Throws `WebAuthnVerificationError` when it
 * is missing or blank, longer than {@link MAX_DISPLAY_NAME_LENGTH} characters, not one line of text, or
 * contains `@` (also its full-width and small look-alikes, which NFKC turns into `@`).
 */
export function passkeyDisplayName(input: unknown): string {
  const name = typeof input === "string" ? input.normalize("NFC").trim() : "";
  if (name === "") throw new WebAuthnVerificationError("A display name is needed to register a passkey.");
  if ([...name].length > MAX_DISPLAY_NAME_LENGTH) {
    throw new WebAuthnVerificationError(`A passkey's display name has at most ${MAX_DISPLAY_NAME_LENGTH} characters.`);
  }
  if (NOT_ONE_LINE.test(name)) throw new WebAuthnVerificationError("A passkey's display name is one line of text.");
  if (name.normalize("NFKC").includes("@")) {
    throw new WebAuthnVerificationError(
      "A passkey's display name cannot contain @: registering a passkey attaches no email address. Sign in with an email link and add the passkey while signed in.",
    );
  }
  return name;
}
