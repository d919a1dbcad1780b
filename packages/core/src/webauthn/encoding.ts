/**
 * Byte encodings of WebAuthn values. The browser speaks base64url; authenticators are stored with
 * standard base64 credential ids and public keys (as Auth.js stores them, so a database moves between
 * the two libraries unchanged).
 *
 * @module webauthn/encoding
 */
import type { AuthenticatorTransportFuture } from "@simplewebauthn/server";

const TRANSPORTS: ReadonlySet<string> = new Set<AuthenticatorTransportFuture>([
  "ble",
  "cable",
  "hybrid",
  "internal",
  "nfc",
  "smart-card",
  "usb",
]);

/** Decodes standard base64 or base64url (padded or not). Throws `TypeError` on anything else. */
export function base64ToBytes(value: string): Uint8Array<ArrayBuffer> {
  const standard = value.replace(/-/g, "+").replace(/_/g, "/");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(standard)) throw new TypeError("Not base64.");
  const unpadded = standard.replace(/=+$/, "");
  const binary = atob(unpadded + "=".repeat((4 - (unpadded.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Standard base64 with padding. */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** base64url without padding. */
export function bytesToBase64url(bytes: Uint8Array): string {
  return bytesToBase64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The stored form (standard base64) of a credential id the browser sent (base64url). */
export function storedCredentialId(browserId: string): string {
  return bytesToBase64(base64ToBytes(browserId));
}

/** The browser form (base64url) of a stored credential id. */
export function browserCredentialId(storedId: string): string {
  return bytesToBase64url(base64ToBytes(storedId));
}

/** Transports as stored (comma-separated), or `null` when none. Unknown names are dropped. */
export function joinTransports(transports: readonly string[] | undefined): string | null {
  const known = (transports ?? []).filter((t) => TRANSPORTS.has(t));
  return known.length > 0 ? known.join(",") : null;
}

/** Transports from their stored form. Unknown names are dropped. */
export function splitTransports(stored: string | null | undefined): AuthenticatorTransportFuture[] {
  if (!stored) return [];
  return stored.split(",").filter((t): t is AuthenticatorTransportFuture => TRANSPORTS.has(t));
}
