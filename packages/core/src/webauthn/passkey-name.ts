/**
 * A passkey's name: the one the user gives it (rename), and the one it gets at registration, after the
 * password manager or platform that holds it when its AAGUID says so ("iCloud Keychain"), else "Passkey"
 * and the day.
 *
 * @module passkeys/name
 */
import { InvalidName } from "../errors.js";
import type { AdapterAuthenticator } from "../types/adapters.js";
import type { ListedPasskey } from "../types/passkeys.js";

/** The longest passkey name, in characters (as a passkey's display name, webauthn/display-name.ts). */
export const MAX_PASSKEY_NAME_LENGTH = 64;

/** Control characters and line or paragraph separators: a name is one line of plain text. */
const NOT_ONE_LINE = /[\p{Cc}\p{Zl}\p{Zp}]/u;

/**
 * The name of `input`, trimmed and NFC-normalised. Throws `InvalidName` when it is missing or blank,
 * longer than {@link MAX_PASSKEY_NAME_LENGTH} characters, or not one line of text.
 */
export function passkeyName(input: unknown): string {
  const name = typeof input === "string" ? input.normalize("NFC").trim() : "";
  if (name === "") throw new InvalidName("Give the passkey a name.");
  if ([...name].length > MAX_PASSKEY_NAME_LENGTH) {
    throw new InvalidName(`A passkey's name has at most ${MAX_PASSKEY_NAME_LENGTH} characters.`);
  }
  if (NOT_ONE_LINE.test(name)) throw new InvalidName("A passkey's name is one line of text.");
  return name;
}

/**
 * Where common passkeys live, by the AAGUID their authenticator reports (a few well-known ones; the rest
 * are named by date). Authenticators that attest "none" may report all zeros: no entry.
 */
const KNOWN_AUTHENTICATORS: Readonly<Record<string, string>> = Object.freeze({
  "ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4": "Google Password Manager",
  "adce0002-35bc-c60a-648b-0b25f1f05503": "Chrome on Mac",
  "fbfc3007-154e-4ecc-8c0b-6e020557d7bd": "iCloud Keychain",
  "dd4ec289-e01d-41c9-bb89-70fa845d4bf2": "iCloud Keychain",
  "08987058-cadc-4b81-b6e1-30de50dcbe96": "Windows Hello",
  "9ddd1817-af5a-4672-a2b9-3e3dd95000a9": "Windows Hello",
  "6028b017-b1d4-4c02-b4b3-afcdafc96bb2": "Windows Hello",
  "bada5566-a7aa-401f-bd96-45619a55120d": "1Password",
  "d548826e-79b4-db40-a3d8-11116f7e8349": "Bitwarden",
  "531126d6-e717-415c-9320-3d9aa6981239": "Dashlane",
  "53414d53-554e-4700-0000-000000000000": "Samsung Pass",
  "fdb141b2-5d84-443e-8a35-4698c205a502": "KeePassXC",
});

/** The name a passkey registered at `now` by the authenticator `aaguid` gets: its maker's, else "Passkey" and the day (UTC). */
export function defaultPasskeyName(aaguid: string | undefined, now: Date): string {
  const key = aaguid?.toLowerCase();
  const known = key !== undefined && Object.hasOwn(KNOWN_AUTHENTICATORS, key) ? KNOWN_AUTHENTICATORS[key] : undefined;
  return known ?? `Passkey ${now.toISOString().slice(0, 10)}`;
}

/** A date an adapter gave (a `Date`, or text from one that stores it so), as ISO 8601, or `null`. */
function isoDate(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** An authenticator as the listing shows it: never its public key or counter. */
export function listedPasskey(authenticator: AdapterAuthenticator): ListedPasskey {
  const createdAt = isoDate(authenticator.createdAt);
  return {
    id: authenticator.credentialID,
    // A passkey stored without a name (before names, or by an adapter that keeps none) gets the default.
    name: authenticator.name || (createdAt ? defaultPasskeyName(undefined, new Date(createdAt)) : "Passkey"),
    createdAt,
    lastUsedAt: isoDate(authenticator.lastUsedAt),
    deviceType: authenticator.credentialDeviceType,
    backedUp: authenticator.credentialBackedUp,
  };
}
